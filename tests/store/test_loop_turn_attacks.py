"""Attacks on the two changes of c588499 to the single-trip write path (bot/store/db.py):

1. units that come while the writer is idle wait for the end of the event loop's turn
   (``Database._start_due_units``) instead of going to the database thread in their writer's
   own step — so for the rest of that turn a unit waits, its writer may be cancelled, and
   ``close()`` or a whole transaction may come;
2. a batch runs its units without savepoints, and when a unit raises it is rolled back and run
   again with a savepoint a unit (``_run_units_apart``) — so every unit runs twice, and the
   second run (or the rollback before it) may fail differently from the first.

The guarantees attacked (``Database.single_trip``): a writer told "done" has its unit committed,
once; a writer cancelled before its unit was taken writes nothing; one unit's failure fails no
other (except one that ended SQLite's transaction, or a failed COMMIT: then none is committed);
``close()`` lets the units waiting when it is called go first and fails the later ones with
"Connection closed"; whole transactions never interleave with units.

Real tasks on a real SQLite file; the database thread is held with threading events (never a
fixed sleep), faults are injected on that thread, and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import bot.store.db as sqlite_store
from bot.errors import StorageUnavailable
from bot.store.db import Database
from tests.store.test_drain_attacks import idle
from tests.store.test_single_trip import committed, insert, items_database, unit
from tests.store.test_single_trip_attacks import (
    Boom,
    Gate,
    check_truthful,
    inserts,
    outcomes,
    two_batches,
)
from tests.store.test_storage_faults import fill_up, make_room

LIMIT = 5.0


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with items_database(tmp_path / "turn.sqlite3") as database:
        async with database.transaction() as conn:
            # no key: a row written twice shows as two rows
            await conn.execute("CREATE TABLE entry (name TEXT NOT NULL)")
            await conn.execute(*insert("seed"))
        yield database


def entry(name: str) -> tuple[str, Sequence[Any]]:
    return ("INSERT INTO entry (name) VALUES (?)", (name,))


TAKEN = insert("seed")  # "seed" is in the table: this statement always fails (UNIQUE)


async def entries(db: Database) -> list[str]:
    """Every ``entry`` row's name, sorted, duplicates kept."""
    async with db.read() as conn:
        return sorted(row["name"] for row in await conn.fetch_all("SELECT name FROM entry"))


async def items(db: Database) -> dict[str, bytes | None]:
    async with db.read() as conn:
        rows = await conn.fetch_all("SELECT name, blob FROM item")
    return {row["name"]: row["blob"] for row in rows}


# --- 1. a writer cancelled before the units it submitted were taken -----------------------


async def test_a_writer_cancelled_in_the_loop_turn_it_submitted_writes_nothing(
    db: Database,
) -> None:
    """Its unit waits in ``_units`` until the end of the turn. ``task.cancel()`` cancels the
    unit's future at once, but the writer's task withdraws the unit only when it next runs — in
    a later turn, after the start at the end of this one. The start must not take a unit whose
    writer was cancelled: that writer is told CancelledError for a unit nobody had taken yet,
    so nothing of it may be written (it was, before the fix)."""
    kept = unit(db, [insert("kept")])
    cancelled = unit(db, [insert("cancelled")])
    await asyncio.sleep(0)  # both writers submit in this turn; the start is due at its end
    assert len(db._units) == 2 and db._start_due
    cancelled.cancel()
    results = await outcomes([kept, cancelled])
    assert results[0] == [1] and isinstance(results[1], asyncio.CancelledError), results
    assert await committed(db) == {"seed", "kept"}
    await idle(db)


