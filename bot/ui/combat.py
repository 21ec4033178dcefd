"""What members see of combat: result embeds, turn announcements, decision prompts.

Pure presentation: events render themselves for an audience (:mod:`bot.engine.core.audience`
decides which numbers each may see); this module escapes names for Discord and lays the lines
out. The GM gets an exact copy (ephemeral) when it says more than the public one, and exact
numbers in ``/encounter status``.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

import discord

from bot.engine.core.audience import GM, PUBLIC, Audience, View
from bot.engine.core.events import Event, TurnStarted, render_all
from bot.engine.core.order import turns_moved
from bot.engine.core.state import AnyState
from bot.services.acting import answering
from bot.services.combat import CombatResult, Decision, find_combatant
from bot.services.encounters import Encounter
from bot.services.log_commands import by_the_bot
from bot.ui.embeds import fit_lines
from bot.ui.text import shown_name, standing_in_for

DESCRIPTION_MAX = 4096
HIDDEN_CHANGE = (
    "What changed is hidden: only the GM sees these numbers (the tracker shows how it looks now)."
)
"""A result whose every event carries numbers this audience may not see (the Storyteller's
`/gm vital` on an NPC whose numbers are hidden): it read "Nothing happened." over a change."""
EMBED_TOTAL_MAX = 6000


def view_of(encounter: Encounter, audience: Audience) -> View:
    """``audience``'s view of the encounter, with names escaped for Discord."""
    return encounter.rules.view(encounter.state, audience, shown_name)


def result_embed(
    result: CombatResult, *, audience: Audience = PUBLIC, title: str | None = None
) -> discord.Embed:
    """The embed for one resolved command as ``audience`` may see it: every die, target number,
    hit or miss, damage after Armor and Defense, Stamina spent and conditions — the numbers of
    NPCs whose numbers are hidden only for the GM — within Discord's limits."""
    replayed = replay_lines(result, audience)
    lines = (
        stand_in_lines(result)
        + standing_lines(result)
        + replayed
        + render_all(_not_put_back(result, replayed), view_of(result.encounter, audience))
        + list(result.notes)
    )
    empty = HIDDEN_CHANGE if _hidden_from(result, audience) else "Nothing happened."
    embed = discord.Embed(
        title=(title or result.label)[:256],
        description=fit_lines(lines, DESCRIPTION_MAX, empty=empty),
        colour=discord.Colour.orange() if result.decision else discord.Colour.dark_red(),
    )
    if result.expired and not result.standing:  # a standing reaction is said in its line
        embed.set_footer(text=f"{window_ran_out(result)}.")
    return embed


def _hidden_from(result: CombatResult, audience: Audience) -> bool:
    """Whether the result's events say something to the GM that ``audience`` may not read (an
    NPC's hidden numbers): they still happened, and "Nothing happened." would be untrue."""
    if audience.kind == "gm" or not result.events:
        return False
    return any(line.strip() for line in render_all(result.events, view_of(result.encounter, GM)))


def _not_put_back(result: CombatResult, replayed: list[str]) -> list[Event]:
    """The result's events, less the turn a redo hands on when the lines it put back
    (``replayed``, not cut short) already hold that turn's start: it is said once, not twice."""
    replay = result.replay
    if replay is None or replay.undo or (replayed and replayed[-1].startswith("… and ")):
        return list(result.events)
    put_back = {(e.combatant, e.round) for e in replay.events if isinstance(e, TurnStarted)}
    return [
        e
        for e in result.events
        if not (isinstance(e, TurnStarted) and (e.combatant, e.round) in put_back)
    ]


def named(encounter: Encounter, typed: str) -> str:
    """The combatant ``typed`` names (matched ignoring case and lookalikes), as the fight
    names it, escaped for Discord: a command's title says "Hill giant 1" where the member
    typed "hill giant 1"."""
    return shown_name(find_combatant(encounter.state, typed).name)


def order_moves(before: AnyState | None, result: CombatResult) -> tuple[str, ...]:
    """What a change of the order (``/gm order``, ``/gm roll-order``) made of this round's
    turns, from ``before`` (the state it was computed from): whoever now waits until next round
    and whoever now takes a turn this round (:func:`bot.engine.core.order.turns_moved`)."""
    after = result.encounter.state
    holder = after.current
    if before is None or holder is None:
        return ()
    lines = []
    for cid, gains in turns_moved(before, after):
        name, turn = shown_name(after.get(cid).name), shown_name(holder.name)
        lines.append(
            f"{name} now comes after {turn}'s turn: they take a turn this round."
            if gains
            else f"{name} now comes before {turn}'s turn: their next turn is in round "
            f"{after.round + 1}."
        )
    return tuple(lines)


