"""``/encounter recap [since]`` (issue 17, "Catch-up digest"): what happened in the channel's
encounter since the member's last action (or since a moment they name), read from the log
through :mod:`bot.services.event_log` — the turns taken, what hit the member's combatants, the
conditions they gained — and what stands now: whose turn it is and what waits on the member.

This module gathers; :mod:`bot.ui.recap` renders the events for the member's audience
(:mod:`bot.engine.core.audience`: the GM sees every number; a player sees their own
combatants' numbers and never an NPC's hidden ones).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from bot import names
from bot.engine.core.audience import GM, Audience, controller
from bot.engine.core.events import CombatantLeft
from bot.engine.core.pacing import parse_duration, parse_moment
from bot.engine.core.state import AnyState, CombatantBase
from bot.errors import InvalidInput, NoEncounter
from bot.services import event_log
from bot.services.acting import answering, delegate_of
from bot.services.actor import Actor
from bot.services.decisions import Decision, decisions_of
from bot.services.encounters import Encounter, EncounterService
from bot.services.event_log import LogRecord
from bot.services.replay import UNREADABLE
from bot.store import turn_timers
from bot.store.base import StoreConnection

Since = Literal["last_action", "given", "start"]
MAX_SINCE_DAYS = 30
SKIPPED = frozenset({"undo", "redo"})
"""Log entries a recap leaves out: an undo takes back what it names (whose entry is then marked
undone), and a redo's entry repeats what it puts back."""


@dataclass(frozen=True)
class Recap:
    """What a member missed: the ``encounter`` now, the moment it starts from (``since``) and
    why (``since_what``: their last action, a moment they gave, or the encounter's start), the
    log entries after it that still stand (oldest first), the ids of the member's combatants
    (``mine``: theirs, those they stand in for, and for the GM every combatant without a
    player), whom it is rendered for (``audience``), whether the current turn waits on the
    member (``your_turn``) and the decisions that ask them (``waiting``); when the running
    turn's deadline passes (``turn_deadline``; None without one, or while its clock stands
    still)."""

    encounter: Encounter
    since: datetime
    since_what: Since
    records: list[LogRecord]
    mine: frozenset[str]
    audience: Audience
    your_turn: bool
    waiting: list[Decision]
    turn_deadline: datetime | None = None
    departed: tuple[CombatantBase, ...] = ()
    """Combatants an entry of the recap took out of the encounter (``/gm remove``), as they
    were just before they left: the recap's events about them render with their names and
    wound levels, and an NPC's numbers stay hidden (:func:`with_departed`)."""
    away: Away | None = None
    """While the member is away (``/away``): who acts for them and what waits on that member
    for them (:func:`waits_for_the_away`); None when they are not away."""


@dataclass(frozen=True)
class Away:
    """What waits for an away member on ``stand_in`` (their delegate, or the GM): whether the
    running turn is one of theirs (``turn``) and the decisions that would ask them
    (``decisions``)."""

    stand_in: int
    turn: bool
    decisions: list[Decision]


def with_departed(recap: Recap) -> AnyState:
    """The encounter's state as the recap renders its events in: the state now, with the
    combatants that left during the recap (``departed``) still in it, so each event is shown
    as it was about them (whose they were, whether they were NPCs)."""
    state = recap.encounter.state
    if not recap.departed:
        return state
    present = {c.id for c in state.combatants}
    kept = [c for c in recap.departed if c.id not in present]
    copied: AnyState = state.model_copy(update={"combatants": [*state.combatants, *kept]})
    return copied


def parse_since(text: str, now: datetime) -> datetime:
    """The moment ``text`` names, in the past: a duration back from ``now`` (``12h``, ``1d6h``;
    the turn-deadline format, up to :data:`MAX_SINCE_DAYS` days) or a date or date and time in
    UTC (``2026-12-04``, ``2026-12-04 18:00``). Raises :class:`InvalidInput` otherwise."""
    cleaned = text.strip()
    moment = parse_moment(cleaned, example="2026-12-04", duration="12h")
    if moment is not None:
        if moment > now:
            raise InvalidInput(
                f"{names.code(cleaned[:40])} has not come yet; name a moment in the past."
            )
        return moment
    seconds = parse_duration(cleaned, what="A recap's `since`", max_days=MAX_SINCE_DAYS)
    if seconds == 0:
        raise InvalidInput("Say how far back (`12h`, `2d`) or since when (`2026-12-04`).")
    return now - timedelta(seconds=seconds)


