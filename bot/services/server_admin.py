"""Server-wide administration (issue 9 §8): who may start encounters, the cap on live
encounters per member, the server's live encounters, and ending one in any channel.

Who may do what: every ``/server`` command is for server GMs (Manage Server, Manage Channels
or the server's GM role — :func:`bot.services.permissions.is_server_gm`); *changing* the
settings needs Manage Server, like choosing the GM role (``/gm seat role``), since they decide who
may be a GM at all. The settings themselves are enforced by
:mod:`bot.services.start_policy` inside ``EncounterService.start``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from bot.errors import InvalidInput, NotAllowed, NotFound
from bot.services.actor import Actor
from bot.services.encounter import UnreadEncounter
from bot.services.encounters import Encounter, EncounterService
from bot.services.permissions import is_server_gm
from bot.services.start_policy import server_gms_text
from bot.store import guild_encounters, guild_settings
from bot.store.base import Store, StoreConnection
from bot.store.guild_encounters import LiveEncounter
from bot.store.guild_settings import StartPolicy, StartSettings

log = logging.getLogger(__name__)

MAX_CAP = 100
CHANGE_NEEDS_MANAGE_SERVER = (
    "Only a member with Manage Server can change who may start encounters and the cap "
    "(server GMs can see them with `/server settings`)."
)


class ServerAdminService:
    """The use cases behind ``/server`` (see the module docstring)."""

    def __init__(
        self, db: Store, encounters: EncounterService, *, clock: Callable[[], datetime]
    ) -> None:
        self._db = db
        self._encounters = encounters
        self._clock = clock

    @staticmethod
    async def _require_server_gm(conn: StoreConnection, guild_id: int, actor: Actor) -> None:
        if not await is_server_gm(conn, guild_id, actor):
            role = await guild_settings.gm_role(conn, guild_id)
            raise NotAllowed(f"Only server GMs ({server_gms_text(role)}) can use `/server`.")

    async def require_server_gm(self, guild_id: int, actor: Actor) -> None:
        """Raise :class:`NotAllowed` unless ``actor`` is a server GM."""
        async with self._db.read() as conn:
            await self._require_server_gm(conn, guild_id, actor)

    async def settings(self, guild_id: int, actor: Actor) -> StartSettings:
        """The server's start settings. Server GMs only."""
        async with self._db.read() as conn:
            await self._require_server_gm(conn, guild_id, actor)
            return await guild_settings.start_settings(conn, guild_id)

    async def change_settings(
        self,
        guild_id: int,
        actor: Actor,
        *,
        who_can_start: StartPolicy | None = None,
        starter_role_id: int | None = None,
        clear_starter_role: bool = False,
        max_live_encounters: int | None = None,
    ) -> StartSettings:
        """Change the options given (``None`` keeps one as it is); returns the settings now.
        Manage Server only. Raises :class:`InvalidInput` for the @everyone role (its id is the
        server's) as the starter role, a role both set and cleared, or a cap outside
        0-:data:`MAX_CAP` (0: no cap)."""
        if not actor.manages_guild:
            raise NotAllowed(CHANGE_NEEDS_MANAGE_SERVER)
        if starter_role_id is not None and clear_starter_role:
            raise InvalidInput("Give `starter_role` or `clear_starter_role`, not both.")
        if starter_role_id == guild_id:
            raise InvalidInput(
                "@everyone cannot be the starter role; to let everyone start encounters, "
                "choose `who_can_start: Everyone`."
            )
        if max_live_encounters is not None and not 0 <= max_live_encounters <= MAX_CAP:
            raise InvalidInput(f"`max_encounters` is 0 (no cap) to {MAX_CAP}.")
        async with self._db.transaction() as conn:
            current = await guild_settings.start_settings(conn, guild_id)
            changes: dict[str, object] = {}
            if who_can_start is not None:
                changes["who_can_start"] = who_can_start
            if starter_role_id is not None or clear_starter_role:
                changes["starter_role_id"] = starter_role_id
            if max_live_encounters is not None:
                changes["max_live_encounters"] = max_live_encounters
            updated = current.model_copy(update=changes)
            await guild_settings.set_start_settings(conn, guild_id, updated, self._clock())
        log.info("guild %s start settings %s by %s", guild_id, changes, actor.user_id)
        return updated

    async def live_encounters(self, guild_id: int, actor: Actor) -> list[LiveEncounter]:
        """The server's live encounters, oldest first. Server GMs only."""
        async with self._db.read() as conn:
            await self._require_server_gm(conn, guild_id, actor)
            return await guild_encounters.live_in_guild(conn, guild_id)

    async def open_end(
        self, guild_id: int, actor: Actor, channel_id: int
    ) -> tuple[Encounter | UnreadEncounter, int]:
        """Ask before ending the live encounter of ``channel_id`` (any channel of the server):
        an ``encounter.end`` prompt answered like ``/encounter end``'s
        (:meth:`EncounterService.confirm_end`). Server GMs only; :class:`NotFound` when that
        channel has no live encounter."""
        await self.require_server_gm(guild_id, actor)
        try:  # the row alone: a fight this bot cannot read (a newer bot's) can be ended too
            row = await self._encounters.live_row(channel_id)
        except NotFound:
            raise NotFound(f"There is no live encounter in <#{channel_id}>.") from None
        if row.guild_id != guild_id:
            raise NotFound(f"There is no live encounter in <#{channel_id}>.")
        return await self._encounters.open_end(channel_id, actor)
