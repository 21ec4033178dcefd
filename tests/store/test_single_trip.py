"""Single-trip units of work (``Store.single_trip``, issue 15): on SQLite every unit queued
while the previous batch runs goes to the database thread in ONE trip — BEGIN, each unit in its
own savepoint, COMMIT — and the same guarantees as group commit hold: a failing unit is rolled
back alone, a failed COMMIT fails every unit of its batch and commits none, a writer cancelled
before its unit was taken writes nothing, and writers of whole transactions are neither
interleaved with nor starved by a stream of units. The WAL is written from its start again after
background checkpoints instead of growing while writes never stop.

Real tasks on a real SQLite file (and a real PostgreSQL for the contract); every wait is bounded
by ``asyncio.timeout`` so a stall fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import bot.store.db as sqlite_store
from bot.errors import StorageUnavailable
from bot.store.base import Store
from bot.store.db import Database
from tests.store.test_group_commit import queued
from tests.store.test_storage_faults import fill_up, make_room

LIMIT = 5.0  # seconds: a healthy batch commits in milliseconds

Statements = Sequence[tuple[str, Sequence[Any]]]


@asynccontextmanager
async def items_database(path: Path) -> AsyncIterator[Database]:
    """A database at ``path`` with the tables these tests write (``parent``, and ``item``
    whose ``parent_id`` is checked at COMMIT), closed after."""
    database = await Database.open(path)
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await conn.execute(
            "CREATE TABLE item (name TEXT PRIMARY KEY, parent_id INTEGER "
            "REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED, blob BLOB)"
        )
    try:
        yield database
    finally:
        async with asyncio.timeout(LIMIT):
            await database.close()


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with items_database(tmp_path / "units.sqlite3") as database:
        yield database


async def committed(db: Store, table: str = "item") -> set[str]:
    async with db.read() as conn:
        return {row["name"] for row in await conn.fetch_all(f"SELECT name FROM {table}")}


def insert(name: str) -> tuple[str, Sequence[Any]]:
    return ("INSERT INTO item (name) VALUES (?)", (name,))


def unit(db: Store, statements: Statements) -> asyncio.Task[list[int]]:
    """A task that sends ``statements`` as one single-trip unit."""
    return asyncio.create_task(db.single_trip().execute_all(statements))


def count_trips(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every call queued on the writer connection's thread."""
    trips: list[str] = []
    queue = db._conn._queue_on_thread

    def counted(future: asyncio.Future[Any], run: Any) -> None:
        trips.append(getattr(run, "__name__", repr(run)))
        queue(future, run)

    monkeypatch.setattr(db._conn, "_queue_on_thread", counted)
    return trips


async def turns(condition: Callable[[], bool]) -> None:
    """Let the loop run until ``condition`` holds (a few turns, or a read's trip to a database
    thread; bounded by :data:`LIMIT`)."""
    async with asyncio.timeout(LIMIT):
        for _ in itertools.count():  # as test_group_commit.queued, bounded by time
            if condition():
                return
            await asyncio.sleep(0)


async def queued_behind_the_lock(
    db: Database, units: Sequence[Statements]
) -> list[asyncio.Task[list[int]]]:
    """Submit ``units`` while the writer lock is held (as a transaction writer holds it), so
    they all queue; then let the lock go: they go in batches of up to ``max_group``. Their
    tasks."""
    await db._lock.acquire()
    try:
        tasks = [unit(db, statements) for statements in units]
        await turns(lambda: len(db._units) == len(tasks))
    finally:
        db._lock.release()
    return tasks


async def together(db: Database, units: Sequence[Statements]) -> list[Any]:
    """:func:`queued_behind_the_lock`, then each unit's outcome (result or exception)."""
    tasks = await queued_behind_the_lock(db, units)
    async with asyncio.timeout(LIMIT):
        return await asyncio.gather(*tasks, return_exceptions=True)


