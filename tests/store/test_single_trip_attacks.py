"""Attacks on the single-trip write path (issue 15, bot/store/db.py): cancellation at each await
of the units' path, close() racing units, transactions arriving while a batch is in flight and
units wait for the next, a storage fault or a BaseException in a batch with units waiting behind
it, and the catch-up checkpoint racing the background one.

Real tasks on a real SQLite file. Trips are held on the database thread with threading events
(never a fixed sleep), and every wait is bounded by ``asyncio.timeout``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import bot.store.db as sqlite_store
from bot.errors import StorageUnavailable
from bot.store.db import Database
from tests.store.test_group_commit import queued
from tests.store.test_single_trip import (
    Statements,
    committed,
    count_trips,
    insert,
    queued_behind_the_lock,
    turns,
    unit,
)
from tests.store.test_storage_faults import fill_up, make_room

LIMIT = 5.0


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "attack.sqlite3")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
    try:
        yield database
    finally:
        async with asyncio.timeout(LIMIT):
            await database.close()


def transaction_writer(db: Database, name: str) -> asyncio.Task[None]:
    """A task inserting ``name`` in a whole transaction (not a single-trip unit)."""

    async def whole() -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert(name))

    return asyncio.create_task(whole())


async def released_with_a_transaction(
    db: Database, gate: Gate, tasks: list[asyncio.Task[list[int]]], *, queue: bool
) -> tuple[list[Any], set[str]]:
    """A whole transaction inserting "t" (queued on the writer lock first when ``queue``), then
    the gate released: the writers' outcomes, once the transaction and a unit inserting "after"
    went through, and the names stored."""
    transaction = transaction_writer(db, "t")
    if queue:
        await queued(db, 1)
    gate.release.set()
    results = await outcomes(tasks)
    async with asyncio.timeout(LIMIT):
        await transaction
        assert await unit(db, [insert("after")]) == [1]
    return results, await committed(db)


class Held:
    """Something held on the database thread: :attr:`entered` is set once it is held there,
    and it goes on when :attr:`release` is set."""

    def __init__(self) -> None:
        self.entered, self.release = threading.Event(), threading.Event()

    def hold(self) -> None:
        """On the database thread: say it is held, and wait (bounded) to be released."""
        self.entered.set()
        self.release.wait(LIMIT)

    async def wait_entered(self) -> None:
        async with asyncio.timeout(LIMIT):
            await asyncio.to_thread(self.entered.wait, LIMIT)
        assert self.entered.is_set()


class HeldBegin(Held):
    """Holds the next BEGIN (``_begin``) on the database thread until :attr:`release` is set
    (:attr:`entered` once it is held); :meth:`restore` puts the plain BEGIN back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__()
        self._monkeypatch = monkeypatch
        self._begin = begin = sqlite_store._begin

        def slow_begin(conn: sqlite3.Connection, catch_up: bool) -> None:
            self.hold()
            begin(conn, catch_up)

        monkeypatch.setattr(sqlite_store, "_begin", slow_begin)

    def restore(self) -> None:
        self._monkeypatch.setattr(sqlite_store, "_begin", self._begin)


class Gate(Held):
    """Holds the first batch trip (``_run_units``) on the database thread until released."""

    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, fail: Callable[[int], Any] | None = None
    ) -> None:
        super().__init__()
        self.trips = 0
        self.fail = fail
        run_units = sqlite_store._run_units

        def gated(conn: sqlite3.Connection, units: Any, catch_up: bool = False) -> Any:
            self.trips += 1
            trip = self.trips
            if trip == 1:
                self.hold()
            if self.fail is not None:
                self.fail(trip)
            return run_units(conn, units, catch_up)

        monkeypatch.setattr(sqlite_store, "_run_units", gated)


async def two_batches(
    db: Database, gate: Gate, first: list[Statements], second: list[Statements]
) -> list[asyncio.Task[list[int]]]:
    """Submit the units ``first`` while the writer lock is held, so they queue and go as one
    batch (``max_group`` is set to fit) whose trip the gate holds on the database thread; then
    the units ``second``, which wait for the next batch (one trip at a time). Their tasks, in
    that order."""
    db.max_group = max(len(first), len(second))
    tasks = await queued_behind_the_lock(db, first)
    await gate.wait_entered()
    await turns(lambda: not db._units)
    tasks += [unit(db, statements) for statements in second]
    await turns(lambda: len(db._units) == len(second))
    return tasks


