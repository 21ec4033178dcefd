"""Who may start an encounter in a server, and how many live encounters one member may run
(issue 9 §8: a bystander started encounters in ten channels and blocked them all).

:func:`ensure_may_start` runs inside :meth:`EncounterService.start`'s transaction, before the
insert; :func:`ensure_may_take_over` runs inside ``/gm seat transfer``'s transaction, before the GM
seat moves (:meth:`ModerationService.transfer`). Writers are serialised by the database, so two
quick starts or hand-overs cannot both pass the cap. Both apply the same rules: the GM seat of a
live encounter is what the policy and the cap limit, however a member comes to hold it. The
settings are per server (``guild_settings``, changed with ``/server settings``):

* ``who_can_start``: ``everyone`` (the default) or ``gms`` — server GMs (Manage Server, Manage
  Channels or the server's GM role) and, when one is set, members with the starter role;
* ``max_live_encounters`` (default 3): live encounters one member may hold the GM seat of at
  once; 0 means no cap. Server GMs are exempt from both: they may end any encounter anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.errors import NotAllowed
from bot.services.permissions import is_server_gm
from bot.store import guild_encounters, guild_settings
from bot.store.base import StoreConnection
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


def handover_only_gms_message(settings: StartSettings, recipient_id: int) -> str:
    """The refusal of ``/gm seat transfer`` to a member the start policy would not let start one."""
    starter = (
        f" and members with <@&{settings.starter_role_id}>"
        if settings.starter_role_id is not None
        else ""
    )
    return (
        f"<@{recipient_id}> cannot take over this encounter: on this server only server GMs "
        f"({server_gms_text(settings.gm_role_id)}){starter} may run encounters. Hand it to "
        "one of them, or give them that role first."
    )


def handover_cap_message(settings: StartSettings, recipient_id: int, channel_ids: list[int]) -> str:
    """The refusal of ``/gm seat transfer`` to a member who already runs as many live encounters as
    the cap allows."""
    count = len(channel_ids)
    noun = "encounter" if count == 1 else "encounters"
    return (
        f"<@{recipient_id}> already runs {count} live {noun} ({channel_list(channel_ids)}), "
        f"the most one member may run on this server ({settings.max_live_encounters}; set with "
        "`/server settings`). They can end one with `/encounter end` first, or hand this one "
        "to someone else."
    )


async def ensure_may_start(conn: StoreConnection, guild_id: int, actor: Actor) -> None:
    """Raise :class:`NotAllowed` unless ``actor`` may start one more encounter in
    ``guild_id`` now (see the module docstring). Call it inside the starting transaction."""
    await _ensure_may_run(
        conn,
        guild_id,
        actor,
        policy=only_gms_message,
        cap=lambda settings, channels: cap_message(channels),
    )


async def ensure_may_take_over(conn: StoreConnection, guild_id: int, recipient: Actor) -> None:
    """Raise :class:`NotAllowed` unless ``recipient`` may be handed the GM seat of one more live
    encounter in ``guild_id`` now: the same policy and cap as :func:`ensure_may_start`, with
    refusals that name the recipient. Call it inside the hand-over's transaction."""
    await _ensure_may_run(
        conn,
        guild_id,
        recipient,
        policy=lambda settings: handover_only_gms_message(settings, recipient.user_id),
        cap=lambda settings, channels: handover_cap_message(settings, recipient.user_id, channels),
    )


async def _ensure_may_run(
    conn: StoreConnection,
    guild_id: int,
    actor: Actor,
    *,
    policy: Callable[[StartSettings], str],
    cap: Callable[[StartSettings, list[int]], str],
) -> None:
    """Server GMs are exempt; anyone else needs the start policy's leave and a place under the
    cap. ``policy`` and ``cap`` word the refusal (:class:`NotAllowed`)."""
    if await is_server_gm(conn, guild_id, actor):
        return
    settings = await guild_settings.start_settings(conn, guild_id)
    if settings.who_can_start == "gms" and settings.starter_role_id not in actor.role_ids:
        raise NotAllowed(policy(settings))
    if settings.max_live_encounters:
        running = await guild_encounters.live_run_by(conn, guild_id, actor.user_id)
        if len(running) >= settings.max_live_encounters:
            raise NotAllowed(cap(settings, [e.channel_id for e in running]))
