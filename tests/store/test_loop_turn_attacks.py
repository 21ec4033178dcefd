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
import threading
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.store.db import Database
from tests.store.test_drain_attacks import idle
from tests.store.test_single_trip import committed, insert, items_database, unit
from tests.store.test_single_trip_attacks import (
    Gate,
    inserts,
    outcomes,
    two_batches,
)

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