async def test_a_writer_cancelled_before_the_database_thread_takes_its_unit_writes_nothing(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same window on the database thread, which takes the next batch itself when a
    COMMIT returns: a writer cancelled while its unit waits for that batch, the loop busy (here
    held) before the writer's task runs to withdraw it. The thread must leave the unit: its
    writer was cancelled before it was taken (before the fix it was committed)."""
    gate = Gate(monkeypatch)
    took = threading.Event()
    take, main = db._take, threading.get_ident()

    def watched() -> list[Any]:
        batch = take()
        if threading.get_ident() != main:
            took.set()
        return batch

    monkeypatch.setattr(db, "_take", watched)
    tasks = await two_batches(db, gate, inserts(["a0"]), inserts(["b0", "b1"]))
    tasks[2].cancel()  # b1's future is cancelled now; its task runs when the loop turns
    gate.release.set()
    assert took.wait(LIMIT)  # the loop is held here: the thread takes the next batch first
    results = await outcomes(tasks)
    assert results[:2] == [[1], [1]] and isinstance(results[2], asyncio.CancelledError), results
    assert await committed(db) == {"seed", "a0", "b0"}
    await idle(db)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
async def test_the_loop_stopping_with_a_start_pending_writes_no_cancelled_unit(
    tmp_path: Path,
) -> None:
    """Shutdown: ``asyncio.run``'s main coroutine returns in the turn before a command's writer
    submits, so the loop stops with that unit's start pending. ``asyncio.run`` then cancels the
    writer (its future at once) and runs the loop again: the pending start runs before the
    writer's task, and must not send the unit of a writer cancelled before it was taken."""
    path = tmp_path / "stopping.sqlite3"
    kept: list[Database] = []
    told: list[str] = []

    async def scenario() -> None:
        db = await Database.open(path)
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
        kept.append(db)
        writer = unit(db, [insert("late")])  # its first step runs next turn, the last one
        writer.add_done_callback(lambda done: told.append("cancelled" * done.cancelled()))
        # returning stops the loop after the next turn; then the writer is cancelled

    async with asyncio.timeout(LIMIT):
        await asyncio.to_thread(asyncio.run, scenario())
    db = kept[0]
    for raw in (db._raw, db._reader, db._checkpointer):
        if raw is not None:  # never closed (its loop is gone): stop its thread
            raw.stop()
            await asyncio.to_thread(raw._thread.join, LIMIT)
    assert told == ["cancelled"], told
    assert not db._units and not db._lock.locked(), "the start left the lock or a unit behind"
    reopened = await Database.open(path)
    try:
        assert await committed(reopened) == set()
    finally:
        await reopened.close()


async def test_writers_across_many_loop_turns_cancelled_at_any_point(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Channels send units back to back in batches of at most 3 (taken by the loop at the end
    of a turn, or by the database thread after a COMMIT) while whole transactions come between,
    and some writers are cancelled 0–3 loop turns after they submitted. Every writer told
    "done" has its unit stored; no unit is taken or written twice; a unit whose writer's
    cancellation finished before the take that would have taken it began is never written."""
    db.max_group = 3
    order = itertools.count()
    taken: dict[str, list[int]] = {}  # name: when each take that took it began
    cancelled: dict[str, int] = {}  # name: when its writer's cancel() had returned
    take = db._take

    def watched() -> list[Any]:
        began = next(order)
        batch = take()
        for each in batch:
            taken.setdefault(each.statements[0][1][0], []).append(began)
        return batch

    monkeypatch.setattr(db, "_take", watched)
    acknowledged: set[str] = set()
    failed: list[Any] = []
    choose = random.Random(15)
    plan = {
        (c, i): choose.choice([None, None, None, 0, 1, 2, 3]) for c in range(6) for i in range(40)
    }

    async def channel(c: int) -> None:
        for i in range(40):
            name = f"c{c}.{i}"
            writer = unit(db, [insert(name)])
            turns = plan[(c, i)]
            if turns is not None:
                for _ in range(turns + 1):  # the first: the writer's step, which submits
                    await asyncio.sleep(0)
                if writer.cancel():
                    cancelled[name] = next(order)
            try:
                assert await writer == [1]
                acknowledged.add(name)
            except asyncio.CancelledError:
                if not writer.cancelled():
                    raise
            except Exception as error:  # any failure fails the test below
                failed.append(error)

    async def whole_transactions() -> None:
        for i in range(20):
            async with db.transaction() as conn:
                await conn.execute(*insert(f"t{i}"))
            await asyncio.sleep(0.005)

    async with asyncio.timeout(LIMIT * 6):
        await asyncio.gather(*(channel(c) for c in range(6)), whole_transactions())
    stored = await committed(db)
    assert failed == []
    assert {f"t{i}" for i in range(20)} <= stored
    assert acknowledged <= stored
    twice = {name: when for name, when in taken.items() if len(when) > 1}
    assert twice == {}
    for name, at in cancelled.items():
        if name in taken:
            assert taken[name][0] < at, f"{name}: taken after its writer was cancelled"
        else:
            assert name not in stored, name
    assert stored - {"seed"} - {f"t{i}" for i in range(20)} <= acknowledged | set(cancelled)
    assert any(name not in taken for name in cancelled)  # some were withdrawn in time
    await idle(db)


# --- 1. close() and whole transactions in the turn units come ----------------------------


@pytest.mark.parametrize("order", ["units, close, unit", "close, units"])
async def test_close_called_in_the_loop_turn_units_come(tmp_path: Path, order: str) -> None:
    """The units submitted before close() in its turn were waiting when it was called — not
    started yet, the lock free: they go first (close() must not take the free lock before them).
    A unit submitted after it in the same turn is committed only if a batch takes it before
    close() has the lock; once close() holds it (it took the free lock in its first step) the
    unit fails with "Connection closed" and writes nothing. close() returns with every unit
    told."""
    db = await Database.open(tmp_path / "closing.sqlite3")
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
    before: list[asyncio.Task[list[int]]] = []
    if order == "units, close, unit":
        before = [unit(db, [insert("b0")]), unit(db, [insert("b1")])]
    closing = asyncio.create_task(db.close())
    after = [unit(db, [insert("a0")])]
    async with asyncio.timeout(LIMIT):
        await closing
    assert all(task.done() for task in before + after), "close() returned with units pending"
    results = await outcomes(before + after)
    assert results[: len(before)] == [[1]] * len(before), results
    if not before:
        assert isinstance(results[-1], ValueError) and "closed" in str(results[-1]), results
    reopened = await Database.open(db.path)
    try:
        stored = await committed(reopened)
    finally:
        await reopened.close()
    check_truthful([*(["b0", "b1"] if before else []), "a0"], results, stored)


async def test_a_transaction_taking_the_lock_in_the_turn_a_unit_came_is_not_interleaved(
    db: Database,
) -> None:
    """A unit submitted, then a whole transaction in the same turn: the transaction finds the
    lock free (the unit starts only at the end of the turn) and takes it. The unit's start must
    then wait for the lock: run on the writer connection meanwhile, its BEGIN would fail inside
    the open transaction, or its statements would join it."""
    release = asyncio.Event()
    seen: list[set[str]] = []

    async def whole() -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert("t"))
            await release.wait()  # several loop turns with the transaction open
            seen.append({row["name"] for row in await conn.fetch_all("SELECT name FROM item")})

    waiting = unit(db, [insert("u")])
    transaction = asyncio.create_task(whole())
    await asyncio.sleep(0)  # both first steps: the unit waits, the transaction has the lock
    assert db._lock.locked() and db._units
    for _ in range(5):
        await asyncio.sleep(0)
    release.set()
    assert await outcomes([waiting, transaction]) == [[1], None]
    assert seen == [{"seed", "t"}]
    assert await committed(db) == {"seed", "t", "u"}
    await idle(db)


# --- 2. a batch run again, a savepoint a unit, after a unit raised ------------------------


def flaky(failing_calls: set[int]) -> Any:
    """A SQL function ``flaky(x)`` returning ``x``, raising on the calls numbered in
    ``failing_calls`` (from 1): a statement whose outcome differs between a batch's two
    runs."""
    calls = itertools.count(1)

    def function(value: Any) -> Any:
        if next(calls) in failing_calls:
            raise ValueError("flaky")
        return value

    return function


async def test_a_unit_failing_only_in_the_first_run_is_committed_once_with_the_others(
    db: Database,
) -> None:
    """The batch is rolled back and run again; the unit succeeds the second time. Every unit
    is told "done" and written exactly once (the first run's rows were rolled back before the
    second: a run again inside the first run's transaction writes them twice)."""
    await db._raw.create_function("flaky", 1, flaky({1}))
    tasks = [
        unit(db, [entry("a")]),
        unit(db, [entry("b"), ("INSERT INTO entry (name) VALUES (flaky(?))", ("b2",))]),
        unit(db, [entry("c")]),
    ]
    assert await outcomes(tasks) == [[1], [1, 1], [1]]
    assert await entries(db) == ["a", "b", "b2", "c"]


async def test_a_unit_failing_only_in_the_run_again_is_told_its_failure_and_writes_nothing(
    db: Database,
) -> None:
    """A unit that succeeded in the first run (which another unit's failure rolled back) fails
    in the second: its writer must get that failure, not the first run's outcome, and nothing
    of it is written; the other units are written once."""
    await db._raw.create_function("flaky", 1, flaky({2}))
    tasks = [
        unit(db, [entry("a")]),
        unit(db, [entry("b"), ("INSERT INTO entry (name) VALUES (flaky(?))", ("b2",))]),
        unit(db, [entry("c"), TAKEN]),
        unit(db, [entry("d")]),
    ]
    results = await outcomes(tasks)
    assert results[0] == [1] and results[3] == [1], results
    assert isinstance(results[1], sqlite3.OperationalError), results
    assert isinstance(results[2], sqlite3.IntegrityError), results
    assert await entries(db) == ["a", "d"]


async def test_units_whose_outcome_depends_on_a_failing_unit_of_their_batch(
    db: Database,
) -> None:
    """Run again, the units keep their order and the failing one is undone before the next
    runs: a row it inserted before failing is free for a later unit; a later unit's insert of
    the same row then conflicts with that one; a versioned UPDATE sees the rows as the units
    before it left them."""
    tasks = [
        unit(db, [insert("x"), TAKEN]),  # writes x, then fails: undone
        unit(db, [insert("x")]),  # x is free again
        unit(db, [insert("x")]),  # now taken, by the unit before
        unit(db, [("UPDATE item SET blob = x'01' WHERE name = 'x' AND blob IS NULL", ()),
                  insert("y")]),
    ]  # fmt: skip
    results = await outcomes(tasks)
    assert isinstance(results[0], sqlite3.IntegrityError), results
    assert results[1] == [1] and results[3] == [1, 1], results
    assert isinstance(results[2], sqlite3.IntegrityError), results
    assert await items(db) == {"seed": None, "x": b"\x01", "y": None}


async def test_units_whose_first_statement_changes_nothing_in_a_batch_with_a_failing_unit(
    db: Database,
) -> None:
    """Versioned UPDATEs: one that finds its row moved on (a unit before it bumped it) writes
    nothing and skips the rest, in the run again too; one whose row was moved only by a unit
    that failed finds it as it was and writes; a query after a mismatch is not run."""
    bump = ("UPDATE item SET blob = x'01' WHERE name = 'seed' AND blob IS NULL", ())
    tasks = [
        unit(db, [bump, entry("first bump")]),  # bumps "seed"
        unit(db, [bump, entry("skipped")]),  # moved on: nothing
        unit(db, [("UPDATE item SET blob = x'02' WHERE name = 'none'", ()), entry("none")]),
        unit(db, [insert("z"), TAKEN]),  # fails
        asyncio.create_task(
            db.single_trip().execute_all_fetch([bump], "SELECT count(*) FROM item", ())
        ),
    ]
    results = await outcomes(tasks)
    assert results[0] == [1, 1] and results[1] == [0] and results[2] == [0], results
    assert isinstance(results[3], sqlite3.IntegrityError), results
    assert results[4] == ([0], None), results
    assert await entries(db) == ["first bump"]
    assert await items(db) == {"seed": b"\x01"}

    # the only bump before it fails: the later one finds "seed" as it was
    unbump = ("UPDATE item SET blob = NULL WHERE name = 'seed'", ())
    assert await unit(db, [unbump]) == [1]
    tasks = [unit(db, [bump, TAKEN]), unit(db, [bump, entry("second bump")])]
    results = await outcomes(tasks)
    assert isinstance(results[0], sqlite3.IntegrityError) and results[1] == [1, 1], results
    assert await entries(db) == ["first bump", "second bump"]


async def test_a_base_exception_in_the_run_again_commits_nothing_and_tells_every_unit(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run again (after a unit raised) stops on a BaseException: nothing of the batch is
    committed, every writer is told it failed, and the connection is left with no transaction
    open (the next unit commits)."""
    run_unit = sqlite_store._run_unit
    runs = itertools.count(1)

    def failing(conn: sqlite3.Connection, work: Any) -> Any:
        if work.statements[0][1][0] == "b":
            if next(runs) == 1:
                raise sqlite3.OperationalError("first run")
            raise Boom()
        return run_unit(conn, work)

    monkeypatch.setattr(sqlite_store, "_run_unit", failing)
    tasks = [unit(db, [entry("a")]), unit(db, [entry("b")]), unit(db, [entry("c")])]
    results = await outcomes(tasks)
    assert all(isinstance(r, RuntimeError) for r in results), results
    monkeypatch.undo()
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [entry("after")]) == [1]
    assert await entries(db) == ["after"]
    await idle(db)


async def test_a_full_disk_in_the_run_again_tells_each_writer_what_was_stored(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills between the two runs (a unit raised in the first): each writer's outcome
    matches what was stored, none is written twice, the full unit is told plainly, and writes
    work again once there is room."""
    old = await fill_up(db)
    await make_room(db, old)
    apart = sqlite_store._run_units_apart

    def filling(conn: sqlite3.Connection, units: Any) -> Any:
        (pages,) = conn.execute("PRAGMA page_count").fetchone()
        conn.execute(f"PRAGMA max_page_count = {int(pages) + 4}")  # room for the small rows
        return apart(conn, units)

    monkeypatch.setattr(sqlite_store, "_run_units_apart", filling)
    big = ("INSERT INTO item (name, blob) VALUES ('big', zeroblob(200000))", ())
    names = ["a", "failing", "big", "c"]
    tasks = [
        unit(db, [insert("a"), entry("a")]),
        unit(db, [insert("failing"), TAKEN]),
        unit(db, [big]),
        unit(db, [insert("c"), entry("c")]),
    ]
    results = await outcomes(tasks)
    assert isinstance(results[2], StorageUnavailable), results
    # its own error, or the full disk's when SQLite ended the whole transaction on it
    assert isinstance(results[1], (sqlite3.IntegrityError, StorageUnavailable)), results
    stored = set(await items(db))
    check_truthful(names, results, stored)
    assert sorted(set(await entries(db))) == await entries(db)  # none twice
    monkeypatch.undo()
    await make_room(db, old)
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [insert("later")]) == [1]


class RollbackFails:
    """The writer's sqlite3 connection, except that its first ``ROLLBACK`` fails (as a
    storage fault can make it) — the first run's, after a unit raised."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.failed = False

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    @property
    def total_changes(self) -> int:
        return self._conn.total_changes

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        if sql == "ROLLBACK" and not self.failed:
            self.failed = True
            raise sqlite3.OperationalError("the rollback failed")
        return self._conn.execute(sql, params)


async def test_a_failing_rollback_of_the_first_run_commits_nothing_and_leaves_no_transaction(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch cannot be run again on top of a first run it could not roll back: nothing of
    it is committed (none written twice), no writer is told "done", and the connection is
    left without a transaction (the next unit commits)."""
    run_units = sqlite_store._run_units
    proxies: list[RollbackFails] = []

    def proxied(conn: sqlite3.Connection, units: Any, catch_up: bool = False) -> Any:
        proxies.append(RollbackFails(conn))
        return run_units(proxies[-1], units, catch_up)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite_store, "_run_units", proxied)
    tasks = [unit(db, [entry("a")]), unit(db, [entry("b"), TAKEN]), unit(db, [entry("c")])]
    results = await outcomes(tasks)
    assert [p.failed for p in proxies] == [True], proxies
    assert all(isinstance(r, sqlite3.OperationalError) for r in results), results
    monkeypatch.undo()
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [entry("after")]) == [1]
    assert await entries(db) == ["after"]


async def test_a_catch_up_due_at_the_end_of_the_turn_is_run_once_even_when_a_unit_fails(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch started at the end of the turn begins with the catch-up checkpoint it is due
    (the WAL restarts); run again after a unit raised, it begins plainly — the catch-up is
    done — and the units are written once."""
    begins: list[bool] = []
    begin = sqlite_store._begin

    def watched(conn: sqlite3.Connection, catch_up: bool) -> None:
        begins.append(catch_up)
        begin(conn, catch_up)

    monkeypatch.setattr(sqlite_store, "_begin", watched)
    db._catch_up = True  # as a background checkpoint that left the WAL long sets it
    tasks = [unit(db, [entry("a")]), unit(db, [entry("b"), TAKEN]), unit(db, [entry("c")])]
    results = await outcomes(tasks)
    assert results[0] == [1] and results[2] == [1], results
    assert begins == [True, False], begins
    assert not db._catch_up
    assert await entries(db) == ["a", "c"]
