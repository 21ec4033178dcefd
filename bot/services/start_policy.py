"""Who may start an encounter in a server, and how many live encounters one member may run
(issue 9 §8: a bystander started encounters in ten channels and blocked them all).

:func:`ensure_may_start` runs inside :meth:`EncounterService.start`'s transaction, before the
insert: writers are serialised by the database, so two quick starts by one member cannot both
pass the cap. The settings are per server (``guild_settings``, changed with ``/server
settings``):

* ``who_can_start``: ``everyone`` (the default) or ``gms`` — server GMs (Manage Server, Manage
  Channels or the server's GM role) and, when one is set, members with the starter role;
* ``max_live_encounters`` (default 3): live encounters one member may hold the GM seat of at
  once; 0 means no cap. Server GMs are exempt from both: they may end any encounter anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import NotAllowed
from bot.services.permissions import is_server_gm
from bot.store import guild_encounters, guild_settings
from bot.store.db import Connection
from bot.store.guild_settings import StartSettings

if TYPE_CHECKING:
    from bot.services.actor import Actor

CHANNELS_SHOWN = 10


def server_gms_text(gm_role_id: int | None) -> str:
    """Who the server GMs are, for a refusal: "Manage Server, Manage Channels or <@&role>"."""
    role = f"<@&{gm_role_id}>" if gm_role_id is not None else "the server's GM role"
    return f"Manage Server, Manage Channels or {role}"


def channel_list(channel_ids: list[int], shown: int = CHANNELS_SHOWN) -> str:
    """``<#a>, <#b>, <#c>`` — the first ``shown`` channels and "… and N more" after them."""
    text = ", ".join(f"<#{c}>" for c in channel_ids[:shown])
    if len(channel_ids) > shown:
        text += f" … and {len(channel_ids) - shown} more"
    return text


def only_gms_message(settings: StartSettings) -> str:
    """The refusal when the server lets only GMs (and its starter role) start encounters."""
    starter = (
        f" and members with <@&{settings.starter_role_id}>"
        if settings.starter_role_id is not None
        else ""
    )
    return (
        f"Only server GMs ({server_gms_text(settings.gm_role_id)}){starter} may start "
        "encounters on this server. Ask one of them to start it here."
    )


def cap_message(channel_ids: list[int]) -> str:
    """The refusal when a member already runs as many live encounters as the cap allows."""
    count = len(channel_ids)
    noun = "encounter" if count == 1 else "encounters"
    return (
        f"You already run {count} live {noun} ({channel_list(channel_ids)}); end one with "
        "`/encounter end` first (the cap is set with `/server settings`)."
    )


async def ensure_may_start(conn: Connection, guild_id: int, actor: Actor) -> None:
    """Raise :class:`NotAllowed` unless ``actor`` may start one more encounter in
    ``guild_id`` now (see the module docstring). Call it inside the starting transaction."""
    if await is_server_gm(conn, guild_id, actor):
        return
    settings = await guild_settings.start_settings(conn, guild_id)
    if settings.who_can_start == "gms" and settings.starter_role_id not in actor.role_ids:
        raise NotAllowed(only_gms_message(settings))
    if settings.max_live_encounters:
        running = await guild_encounters.live_run_by(conn, guild_id, actor.user_id)
        if len(running) >= settings.max_live_encounters:
            raise NotAllowed(cap_message([e.channel_id for e in running]))
