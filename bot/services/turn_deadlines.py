"""Turn deadlines fired by the expiry loop (issue 17, "Turn deadlines").

The loop asks :meth:`TurnDeadlines.due` for the passed deadlines and fires each with
:meth:`TurnDeadlines.fire`: the GM's chosen action (``turn_deadline_action``,
:data:`bot.engine.core.pacing.DeadlineAction`) happens at most once, whichever pass or
process gets there first. The next turn's deadline starts when this one fires, so after a long
outage only the first overdue deadline fires (nobody is skipped in a cascade).
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.engine.core.audience import PUBLIC
from bot.errors import Conflict, DomainError
from bot.services.encounters import Encounter, EncounterService
from bot.store import default_actions, expiry, turn_timers

log = logging.getLogger(__name__)

NOT_DUE = "That turn deadline is no longer due (the turn ended, or the fight was paused)."


@dataclass(frozen=True)
class TurnLapse:
    """A turn deadline that fired: the encounter afterwards, the combatant whose turn it was
    (``name``), what happened (``action``) and, when the turn ended, the result to announce."""

    encounter: Encounter
    name: str
    action: str
    result: Any = None
    default: str | None = None
    refused: str | None = None
    """``default``: the label of the default action the combatant was set to take; ``refused``:
    why the rules did not allow it then (the turn just ended)."""
    refused_public: bool = True
    """Whether the channel may read ``refused``: the rules' reason speaks of the combatant's
    numbers (breathers left, actions), so it is the channel's only when the channel may see
    them (:meth:`~bot.engine.core.audience.View.reveals`); else only the GM is told it."""


class TurnDeadlines:
    """Fires turn deadlines. ``end_turn(encounter_id, turn_seq)`` ends that turn as the GM's
    ``/gm next`` does and returns the combat result (raising :class:`Conflict` once the turn is
    over); ``clock`` is the services' injected clock."""

    def __init__(
        self,
        encounters: EncounterService,
        end_turn: Callable[[int, int], Awaitable[Any]],
        clock: Callable[[], datetime],
        *,
        default_turn: Callable[[int, int, str], Awaitable[Any]] | None = None,
    ) -> None:
        self._encounters = encounters
        self._end_turn = end_turn
        self._default_turn = default_turn
        self._clock = clock
        self.claimer = f"turns-{uuid.uuid4().hex[:12]}"
        """This service's name in the expiry claims (one per process)."""

    async def running(self, encounter_id: int) -> datetime | None:
        """When the encounter's running turn deadline passes; None when it has none, or its
        clock stands still (the fight is paused, or a decision waits)."""
        async with self._encounters.db.read() as conn:
            timer = await turn_timers.open_timer(conn, encounter_id)
        return timer.deadline if timer is not None else None

    async def due(self) -> list[tuple[int, int]]:
        """``(encounter_id, timer id)`` of the turn deadlines passed by the clock that this
        service claimed (:func:`bot.store.expiry.claim_due_turns`): with several bot processes
        on one database each passed deadline goes to one of them. A pass with nothing due
        writes nothing."""
        now = self._clock()
        async with self._encounters.db.read() as conn:
            seen = await turn_timers.due(conn, now)
        if not seen:
            return []
        async with self._encounters.db.transaction() as conn:
            claimed = await expiry.claim_due_turns(conn, now, self.claimer)
        if len(claimed) < len(seen):
            log.info(
                "%d of %d due turn deadline(s) were claimed meanwhile by another pass or process",
                len(seen) - len(claimed),
                len(seen),
            )
        return [(c.encounter_id, c.id) for c in claimed]

    async def fire(self, encounter_id: int, timer_id: int) -> TurnLapse:
        """:meth:`_fire`, letting this service's claim on ``timer_id`` go when it raises (so
        the next pass, of any process, may try again at once)."""
        try:
            return await self._fire(encounter_id, timer_id)
        except Exception:
            with contextlib.suppress(Exception):  # else the claim lapses by itself (LEASE)
                async with self._encounters.db.transaction() as conn:
                    await expiry.release(conn, timer_id, self.claimer)
            raise

    async def _fire(self, encounter_id: int, timer_id: int) -> TurnLapse:
        """Apply the GM's action for the passed deadline ``timer_id``: end the turn (as
        ``/gm next``), tell the GM only, or have the combatant take the default action the GM
        set for it and end the turn (one without a default, or whose default the rules refuse
        then, just ends its turn; the lapse says which and why). Raises :class:`Conflict` when
        it is no longer due (fired already, the turn ended, the fight was paused meanwhile)."""
        async with self._encounters.db.read() as conn:
            timer = await turn_timers.get(conn, timer_id)
        now = self._clock()
        if timer is None or timer.deadline is None or timer.deadline > now:
            raise Conflict(NOT_DUE)
        encounter = await self._encounters.get(encounter_id)
        state = encounter.state
        current = state.current
        if encounter.row.paused or current is None or state.turn_seq != timer.ref:
            raise Conflict(NOT_DUE)
        if state.settings.turn_deadline_action == "notify_gm":
            async with self._encounters.db.transaction() as conn:
                if not await turn_timers.close(conn, timer_id, now):
                    raise Conflict(NOT_DUE)
            return TurnLapse(encounter, current.name, "notify_gm")
        default, refused = None, None
        if state.settings.turn_deadline_action == "default_action":
            async with self._encounters.db.read() as conn:
                key = (await default_actions.of_encounter(conn, encounter_id)).get(current.id)
            offered = encounter.rules.deadline_actions(state, current) if key else []
            spec = next((a for a in offered if a.key == key), None)
            if spec is not None and self._default_turn is not None:
                default = spec.label
                try:
                    result = await self._default_turn(encounter_id, timer.ref, spec.key)
                except Conflict:
                    raise
                except DomainError as error:  # the rules refuse it now: the turn just ends
                    refused = str(error)
                else:
                    return TurnLapse(
                        result.encounter, current.name, "default_action", result, default
                    )
        result = await self._end_turn(encounter_id, timer.ref)
        public = encounter.rules.view(state, PUBLIC).reveals(current.id)
        return TurnLapse(
            result.encounter, current.name, "end_turn", result, default, refused, public
        )
