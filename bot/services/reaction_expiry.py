"""Reaction windows that ran out, claimed by the expiry loop (issue 16, "Correct across
processes").

The loop asks :meth:`ReactionExpiry.due` for the decisions whose window ran out and expires each
group with :meth:`ReactionExpiry.fire`. ``due`` claims them
(:func:`bot.store.expiry.claim_due_reactions`) for this process: with several bot processes on
one database each passed window is handed to exactly one of them, and the others do not even
try it. ``fire`` lets the claim go (:func:`bot.store.expiry.release_reactions`) when expiring
fails, so the next pass of any process tries again at once; a claim whose process died before
expiring lapses by itself after :data:`bot.store.expiry.LEASE`. The expiry itself stays one
versioned change under the channel's lock (:meth:`bot.services.combat.CombatService.expire`),
so a window settled meanwhile by a click, an undo or a pause is refused, not expired.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Generic, TypeVar

from bot.errors import RulesVersionUnknown
from bot.services.encounters import EncounterService
from bot.store import expiry

Result = TypeVar("Result")

log = logging.getLogger(__name__)


class ReactionExpiry(Generic[Result]):
    """Claims and fires passed reaction windows. ``expire(encounter_id, pending_version)``
    lapses the decisions that opened at that version and returns the result (raising
    :class:`~bot.errors.Conflict` once nothing is due there any more); ``clock`` is the
    services' injected clock."""

    def __init__(
        self,
        encounters: EncounterService,
        expire: Callable[[int, int], Awaitable[Result]],
        clock: Callable[[], datetime],
    ) -> None:
        self._encounters = encounters
        self._expire = expire
        self._clock = clock
        self.claimer = f"reactions-{uuid.uuid4().hex[:12]}"
        """This service's name in the expiry claims (one per process)."""

    async def due(self) -> list[tuple[int, int]]:
        """``(encounter_id, pending_version)`` of the decisions whose window ran out by the
        clock and that this service claimed (until ``now`` + :data:`bot.store.expiry.LEASE`),
        soonest deadline first, once per pair (decisions opened by one change lapse together).
        A decision another process holds a live claim on is left out; one claimed here is not
        handed out again until its claim is let go or lapses. A pass with nothing due writes
        nothing."""
        now = self._clock()
        seen = await self._encounters.due_decisions(now)
        if not seen:
            return []
        async with self._encounters.db.transaction() as conn:
            claimed = await expiry.claim_due_reactions(conn, now, self.claimer)
        pairs = list(dict.fromkeys((c.encounter_id, c.opened_version) for c in claimed))
        if len(pairs) < len(seen):
            log.info(
                "%d of %d passed reaction window(s) were claimed meanwhile by another pass or"
                " process",
                len(seen) - len(pairs),
                len(seen),
            )
        return pairs

    async def fire(self, encounter_id: int, pending_version: int) -> Result:
        """Expire the decisions of ``encounter_id`` that opened at ``pending_version``; when that
        raises (refused, or a failure), let this service's claims on them go first so the next
        pass of any process may try again at once, then re-raise. For a fight a newer bot saved
        (:class:`~bot.errors.RulesVersionUnknown`) the claims are kept: this version cannot
        expire it however often it tries, so it tries again only when they lapse
        (:data:`bot.store.expiry.LEASE`), not on every pass."""
        try:
            return await self._expire(encounter_id, pending_version)
        except RulesVersionUnknown:
            raise
        except Exception:
            with contextlib.suppress(Exception):  # else the claims lapse by themselves (LEASE)
                async with self._encounters.db.transaction() as conn:
                    await expiry.release_reactions(
                        conn, encounter_id, pending_version, self.claimer
                    )
            raise
