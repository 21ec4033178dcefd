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
earlier holds it until it catches up)."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from time import monotonic

log = logging.getLogger(__name__)

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
        """Read the server's clock (the middle of the round trip is taken as when it answered).
        Raises what the database raises."""
        before = self._monotonic()
        server = await self._read()
        after = self._monotonic()
        self._offset = server.timestamp() - (before + after) / 2
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
        return datetime.fromtimestamp(self._last, UTC)
