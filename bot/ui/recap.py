"""What ``/encounter recap`` shows (issue 17, "Catch-up digest"): one ephemeral embed — of the
channel's live encounter, or, with none, of the one that ended there last (its "Now" says when
it ended).

Every event is rendered for the member's audience (:meth:`bot.engine.core.events.Event.render`
with the recap's audience), so a recap tells a player exactly what the channel told them — an
NPC's hidden numbers never — and the GM everything. Each section has its share of Discord's
4,096-character description (GUIDE §3); a section over its share keeps its newest lines and
says how many earlier ones it left out."""

from __future__ import annotations

import discord

from bot.engine.core.audience import View
from bot.engine.core.events import (
    AttackDeclared,
    ConditionChanged,
    Event,
    RoundStarted,
    TurnEnded,
    TurnStarted,
)
from bot.services.recap import Away, Recap, with_departed
from bot.ui.text import shown_name

DESCRIPTION_MAX = 4096
TURNS_MAX = 700
ATTACKS_MAX = 1750
CONDITIONS_MAX = 700
NOW_MAX = 650  # the four shares and their headings stay within DESCRIPTION_MAX


def newest(lines: list[str], limit: int) -> str:
    """``lines`` joined, within ``limit`` characters: the newest lines, after "… N earlier"
    when some do not fit."""
    lines = [line[: limit - 20] for line in lines]
    if len("\n".join(lines)) <= limit:
        return "\n".join(lines)
    kept: list[str] = []
    used = 0
    for index in range(len(lines) - 1, -1, -1):
        note = f"… {index + 1} earlier"  # lines[0..index] are left out
        if used + len(lines[index]) + 1 + len(note) > limit:
            return "\n".join([note, *reversed(kept)])
        kept.append(lines[index])
        used += len(lines[index]) + 1
    return "\n".join(reversed(kept))


def _turns(recap: Recap, view: View) -> list[str]:
    """One line per round: the turns that ended in it, in order. A turn that began before the
    recap's first entry belongs to the round of the next turn to start (the one before, when a
    new round starts first)."""
    ended: list[tuple[int | None, str]] = []
    round_now: int | None = None
    for record in recap.records:
        for event in record.events:
            if isinstance(event, (RoundStarted, TurnStarted)):
                first = event.round - 1 if isinstance(event, RoundStarted) else event.round
                ended = [(first if r is None else r, name) for r, name in ended]
                round_now = event.round
            elif isinstance(event, TurnEnded):
                ended.append((round_now, view.name(event.combatant)))
    rounds: dict[int | None, list[str]] = {}
    for number, name in ended:
        rounds.setdefault(number, []).append(name)
    return [
        f"{'Round ' + str(number) if number is not None else 'Earlier'}: {', '.join(names)}"
        for number, names in rounds.items()
    ]


def attacked(event: Event) -> str | None:
    """Whom ``event`` tells an attack's outcome on: its ``target`` (an attack rolled or
    resolved, Uune's attack outcome), or its ``combatant`` when it names an ``attacker`` (what
    a defense let through: Utopia's damage); None for other events and for an attack only
    declared (its outcome comes later)."""
    if isinstance(event, AttackDeclared):
        return None
    target = getattr(event, "target", None)
    if isinstance(target, str):
        return target
    return event.combatant if getattr(event, "attacker", None) is not None else None


def _attacks(recap: Recap, view: View) -> list[str]:
    """The resolved attacks on the member's combatants, as the channel showed them to them."""
    lines: list[str] = []
    for record in recap.records:
        for event in record.events:
            if attacked(event) in recap.mine:
                lines.extend(line for line in event.render(view) if line.strip())
    return lines


def _conditions(recap: Recap, view: View) -> list[str]:
    return [
        line
        for record in recap.records
        for event in record.events
        if isinstance(event, ConditionChanged) and event.gained and event.combatant in recap.mine
        for line in event.render(view)
        if line.strip()
    ]


