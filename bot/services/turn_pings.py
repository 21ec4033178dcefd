"""The turn pings that still carry buttons (issue 17, "Act from the ping"; ``turn_pings``,
migration 0020).

A message that says it is a combatant's turn carries End turn, the breather and Attack… for
that turn (:mod:`bot.ui.turn_view`). Once the turn is over — however it ended: one of its own
buttons, a typed command, ``/gm next``, a passed deadline, the end of the fight — the ping
should not offer them any more (a press would only be refused). The presentation records each
ping it posts (:meth:`TurnPings.posted`) and, after each change in the channel, asks which are
over (:meth:`TurnPings.over`), takes their buttons off and forgets them
(:meth:`TurnPings.forget`). Kept in the database, so a ping posted before a restart still loses
its buttons after it.

Each posted result also records the turn it showed (:meth:`TurnPings.announced`, table
``turn_announced``): the bot commits a change before it posts it, and a bot stopped in between
posted nobody's turn. At start-up :meth:`TurnPings.owed` tells the fights whose running turn
was never shown, and the presentation posts its ping
(:meth:`bot.ui.turn_pings.TurnPingKeeper.recover`). Posting it is claimed first
(:meth:`TurnPings.claim`), so two processes never both post it; the claim is a lease
(:data:`LEASE`): a process killed between claiming and posting leaves a claim that lapses, and
the turn is owed again — at the next start, or to the background loop of any process
(:meth:`TurnPings.lapsed`).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from bot.errors import NotFound
from bot.services.encounters import Encounter, EncounterService
from bot.store import turn_pings as repo
from bot.store.turn_pings import TurnPing

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)
"""How long a claim on a lost turn's ping holds (:meth:`TurnPings.claim`) before the turn is owed
again to any process: longer than a post may take (:data:`bot.ui.turn_pings.POST_BOUND`), so a
claim's process that is alive posts (or gives up) before it lapses."""


def _owed(running: int, noted: int | None, claim: str | None, now: datetime) -> bool:
    """Whether the running turn ``running`` is owed its ping: another turn was noted shown, or
    this one was claimed by a process whose claim lapsed at ``now``."""
    return noted != running or repo.lapsed(claim, now)