def _mine(encounter: Encounter, actor: Actor, gm: bool) -> frozenset[str]:
    found = set()
    for c in encounter.state.combatants:
        owner = c.controller_id
        if owner is None:
            if gm:
                found.add(c.id)
        elif owner == actor.user_id or delegate_of(encounter, owner) == actor.user_id:
            found.add(c.id)
    return frozenset(found)


def waits_on(encounter: Encounter, actor: Actor) -> tuple[bool, list[Decision]]:
    """What waits on ``actor`` in ``encounter`` now: whether the running turn is theirs to
    take (their combatant's, or one they stand in for: :func:`answering`), and the open
    decisions that ask them; nothing once it is no longer live."""
    if encounter.row.status != "live":
        return False, []
    current = encounter.state.current
    your_turn = (
        current is not None
        and encounter.state.phase == "active"
        and answering(encounter, current.controller_id) == actor.user_id
    )
    waiting = [
        d for d in decisions_of(encounter) if actor.user_id in d.members(encounter.row.gm_id)
    ]
    return your_turn, waiting


def waits_for_the_away(encounter: Encounter, actor: Actor) -> Away | None:
    """While ``actor`` is away: who answers for them (:func:`answering`) and what waits on
    that member for them — what :func:`waits_on` would give them were they back. None when
    they are not away, or nothing of theirs is in the fight."""
    if actor.user_id not in encounter.away or encounter.row.status != "live":
        return None
    if not any(c.controller_id == actor.user_id for c in encounter.state.combatants):
        return None
    back = {k: v for k, v in encounter.away.items() if k != actor.user_id}
    turn, decisions = waits_on(replace(encounter, away=back), actor)
    return Away(answering(encounter, actor.user_id), turn, decisions)


async def gather(
    encounters: EncounterService, channel_id: int, actor: Actor, since: str | None
) -> Recap:
    """The recap of the channel's live encounter for ``actor`` since ``since``
    (:func:`parse_since`; ``None``: since their last command in it that still stands, else
    since it started). With no live encounter, the recap of the one that ended there last (a
    player catching up after ``/encounter end``): nothing waits on anyone in it. Raises
    :class:`~bot.errors.NotFound` (no encounter has run in the channel) and
    :class:`InvalidInput` (a bad ``since``)."""
    try:
        encounter = await encounters.live(channel_id)
    except NoEncounter:
        ended = await encounters.last_ended(channel_id)
        if ended is None:
            raise
        encounter = ended
    now = encounters.now()
    rules = encounter.rules
    standing = [e for e in await encounters.log(encounter.id) if e.undone_by is None]
    start: datetime = standing[0].created_at if standing else now
    what: Since = "start"
    after = standing
    if since is not None:
        start, what = parse_since(since, now), "given"
        after = [e for e in standing if e.created_at > start]
    else:
        own = [e for e in standing if e.actor_id == actor.user_id and e.command not in SKIPPED]
        if own:  # by version: several entries may share one moment
            start, what = own[-1].created_at, "last_action"
            after = [e for e in standing if e.version > own[-1].version]
    records = [event_log.read(e, rules) for e in after if e.command not in SKIPPED]
    gm = encounter.is_gm(actor)
    live = encounter.row.status == "live"
    your_turn, waiting = waits_on(encounter, actor)
    timer = None
    departed: list[CombatantBase] = []
    async with encounters.db.read() as conn:
        if live:
            timer = await turn_timers.open_timer(conn, encounter.id)
        departed = await _departed(encounters, conn, encounter, records)
    return Recap(
        encounter=encounter,
        since=start,
        since_what=what,
        records=records,
        mine=_mine(encounter, actor, gm),
        audience=GM if gm else controller(actor.user_id),
        your_turn=your_turn,
        waiting=waiting,
        turn_deadline=timer.deadline if timer is not None else None,
        departed=tuple(departed),
        away=waits_for_the_away(encounter, actor),
    )


async def _departed(
    encounters: EncounterService,
    conn: StoreConnection,
    encounter: Encounter,
    records: list[LogRecord],
) -> list[CombatantBase]:
    """The combatants ``records`` took out of the encounter and that are not back, each as the
    state just before its leaving held it (a log that cannot rebuild that state leaves it out:
    the view then hides its numbers from all but the GM)."""
    present = {c.id for c in encounter.state.combatants}
    found: dict[str, CombatantBase] = {}
    for record in records:
        gone = [
            e.combatant
            for e in record.events
            if isinstance(e, CombatantLeft) and e.combatant not in present
        ]
        if not gone:
            continue
        try:
            before = await encounters.state_at(conn, encounter, record.version - 1)
        except UNREADABLE:
            continue
        for c in before.combatants:
            if c.id in gone:
                found[c.id] = c
    return list(found.values())