def inserts(names: list[str]) -> list[Statements]:
    return [[insert(name)] for name in names]


async def outcomes(tasks: list[asyncio.Task[Any]]) -> list[Any]:
    async with asyncio.timeout(LIMIT):
        return await asyncio.gather(*tasks, return_exceptions=True)


def check_truthful(names: list[str], results: list[Any], stored: set[str]) -> None:
    """Every writer told "done" has its row stored; none told it failed has it stored."""
    for name, result in zip(names, results, strict=True):
        if isinstance(result, list):
            assert name in stored, (name, result, stored)
        elif not isinstance(result, asyncio.CancelledError):
            assert name not in stored, (name, result, stored)


# --- a whole transaction's writer cancelled during its BEGIN trip -------------------------


async def test_a_transaction_writer_cancelled_during_its_begin_leaves_no_open_transaction(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The BEGIN goes on running on the database thread after its writer is cancelled; the
    connection must not be left inside a transaction nobody owns, or every later write (units
    and transactions) fails with "cannot start a transaction within a transaction"."""
    held = HeldBegin(monkeypatch)

    async def cancelled_writer() -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert("cancelled"))

    task = asyncio.create_task(cancelled_writer())
    async with asyncio.timeout(LIMIT):
        await asyncio.to_thread(held.entered.wait, LIMIT)
    task.cancel()
    await turns(task.done)
    held.restore()
    held.release.set()
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [insert("unit after")]) == [1]
        async with db.transaction() as conn:
            await conn.execute(*insert("transaction after"))
    assert await committed(db) == {"unit after", "transaction after"}


async def test_a_writer_queued_behind_one_cancelled_during_its_begin_commits(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The group the cancelled writer's BEGIN opened is handed to the writer queued behind it."""
    held = HeldBegin(monkeypatch)

    async def writer(name: str) -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert(name))

    cancelled = asyncio.create_task(writer("cancelled"))
    async with asyncio.timeout(LIMIT):
        await asyncio.to_thread(held.entered.wait, LIMIT)
    kept = asyncio.create_task(writer("kept"))
    await queued(db, 1)
    cancelled.cancel()
    await turns(cancelled.done)
    held.release.set()
    async with asyncio.timeout(LIMIT):
        await kept
        assert await unit(db, [insert("unit after")]) == [1]
    assert await committed(db) == {"kept", "unit after"}


# --- cancellation along _submit / _take_lock / a batch in flight --------------------------