class TurnPings:
    """Records turn pings and tells which ones are over."""

    def __init__(self, encounters: EncounterService) -> None:
        self._encounters = encounters

    async def posted(
        self,
        encounter: Encounter,
        message_id: int,
        content: str | None = None,
        deadline_words: str | None = None,
    ) -> None:
        """``message_id`` was posted with the buttons of ``encounter``'s current turn, reading
        ``content``, whose ``deadline_words`` say when the turn's deadline passes (empty: it
        says nothing of one)."""
        ping = TurnPing(
            message_id,
            encounter.id,
            encounter.row.channel_id,
            encounter.state.turn_seq,
            content,
            deadline_words,
        )
        async with self._encounters.db.transaction() as conn:
            await repo.put(conn, ping)

    async def running(
        self, channel_id: int, *, worded: bool = True
    ) -> tuple[Encounter, list[TurnPing]] | None:
        """The channel's live fight and its recorded pings of the turn running now that say
        when its deadline passes — the deadline moves (a pause, a decision that waits), so the
        presentation rewords them; None when there are none. ``worded=False``: every recorded
        ping of the running turn (those :meth:`over` does not list)."""
        async with self._encounters.db.read() as conn:
            pings = await repo.of_channel(conn, channel_id)
        if worded:
            pings = [p for p in pings if p.deadline_words]
        if not pings:
            return None
        try:
            encounter = await self._encounters.live(channel_id)
        except NotFound:
            return None
        if encounter.state.phase != "active":
            return None
        now = (encounter.id, encounter.state.turn_seq)
        running = [p for p in pings if (p.encounter_id, p.turn_seq) == now]
        return (encounter, running) if running else None

    async def reworded(self, message_id: int, content: str, deadline_words: str) -> None:
        """The ping ``message_id`` was edited to read ``content`` (``deadline_words`` in it)."""
        async with self._encounters.db.transaction() as conn:
            await repo.reworded(conn, message_id, content, deadline_words)

    async def over(self, channel_id: int) -> list[TurnPing]:
        """The channel's recorded pings whose turn is not the one running now: of another
        encounter than the channel's live fight (it ended), of a fight not running (set up
        again, finished), or of another turn (an earlier one; or one ``/gm undo`` took back).
        The fight is read after the pings, so a ping recorded meanwhile is not among them and
        one recorded before is compared with a state at least as new as its own."""
        async with self._encounters.db.read() as conn:
            pings = await repo.of_channel(conn, channel_id)
        if not pings:
            return []
        try:
            encounter = await self._encounters.live(channel_id)
        except NotFound:
            return pings
        if encounter.row.status != "live" or encounter.state.phase != "active":
            return pings
        now = (encounter.id, encounter.state.turn_seq)
        return [p for p in pings if (p.encounter_id, p.turn_seq) != now]

    async def forget(self, message_id: int) -> None:
        """The ping ``message_id`` has no buttons any more (or is gone)."""
        async with self._encounters.db.transaction() as conn:
            await repo.remove(conn, message_id)

    async def channels(self) -> list[int]:
        """The channels with turn pings recorded with their buttons that may be over
        (:func:`bot.store.turn_pings.channels`: a ping of the turn running now is left out)."""
        async with self._encounters.db.read() as conn:
            return await repo.channels(conn)

    async def announced(self, encounter: Encounter) -> None:
        """A result of ``encounter`` was posted: it showed the turn running in it (or none)."""
        async with self._encounters.db.transaction() as conn:
            await repo.announced(conn, encounter.id, encounter.state.turn_seq)

    async def owed(self) -> list[tuple[int, int]]:
        """``(channel_id, turn_seq)`` of each live fight whose running turn (``turn_seq``) no
        posted result showed: the bot stopped between committing the change that began it and
        posting it — or a process claimed its ping and did not post it before the claim lapsed
        (:data:`LEASE`: it died, or its post hung). A fight whose state cannot be read is
        logged and left out."""
        now = self._encounters.now()
        async with self._encounters.db.read() as conn:
            candidates = await repo.maybe_unannounced(conn, now)
        owed: list[tuple[int, int]] = []
        for channel_id, seq, claim in candidates:
            encounter = await self._running(channel_id)
            if encounter is not None and _owed(encounter.state.turn_seq, seq, claim, now):
                owed.append((channel_id, encounter.state.turn_seq))
        return owed

    async def lapsed(self) -> list[tuple[int, int]]:
        """``(channel_id, turn_seq)`` of each live fight whose lost turn's ping a process
        claimed and did not post before its claim lapsed, and whose turn still runs unshown —
        what a claim's process that died leaves to the others' background loops (by the index
        on claimed rows: cheap when there are none)."""
        async with self._encounters.db.read() as conn:
            channels = await repo.lapsed_claims(conn, self._encounters.now())
        owed: list[tuple[int, int]] = []
        for channel_id in channels:
            encounter = await self._running(channel_id)
            if encounter is not None:
                owed.append((channel_id, encounter.state.turn_seq))
        return owed

    async def still_owed(
        self, channel_id: int, turn_seq: int
    ) -> tuple[Encounter, int | None] | None:
        """The channel's fight, and the turn noted in it (None: none), when its running turn is
        still ``turn_seq`` and still not shown — nor claimed by a process whose claim holds (a
        change since, posted by its own command, showed what runs now); else None."""
        encounter = await self._running(channel_id)
        if encounter is None or encounter.state.turn_seq != turn_seq:
            return None
        now = self._encounters.now()
        async with self._encounters.db.read() as conn:
            for candidate, seq, claim in await repo.maybe_unannounced(conn, now):
                if candidate == channel_id:
                    return (encounter, seq) if _owed(turn_seq, seq, claim, now) else None
        return None

    async def claim(self, encounter: Encounter, was: int | None, claimer: str) -> str | None:
        """Claim the post of ``encounter``'s running turn's ping for ``claimer`` until
        :data:`LEASE` from now, if the turn noted is still ``was`` and no other claim holds:
        the claim (for :meth:`confirm` or :meth:`release`) when this process is the one to post
        it (several processes on one database each look), else None. A claim not confirmed in
        time lapses, and the turn is owed again (:meth:`owed`, :meth:`lapsed`)."""
        now = self._encounters.now()
        claim = repo.lease(now + LEASE, claimer)
        async with self._encounters.db.transaction() as conn:
            seq = encounter.state.turn_seq
            taken = await repo.claim_announced(conn, encounter.id, was, seq, claim, now)
        return claim if taken else None

    async def confirm(self, encounter: Encounter, claim: str) -> None:
        """The ping :meth:`claim` claimed was posted: its turn is shown."""
        async with self._encounters.db.transaction() as conn:
            await repo.confirm_announced(conn, encounter.id, encounter.state.turn_seq, claim)

    async def release(self, encounter: Encounter, claim: str) -> None:
        """The ping :meth:`claim` was for could not be posted: the turn is owed again at once."""
        async with self._encounters.db.transaction() as conn:
            await repo.release_announced(conn, encounter.id, encounter.state.turn_seq, claim)

    async def _running(self, channel_id: int) -> Encounter | None:
        """The channel's live fight when a turn runs in it."""
        try:
            encounter = await self._encounters.live(channel_id)
        except NotFound:
            return None
        except Exception:
            log.exception("the fight in channel %s could not be read", channel_id)
            return None
        state = encounter.state
        if state.phase != "active" or state.current is None:
            return None
        return encounter
