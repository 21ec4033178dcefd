"""Embeds built from service results. Pure presentation: no I/O, no rules.

Every builder keeps within Discord's embed limits (title 256, description 4096, field value
1024, 6000 characters across the message's embeds).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.engine import get_ruleset
from bot.engine.core.audience import PUBLIC
from bot.engine.core.order import first_turn_round
from bot.engine.core.pacing import format_duration
from bot.engine.core.state import AnyState, CombatantBase
from bot.services.combat import find_combatant
from bot.services.encounters import Encounter
from bot.ui.text import shown_name
from bot.words import counted

DEADLINE_ACTIONS = {
    "end_turn": "then the turn ends",
    "notify_gm": "then the GM is told",
    "default_action": "then the combatant's default action, and the turn ends",
}
"""What a passed turn deadline does, as ``/gm settings`` shows it."""

DESCRIPTION_MAX = 4096
FIELD_MAX = 1024
PHASES = {"setup": "Gathering combatants", "active": "In combat", "finished": "Fight over"}


def fit_lines(lines: list[str], limit: int, *, empty: str = "—", sep: str = "\n") -> str:
    """Join ``lines`` with ``sep`` (newlines unless given); if that exceeds ``limit``
    characters, keep whole lines from the head and end with "… and N more" so the text stays
    within ``limit`` — never a line (a mention, a name) cut in the middle."""
    if not lines:
        return empty
    text = sep.join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        more = f"… and {len(lines) - index} more"
        if used + len(line) + len(sep) + len(more) > limit:
            kept.append(more)
            break
        kept.append(line)
        used += len(line) + len(sep)
    return sep.join(kept)


def ruleset_title(key: str) -> str:
    return get_ruleset(key).title


def rules_label(encounter: Encounter) -> str:
    """The ruleset and the rules version the encounter plays by, e.g. "UTTAS · rules v1"."""
    version = encounter.row.rules_version
    return f"{ruleset_title(encounter.row.ruleset)} · rules v{version}"


def _listed(state: AnyState) -> list[Any]:
    """The combatants as the card lists them: during the fight in the turn order (a late
    joiner where the join's reply says it stands, not last), else as they joined."""
    if state.phase != "active" or not state.order:
        return list(state.combatants)
    placed = [c for cid in state.order for c in state.combatants if c.id == cid]
    return placed + [c for c in state.combatants if c.id not in state.order]


def tracker(encounter: Encounter) -> discord.Embed:
    """The encounter at a glance: name, ruleset, phase, round, combatants so far (during the
    fight, in the turn order)."""
    state = encounter.state
    phase = "Ended" if encounter.row.status == "archived" else PHASES.get(state.phase, state.phase)
    embed = discord.Embed(
        title=shown_name(encounter.row.name)[:256],
        colour=discord.Colour.dark_red() if state.phase == "active" else discord.Colour.blurple(),
    )
    embed.add_field(name="Ruleset", value=rules_label(encounter))
    embed.add_field(name="Phase", value=phase)
    embed.add_field(name="Round", value=str(state.round) if state.round else "not begun")
    lines = [f"**{shown_name(c.name)}**" + (" (NPC)" if c.is_npc else "") for c in _listed(state)]
    embed.add_field(
        name=f"Combatants ({len(state.combatants)})"
        + (", in turn order" if state.phase == "active" and state.order else ""),
        value=fit_lines(lines, FIELD_MAX, empty="None yet."),
        inline=False,
    )
    names = {c.id: shown_name(c.name) for c in state.combatants}
    where = state.positions.lines(names, encounter.rules.scale)
    if where:
        embed.add_field(name="Positions", value=fit_lines(where, FIELD_MAX), inline=False)
    if state.phase == "finished" and encounter.row.status == "live":
        embed.add_field(
            name="Result",
            value=f"{as_sentence(outcome(state))}. {CLOSING}",
            inline=False,
        )
    embed.add_field(name="GM", value=f"<@{encounter.row.gm_id}>")
    embed.set_footer(text=f"Encounter {encounter.id} · version {encounter.version}")
    return embed


CLOSING = "The GM closes the encounter with `/encounter end`."


def outcome(state: AnyState) -> str:
    """How a finished fight ended, lower-case and without a full stop: the winning side
    ("**Heroes** won"), or why it ended without one ("the Game Master ended it", "nobody is
    left"); a fight stored before reasons were kept reads "no side is left standing"."""
    if state.winner:
        return f"**{shown_name(state.winner)}** won"
    return state.end_reason or "no side is left standing"


def as_sentence(text: str) -> str:
    """``text`` with its first letter upper-case, to open a sentence."""
    return text[:1].upper() + text[1:]


def summary(encounter: Encounter, ended_by: int) -> discord.Embed:
    """The final summary posted when an encounter ends: who won, and how each combatant ended
    up — as the channel may see it (an NPC whose numbers are hidden shows its wound level)."""
    state = encounter.state
    won = ""
    if state.winner:
        won = f" The **{shown_name(state.winner)}** side won."
    elif state.phase == "finished":
        won = f" {as_sentence(outcome(state))}."
    embed = discord.Embed(
        title=f"Encounter ended: {shown_name(encounter.row.name)}"[:256],
        colour=discord.Colour.dark_grey(),
        description=(
            f"Ruleset {ruleset_title(encounter.row.ruleset)}; "
            f"{counted(state.round, 'round')} fought; ended by <@{ended_by}>.{won}"
        ),
    )
    public = encounter.rules.view(state, PUBLIC, shown_name)
    lines = []
    for c in state.combatants:
        if public.reveals(c.id):  # the ruleset's pools (UTTAS "Health 10/16, Stamina 25/40")
            pools = encounter.rules.combatant_pools(c).items()
            how = ", ".join(f"{pool} {r.value}/{r.maximum}" for pool, r in pools)
            how = how or public.wound_level(c)
        else:
            how = public.wound_level(c)
        labels = [shown_name(x) for x in c.condition_labels() if x != how]  # not "Dead · Dead"
        conditions = f" · {', '.join(labels)}" if labels else ""
        npc = " (NPC)" if c.is_npc else ""
        lines.append(f"**{shown_name(c.name)}**{npc} · {shown_name(c.side)} · {how}{conditions}")
    embed.add_field(
        name=f"Combatants ({len(state.combatants)})",
        value=fit_lines(lines, FIELD_MAX, empty="None joined."),
        inline=False,
    )
    embed.set_footer(text=f"Encounter {encounter.id} · archived, kept in the log")
    return embed


def reminder_words(points: str) -> str:
    """Reminder points in words: ``50%,90%`` → "at 50%, 90% of the window"; ``6h,1h`` → "6h,
    1h before the deadline"; ``off``."""
    if points == "off":
        return "off"
    shares = [p for p in points.split(",") if p.endswith("%")]
    lefts = [p for p in points.split(",") if not p.endswith("%")]
    parts = []
    if shares:
        parts.append(f"at {', '.join(shares)} of the window")
    if lefts:
        parts.append(f"{', '.join(lefts)} before the deadline")
    return "; ".join(parts)


_ORDER_LINES = {
    "rolled": "- initiative: everyone rolls (a Speed test), highest first",
    "storyteller": "- turn order: the Storyteller's (the join order; `/gm order` moves someone)",
    "pcs_then_npcs": "- turn order: every player character (any order they choose), then the NPCs",
}


def _order_line(key: str, initiative_mode: str) -> str:
    """How the system orders its turns: UTTAS's initiative setting, named as `/gm settings
    initiative:` offers it ("By Agility", "Roll Agility dice"); the other systems never read
    it (Untitled's order is the Storyteller's, Uune's PCs then NPCs)."""
    modes = {"agility": "By Agility (ties rolled)", "roll": "Roll Agility dice"}
    return _ORDER_LINES.get(key, f"- initiative: {modes.get(initiative_mode, initiative_mode)}")


def _deadline_words(seconds: int, action: str) -> str:
    """The turn deadline and what its passing does ("12h (then the GM is told)"); without one,
    that a turn waits — never what a deadline that is not set would do."""
    if seconds <= 0:
        return "none (a turn lasts until it is ended)"
    return f"{format_duration(seconds)} ({DEADLINE_ACTIONS[action]})"


def encounter_settings_text(encounter: Encounter) -> str:
    """``/gm settings`` with no option: the encounter's settings in words."""
    s = encounter.state.settings
    order = getattr(encounter.rules, "turn_order", None)
    interleaving = (  # only where the turn order has the option (Utopia)
        f"- interleaved turn order: {'yes' if s.interleaved else 'no'}\n"
        if getattr(order, "allows_interleave", False)
        else ""
    )
    return (
        f"**{shown_name(encounter.row.name)}** settings:\n"
        f"{_order_line(getattr(order, 'key', ''), encounter.state.initiative_mode)}\n"
        f"- reaction window: {format_duration(s.reaction_window_s)}\n"
        f"- turn deadline: {_deadline_words(s.turn_deadline_s, s.turn_deadline_action)}\n"
        f"- reminders: {reminder_words(s.reminders)}\n"
        f"- NPCs react: {'yes' if s.npcs_react else 'no'}\n"
        f"- NPC numbers hidden: {'yes' if s.hide_npc_numbers else 'no'}\n"
        f"- players' odds against hidden NPCs: {'yes' if s.show_odds else 'no'}\n"
        f"{interleaving}"
        f"- paused: {'yes' if encounter.row.paused else 'no'}"
        + "".join(  # the system's own (Untitled: the Storyteller's dice)
            f"\n- {shown_name(line)}" for line in encounter.rules.rule_lines(encounter.state)
        )
    )[:2000]


def joined_as_left(encounter: Encounter, name: str) -> str:
    """ " as its last fight left it (Health 12/16 · …)" when the character joins with a campaign
    record that differs from its fresh sheet (decision A): each line of ``/campaign show``
    that a fresh sheet would not show — the vitals left, the effects it keeps ("Effects:
    Impaired (for the campaign)"; UTTAS's "Conditions:"); else nothing."""
    rules = encounter.rules
    joined = find_combatant(encounter.state, name)
    sheet = getattr(joined, "sheet", None)
    if sheet is None:
        return ""
    fresh = rules.record_lines(sheet, None)
    shown = [
        line for line in rules.record_lines(sheet, rules.record_of(joined)) if line not in fresh
    ]
    if not shown:
        return ""
    return f", as their last fight left them ({shown_name(' · '.join(shown))})"


def order_places(encounter: Encounter, added: list[str]) -> str:
    """Where each of ``added`` (combatant names, as stored), who joined a running fight,
    stands in the turn order, in the order's own words (``TurnOrder.place_words``: "Brute
    takes place 5 in the initiative order."; a PC's roll where the order is rolled, "Brannoc
    rolls 13 for initiative and takes place 3 …"; Uune and Untitled have no initiative), each after
    a line break, then when its first turn comes (:func:`first_turn_words`); nothing before the
    fight begins (``/encounter begin`` sets the order then)."""
    state = encounter.state
    if state.phase != "active":
        return ""
    lines = []
    for name in added:
        joined = find_combatant(state, name)
        if joined.id in state.order:
            place = state.order.index(joined.id) + 1
            order = encounter.rules.turn_order
            # a PC's roll, as the fight's start showed it; an NPC's stays the GM's
            rolled = None if joined.is_npc else order.rolled(state, joined)
            words = order.place_words(
                shown_name(joined.name), place, is_npc=joined.is_npc, rolled=rolled
            )
            lines.append(f"\n{words}")
            # a line of its own: the place words are the log's note (an undo shows them);
            # when the first turn comes is the reply's alone, as a new order's moves are
            first = first_turn_words(state, joined)
            if first:
                lines.append(f"\n{first}")
    return "".join(lines)


def first_turn_words(state: AnyState, joined: CombatantBase) -> str:
    """ "Wren's first turn comes in round 3." (or "… comes this round."): when a late joiner
    first acts (:func:`~bot.engine.core.order.first_turn_round`), in the same words for every
    system — a newcomer placed before the turn's holder waits for the next round, which the
    place alone does not say (Uune's PC joins "the player characters, who act first"); ""
    where it has no such turn (an interleaved order)."""
    first = first_turn_round(state, joined.id)
    if first is None:
        return ""
    when = "this round" if first == state.round else f"in round {first}"
    return f"{shown_name(joined.name)}'s first turn comes {when}."
