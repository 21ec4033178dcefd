"""Deleting a sheet, asked first (Confirm / Cancel), checked at the moment of the click; its
campaign record goes with it. A part of :class:`bot.services.sheets.SheetService` (its base),
kept apart so each module stays small."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from bot.errors import NotAllowed, NotFound
from bot.services import prompts
from bot.services.actor import Actor
from bot.services.permissions import is_server_gm
from bot.services.sheet import Sheet
from bot.services.sheet_examples import quoted as _shown
from bot.store import campaign as campaign_repo
from bot.store import prompts as prompt_repo
from bot.store import sheets as repo
from bot.store.base import Store
from bot.store.base import StoreConnection as Connection
from bot.store.sheets import SheetKind, SheetRow

log = logging.getLogger(__name__)

GM_ONLY = (
    "Only a GM of this server (Manage Server, Manage Channels or the server's GM role) can "
    "manage NPC templates. As an encounter's GM you can still add the templates a server GM "
    "has imported with `/gm add-npc template:`, or a one-off NPC with `/gm add-npc name:` "
    "(UTTAS: with `health:` and `stamina:`; Utopia: `stamina:` only; Untitled and Uune have "
    "none)."
)


class SheetDeletion:
    """The delete methods of :class:`~bot.services.sheets.SheetService` (which supplies the
    database, the clock and ``get_own``)."""

    _db: Store
    _clock: Callable[[], datetime]

    if TYPE_CHECKING:

        async def get_own(
            self,
            guild_id: int,
            actor: Actor,
            kind: SheetKind,
            name: str,
            ruleset: str | None = None,
        ) -> Sheet: ...

    async def delete(self, guild_id: int, actor: Actor, sheet_id: int) -> SheetRow:
        """Delete a sheet, checking at this moment that ``actor`` may (a button can be clicked by
        anyone who sees it). Raises :class:`NotFound` or :class:`NotAllowed`."""
        async with self._db.transaction() as conn:
            row = await _changeable(conn, guild_id, actor, sheet_id)
            await repo.delete(conn, sheet_id)
            await campaign_repo.delete(conn, sheet_id)  # its campaign record goes with it
        log.info("%s %s deleted by %s", row.kind, row.id, actor.user_id)
        return row

    async def open_delete(
        self, guild_id: int, channel_id: int | None, actor: Actor, kind: SheetKind, name: str
    ) -> tuple[Sheet, int]:
        """Ask before deleting ``actor``'s sheet called ``name``: records an open prompt and
        returns the sheet and the prompt's id (its buttons carry it)."""
        sheet = await self.get_own(guild_id, actor, kind, name)
        async with self._db.transaction() as conn:
            prompt_id = await prompt_repo.open_prompt(
                conn,
                kind="sheet.delete",
                target_id=sheet.id,
                guild_id=guild_id,
                channel_id=channel_id,
                opened_by=actor.user_id,
                now=self._clock(),
            )
        return sheet, prompt_id

    async def confirm_delete(self, guild_id: int, actor: Actor, prompt_id: int) -> SheetRow:
        """Confirm a delete prompt: answer it and delete its sheet in one transaction, checking
        at this moment that ``actor`` may. A refused delete leaves the prompt open; a prompt
        already answered (Cancel, or another Confirm) deletes nothing (:class:`Conflict`)."""
        async with self._db.transaction() as conn:
            prompt = await prompts.require_prompt(conn, prompt_id, "sheet.delete", guild_id)
            prompts.require_open(prompt)
            row = await _changeable(conn, guild_id, actor, prompt.target_id)
            await prompts.settle(conn, prompt, "confirmed", self._clock())
            await repo.delete(conn, row.id)
            await campaign_repo.delete(conn, row.id)  # its campaign record goes with it
        log.info("%s %s deleted by %s", row.kind, row.id, actor.user_id)
        return row

    async def cancel_delete(self, guild_id: int, actor: Actor, prompt_id: int) -> SheetRow:
        """Cancel a delete prompt (only a member who may change the sheet): after this its
        Confirm deletes nothing. Returns the sheet, which stays."""
        async with self._db.transaction() as conn:
            prompt = await prompts.require_prompt(conn, prompt_id, "sheet.delete", guild_id)
            prompts.require_open(prompt)
            row = await _changeable(conn, guild_id, actor, prompt.target_id)
            await prompts.settle(conn, prompt, "cancelled", self._clock())
        return row


async def _changeable(conn: Connection, guild_id: int, actor: Actor, sheet_id: int) -> SheetRow:
    """The sheet ``sheet_id`` of ``guild_id`` if ``actor`` may change it; else NotFound or
    NotAllowed."""
    row = await repo.by_id(conn, sheet_id)
    if row is None or row.guild_id != guild_id:
        raise NotFound("That sheet no longer exists.")
    if row.kind == "npc":
        if not await is_server_gm(conn, guild_id, actor):
            raise NotAllowed(GM_ONLY)
    elif row.owner_id != actor.user_id:
        raise NotAllowed(
            f"**{_shown(row.name)}** is <@{row.owner_id}>'s character; only they can change it."
        )
    return row
