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
