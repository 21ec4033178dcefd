"""After a combat command commits: reply, post or retire reaction prompts, refresh the tracker.

Shared by slash commands, reaction buttons and the reaction-window expiry loop, so each shows
the same thing the same way. Everything here runs after the commit; it only presents.

The change is stored before anything is shown, so what it shows must reach the channel even
when the interaction can no longer be answered: Discord gives a first answer 3 s, and a command
that took longer finds the token dead ("Unknown interaction", a :class:`discord.NotFound`). The
result — with the next turn holder's ping and a new decision's buttons — is then posted in the
channel instead (:mod:`bot.ui.late_answers`). Once posted, the turn it showed is noted
(:meth:`bot.ui.turn_pings.TurnPingKeeper.announced`): a bot stopped before that posts the turn's
ping when it starts again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any

import discord

from bot.engine.core.audience import GM
from bot.engine.core.events import RoundStarted
from bot.services.combat import CombatResult, Decision
from bot.ui.combat import (
    decision_prompt,
    gm_sees_more,
    ping_deadline_words,
    pinged,
    result_embed,
    turn_announcement,
    window_ran_out,
)
from bot.ui.decision_view import decision_view
from bot.ui.interaction import actor_of
from bot.ui.late_answers import edit_clicked, followup_or_post, send_or_post
from bot.ui.prompt_messages import GONE, PromptKeeper
from bot.ui.text import fit_text, shown_name
from bot.ui.turn_view import turn_view

log = logging.getLogger(__name__)


def _mentions(result: CombatResult, decision: Decision | None) -> discord.AllowedMentions:
    """Ping exactly the members the content is for, never a name that looks like a mention."""
    users = [discord.Object(id=uid) for uid in pinged(result, decision)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


async def _after_commit(what: str, step: Awaitable[None]) -> None:
    """Presentation after a commit (tracker, prompt bookkeeping, GM details) must never turn a
    stored change into an error reply: a failure here is logged and the rest goes on."""
    try:
        await step
    except Exception:
        log.exception("after a committed change, %s failed", what)


def _content(result: CombatResult, decision: Decision | None, *, announce: bool = True) -> str:
    parts = []
    announcement = turn_announcement(result) if announce else ""
    if announcement:
        parts.append(announcement)
    if decision is not None:
        parts.append(decision_prompt(result.encounter, decision))
    return fit_text("\n".join(parts))


def _new_round(result: CombatResult) -> bool:
    return any(isinstance(event, RoundStarted) for event in result.events)


def _first_new(result: CombatResult) -> Decision | None:
    """The first decision the result opened: its prompt goes with the result's message; any
    other is posted on its own (:func:`_post_others`)."""
    new = result.new_decisions
    return new[0] if new else None


def _view(result: CombatResult, decision: Decision | None) -> discord.ui.View | None:
    """A new decision's buttons; else, when the result started a turn, the turn ping's
    (:func:`bot.ui.turn_view.turn_view`: act from the ping)."""
    if decision is not None:
        return decision_view(result.encounter, decision)
    return turn_view(result)


def _keeper(client: Any) -> PromptKeeper:
    keeper: PromptKeeper = client.prompts
    return keeper


def _posting(client: Any, result: CombatResult) -> AbstractAsyncContextManager[None]:
    """While ``result`` is posted with the prompts of the decisions it opened, the keeper
    recovers none of them (:meth:`PromptKeeper.posting`)."""
    if not result.new_decisions:
        return nullcontext()
    return _keeper(client).posting(result.encounter.id)


async def _note(
    client: Any,
    result: CombatResult,
    decision: Decision | None,
    message_id: int | None,
    *,
    announced: bool = True,
) -> None:
    """Record the prompt just posted for ``decision`` (new in ``result``); if it was settled or
    undone meanwhile, the prompt loses its buttons at once."""
    if decision is None or message_id is None:
        return
    announcement = turn_announcement(result) if announced else ""
    gone = f"{announcement}\n{GONE}" if announcement else GONE
    await _keeper(client).note(result.encounter, decision, message_id, gone=gone)


async def _noted_ping(
    client: Any,
    result: CombatResult,
    decision: Decision | None,
    view: discord.ui.View | None,
    message_id: int | None,
) -> None:
    """Record a message that carries the turn ping's buttons (``view`` with no decision: see
    :func:`_view`), so they come off when the turn is over — with its text and what it says of
    the turn's deadline, so it is edited when the deadline moves."""
    if decision is None and view is not None and message_id is not None:
        content = _content(result, decision)
        words = ping_deadline_words(result.encounter, result.turn_deadline)
        said = words if words and words in content else ""
        await client.turn_pings.posted(result.encounter, message_id, content, said)


