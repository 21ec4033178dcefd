"""The database server's clock as every process sharing a database reads it
(:class:`bot.store.server_clock.ServerClock`): the server's time, run on by the host's
monotonic clock between readings, read again when due, never going back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store.server_clock import RESYNC_S, RETRY_S, ServerClock

START = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


class Host:
    """The host's monotonic clock and a server whose clock the test sets."""

    def __init__(self) -> None:
        self.monotonic = 1000.0
        self.server = START
        self.reads = 0
        self.fails = False

    async def read(self) -> datetime:
        self.reads += 1
        if self.fails:
            raise OSError("the server went away")
        return self.server


async def test_it_reads_the_server_and_runs_on_by_the_monotonic_clock() -> None:
    host = Host()
    clock = ServerClock(host.read, monotonic_s=lambda: host.monotonic)
    with pytest.raises(RuntimeError):
        clock()
    await clock.sync()
    assert clock() == START
    host.monotonic += 90
    assert clock() == START + timedelta(seconds=90)
    await clock.sync_if_due()  # not due yet
    assert host.reads == 1

    # Read again when due; a reading a little behind holds the clock until it catches up.
    host.monotonic += RESYNC_S
    assert clock() == START + timedelta(seconds=90 + RESYNC_S)
    host.server = START + timedelta(seconds=90 + RESYNC_S - 2)
    await clock.sync_if_due()
    assert host.reads == 2
    assert clock() == START + timedelta(seconds=90 + RESYNC_S)
    host.monotonic += 3
    assert clock() == START + timedelta(seconds=90 + RESYNC_S + 1)

    # A failed reading keeps the last one.
    host.monotonic += RESYNC_S
    host.fails = True
    await clock.sync_if_due()
    assert clock() == START + timedelta(seconds=90 + 2 * RESYNC_S + 1)
    # ... and is not tried again on every pass of the background loop (each second: each try
    # waited for the unreachable database and logged a traceback), but RETRY_S later.
    reads = host.reads
    for _ in range(5):
        host.monotonic += 1
        await clock.sync_if_due()
    assert host.reads == reads
    host.monotonic += RETRY_S
    host.fails = False
    host.server = START + timedelta(seconds=90 + 2 * RESYNC_S + 1 + 5 + RETRY_S + 60)
    await clock.sync_if_due()
    assert host.reads == reads + 1
    assert clock() == host.server


@pytest.mark.parametrize("answered_after", [0.0, 0.25, 1.0])
async def test_a_slow_round_trip_never_puts_it_ahead_of_the_server(answered_after: float) -> None:
    """The server reads its clock somewhere in a round trip of 2 s (a loaded host: the pool
    slow to give a connection, the answer slow to be read): ``answered_after`` of the way in.
    The clock is never ahead of the server's (a turn dated by it is never after a command sent
    for it, a deadline never found passed early), and at most the round trip behind. Taking the
    middle of the round trip as the reading's moment put it 1 s ahead when the server read its
    clock at the end."""
    rtt = 2.0
    host = Host()
    true_offset = START.timestamp() - 5000.0  # the server's time minus the host's monotonic

    async def read() -> datetime:
        host.monotonic += rtt * answered_after
        moment = datetime.fromtimestamp(host.monotonic + true_offset, UTC)
        host.monotonic += rtt * (1 - answered_after)
        return moment

    host.monotonic = 5000.0
    clock = ServerClock(read, monotonic_s=lambda: host.monotonic)
    await clock.sync()
    for later in (0.0, 0.5, 90.0):
        host.monotonic += later
        server_now = datetime.fromtimestamp(host.monotonic + true_offset, UTC)
        assert server_now - timedelta(seconds=rtt) <= clock() <= server_now


async def test_it_cuts_time_to_the_microsecond_below() -> None:
    """Run on by the monotonic clock, the time falls between two microseconds; it is cut to the
    one below — rounding to the nearest (``datetime.fromtimestamp``) put it up to half a
    microsecond ahead of the server's, which could carry an issue mark dated by it into the
    next millisecond (:class:`bot.services.issue_marks.IssueMarks`)."""
    host = Host()
    clock = ServerClock(host.read, monotonic_s=lambda: host.monotonic)
    await clock.sync()
    host.monotonic += 0.0009997  # 999.7 microseconds
    assert clock() == START + timedelta(microseconds=999)