def stand_in_lines(result: CombatResult) -> list[str]:
    """ "<@X> (for <@Y>, away)" when X acted for the combatant of Y, who is ``/away``."""
    if result.stand_in is None:
        return []
    by, away = result.stand_in
    return [f"<@{by}>{standing_in_for(away)}"]


def standing_lines(result: CombatResult) -> list[str]:
    """ "Standing reaction set by <@X> for **Willow**: Dodge" for each standing reaction an
    expiry applied: who set it (a stand-in, a GM) is said where it is applied."""
    return [
        f"Standing reaction set by <@{use.set_by}> for **{shown_name(use.name)}**: "
        f"{shown_name(use.label)} (“{shown_name(use.rule)}”)"
        for use in result.standing
    ]


def for_away(encounter: Encounter, controller_id: int | None) -> str:
    """ " (for <@Y>, away)" after the mention of whoever stands in for an away controller."""
    if controller_id is None or controller_id not in encounter.away:
        return ""
    return standing_in_for(controller_id)


def window_ran_out(result: CombatResult) -> str:
    """What an expired decision defaulted to, as a sentence start, in its ruleset's words
    (UTTAS: no reaction, or — for an attacker's complete-or-stop after a surrender —
    stopping). A standing reaction that answered it instead (issue 17) is said once, in the
    result's line for it (:func:`standing_lines`), not here."""
    for settled in result.resolved:
        if settled.ran_out:
            return settled.ran_out
    return "The window ran out"


REPLAY_LINES = 8


def replay_lines(result: CombatResult, audience: Audience) -> list[str]:
    """What an undo took back (struck through) or a redo put back, as ``audience`` saw it
    when it happened; the options typed with it only for the GM."""
    replay = result.replay
    if replay is None:
        return []
    verb = "Undid" if replay.undo else "Redid"
    options = ""
    if audience.kind == "gm" and replay.options:
        typed = ", ".join(f"{k}: {v}" for k, v in replay.options.items())
        options = f" ({shown_name(typed)[:300]})"
    by = "the bot" if by_the_bot(replay.actor_id) else f"<@{replay.actor_id}>"
    header = (
        f"{verb} **{shown_name(replay.command)}**{options} by {by} "
        f"(version {replay.version})" + (". Taken back:" if replay.undo else ". Put back:")
    )
    view = result.encounter.rules.view(replay.state, audience, shown_name)
    lines = render_all(replay.events, view)
    if len(lines) > REPLAY_LINES:
        lines = [*lines[: REPLAY_LINES - 1], f"… and {len(lines) - REPLAY_LINES + 1} more"]
    if replay.undo:
        lines = [f"~~{line}~~" for line in lines if line.strip()]
    return (
        [header, *lines]
        if lines
        else [header.removesuffix(" Taken back:").removesuffix(" Put back:")]
    )


def gm_sees_more(result: CombatResult) -> bool:
    """Whether the GM's rendering of ``result`` says something the public one does not (only
    then is the GM sent an exact copy)."""
    encounter = result.encounter
    public = replay_lines(result, PUBLIC) + render_all(result.events, view_of(encounter, PUBLIC))
    exact = replay_lines(result, GM) + render_all(result.events, view_of(encounter, GM))
    return exact != public


def turn_announcement(result: CombatResult) -> str:
    """A line mentioning the controller of each turn that started (the GM for NPCs), saying
    what a turn holds and — where the public may see the combatant's numbers — its pool; the
    running turn's with its deadline, when it has one (``/gm settings turn_deadline:``). None
    when the result ended the fight: a turn it started (the first of a fight over as it
    began) no longer runs, and its holder's `/act` would be refused."""
    began = [
        (e.combatant, e.round) for e in result.events if isinstance(e, TurnStarted) and e.combatant
    ]
    return _turn_lines(result.encounter, began, result.turn_deadline)


def running_turn_announcement(encounter: Encounter, deadline: datetime | None) -> str:
    """The line :func:`turn_announcement` gives the turn running now as it began, with its
    ``deadline`` (the running one): what a restarted bot posts for a turn whose announcement
    the stop lost (:meth:`bot.ui.turn_pings.TurnPingKeeper.recover`). "" with none running."""
    state = encounter.state
    if state.turn is None:
        return ""
    return _turn_lines(encounter, [(state.turn, state.round)], deadline)