async def test_units_queued_together_share_one_trip_and_one_commit(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    trips = count_trips(db, monkeypatch)
    batches: list[int] = []
    run_units = sqlite_store._run_units

    def counted(conn: sqlite3.Connection, units: Any, catch_up: bool = False) -> Any:
        batches.append(len(units))
        return run_units(conn, units, catch_up)

    monkeypatch.setattr(sqlite_store, "_run_units", counted)
    names = [f"u{i}" for i in range(db.max_group + 3)]
    counts = await together(db, [[insert(n)] for n in names])
    assert counts == [[1]] * len(names)
    # max_group units, then the 3 left: a COMMIT each, one after the other on the database
    # thread, which takes the second batch itself (one hand-off from the event loop)
    assert batches == [db.max_group, 3], batches
    assert len(trips) == 1, trips
    assert await committed(db) == set(names)


async def test_a_failing_unit_is_rolled_back_alone(db: Database) -> None:
    async with asyncio.timeout(LIMIT):
        await unit(db, [insert("taken")])
        outcomes = await asyncio.gather(
            unit(db, [insert("first")]),
            # its first statement is written, then the second fails: both are undone
            unit(db, [insert("half"), insert("taken")]),
            unit(db, [insert("last")]),
            return_exceptions=True,
        )
    assert outcomes[0] == [1] and outcomes[2] == [1], outcomes
    assert isinstance(outcomes[1], sqlite3.IntegrityError), outcomes
    assert await committed(db) == {"taken", "first", "last"}


async def test_savepoints_are_paid_only_by_a_batch_in_which_a_unit_fails(db: Database) -> None:
    """A batch runs its units without savepoints (two statements fewer a unit, each taking the
    GIL back on the database thread); only when a unit raises is the batch rolled back and run
    again with a savepoint each, so the failing unit is undone alone and every other unit is
    written once (issue 15: "retry the batch without it")."""
    said: list[str] = []
    await db._raw.set_trace_callback(said.append)
    async with asyncio.timeout(LIMIT):
        await asyncio.gather(unit(db, [insert("a")]), unit(db, [insert("b")]))
    assert not [s for s in said if "SAVEPOINT" in s], said
    assert said.count("COMMIT") == 1, said
    said.clear()
    async with asyncio.timeout(LIMIT):
        outcomes = await asyncio.gather(
            unit(db, [insert("c")]),
            unit(db, [insert("d"), insert("a")]),  # "a" is taken: the unit fails
            unit(db, [insert("e")]),
            return_exceptions=True,
        )
    assert outcomes[0] == [1] and outcomes[2] == [1], outcomes
    assert isinstance(outcomes[1], sqlite3.IntegrityError), outcomes
    assert said.count("ROLLBACK") == 1 and said.count("COMMIT") == 1, said
    assert said.count("SAVEPOINT unit") == 3, said
    await db._raw.set_trace_callback(None)
    async with db.read() as conn:
        rows = await conn.fetch_all("SELECT name FROM item ORDER BY name")
    assert [row["name"] for row in rows] == ["a", "b", "c", "e"]


async def test_a_unit_whose_first_statement_matches_nothing_writes_nothing(db: Database) -> None:
    async with asyncio.timeout(LIMIT):
        counts = await unit(db, [("UPDATE item SET blob = x'00' WHERE name = 'none'", ()),
                                 insert("skipped")])  # fmt: skip
        fetched = await db.single_trip().execute_all_fetch(
            [("UPDATE item SET blob = x'00' WHERE name = 'none'", ())], "SELECT 1", ()
        )
    assert counts == [0]
    assert fetched == ([0], None)
    assert await committed(db) == set()


async def test_a_unit_reads_back_after_its_statements_in_the_same_trip(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    trips = count_trips(db, monkeypatch)
    async with asyncio.timeout(LIMIT):
        counts, rows = await db.single_trip().execute_all_fetch(
            [insert("a"), insert("b")], "SELECT count(*) FROM item", ()
        )
    assert counts == [1, 1] and rows is not None and rows[0][0] == 2
    assert len(trips) == 1


async def test_a_failed_commit_fails_every_unit_of_the_batch_and_commits_none(
    db: Database,
) -> None:
    outcomes = await together(
        db,
        [
            [insert("first")],
            # a deferred foreign key: accepted now, refused by the batch's COMMIT
            [("INSERT INTO item (name, parent_id) VALUES ('orphan', 999)", ())],
            [insert("last")],
        ],
    )
    assert [type(o) for o in outcomes] == [sqlite3.IntegrityError] * 3, outcomes
    assert await committed(db) == set()
    async with asyncio.timeout(LIMIT):
        await unit(db, [insert("after")])
    assert await committed(db) == {"after"}


async def test_a_full_disk_never_reports_a_lost_unit_as_done(db: Database) -> None:
    """Whatever SQLite does with the transaction on SQLITE_FULL (it may roll all of it back),
    each writer's outcome matches what was stored, and the full one is told plainly."""
    async with asyncio.timeout(LIMIT):
        await unit(db, [insert("seed")])
        old = await fill_up(db)
        big = ("INSERT INTO item (name, blob) VALUES ('too big', zeroblob(100000))", ())
        outcomes = await asyncio.gather(
            unit(db, [("UPDATE item SET blob = x'01' WHERE name = 'seed'", ()), insert("small")]),
            unit(db, [big]),
            unit(db, [insert("after")]),
            return_exceptions=True,
        )
    assert isinstance(outcomes[1], StorageUnavailable), outcomes
    assert "storage is full" in str(outcomes[1])
    stored = await committed(db)
    assert "too big" not in stored
    for name, outcome in (("small", outcomes[0]), ("after", outcomes[2])):
        assert isinstance(outcome, list) == (name in stored), (name, outcome, stored)
        if not isinstance(outcome, list):
            assert isinstance(outcome, StorageUnavailable), outcome
    await make_room(db, old)
    async with asyncio.timeout(LIMIT):
        await unit(db, [insert("later")])
    assert "later" in await committed(db)


async def test_a_writer_cancelled_before_its_unit_is_taken_writes_nothing(db: Database) -> None:
    release = asyncio.Event()

    async def holder() -> None:  # a whole transaction holds the writer lock meanwhile
        async with db.transaction() as conn:
            await conn.execute(*insert("holder"))
            await release.wait()

    held = asyncio.create_task(holder())
    await asyncio.sleep(0.01)
    waiting = [unit(db, [insert("kept")]), unit(db, [insert("cancelled")])]
    for _ in range(100):
        if len(db._units) == 2:
            break
        await asyncio.sleep(0)
    assert len(db._units) == 2
    waiting[1].cancel()
    release.set()
    async with asyncio.timeout(LIMIT):
        await held
        assert await waiting[0] == [1]
        with pytest.raises(asyncio.CancelledError):
            await waiting[1]
    assert await committed(db) == {"holder", "kept"}


async def test_a_writer_cancelled_while_its_trip_runs_still_has_it_committed(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for a transaction cancelled during its group's COMMIT: the unit was taken, so it
    commits with its batch; the cancelled writer is told CancelledError, the others their
    outcome."""
    running, go_on = threading.Event(), threading.Event()
    run_units = sqlite_store._run_units

    def slow(conn: sqlite3.Connection, units: Any, catch_up: bool = False) -> Any:
        running.set()
        go_on.wait(LIMIT)
        return run_units(conn, units, catch_up)

    monkeypatch.setattr(sqlite_store, "_run_units", slow)
    writers = [unit(db, [insert("cancelled")]), unit(db, [insert("other")])]
    async with asyncio.timeout(LIMIT):
        await asyncio.to_thread(running.wait, LIMIT)
    writers[0].cancel()
    go_on.set()
    async with asyncio.timeout(LIMIT):
        with pytest.raises(asyncio.CancelledError):
            await writers[0]
        assert await writers[1] == [1]
    assert await committed(db) == {"cancelled", "other"}


async def test_units_and_transactions_keep_their_order_and_both_commit(db: Database) -> None:
    release = asyncio.Event()

    async def transaction(name: str, wait: bool = False) -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert(name))
            if wait:
                await release.wait()

    first = asyncio.create_task(transaction("t1", wait=True))
    await asyncio.sleep(0.01)
    units = [unit(db, [insert(f"u{i}")]) for i in range(5)]
    later = asyncio.create_task(transaction("t2"))
    await queued(db, 1)
    release.set()
    async with asyncio.timeout(LIMIT):
        await asyncio.gather(first, later, *units)
    assert await committed(db) == {"t1", "t2"} | {f"u{i}" for i in range(5)}


class UnitStream:
    """Five busy channels sending ``each`` units back to back (``c{channel}.{i}``), each
    stopping at its first ``ValueError`` (the database closed): ``acknowledged`` names the
    units whose writers were told they were committed."""

    def __init__(self, db: Database, each: int = 300) -> None:
        self.db, self.each = db, each
        self.acknowledged: set[str] = set()
        self._flowing = asyncio.Event()
        self._channels: list[asyncio.Task[None]] = []

    async def _channel(self, c: int) -> None:
        for i in range(self.each):
            name = f"c{c}.{i}"
            try:
                await self.db.single_trip().execute_all([insert(name)])
            except ValueError:  # closed
                return
            self.acknowledged.add(name)
            if len(self.acknowledged) == 20:
                self._flowing.set()

    async def start(self) -> None:
        """Start the channels; return once 20 units went through."""
        self._channels = [asyncio.create_task(self._channel(c)) for c in range(5)]
        async with asyncio.timeout(LIMIT):
            await self._flowing.wait()

    async def finish(self) -> None:
        async with asyncio.timeout(LIMIT * 6):
            await asyncio.gather(*self._channels)


async def test_a_stream_of_units_does_not_starve_a_transaction(db: Database) -> None:
    """Five busy channels send units back to back; a whole transaction queued meanwhile gets the
    writer lock while they are still sending (the units give way to a transaction writer after
    the batch in progress)."""
    stream = UnitStream(db)
    await stream.start()
    async with asyncio.timeout(LIMIT), db.transaction() as conn:
        await conn.execute(*insert("transaction"))
    sent_by_then = len(stream.acknowledged)
    await stream.finish()
    assert sent_by_then < 5 * stream.each
    assert len(await committed(db)) == 5 * stream.each + 1


async def test_units_keep_their_place_in_the_queue_for_the_writer_lock(db: Database) -> None:
    """A unit that waits for the lock behind a transaction, with another transaction queued
    behind it, goes before that one: when the units get the lock they send a batch even with
    writers waiting (if they gave way whenever a writer waited, a steady stream of
    transactions would keep them waiting for ever)."""
    release = asyncio.Event()
    seen: list[set[str]] = []

    async def first() -> None:
        async with db.transaction() as conn:
            await conn.execute(*insert("first"))
            await release.wait()

    async def behind() -> None:
        async with db.transaction() as conn:
            seen.append({row["name"] for row in await conn.fetch_all("SELECT name FROM item")})
            await conn.execute(*insert("behind"))

    holder = asyncio.create_task(first())
    await turns(lambda: db._conn.savepoint_sent)
    waiting = unit(db, [insert("unit")])
    await turns(lambda: db._committer is not None and len(db._units) == 1)
    writer = asyncio.create_task(behind())
    await queued(db, 1)
    release.set()
    async with asyncio.timeout(LIMIT):
        await asyncio.gather(holder, writer)
        assert await waiting == [1]
    assert seen == [{"first", "unit"}]


async def test_a_unit_on_an_idle_writer_is_sent_at_the_end_of_the_loop_turn_it_comes(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No task between a unit and its trip when nothing holds the writer: the trip is queued on
    the database thread at the end of the loop turn in which the writer submitted it (each loop
    turn on the way costs a command whatever other work that turn runs first;
    docs/performance.md)."""
    trips = count_trips(db, monkeypatch)
    task = unit(db, [insert("a")])
    await asyncio.sleep(0)  # the task's first step: it submits and waits
    assert trips == []  # not yet: other writers of this turn may still come
    await asyncio.sleep(0)  # the turn's end
    assert len(trips) == 1
    async with asyncio.timeout(LIMIT):
        assert await task == [1]


async def test_units_that_come_in_one_loop_turn_go_in_one_trip(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst (commands woken in the same turn) goes to the database thread as one batch: sent
    one at a time, the first unit's trip waited for the GIL while the loop computed the others,
    which then waited for that trip (docs/performance.md, "Units sent at the end of the loop
    turn"). Fails if a unit is handed over before its turn ends."""
    batches: list[int] = []
    run_units = sqlite_store._run_units

    def counted(conn: Any, units: Sequence[Any], catch_up: bool = False) -> Any:
        batches.append(len(units))
        return run_units(conn, units, catch_up)

    monkeypatch.setattr(sqlite_store, "_run_units", counted)
    tasks = [unit(db, [insert(name)]) for name in ("a", "b", "c")]
    async with asyncio.timeout(LIMIT):
        assert await asyncio.gather(*tasks) == [[1], [1], [1]]
    assert batches == [3]
    assert await committed(db) == {"a", "b", "c"}


async def test_the_wal_is_written_from_its_start_again_after_background_checkpoints(
    db: Database,
) -> None:
    """Without the catch-up checkpoint before a batch begins, a batch that began while the
    background checkpoint ran kept SQLite from restarting the WAL, which then grew for as long as
    writes never stopped (docs/performance.md: 460 MB after 17,000 benchmark commands)."""
    db.checkpoint_every = 1
    db.restart_frames = 50  # pages: restart once the WAL holds four rows or so
    row = 50_000  # bytes of blob per unit
    for i in range(40):
        statement = ("INSERT INTO item (name, blob) VALUES (?, zeroblob(?))", (f"b{i}", row))
        async with asyncio.timeout(LIMIT):
            # two units in flight, so one batch begins while the last one's checkpoint runs
            await asyncio.gather(unit(db, [statement]), db.checkpointed())
    async with asyncio.timeout(LIMIT):
        await db.checkpointed()
    wal = db.path.with_name(db.path.name + "-wal").stat().st_size
    assert wal < 10 * row, wal  # 40 rows appended without a restart: over 2 MB
    assert len(await committed(db)) == 40


@pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
async def test_a_single_trip_unit_is_one_call_committed_before_it_returns(store: Store) -> None:
    async with store.transaction() as conn:
        await conn.execute("CREATE TABLE trip_item (name TEXT PRIMARY KEY)")
    trip = store.single_trip(channel=7)
    add = ("INSERT INTO trip_item (name) VALUES (?)", ("a",))
    async with asyncio.timeout(LIMIT):
        assert await trip.execute_all([add]) == [1]
    assert await committed(store, "trip_item") == {"a"}
    with pytest.raises(RuntimeError, match="one trip"):
        await trip.execute_all([add])
    other = store.single_trip()
    for misuse in (
        other.insert("INSERT INTO trip_item (name) VALUES ('b')"),
        other.fetch_all("SELECT name FROM trip_item"),
        other.fetch_one("SELECT name FROM trip_item"),
    ):
        with pytest.raises(RuntimeError, match="transaction"):
            await misuse
    failing = store.single_trip()
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        await failing.execute_all([("INSERT INTO trip_item (name) VALUES ('c')", ()), add])
    assert await committed(store, "trip_item") == {"a"}


async def test_checkpoints_count_writers_not_batches(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A background checkpoint every ``checkpoint_every`` committed writers: one batch of four
    units counts four (at 1,000 commands/s batches are small; counting batches checkpointed
    several times a second)."""
    db.checkpoint_every = 4
    trips = count_trips(db, monkeypatch)
    await together(db, [[insert(f"u{i}")] for i in range(4)])
    async with asyncio.timeout(LIMIT):
        await db.checkpointed()
    assert len(trips) == 1  # one batch
    assert db.checkpoints == 1