async def test_every_writer_cancelled_while_a_batch_runs(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The units of the batch on the thread were taken: they commit with it. The units still
    waiting for the next batch write nothing. Every writer is told CancelledError."""
    gate = Gate(monkeypatch)
    first, second = [f"a{i}" for i in range(3)], [f"b{i}" for i in range(3)]
    tasks = await two_batches(db, gate, inserts(first), inserts(second))
    for task in tasks:
        task.cancel()
    await turns(lambda: all(task.done() for task in tasks))  # the waiting units withdrawn
    gate.release.set()
    results = await outcomes(tasks)
    assert all(isinstance(r, asyncio.CancelledError) for r in results), results
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [insert("after")]) == [1]
    assert await committed(db) == {*first, "after"}


async def test_the_committer_cancelled_while_units_wait_for_the_lock(db: Database) -> None:
    """Shutdown cancels every task: the committer, waiting for the writer lock behind a whole
    transaction with units queued, is cancelled. The units are told nothing was written (true),
    the transaction commits, and the database goes on working."""
    release = asyncio.Event()

    async def holder() -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert("t"))
            await release.wait()

    held = asyncio.create_task(holder())
    await turns(lambda: db._conn.savepoint_sent)
    names = [f"u{i}" for i in range(3)]
    tasks = [unit(db, [insert(n)]) for n in names]
    await turns(lambda: db._committer is not None and len(db._units) == 3)
    committer = db._committer
    assert committer is not None
    committer.cancel()
    await turns(committer.done)
    release.set()
    results = await outcomes(tasks)
    async with asyncio.timeout(LIMIT):
        await held
        assert await unit(db, [insert("after")]) == [1]
    assert all(isinstance(r, RuntimeError) for r in results), results
    assert await committed(db) == {"t", "after"}
    assert db._committer is None and not db._units


async def test_units_that_come_while_a_batch_runs_are_taken_by_the_database_thread(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database thread takes the next batch itself when a COMMIT returns (no hand-off
    through the event loop, whatever that is busy with); a writer cancelled before then has
    withdrawn its unit, which is not written."""
    gate = Gate(monkeypatch)
    trips = count_trips(db, monkeypatch)
    first, second = ["a0", "a1"], ["b0", "b1", "b2"]
    tasks = await two_batches(db, gate, inserts(first), inserts(second))
    tasks[-1].cancel()
    await turns(tasks[-1].done)
    gate.release.set()
    results = await outcomes(tasks)
    assert results[:4] == [[1]] * 4 and isinstance(results[4], asyncio.CancelledError), results
    assert gate.trips == 2 and len(trips) == 1, (gate.trips, trips)
    assert await committed(db) == {"a0", "a1", "b0", "b1"}


# --- close() racing units -----------------------------------------------------------------


@pytest.mark.parametrize("when", ["while close waits for the committer", "once close has the lock"])
async def test_a_unit_submitted_while_close_runs_is_resolved_when_close_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    db = await Database.open(tmp_path / "closing.sqlite3")
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
    gate = Gate(monkeypatch)
    first = unit(db, [insert("first")])
    await gate.wait_entered()
    closing = asyncio.create_task(db.close())
    await asyncio.sleep(0)
    late: asyncio.Task[list[int]]
    if when == "while close waits for the committer":
        late = unit(db, [insert("late")])
        await asyncio.sleep(0)
        gate.release.set()
    else:  # close holds the writer lock, closing the writer connection
        closing_raw, go_on = asyncio.Event(), asyncio.Event()
        close_raw = db._raw.close

        async def held_close() -> None:
            closing_raw.set()
            await go_on.wait()
            await close_raw()

        monkeypatch.setattr(db._raw, "close", held_close)
        gate.release.set()
        async with asyncio.timeout(LIMIT):
            await closing_raw.wait()
        late = unit(db, [insert("late")])
        await asyncio.sleep(0)
        go_on.set()
    async with asyncio.timeout(LIMIT):
        await closing
    assert late.done(), "close() returned with a unit still pending"
    assert db._committer is None, "close() returned with the committer still running"
    results = await outcomes([first, late])
    assert results[0] == [1]
    reopened = await Database.open(db.path)
    try:
        check_truthful(["first", "late"], results, await committed(reopened))
    finally:
        await reopened.close()


# --- a whole transaction arriving while a batch runs and units wait --------------------


async def test_a_transaction_arriving_while_a_batch_runs_goes_before_the_units_waiting(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It waits for the batch on the thread (never interleaved with it), then runs alone; the
    units that waited (and those that came after it) go once it has committed."""
    gate = Gate(monkeypatch)
    first, second = [f"a{i}" for i in range(3)], [f"b{i}" for i in range(3)]
    tasks = await two_batches(db, gate, inserts(first), inserts(second))
    seen: list[int] = []

    async def whole() -> None:
        async with db.transaction() as conn:
            row = await conn.fetch_one("SELECT count(*) FROM item")
            assert row is not None
            seen.append(int(row[0]))
            await conn.execute(*insert("t"))

    transaction = asyncio.create_task(whole())
    await queued(db, 1)
    third = [unit(db, [insert(f"c{i}")]) for i in range(3)]  # after the transaction
    gate.release.set()
    results = await outcomes([*tasks, transaction, *third])
    assert all(r is None or r == [1] for r in results), results
    assert seen == [3]  # the batch on the thread committed before it; the rest wait for it
    assert len(await committed(db)) == 10


# --- a storage fault / a BaseException in a batch with units waiting behind it ----------


async def test_a_full_disk_in_a_batch_with_units_waiting_behind_it(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with asyncio.timeout(LIMIT):
        await unit(db, [insert("seed")])
    old = await fill_up(db)
    gate = Gate(monkeypatch)
    big = ("INSERT INTO item (name, blob) VALUES ('big', zeroblob(200000))", ())
    names, more = ["a0", "big", "a2"], ["b0", "b1"]
    tasks = await two_batches(db, gate, [[insert("a0")], [big], [insert("a2")]], inserts(more))
    gate.release.set()
    results = await outcomes(tasks)
    assert isinstance(results[1], StorageUnavailable), results
    check_truthful(names + more, results, await committed(db))
    await make_room(db, old)
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [insert("after")]) == [1]


class Boom(BaseException):
    """Neither an Exception nor a cancellation."""


async def test_a_base_exception_in_a_batch_with_units_waiting_behind_it(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(trip: int) -> None:
        if trip == 1:
            raise Boom()

    gate = Gate(monkeypatch, fail)
    names, more = [f"a{i}" for i in range(3)], [f"b{i}" for i in range(3)]
    tasks = await two_batches(db, gate, inserts(names), inserts(more))

    results, stored = await released_with_a_transaction(db, gate, tasks, queue=True)
    assert all(not isinstance(r, (list, asyncio.CancelledError)) for r in results[:3]), results
    check_truthful(names + more, results, stored)
    assert {"t", "after"} <= stored


# --- the catch-up checkpoint racing the background one -----------------------------------


async def test_the_wal_stays_bounded_under_a_pipelined_stream_of_units(db: Database) -> None:
    """Eight channels keep batches pipelined (each begins while the last one's background
    checkpoint may run): the WAL is still written from its start again, so its file stays a
    small part of what was written (measured: about 1 MB whether 6, 19 or 57 MB were written;
    without restarts it holds all of it). Its peak is what is written while a checkpoint runs,
    so it grows with the writers' speed and the machine's load (0.6–2.1 MB of 9.6 written on a
    loaded machine, 3.4 MB once): 19 MB are written, so a third of it is far above that peak
    and far below a WAL that is never restarted."""
    db.checkpoint_every = 1
    db.restart_frames = 50
    row, each = 20_000, 120

    async def channel(c: int) -> None:
        for i in range(each):
            statement = ("INSERT INTO item (name, blob) VALUES (?, zeroblob(?))", (f"{c}.{i}", row))
            await db.single_trip().execute_all([statement])

    async with asyncio.timeout(LIMIT * 6):
        await asyncio.gather(*(channel(c) for c in range(8)))
        await db.checkpointed()
    wal = db.path.with_name(db.path.name + "-wal").stat().st_size
    assert wal < 8 * each * row // 3, wal
    assert len(await committed(db)) == 8 * each


async def test_no_catch_up_checkpoint_runs_while_the_background_one_does(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catch-up copies what the background checkpoint left; run at the same time as one,
    SQLite lets only one of them copy (the other is busy)."""
    db.checkpoint_every = 1
    db.restart_frames = 1
    overlaps: list[str] = []
    begin = sqlite_store._begin

    def watched(conn: sqlite3.Connection, catch_up: bool) -> None:
        if catch_up and db._checkpointing is not None:
            overlaps.append("catch-up while a background checkpoint ran")
        begin(conn, catch_up)

    monkeypatch.setattr(sqlite_store, "_begin", watched)

    async def channel(c: int) -> None:
        for i in range(30):
            await db.single_trip().execute_all([insert(f"{c}.{i}")])

    async with asyncio.timeout(LIMIT * 4):
        await asyncio.gather(*(channel(c) for c in range(8)))
    assert overlaps == []


# --- the committer commits a transaction group left open, and that COMMIT fails -----------


async def test_a_failing_open_group_committed_by_the_committer_fails_only_its_writers(
    db: Database,
) -> None:
    """A transaction's group is left open for a writer queued behind it; the committer, queued
    first, commits it before its batch. That COMMIT fails (a deferred foreign key): the group's
    writer gets the error, the units and the queued writer are committed."""
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await conn.execute(
            "CREATE TABLE child (name TEXT PRIMARY KEY, parent_id INTEGER "
            "REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )
    release = asyncio.Event()

    async def orphan() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO child VALUES ('orphan', 999)")
            await release.wait()

    async def later() -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert("queued writer"))

    first = asyncio.create_task(orphan())
    await turns(lambda: db._group is not None and db._conn.savepoint_sent)
    units = [unit(db, [insert(f"u{i}")]) for i in range(3)]
    await turns(lambda: db._committer is not None and len(db._units) == 3)
    second = asyncio.create_task(later())
    await queued(db, 1)
    release.set()
    results = await outcomes([first, *units, second])
    assert isinstance(results[0], sqlite3.IntegrityError), results
    assert results[1:] == [[1], [1], [1], None], results
    assert await committed(db) == {"u0", "u1", "u2", "queued writer"}


async def test_a_unit_after_close_fails_at_once(db: Database) -> None:
    await db.close()
    async with asyncio.timeout(LIMIT):
        with pytest.raises(ValueError, match="closed"):
            await unit(db, [insert("late")])
    assert db._committer is None and not db._units