def _due(recap: Recap) -> str:
    """When the running turn's deadline passes, or that it waits for a decision (its clock
    stands still meanwhile); nothing without a deadline or while the fight is paused."""
    encounter = recap.encounter
    if recap.turn_deadline is not None:
        return f" (deadline {discord.utils.format_dt(recap.turn_deadline, 'R')})"
    timed = encounter.state.settings.turn_deadline_s > 0
    if timed and encounter.state.decisions and not encounter.row.paused:
        return " (its deadline waits for the decision)"
    return ""


def _now(recap: Recap) -> list[str]:
    encounter = recap.encounter
    state = encounter.state
    lines: list[str] = []
    current = state.current
    ended = encounter.row.ended_at
    if encounter.row.status != "live" and ended is not None:
        return [
            f"The encounter ended {discord.utils.format_dt(ended, 'R')}; none runs in this "
            "channel now. Start one with `/encounter start`."
        ]
    if state.phase != "active" or current is None:
        lines.append("No fight is running." if state.phase != "finished" else "The fight is over.")
    else:
        lines.append(
            f"Round {state.round}: it is **{shown_name(current.name)}**'s turn{_due(recap)}."
        )
    if recap.your_turn and current is not None:
        lines.append(f"⏳ Waiting on you: **{shown_name(current.name)}**'s turn.")
    for decision in recap.waiting:
        when = (
            f" (decide {discord.utils.format_dt(decision.deadline, 'R')})"
            if decision.deadline is not None and not encounter.row.paused
            else ""
        )
        lines.append(f"⏳ Waiting on you: {decision.asks}{when}.")
    away = recap.away
    if away is not None:
        lines.extend(_away(recap, away))
    elif not recap.your_turn and not recap.waiting:
        lines.append("Nothing waits on you.")
    if encounter.row.paused:
        lines.append("⏸ The GM has paused the fight.")
    return lines


def _away(recap: Recap, away: Away) -> list[str]:
    """An away member's lines: who acts for them, and what waits on that member for them."""
    encounter, current = recap.encounter, recap.encounter.state.current
    who = "the GM" if away.stand_in == encounter.row.gm_id else f"<@{away.stand_in}>"
    lines = [f"You are away: {who} acts for you (`/back` to take over)."]
    if away.turn and current is not None:
        lines.append(f"⏳ Waiting on {who} for you: **{shown_name(current.name)}**'s turn.")
    lines.extend(f"⏳ Waiting on {who} for you: {d.asks}." for d in away.decisions)
    if not away.turn and not away.decisions:
        lines.append(f"Nothing waits on {who} for you.")
    return lines


def _since(recap: Recap) -> str:
    when = discord.utils.format_dt(recap.since, "R")
    return {
        "last_action": f"Since your last action ({when}).",
        "given": f"Since {discord.utils.format_dt(recap.since, 'f')} ({when}).",
        "start": "Since the encounter started.",
    }[recap.since_what]


def recap_embed(recap: Recap) -> discord.Embed:
    """The recap as one embed within Discord's limits (module docstring)."""
    encounter = recap.encounter
    view = encounter.rules.view(with_departed(recap), recap.audience, shown_name)
    sections: list[str] = [_since(recap)]
    turns = _turns(recap, view)
    count = sum(line.count(",") + 1 for line in turns)
    if turns:
        sections.append(f"**Turns taken ({count})**\n{newest(turns, TURNS_MAX)}")
    else:
        sections.append("**Turns taken**\nNone.")
    attacks = _attacks(recap, view)
    sections.append(
        "**Attacks on your combatants**\n" + (newest(attacks, ATTACKS_MAX) if attacks else "None.")
    )
    conditions = _conditions(recap, view)
    if conditions:
        sections.append(
            f"**Conditions your combatants gained**\n{newest(conditions, CONDITIONS_MAX)}"
        )
    sections.append(f"**Now**\n{newest(_now(recap), NOW_MAX)}")
    title = f"Recap of {shown_name(encounter.row.name)}"
    return discord.Embed(
        title=title[:256],
        description="\n\n".join(sections)[:DESCRIPTION_MAX],
        colour=discord.Colour.blurple(),
    )
