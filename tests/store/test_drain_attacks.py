"""Attacks on the database thread's run of single-trip batches (``Database._drain``, issue 15):
races between the event loop and the writer thread as the thread takes the next batch itself —
a unit coming just as the thread decides to stop, writers cancelled once the thread took their
units, a transaction writer queued and cancelled while a run goes on, a catch-up checkpoint due
mid-run, a failure or a BaseException in a batch the thread took itself, close() during a run.

Real tasks on a real SQLite file. The writer thread is held with threading events (never a fixed
sleep), and every wait is bounded by ``asyncio.timeout``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import bot.store.db as sqlite_store
from bot.store.db import Database
from tests.store.test_group_commit import queued
from tests.store.test_single_trip import (
    UnitStream,
    committed,
    insert,
    items_database,
    turns,
    unit,
)
from tests.store.test_single_trip_attacks import (
    Boom,
    Gate,
    Held,
    check_truthful,
    inserts,
    outcomes,
    transaction_writer,
    two_batches,
)

LIMIT = 5.0


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with items_database(tmp_path / "drain.sqlite3") as database:
        yield database


async def idle(db: Database) -> None:
    """The units gave the writer lock up: no run, no committer, nothing waiting."""
    await turns(lambda: not db._draining and not db._sending and db._committer is None)
    assert not db._units and not db._lock.locked()


class HeldTake(Held):
    """Holds the database thread inside its run, right after ``_take`` (called by the thread,
    not the loop) returned a batch for which ``when(batch)`` holds — once."""

    def __init__(self, db: Database, monkeypatch: pytest.MonkeyPatch, when: Any) -> None:
        super().__init__()
        self.taken: list[Any] = []
        take = db._take
        main = threading.get_ident()

        def held() -> list[Any]:
            batch = take()
            if threading.get_ident() != main and not self.entered.is_set() and when(batch):
                self.taken = batch
                self.hold()
            return batch

        monkeypatch.setattr(db, "_take", held)


# --- a unit coming while the thread decides to stop --------------------------------------


async def test_a_unit_coming_as_the_thread_finds_nothing_left_is_still_committed(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread's ``_take`` found no unit, so its run ends; a unit submitted before that run's
    end reaches the loop finds the run still on (``_draining``) and only waits: the end of the
    run must start another for it, or it waits for ever with the lock held."""
    held = HeldTake(db, monkeypatch, lambda batch: batch == [])
    first = unit(db, [insert("first")])
    await held.wait_entered()
    late = unit(db, [insert("late")])
    await turns(lambda: len(db._units) == 1)
    assert db._draining
    held.release.set()
    assert await outcomes([first, late]) == [[1], [1]]
    assert await committed(db) == {"first", "late"}
    await idle(db)


# --- writers cancelled once the thread took their units ----------------------------------


