"""The tracker: one message per encounter, edited in place after every change.

Round, initiative order, whose turn, actions left, stance, conditions, Health and Stamina for
player characters and a descriptor for NPCs (exact numbers in the GM's view). With many
combatants the lines get compact, and if even that is too long the tracker shows the part of the
order around the current turn and says how many are left out (``/encounter status page:`` lists
the rest).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.core.audience import GM, PUBLIC, View
from bot.engine.core.contract import Ruleset
from bot.engine.core.state import AnyState, CombatantBase
from bot.services.acting import delegate_of
from bot.services.decisions import decisions_of
from bot.services.encounters import Encounter
from bot.ui.combat import view_of
from bot.ui.embeds import CLOSING, FIELD_MAX, fit_lines, outcome, rules_label
from bot.ui.text import shown_name
from bot.words import counted

DESCRIPTION_MAX = 4096
EMBED_MAX = 6000  # Discord: all of an embed's text
POSITIONS_MAX = 1024  # one field's value
AWAY_MAX = 600  # the away line's share of the "Now" field (whole entries, then "… and N more")
PAGE_SIZE = 25
NAME_COMPACT = 24
ABBREVIATIONS = {
    "Unconscious": "Unc",
    "Staggered": "Stag",
    "Stunned": "Stun",
    "Grappled": "Grap",
    "Prone": "Prone",
    "Dead": "Dead",
}


def _ordered(state: AnyState) -> list[CombatantBase]:
    by_id = {c.id: c for c in state.combatants}
    ordered = [by_id[cid] for cid in state.order if cid in by_id]
    ordered += [c for c in state.combatants if c.id not in state.order]
    return ordered


def combatant_line(
    rules: Ruleset[Any], view: View, combatant: CombatantBase, *, compact: bool
) -> str:
    """One tracker line, e.g. ``▶ **Willow** · 5/6 actions · Steady · H 10/10 · S 25/30``; an
    NPC whose numbers the view hides shows its wound level and no actions."""
    state = view.state
    marker = "▶ " if state.turn == combatant.id else ""
    name = combatant.name
    if compact and len(name) > NAME_COMPACT:
        name = name[: NAME_COMPACT - 1] + "…"
    parts = [f"{marker}**{shown_name(name)}**"]
    revealed = view.reveals(combatant.id)
    status = rules.status(
        combatant, revealed=revealed, compact=compact, in_fight=state.phase == "active"
    )
    parts += [shown_name(part) for part in status]
    said = set(status)  # a condition the status already names (Dead) is not said twice
    effects = [e for e in combatant.effects if e.name not in said]
    if effects:
        shown = [
            shown_name(ABBREVIATIONS.get(e.name, e.name) if compact else e.name)
            + (f" {e.level}" if e.level > 1 else "")
            for e in effects
        ]
        parts.append(", ".join(shown))
    if combatant.is_npc and not compact:
        parts.append("NPC")
    return " · ".join(parts)


def _lines(
    rules: Ruleset[Any], view: View, people: list[CombatantBase], *, compact: bool
) -> list[str]:
    return [combatant_line(rules, view, c, compact=compact) for c in people]


def _window(lines: list[str], centre: int, limit: int) -> tuple[list[str], int, int]:
    """The longest run of lines around ``centre`` that fits ``limit`` characters (with room for
    the "N more" notes). Returns the lines and how many were left out before and after."""
    start = end = centre
    used = len(lines[centre]) + 1
    room = limit - 80
    while True:
        grew = False
        if end + 1 < len(lines) and used + len(lines[end + 1]) + 1 <= room:
            end += 1
            used += len(lines[end]) + 1
            grew = True
        if start > 0 and used + len(lines[start - 1]) + 1 <= room:
            start -= 1
            used += len(lines[start]) + 1
            grew = True
        if not grew:
            return lines[start : end + 1], start, len(lines) - end - 1


def order_text(rules: Ruleset[Any], view: View) -> str:
    """The initiative order as text within the embed description limit."""
    state = view.state
    people = _ordered(state)
    if not people:
        return "No combatants yet. Players join with `/encounter join`; the GM adds NPCs."
    for compact in (False, True):
        lines = _lines(rules, view, people, compact=compact)
        text = "\n".join(lines)
        if len(text) <= DESCRIPTION_MAX:
            return text
    ids = [c.id for c in people]
    centre = ids.index(state.turn) if state.turn in ids else 0
    shown, before, after = _window(lines, centre, DESCRIPTION_MAX)
    head = [f"… {before} earlier in the order"] if before else []
    tail = [f"… {after} more (see `/encounter status page:`)"] if after else []
    return "\n".join(head + shown + tail)


def tracker_embed(encounter: Encounter, *, for_gm: bool = False) -> discord.Embed:
    """The tracker for players (NPC descriptors) or for the GM (exact numbers)."""
    state = encounter.state
    phase = {"setup": "setup", "finished": "fight over"}.get(state.phase, f"Round {state.round}")
    embed = discord.Embed(
        title=f"{shown_name(encounter.row.name)} — {phase}"[:256],
        description=order_text(encounter.rules, view_of(encounter, GM if for_gm else PUBLIC)),
        colour=discord.Colour.dark_red() if state.phase == "active" else discord.Colour.blurple(),
    )
    status: list[str] = []
    current = state.current
    if current is not None:
        status.append(_turn_line(encounter, current, for_gm=for_gm))
    waiting = [d.words.waiting_on for d in decisions_of(encounter)]
    if waiting:
        status.append(f"Waiting on {' and '.join(dict.fromkeys(waiting))}")
    if state.phase == "finished":
        status.append(finished_line(state))
    if encounter.row.paused:
        status.append("⏸ Paused by the GM")
    away = away_line(encounter)
    if away:
        status.append(away)
    if status:
        embed.add_field(name="Now", value=fit_lines(status, FIELD_MAX, sep=" · "), inline=False)
    view = "GM view" if for_gm else "player view"
    embed.set_footer(
        text=f"{rules_label(encounter)} · {len(state.combatants)} combatants · "
        f"{view} · encounter {encounter.id} v{encounter.version}"
    )
    shown = {c.id: shown_name(c.name) for c in state.combatants}
    for title, lines in (
        ("Positions", state.positions.lines(shown, encounter.rules.scale)),  # decision E
        ("Scene", encounter.rules.scene_lines(state, shown)),  # a chase…
    ):
        room = min(POSITIONS_MAX, EMBED_MAX - len(embed) - len(title))
        if lines and room > 40:  # only where the embed has room (6,000 characters in all)
            embed.add_field(name=title, value=fit_lines(lines, room), inline=False)
    return embed


def away_line(encounter: Encounter) -> str:
    """Who of the encounter's players is ``/away`` and who stands in for them, e.g.
    "💤 Away: <@1> (<@2> stands in), <@3> (the GM stands in)"; "" when nobody is."""
    controllers = dict.fromkeys(
        c.controller_id for c in encounter.state.combatants if c.controller_id is not None
    )
    parts = []
    for member in controllers:
        if member is None or member not in encounter.away:
            continue
        delegate = delegate_of(encounter, member)
        who = f"<@{delegate}>" if delegate is not None else "the GM"
        parts.append(f"<@{member}> ({who} stands in)")
    return f"💤 Away: {fit_lines(parts, AWAY_MAX, sep=', ')}" if parts else ""


def _turn_line(encounter: Encounter, current: CombatantBase, *, for_gm: bool) -> str:
    """Whose turn it is — "Turn: **Willow**", or in the ruleset's words where its order plays
    one action at a time ("Round 2: **Vesna** acts (4 TA left)")."""
    view = view_of(encounter, GM if for_gm else PUBLIC)
    state, name = encounter.state, shown_name(current.name)
    words = encounter.rules.turn_words(state, current, revealed=view.reveals(current.id))
    return f"Round {state.round}: **{name}** {words}" if words else f"Turn: **{name}**"


def finished_line(state: AnyState) -> str:
    """Who won a fight that is over, and how the GM closes the encounter."""
    return f"The fight is over: {outcome(state)}. {CLOSING}"


def tracker_page(encounter: Encounter, page: int, *, for_gm: bool) -> discord.Embed:
    """Page ``page`` (1-based) of the full order, :data:`PAGE_SIZE` combatants per page.
    Raises ``ValueError`` for a page that does not exist."""
    state = encounter.state
    people = _ordered(state)
    pages = max(1, -(-len(people) // PAGE_SIZE))
    if not 1 <= page <= pages:
        raise ValueError(f"There {'is' if pages == 1 else 'are'} {counted(pages, 'page')}.")
    chunk = people[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    view = view_of(encounter, GM if for_gm else PUBLIC)
    rules = encounter.rules
    lines = _lines(rules, view, chunk, compact=False)
    text = "\n".join(lines)
    if len(text) > DESCRIPTION_MAX:
        text = "\n".join(_lines(rules, view, chunk, compact=True))
    embed = tracker_embed(encounter, for_gm=for_gm)
    embed.description = text[:DESCRIPTION_MAX]
    embed.title = f"{shown_name(encounter.row.name)} — order, page {page}/{pages}"[:256]
    return embed
