"""After a combat command commits: reply, post or retire reaction prompts, refresh the tracker.

Shared by slash commands, reaction buttons and the reaction-window expiry loop, so each shows
the same thing the same way. Everything here runs after the commit; it only presents.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

import discord

from bot.engine.audience import GM
from bot.errors import NotFound
from bot.services.combat import CombatResult
from bot.services.encounters import EncounterService
from bot.ui.combat import (
    decision_prompt,
    gm_sees_more,
    pinged,
    result_embed,
    turn_announcement,
)
from bot.ui.encounter_end import actor_of
from bot.ui.prompt_messages import retire_prompt
from bot.ui.reaction_buttons import decision_view
from bot.ui.text import shown_name
from bot.ui.tracker import tracker_embed

log = logging.getLogger(__name__)


_tracker_locks: dict[int, asyncio.Lock] = {}


def _mentions(result: CombatResult, *, new_decision: bool) -> discord.AllowedMentions:
    """Ping exactly the members the content is for, never a name that looks like a mention."""
    users = [discord.Object(id=uid) for uid in pinged(result, new_decision=new_decision)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


async def _after_commit(what: str, step: Awaitable[None]) -> None:
    """Presentation after a commit (tracker, prompt bookkeeping, GM details) must never turn a
    stored change into an error reply: a failure here is logged and the rest goes on."""
    try:
        await step
    except Exception:
        log.exception("after a committed change, %s failed", what)


def _content(result: CombatResult, *, new_decision: bool) -> str:
    parts = []
    announcement = turn_announcement(result)
    if announcement:
        parts.append(announcement)
    if result.decision is not None and new_decision:
        parts.append(decision_prompt(result.decision, result.encounter.row.gm_id))
    return "\n".join(parts)[:2000]


def _is_new_decision(result: CombatResult) -> bool:
    decision = result.decision
    return decision is not None and decision.pending_version == result.encounter.version


def _view(result: CombatResult) -> discord.ui.View | None:
    if result.decision is None:
        return None
    return decision_view(result.encounter.id, result.decision)


def _service(client: Any) -> EncounterService:
    service: EncounterService = client.services.encounters
    return service


async def respond(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """Answer a slash command with the result (and reaction buttons if a decision now waits)."""
    new_decision = _is_new_decision(result)
    view = _view(result) if new_decision else None
    callback = await interaction.response.send_message(
        _content(result, new_decision=new_decision),
        embed=result_embed(result),
        view=view or discord.utils.MISSING,
        allowed_mentions=_mentions(result, new_decision=new_decision),
    )
    if new_decision and result.decision is not None and callback.message_id is not None:
        await _after_commit(
            "noting the prompt",
            _service(interaction.client).set_prompt_message(
                result.encounter.id, result.decision.pending_version, callback.message_id
            ),
        )
    await _after_commit("the GM's details", _gm_details(interaction, result))
    await _retire_prompt(interaction.client, result, f"settled by `/{_command_name(interaction)}`")
    await refresh_tracker(interaction.client, result.encounter.row.channel_id)


def _command_name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "a command"


async def after_decision(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """Answer a reaction button: the prompt message becomes the result (with the next
    decision's buttons if one follows, e.g. the next hit of a flurry)."""
    new_decision = _is_new_decision(result)
    await interaction.response.edit_message(
        content=_content(result, new_decision=new_decision),
        embed=result_embed(result),
        view=_view(result) if new_decision else None,
        allowed_mentions=_mentions(result, new_decision=new_decision),
    )
    if new_decision and result.decision is not None and interaction.message is not None:
        await _after_commit(
            "noting the prompt",
            _service(interaction.client).set_prompt_message(
                result.encounter.id, result.decision.pending_version, interaction.message.id
            ),
        )
    await _after_commit("the GM's details", _gm_details(interaction, result))
    if interaction.message is None or result.resolved_prompt_id != interaction.message.id:
        await _retire_prompt(interaction.client, result, "settled by a button")
    await refresh_tracker(interaction.client, result.encounter.row.channel_id)


async def announce(client: Any, result: CombatResult) -> None:
    """Post a result nobody asked for in its channel (an expired reaction window)."""
    channel = client.get_partial_messageable(result.encounter.row.channel_id)
    new_decision = _is_new_decision(result)
    view = _view(result) if new_decision else None
    message = await channel.send(
        _content(result, new_decision=new_decision),
        embed=result_embed(result, title="Reaction window over"),
        view=view or discord.utils.MISSING,
        allowed_mentions=_mentions(result, new_decision=new_decision),
    )
    if new_decision and result.decision is not None:
        await _after_commit(
            "noting the prompt",
            _service(client).set_prompt_message(
                result.encounter.id, result.decision.pending_version, message.id
            ),
        )
    await _retire_prompt(client, result, "the reaction window ran out, so no reaction")
    await refresh_tracker(client, result.encounter.row.channel_id)


async def _gm_details(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """The GM acting sees the exact NPC numbers the public embed hid."""
    if result.encounter.is_gm(actor_of(interaction)) and gm_sees_more(result):
        await interaction.followup.send(
            embed=result_embed(result, audience=GM, title="Exact numbers (GM only)"),
            ephemeral=True,
        )


async def _retire_prompt(client: Any, result: CombatResult, how: str) -> None:
    """The prompt of a decision that has just been settled shows how (``how``), with the public
    result, and loses its buttons."""
    if result.resolved_prompt_id is None:
        return
    title = shown_name(result.resolved_title) if result.resolved_title else "The attack"
    await retire_prompt(
        client,
        result.encounter.row.channel_id,
        result.resolved_prompt_id,
        f"{title} — settled: {how}.",
        result_embed(result),
    )


async def refresh_tracker(client: Any, channel_id: int) -> None:
    """Edit the channel's tracker message to the latest state, or post it anew if it was
    deleted. Serialised per channel and always rendered from the latest committed state, so
    edits never go back in time. Never raises: a failure is logged (the change it shows is
    already stored, and the next change will try again)."""
    lock = _tracker_locks.setdefault(channel_id, asyncio.Lock())
    async with lock:
        try:
            await _refresh_tracker(client, channel_id)
        except Exception:
            log.exception("could not refresh the tracker in channel %s", channel_id)


async def _refresh_tracker(client: Any, channel_id: int) -> None:
    service = _service(client)
    try:
        encounter = await service.live(channel_id)
    except NotFound:
        return
    if encounter.state.phase != "active" and encounter.row.tracker_message_id is None:
        return
    embed = tracker_embed(encounter)
    channel = client.get_partial_messageable(channel_id)
    if encounter.row.tracker_message_id is not None:
        try:
            await channel.get_partial_message(encounter.row.tracker_message_id).edit(embed=embed)
            return
        except discord.NotFound:
            log.info("tracker of encounter %s was deleted; posting it again", encounter.id)
    message = await channel.send(embed=embed)
    await service.set_tracker_message(encounter.id, message.id)