async def test_writers_cancelled_after_the_thread_took_their_units_still_commit(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second batch of a run is taken by the thread (out of ``_units``): its writers,
    cancelled before its trip starts, can no longer withdraw it, so it commits."""
    gate = Gate(monkeypatch)
    held = HeldTake(db, monkeypatch, lambda batch: len(batch) == 2)
    tasks = await two_batches(db, gate, inserts(["a0", "a1"]), inserts(["b0", "b1"]))
    gate.release.set()
    await held.wait_entered()
    for task in tasks[2:]:
        task.cancel()
    await turns(lambda: all(task.done() for task in tasks[2:]))
    held.release.set()
    results = await outcomes(tasks)
    assert results[:2] == [[1], [1]], results
    assert all(isinstance(r, asyncio.CancelledError) for r in results[2:]), results
    await idle(db)  # the cancelled writers returned before their batch's COMMIT
    assert await committed(db) == {"a0", "a1", "b0", "b1"}


async def test_a_failed_commit_posted_to_cancelled_writers_is_not_reported_unread(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A batch the thread took whose COMMIT fails (a deferred foreign key), every writer of it
    cancelled meanwhile: nothing is committed, and no "exception was never retrieved" is
    logged for their futures."""
    gate = Gate(monkeypatch)
    held = HeldTake(db, monkeypatch, lambda batch: len(batch) == 2)
    orphan = [("INSERT INTO item (name, parent_id) VALUES ('orphan', 999)", ())]
    tasks = await two_batches(db, gate, inserts(["a0", "a1"]), [[insert("b0")], orphan])
    gate.release.set()
    await held.wait_entered()
    for task in tasks[2:]:
        task.cancel()
    await turns(lambda: all(task.done() for task in tasks[2:]))
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        held.release.set()
        results = await outcomes(tasks)
        assert results[:2] == [[1], [1]], results
        async with asyncio.timeout(LIMIT):
            assert await unit(db, [insert("after")]) == [1]
        gc.collect()
    assert "never retrieved" not in caplog.text
    assert await committed(db) == {"a0", "a1", "after"}


# --- a transaction writer queued, then cancelled, while a run goes on -------------------


async def test_a_transaction_writer_cancelled_while_a_run_stops_for_it(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread stops after the running batch because a writer waits; that writer is
    cancelled before the run's end reaches the loop. The units left must still go (the lock
    is not left held nor given to nobody)."""
    gate = Gate(monkeypatch)
    tasks = await two_batches(db, gate, inserts(["a0", "a1"]), inserts(["b0", "b1"]))
    writer = transaction_writer(db, "t")
    await queued(db, 1)
    writer.cancel()
    await turns(writer.done)
    gate.release.set()
    assert await outcomes(tasks) == [[1]] * 4
    assert await committed(db) == {"a0", "a1", "b0", "b1"}
    await idle(db)


async def test_a_transaction_writer_queued_mid_run_cancelled_as_it_is_woken(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run ends for a waiting writer, the units give the lock up to it; the writer is
    cancelled once woken, before it runs. The units queued behind it still go."""
    gate = Gate(monkeypatch)
    tasks = await two_batches(db, gate, inserts(["a0"]), inserts(["b0"]))
    writer = transaction_writer(db, "t")
    await queued(db, 1)
    gate.release.set()
    await turns(lambda: not db._draining and db._committer is not None)
    writer.cancel()
    results = await outcomes([*tasks, writer])
    assert results[:2] == [[1], [1]], results
    check_truthful(["a0", "b0", "t"], results, await committed(db))
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [insert("after")]) == [1]
    await idle(db)


# --- a catch-up checkpoint due mid-run ----------------------------------------------------