def _turn_lines(
    encounter: Encounter, began: list[tuple[str, int]], deadline: datetime | None
) -> str:
    """The lines of :func:`turn_announcement`, for the turns ``began`` (combatant id, round)."""
    if encounter.state.phase != "active":
        return ""
    view = view_of(encounter, PUBLIC)
    parts: list[str] = []
    running = -1  # the part of the turn that runs now (the last one begun for its combatant)
    for combatant_id, round_no in began:
        combatant = view.combatant(combatant_id)
        if combatant is None:
            continue
        who = answering(encounter, combatant.controller_id)
        stand = for_away(encounter, combatant.controller_id)
        revealed = view.reveals(combatant.id)
        words = encounter.rules.turn_words(encounter.state, combatant, revealed=revealed)
        # the words of an interleaved go already count what is left: the guide does not
        guide = encounter.rules.turn_guide(combatant, revealed=revealed and not words)
        name = shown_name(combatant.name)
        if combatant.id == encounter.state.turn:
            running = len(parts)
        if words:  # an order that plays one action at a time (Utopia's interleaving)
            parts.append(f"<@{who}>{stand} Round {round_no}: **{name}** {words}: {guide}")
            continue
        parts.append(f"<@{who}>{stand} it is **{name}**'s turn (round {round_no}): {guide}")
    if deadline is not None and running >= 0:
        parts[running] += ping_deadline_words(encounter, deadline) or ""
    return "\n".join(parts[-3:])


def ping_deadline_words(encounter: Encounter, deadline: datetime | None) -> str | None:
    """What a turn ping says of its turn's deadline, with a leading space: when it passes
    (``deadline``, in each reader's own time), that it stands still while the GM has paused the
    fight or a decision waits, or "" without turn deadlines. None when nothing is known to say
    (a deadline that fired for the GM to act on). The ping says it when posted and is edited
    when it changes (:class:`bot.ui.turn_pings.TurnPingKeeper`), so it never shows a deadline
    a pause or a decision has moved."""
    if deadline is not None:
        return f" Turn deadline: {discord.utils.format_dt(deadline, 'R')}."
    if encounter.state.settings.turn_deadline_s <= 0:
        return ""
    if encounter.row.paused:
        return " Turn deadline: stopped while the GM has paused the fight."
    if encounter.state.decisions:
        return " Turn deadline: it stands still while a decision waits, then runs on."
    return None


def turn_deadline_line(name: str, deadline: datetime | None, *, waits: bool) -> str:
    """What the table is told of the running turn's deadline (``/gm resume``, a mid-turn
    ``/gm settings turn_deadline:``): when it passes (``deadline``, shown in each reader's own
    time), or, with none running while a decision ``waits``, that the turn's clock runs on once
    it is settled; "" otherwise. ``name``: the turn holder's, as stored."""
    if deadline is not None:
        return f"**{shown_name(name)}**'s turn deadline: {discord.utils.format_dt(deadline, 'R')}."
    if waits:
        return f"**{shown_name(name)}**'s turn deadline runs on once the decision is settled."
    return ""


def decision_prompt(encounter: Encounter, decision: Decision) -> str:
    """Who must decide what, in the ruleset's words, and by when (or that the window waits
    while the GM has paused the fight), after a mention of each member asked."""
    if encounter.row.paused:
        deadline = " The GM has paused the fight: the window waits for `/gm resume`."
    elif isinstance(decision.deadline, datetime):
        deadline = (
            f" Decide by {discord.utils.format_dt(decision.deadline, 'R')}; after that "
            f"{decision.words.lapse}."
        )
    else:
        deadline = ""
    mentions = " ".join(
        f"<@{uid}>{standing_in_for(away) if away is not None else ''}"
        for uid, away in decision.askings(encounter.row.gm_id)
    )
    return f"{mentions} {decision.words.ask}{deadline}"


def pinged(result: CombatResult, decision: Decision | None) -> list[int]:
    """The members a result's content means to ping: whoever's turn started, and whoever must
    decide ``decision`` (a new one the content shows). Only they are allowed to be
    mentioned."""
    encounter = result.encounter
    state, gm = encounter.state, encounter.row.gm_id
    ids: list[int] = []
    for event in result.events:
        # a turn of a fight the result ended is not announced (turn_announcement): no ping
        if isinstance(event, TurnStarted) and event.combatant and state.phase == "active":
            combatant = next((c for c in state.combatants if c.id == event.combatant), None)
            if combatant is not None:
                ids.append(answering(encounter, combatant.controller_id))
    if decision is not None:
        ids.extend(decision.members(gm))
    return list(dict.fromkeys(ids))


def titled(result: CombatResult, doing: str) -> CombatResult:
    """``result`` labelled "<combatant> <doing>"; names are escaped here (and in ``doing``), so
    the label is ready-made Markdown."""
    who = shown_name(result.acting.name) if result.acting else "Someone"
    return dataclasses.replace(result, label=f"{who} {doing}")
