"""After a combat command commits: reply, post or retire reaction prompts, refresh the tracker.

Shared by slash commands, reaction buttons and the reaction-window expiry loop, so each shows
the same thing the same way. Everything here runs after the commit; it only presents.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

import discord

from bot.engine.core.audience import GM
from bot.engine.core.events import RoundStarted
from bot.services.combat import CombatResult
from bot.ui.combat import (
    decision_prompt,
    gm_sees_more,
    pinged,
    result_embed,
    turn_announcement,
    window_ran_out,
)
from bot.ui.decision_view import decision_view
from bot.ui.interaction import actor_of
from bot.ui.prompt_messages import GONE, PromptKeeper
from bot.ui.text import shown_name

log = logging.getLogger(__name__)


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
        parts.append(decision_prompt(result.encounter, result.decision))
    return "\n".join(parts)[:2000]


def _new_round(result: CombatResult) -> bool:
    return any(isinstance(event, RoundStarted) for event in result.events)


def _is_new_decision(result: CombatResult) -> bool:
    decision = result.decision
    return decision is not None and decision.pending_version == result.encounter.version


def _view(result: CombatResult) -> discord.ui.View | None:
    if result.decision is None:
        return None
    return decision_view(result.encounter, result.decision)


def _keeper(client: Any) -> PromptKeeper:
    keeper: PromptKeeper = client.prompts
    return keeper


async def _note(client: Any, result: CombatResult, message_id: int | None) -> None:
    """Record the prompt just posted for the result's new decision; if that decision was
    settled or undone meanwhile, the prompt loses its buttons at once."""
    if result.decision is None or message_id is None:
        return
    announcement = turn_announcement(result)
    gone = f"{announcement}\n{GONE}" if announcement else GONE
    await _keeper(client).note(result.encounter, result.decision, message_id, gone=gone)


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
    if new_decision:
        await _note(interaction.client, result, callback.message_id)
    await _after_commit("the GM's details", _gm_details(interaction, result))
    how = f"settled with `/{_command_name(interaction)}`"
    await _retire_prompt(interaction.client, result, how)
    await refresh_channel(
        interaction.client, result.encounter.row.channel_id, new_round=_new_round(result)
    )


def _command_name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "a command"


async def after_decision(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """Answer a reaction button: the prompt message becomes the result (its buttons gone), and
    whatever pings someone — the next turn, the next decision (e.g. the next hit of a flurry)
    with its buttons — comes as a new message, because Discord notifies nobody of a mention
    added by an edit."""
    new_decision = _is_new_decision(result)
    title = shown_name(result.resolved_title) if result.resolved_title else "The attack"
    clicked = interaction.message.id if interaction.message is not None else 0
    async with _keeper(interaction.client).editing(clicked):
        await interaction.response.edit_message(
            content=f"{title} — settled with a button.",
            embed=result_embed(result),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    content = _content(result, new_decision=new_decision)
    if content:
        view = _view(result) if new_decision else None
        message = await interaction.followup.send(
            content,
            view=view or discord.utils.MISSING,
            allowed_mentions=_mentions(result, new_decision=new_decision),
            wait=True,
        )
        if new_decision:
            await _note(interaction.client, result, message.id)
    await _after_commit("the GM's details", _gm_details(interaction, result))
    if result.resolved_prompt_id != clicked:
        await _retire_prompt(interaction.client, result, "settled with a button")
    elif clicked:
        await _keeper(interaction.client).retired_by_click(clicked)
    await refresh_channel(
        interaction.client, result.encounter.row.channel_id, new_round=_new_round(result)
    )


async def announce(client: Any, result: CombatResult) -> None:
    """Post a result nobody asked for in its channel (an expired reaction window)."""
    channel = client.get_partial_messageable(result.encounter.row.channel_id)
    new_decision = _is_new_decision(result)
    view = _view(result) if new_decision else None
    try:
        message = await channel.send(
            _content(result, new_decision=new_decision),
            embed=result_embed(result, title="Reaction window over"),
            view=view or discord.utils.MISSING,
            allowed_mentions=_mentions(result, new_decision=new_decision),
        )
    except discord.HTTPException:
        # The result could not be posted: still take the buttons off the settled prompt (an
        # edit may be allowed where a post is not) and show the state; the caller tells the
        # GM when the bot may not post there.
        await _retire_prompt(client, result, _ran_out(result))
        await refresh_channel(client, result.encounter.row.channel_id)
        raise
    if new_decision:
        await _note(client, result, message.id)
    await _retire_prompt(client, result, _ran_out(result))
    await refresh_channel(client, result.encounter.row.channel_id, new_round=_new_round(result))


def _ran_out(result: CombatResult) -> str:
    ran_out = window_ran_out(result)
    return ran_out[0].lower() + ran_out[1:]


async def _gm_details(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """The GM acting sees the exact NPC numbers the public embed hid."""
    if not result.encounter.is_gm(actor_of(interaction)):
        return
    if gm_sees_more(result):
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
    await _keeper(client).retire(
        result.encounter.row.channel_id,
        result.resolved_prompt_id,
        f"{title} — {how}.",
        result_embed(result),
    )


async def refresh_channel(client: Any, channel_id: int, *, new_round: bool = False) -> None:
    """After any change in a channel's encounter: its tracker
    (:class:`bot.ui.tracker_keeper.TrackerKeeper`) and its waiting decision's prompt
    (:class:`bot.ui.prompt_messages.PromptKeeper`: who decides now, with which buttons, by when;
    whoever is newly asked is pinged) show the latest state. Never raises."""
    await client.trackers.refresh(channel_id, new_round=new_round)
    await client.prompts.refresh(channel_id)