async def _post_others(client: Any, result: CombatResult) -> None:
    """Each decision the result opened besides the first gets a prompt of its own (several
    can wait at once: one message each, so each can be answered, retired and recovered on its
    own)."""
    others = result.new_decisions[1:]
    if not others:
        return
    channel = client.get_partial_messageable(result.encounter.row.channel_id)
    for decision in others:
        message = await channel.send(
            _content(result, decision, announce=False),
            view=_view(result, decision) or discord.utils.MISSING,
            allowed_mentions=_mentions_for(result, decision),
        )
        await _note(client, result, decision, message.id, announced=False)


def _mentions_for(result: CombatResult, decision: Decision) -> discord.AllowedMentions:
    users = [discord.Object(id=uid) for uid in decision.members(result.encounter.row.gm_id)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users)


async def respond(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """Answer a slash command with the result (and the buttons of a decision it opened)."""
    async with _posting(interaction.client, result):
        await _respond(interaction, result)


async def _respond(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    decision = _first_new(result)
    view = _view(result, decision)
    message_id = await send_or_post(
        interaction,
        result.encounter.row.channel_id,
        content=_content(result, decision),
        embed=result_embed(result),
        view=view or discord.utils.MISSING,
        allowed_mentions=_mentions(result, decision),
    )
    await _note(interaction.client, result, decision, message_id)
    await _noted_ping(interaction.client, result, decision, view, message_id)
    # After the prompt is noted: a click that comes while the turn is noted (a transaction)
    # would otherwise settle the decision first, and the prompt would say "No longer waiting".
    await interaction.client.turn_pings.announced(result.encounter)
    await _after_commit("the other prompts", _post_others(interaction.client, result))
    if interaction.response.is_done():  # a dead token takes no followup either
        await _after_commit("the GM's details", _gm_details(interaction, result))
    how = f"settled with `/{_command_name(interaction)}`"
    await _retire_prompts(interaction.client, result, how)
    await refresh_channel(
        interaction.client, result.encounter.row.channel_id, new_round=_new_round(result)
    )


def _command_name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else "a command"


async def after_decision(interaction: discord.Interaction[Any], result: CombatResult) -> None:
    """Answer a decision's button: the prompt message becomes the result (its buttons gone),
    and whatever pings someone — the next turn, the next decision (e.g. the next hit of a
    flurry) with its buttons — comes as a new message, because Discord notifies nobody of a
    mention added by an edit."""
    decision = _first_new(result)
    # The decision the button named (its title is the result's label; see CombatService.decide).
    title = shown_name(result.label) if result.label else "The decision"
    clicked = interaction.message.id if interaction.message is not None else 0
    channel_id = result.encounter.row.channel_id
    async with _keeper(interaction.client).editing(clicked):
        answered = await edit_clicked(
            interaction,
            channel_id,
            clicked,
            content=f"{title} — settled with a button.",
            embed=result_embed(result),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    content = _content(result, decision)
    if content:
        view = _view(result, decision)
        message = await followup_or_post(
            interaction,
            answered,
            channel_id,
            content=content,
            view=view or discord.utils.MISSING,
            allowed_mentions=_mentions(result, decision),
        )
        await _note(interaction.client, result, decision, message.id)
        await _noted_ping(interaction.client, result, decision, view, message.id)
    await interaction.client.turn_pings.announced(result.encounter)
    await _after_commit("the other prompts", _post_others(interaction.client, result))
    if answered:
        await _after_commit("the GM's details", _gm_details(interaction, result))
    await _retire_prompts(interaction.client, result, "settled with a button", clicked=clicked)
    if clicked and any(settled.prompt_id == clicked for settled in result.resolved):
        await _keeper(interaction.client).retired_by_click(clicked)
    await refresh_channel(
        interaction.client, result.encounter.row.channel_id, new_round=_new_round(result)
    )


async def announce(client: Any, result: CombatResult, title: str | None = None) -> None:
    """Post a result nobody asked for in its channel (an expired decision's window, a passed
    turn deadline), under ``title`` (``None``: the window's own words, :func:`window_over`)."""
    async with _posting(client, result):
        await _announce(client, result, title)


async def _announce(client: Any, result: CombatResult, title: str | None) -> None:
    title = title or window_over(result)
    channel = client.get_partial_messageable(result.encounter.row.channel_id)
    decision = _first_new(result)
    view = _view(result, decision)
    try:
        message = await channel.send(
            _content(result, decision),
            embed=result_embed(result, title=title),
            view=view or discord.utils.MISSING,
            allowed_mentions=_mentions(result, decision),
        )
    except discord.HTTPException:
        # The result could not be posted: still take the buttons off the settled prompt (an
        # edit may be allowed where a post is not) and show the state; the caller tells the
        # GM when the bot may not post there.
        await _retire_prompts(client, result, _ran_out(result))
        await refresh_channel(client, result.encounter.row.channel_id)
        raise
    await _note(client, result, decision, message.id)
    await _noted_ping(client, result, decision, view, message.id)
    await client.turn_pings.announced(result.encounter)  # after the prompt is noted (respond)
    await _after_commit("the other prompts", _post_others(client, result))
    await _retire_prompts(client, result, _ran_out(result))
    await refresh_channel(client, result.encounter.row.channel_id, new_round=_new_round(result))


def window_over(result: CombatResult) -> str:
    """The title of an expired decision's post, in its ruleset's words ("Reaction window
    over"; Uune "Approval window over", "Roll window over") — also when a standing reaction
    answered it as it ran out (Uune's answer a Defend's roll: "Roll window over", as the same
    window lapsing says)."""
    if not result.resolved:
        return "Reaction window over"
    return result.resolved[0].over


def _ran_out(result: CombatResult) -> str:
    """How a prompt whose window ran out was settled, after its title. A standing reaction's
    answer is said once, in the result it shows ("Standing reaction set by <@X> for
    **Vesna**: Block (…)", :func:`bot.ui.combat.standing_lines`): the title line only says
    the window ran out (it said "standing reaction: …" again, with the footer a third time)."""
    if result.standing:
        return "answered as the window ran out"
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


async def _retire_prompts(client: Any, result: CombatResult, how: str, *, clicked: int = 0) -> None:
    """The prompt of each decision just settled shows how (``how``), with the public result,
    and loses its buttons (``clicked``: the prompt a button already turned into the result)."""
    for settled in result.resolved:
        if settled.prompt_id is None or settled.prompt_id == clicked:
            continue
        title = shown_name(settled.title) if settled.title else "The decision"
        # Each prompt keeps its own decision's title on the result it shows.
        embed = result_embed(result, title=title if len(result.resolved) > 1 else None)
        await _keeper(client).retire(
            result.encounter.row.channel_id, settled.prompt_id, f"{title} — {how}.", embed
        )


async def refresh_channel(client: Any, channel_id: int, *, new_round: bool = False) -> None:
    """After any change in a channel's encounter: its tracker
    (:class:`bot.ui.tracker_keeper.TrackerKeeper`) and its waiting decision's prompt
    (:class:`bot.ui.prompt_messages.PromptKeeper`: who decides now, with which buttons, by when;
    whoever is newly asked is pinged) show the latest state, and turn pings whose turn is over
    lose their buttons (:class:`bot.ui.turn_pings.TurnPingKeeper`). Never raises."""
    await client.trackers.refresh(channel_id, new_round=new_round)
    await client.prompts.refresh(channel_id)
    await client.turn_pings.refresh(channel_id)
