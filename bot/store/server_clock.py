"""The database server's clock, for every process that shares one database (PostgreSQL).

A bot process compares its clock with times other processes wrote: a reaction window's or a
turn's deadline (due when it is past), a claim's lease (lapsed), a row's ``updated_at`` (how
long ago a change was made), a closed decision's ``closed_at`` — and dates what a change begins
with an issue mark on Discord's clock (:mod:`bot.services.issue_marks`), which a process that
has seen no interaction of its own takes from its clock. Each host's clock is its own: one a
few minutes ahead of the others' (and of Discord's) would fire the others' deadlines early,
take their claims for lapsed, and date a turn its expiry loop began minutes in the future — so
every command sent for that turn, delivered to the process serving its channel, was refused as
meant for the turn before ("That turn already ended") until the host's clock caught up.

So processes that share a database read one clock: the database server's. :class:`ServerClock`
reads it (``clock_timestamp()``) at start-up and again every :data:`RESYNC_S` seconds (the bot's
background loop), and in between runs it on by this host's monotonic clock — never its wall
clock, which may be off or stepped. It never goes back (a later reading that is a little
earlier holds it until it catches up), and never runs ahead of the server's: a reading is
taken as made at the end of its round trip, the latest it can have been made, and time is
cut to the microsecond below, not rounded — so a deadline is never found passed before it
has, a claim's lease never lapsed early, and a turn a process dates by this clock (issue
marks, before it has seen an interaction) never dated after a command sent for it. It is
behind by at most the round trip of its last reading."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from time import monotonic

log = logging.getLogger(__name__)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

RESYNC_S = 300.0
"""Seconds between two readings of the server's clock (the monotonic clock drifts little)."""
RETRY_S = 30.0
"""Seconds before a failed reading is tried again (the database unreachable: each try may
wait for the connection's timeout, and logs a warning)."""


class ServerClock:
    """``clock()``: the database server's time now, an aware UTC datetime (the services'
    ``clock``). ``read`` reads the server's clock; :meth:`sync` must have run once."""

    def __init__(
        self,
        read: Callable[[], Awaitable[datetime]],
        *,
        monotonic_s: Callable[[], float] = monotonic,
    ) -> None:
        self._read = read
        self._monotonic = monotonic_s
        self._offset: float | None = None  # server's Unix seconds minus this host's monotonic
        self._synced_at = -math.inf
        self._last = -math.inf

    async def sync(self) -> None:
        """Read the server's clock. Raises what the database raises.

        The server read its clock somewhere in the round trip; it is taken as the end, never
        the middle: a reading made at the start of a slow round trip (a loaded host, an event
        loop slow to resume) put this clock half the round trip ahead of the server's, so a
        turn it dated was refused to the commands members sent for it in that time ("That
        turn already ended"), and deadlines fired that early."""
        server = await self._read()
        after = self._monotonic()
        self._offset = server.timestamp() - after
        self._synced_at = after

    async def sync_if_due(self) -> None:
        """:meth:`sync` when the last reading is :data:`RESYNC_S` seconds old. Never raises (a
        failed reading keeps the last one, and is tried again :data:`RETRY_S` seconds later —
        not on every pass of the background loop, each waiting for the database and logging)."""
        if self._monotonic() - self._synced_at < RESYNC_S:
            return
        try:
            await self.sync()
        except Exception:
            self._synced_at = self._monotonic() - RESYNC_S + RETRY_S
            log.warning(
                "could not read the database server's clock; keeping the last reading, trying "
                "again in %.0f s",
                RETRY_S,
                exc_info=True,
            )

    def __call__(self) -> datetime:
        if self._offset is None:
            raise RuntimeError("ServerClock.sync() has not run")
        self._last = max(self._last, self._monotonic() + self._offset)
        # Cut to the microsecond below: fromtimestamp rounds to the nearest one (up to 0.5 us
        # ahead), which can carry an issue mark into the next millisecond.
        return _EPOCH + timedelta(microseconds=math.floor(self._last * 1_000_000))