async def test_a_catch_up_due_mid_run_ends_it_and_the_next_run_begins_with_it(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A background checkpoint finishing while the thread runs a batch (``_catch_up`` set from
    the loop): the thread stops after that batch and the units waiting go in a new run whose
    BEGIN copies what was left first — the WAL restarts, it does not grow for ever."""
    gate = Gate(monkeypatch)
    begins: list[bool] = []
    begin = sqlite_store._begin

    def watched(conn: sqlite3.Connection, catch_up: bool) -> None:
        begins.append(catch_up)
        begin(conn, catch_up)

    monkeypatch.setattr(sqlite_store, "_begin", watched)
    tasks = await two_batches(db, gate, inserts(["a0"]), inserts(["b0", "b1"]))
    db._catch_up = True  # as _checkpoint sets it, while the run goes on
    gate.release.set()
    assert await outcomes(tasks) == [[1]] * 3
    assert begins == [False, True], begins
    assert not db._catch_up
    await idle(db)


# --- failures in a batch the thread took itself ----------------------------------------


@pytest.mark.parametrize(
    ("error", "told"),
    [
        # the run stops on it; the units that came meanwhile go in a new run
        (Boom(), RuntimeError),
        # before the batch's BEGIN (a failing catch-up, a busy file): the run goes on
        (sqlite3.OperationalError("disk I/O error"), sqlite3.OperationalError),
    ],
    ids=["a BaseException", "a failing BEGIN"],
)
async def test_a_failure_in_a_batch_the_thread_took_fails_that_batch_alone(
    db: Database, monkeypatch: pytest.MonkeyPatch, error: BaseException, told: type
) -> None:
    """The second batch of a run fails: its writers are told, nothing of it is committed; the
    batch before it and the unit that came after it are committed, and the lock is given up
    after."""

    def fail(trip: int) -> None:
        if trip == 2:
            raise error

    gate = Gate(monkeypatch, fail)
    held = HeldTake(db, monkeypatch, lambda batch: len(batch) == 2)
    tasks = await two_batches(db, gate, inserts(["a0", "a1"]), inserts(["b0", "b1"]))
    gate.release.set()
    await held.wait_entered()
    tasks += [unit(db, [insert("c0")])]
    await turns(lambda: len(db._units) == 1)
    held.release.set()
    results = await outcomes(tasks)
    assert results[:2] == [[1], [1]] and results[4] == [1], results
    assert all(isinstance(r, told) for r in results[2:4]), results
    assert await committed(db) == {"a0", "a1", "c0"}
    await idle(db)


# --- close() during a run -------------------------------------------------------------


async def test_close_during_a_run_commits_every_unit_waiting_before_it_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await Database.open(tmp_path / "closing.sqlite3")
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
    gate = Gate(monkeypatch)
    first, second = ["a0", "a1"], ["b0", "b1", "b2"]
    tasks = await two_batches(db, gate, inserts(first), inserts(second))
    closing = asyncio.create_task(db.close())
    await asyncio.sleep(0)  # close() runs to its first wait, with the run held
    assert not closing.done()
    gate.release.set()
    async with asyncio.timeout(LIMIT):
        await closing
    assert all(task.done() for task in tasks), "close() returned with units pending"
    results = await outcomes(tasks)
    assert results == [[1]] * 5, results
    reopened = await Database.open(db.path)
    try:
        assert await committed(reopened) == {*first, *second}
    finally:
        await reopened.close()


async def test_close_is_not_starved_by_a_stream_of_units(tmp_path: Path) -> None:
    """Channels keep sending units back to back while close() waits for the writer lock: the
    thread's run must give way to close() as it does to a transaction writer, not run until the
    stream ends (at shutdown the gateway may still deliver commands). Every unit acknowledged
    is committed; the ones after close() fail."""
    db = await Database.open(tmp_path / "stream.sqlite3")
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
    stream = UnitStream(db)
    await stream.start()
    async with asyncio.timeout(LIMIT):
        await db.close()
    sent_by_then = len(stream.acknowledged)
    await stream.finish()
    assert sent_by_then < 5 * stream.each, "close() waited for the whole stream of units"
    reopened = await Database.open(db.path)
    try:
        assert stream.acknowledged <= await committed(reopened)
    finally:
        await reopened.close()


# --- the event loop ends with a run in progress ----------------------------------------


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
async def test_the_loop_ending_with_a_run_in_progress_loses_no_taken_unit_and_hangs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``asyncio.run`` ends (its tasks cancelled, its loop closed) while the database thread
    runs a batch: the batch still commits (its unit was taken), and the thread does not hang
    (it cannot hand its outcome to a closed loop; aiosqlite's worker then stops)."""
    path = tmp_path / "loop.sqlite3"
    gate = Gate(monkeypatch)
    threads: list[threading.Thread] = []
    told: list[str] = []

    async def scenario() -> None:
        db = await Database.open(path)
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
        threads.append(db._raw._thread)
        task = unit(db, [insert("taken")])
        task.add_done_callback(lambda done: told.append("cancelled" if done.cancelled() else "?"))
        await asyncio.to_thread(gate.entered.wait, LIMIT)
        assert gate.entered.is_set()
        # returning ends asyncio.run: the writer's task is cancelled, the loop closed

    async with asyncio.timeout(LIMIT):
        await asyncio.to_thread(asyncio.run, scenario())
    gate.release.set()
    async with asyncio.timeout(LIMIT):
        await asyncio.to_thread(threads[0].join, LIMIT)
    assert not threads[0].is_alive(), "the database thread hangs after the loop closed"
    assert told == ["cancelled"], told
    reopened = await Database.open(path)
    try:
        assert await committed(reopened) == {"taken"}
    finally:
        await reopened.close()


@pytest.mark.parametrize("when", ["waiting for the units before it", "waiting for the lock"])
async def test_close_cancelled_while_it_waits_leaves_nothing_held(
    db: Database, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """close() cancelled (shutdown cancels every task) while a run is held: no writer is left
    counted as waiting and the lock is not left held, so units and transactions go on."""
    gate = Gate(monkeypatch)
    second = ["b0"] if when == "waiting for the units before it" else []
    tasks = await two_batches(db, gate, inserts(["a0"]), inserts(second))
    closing = asyncio.create_task(db.close())
    if second:
        await asyncio.sleep(0)  # close() waits for the unit queued before it
        assert db._writers_waiting == 0
    else:
        await queued(db, 1)
    closing.cancel()
    await turns(closing.done)
    gate.release.set()
    assert await outcomes(tasks) == [[1]] * (1 + len(second))
    assert db._writers_waiting == 0
    async with asyncio.timeout(LIMIT):
        assert await unit(db, [insert("after")]) == [1]
        async with db.transaction() as conn:
            await conn.execute(*insert("t"))
    await idle(db)
    assert await committed(db) == {"a0", *second, "after", "t"}
