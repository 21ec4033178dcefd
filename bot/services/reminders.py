"""Reminders (issue 17, "Reminders" and "Nudge the GM"): the member a turn or a reaction
waits on gets a mention at the GM's reminder points (``/gm settings reminders:``; default once,
at half the window), each point at most once per window, across restarts and processes.

A turn's reminder goes to the combatant's controller, or to the GM for an NPC's turn (the fight
waits on them) — but not while the turn waits on a decision (its deadline waits then too): a
point that passed meanwhile is sent once the decision is settled, if the deadline is still
ahead; a reaction's to every member who decides it — the GM for an NPC, an approval
or any choice only the GM may take. A member inside their quiet hours (``/me settings``) is
not mentioned: the reminder waits until their quiet hours end, and never comes after the
deadline (only running windows are read). When several members are asked and only some are
quiet, those awake are reminded then, and the point counts as sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine.core.contract import decision_window_s
from bot.engine.core.pacing import remind_before
from bot.errors import Conflict
from bot.services.acting import answering
from bot.services.decisions import Decision, decisions_of
from bot.services.encounters import Encounter, EncounterService
from bot.services.member_settings import MemberSettingsService
from bot.services.replay import UNREADABLE, log_unreadable
from bot.store import reminders as repo
from bot.store.decisions import REACTION

log = logging.getLogger(__name__)

NOT_DUE = "That reminder is not due (sent already, the window closed, or everyone asked is quiet)."


@dataclass(frozen=True)
class Reminder:
    """A reminder sent: the encounter, what waits (``name``: the combatant whose turn it is,
    or the decision's title), the members to mention (``members``; ``member_id`` the first),
    whether the fight waits on the GM (``gm``), the window's ``deadline`` and its ``kind``
    (``turn`` or ``reaction``); for a turn or a reaction whose controller is ``/away``,
    whoever stands in is mentioned and ``for_away`` is the away member."""

    encounter: Encounter
    name: str
    member_id: int
    gm: bool
    deadline: datetime
    kind: str = "turn"
    members: tuple[int, ...] = ()
    for_away: int | None = None
    sent_at: datetime | None = None
    """When the reminder was claimed: how long was left then is ``deadline - sent_at`` (a
    reminder says that, not the deadline, which a pause or a waiting decision may move)."""


@dataclass(frozen=True)
class _Waiting:
    name: str
    members: list[int]
    gm: bool
    window_s: float
    for_away: int | None = None


class Reminders:
    """Finds the reminders due and claims each once."""

    def __init__(
        self,
        encounters: EncounterService,
        settings: MemberSettingsService,
        *,
        clock: Callable[[], datetime],
    ) -> None:
        self._encounters = encounters
        self._settings = settings
        self._clock = clock
        # When each window's next point comes, as last computed: a window whose row and
        # encounter have not changed since is not looked at again before then.
        self._next: dict[tuple[int, int, datetime, int], datetime] = {}

    async def due(self) -> list[tuple[int, int]]:
        """``(encounter_id, row id)`` of every running window whose next reminder point has
        come (before the members' quiet hours are considered)."""
        now = self._clock()
        async with self._encounters.db.read() as conn:
            rows = await repo.running(conn, now)
        found: list[tuple[int, int]] = []
        loaded: dict[int, Encounter | None] = {}
        known: dict[tuple[int, int, datetime, int], datetime] = {}
        for row in rows:
            key = (row.id, row.reminded, row.deadline, row.version)
            later = self._next.get(key)
            if later is not None and now < later:
                known[key] = later
                continue
            if row.encounter_id not in loaded:
                loaded[row.encounter_id] = await self._loaded(row.encounter_id)
            encounter = loaded[row.encounter_id]
            if encounter is None:
                continue
            waiting = _waiting(encounter, row)
            if waiting is None:
                known[key] = row.deadline
                continue
            if _points_passed(encounter, row, waiting, now):
                found.append((row.encounter_id, row.id))
            else:
                known[key] = _next_point(encounter, row, waiting)
        self._next = known
        return found

    async def _loaded(self, encounter_id: int) -> Encounter | None:
        """The encounter, or None when its state cannot be rebuilt from its log (issue 15: a
        stored state behind its row is replayed): logged, and no other channel's reminders
        wait on it; its own commands say why."""
        try:
            return await self._encounters.get(encounter_id)
        except UNREADABLE as error:
            log_unreadable(log, encounter_id, error)
            return None

    async def remind(self, encounter_id: int, row_id: int) -> Reminder:
        """Claim the next reminder of window ``row_id`` and say whom to mention. Raises
        :class:`Conflict` when it is not due: sent already (by another pass or process), the
        window closed, the encounter paused (checked again by the claim itself,
        :func:`bot.store.reminders.claim`), or every member it would mention is in their quiet
        hours (it is tried again on the next pass)."""
        now = self._clock()
        encounter = await self._encounters.get(encounter_id)
        async with self._encounters.db.read() as conn:
            row = await repo.get(conn, row_id)
        if row is None or row.deadline <= now or encounter.row.paused:
            raise Conflict(NOT_DUE)
        waiting = _waiting(encounter, row)
        if waiting is None:
            raise Conflict(NOT_DUE)
        passed = _points_passed(encounter, row, waiting, now)
        if not passed:
            raise Conflict(NOT_DUE)
        guild = encounter.row.guild_id
        awake = [
            m for m in waiting.members if not (await self._settings.of(guild, m)).is_quiet(now)
        ]
        if not awake:
            raise Conflict(NOT_DUE)
        async with self._encounters.db.transaction() as conn:
            if not await repo.claim(conn, row_id, row.reminded, passed):
                raise Conflict(NOT_DUE)
        return Reminder(
            encounter,
            waiting.name,
            awake[0],
            waiting.gm,
            row.deadline,
            kind="reaction" if row.kind == REACTION else "turn",
            members=tuple(awake),
            for_away=waiting.for_away,
            sent_at=now,
        )


def _waiting(encounter: Encounter, row: repo.WindowRow) -> _Waiting | None:
    """Who the window waits on, and how long it is; None when the state has moved on."""
    state, gm = encounter.state, encounter.row.gm_id
    if row.kind == REACTION:
        decision = next((d for d in decisions_of(encounter) if d.row_id == row.id), None)
        if decision is None:
            return None
        members = _deciding(encounter, decision)
        window = decision_window_s(state, decision.engine)
        away = _stood_in_for(encounter, decision)
        return _Waiting(decision.title, members, members == [gm], float(window), away)
    current = state.current
    if current is None or state.turn_seq != row.ref:
        return None
    if decisions_of(encounter):
        # The turn waits on a decision (a reaction, an approval): its deadline waits too
        # (:func:`bot.store.turn_timers.due`), and the decision's own reminders go to whoever
        # it waits on — not "it is your turn" to a member who already acted.
        return None
    controller = current.controller_id
    away = controller if controller is not None and controller in encounter.away else None
    return _Waiting(
        current.name,
        [answering(encounter, controller)],
        controller is None,
        float(state.settings.turn_deadline_s),
        away,
    )


def _deciding(encounter: Encounter, decision: Decision) -> list[int]:
    """The members a decision waits on: each decider's controller (the GM for an NPC; for an
    away controller whoever stands in, :func:`~bot.services.acting.answering`), and the GM too
    where a decider has choices only the GM may take (an approval); the GM alone where those
    are all its choices."""
    gm = encounter.row.gm_id
    members: list[int] = []
    for combatant_id, options in decision.deciders.items():
        controller = answering(encounter, decision.people[combatant_id].controller_id)
        gm_only = [o for o in options if o.gm]
        if not options or len(gm_only) < len(options):
            members.append(controller)
        if gm_only:
            members.append(gm)
    return list(dict.fromkeys(members)) or decision.members(gm)


def _stood_in_for(encounter: Encounter, decision: Decision) -> int | None:
    """The first away member whose combatant the decision waits on (its reminder goes to
    whoever stands in, and says for whom), or None."""
    for combatant_id in decision.deciders:
        controller = decision.people[combatant_id].controller_id
        if controller is not None and controller in encounter.away:
            return controller
    return None


def _window_s(row: repo.WindowRow, waiting: _Waiting) -> float:
    """How long the window runs: the setting it was opened with — but never longer than from
    the row's opening to its deadline (a reaction window the GM lengthens while one runs keeps
    its deadline: its points are not placed on the new length, which would have passed)."""
    return min(waiting.window_s, max((row.deadline - row.opened).total_seconds(), 0.0))


def _next_point(encounter: Encounter, row: repo.WindowRow, waiting: _Waiting) -> datetime:
    """When the window's next unsent reminder point comes (its deadline when none is left)."""
    points = remind_before(encounter.state.settings.reminders, _window_s(row, waiting))
    if row.reminded < len(points):
        return row.deadline - timedelta(seconds=points[row.reminded])
    return row.deadline


def _points_passed(
    encounter: Encounter, row: repo.WindowRow, waiting: _Waiting, now: datetime
) -> int:
    """How many reminder points of the window have come by ``now`` when that is more than
    were sent (0 otherwise)."""
    points = remind_before(encounter.state.settings.reminders, _window_s(row, waiting))
    passed = sum(1 for before in points if row.deadline - timedelta(seconds=before) <= now)
    return passed if passed > row.reminded else 0
