"""The SQLite connection, its pragmas, transactions and numbered migrations.

One :class:`Database` owns one aiosqlite connection. Every statement runs while holding the
database's lock: two tasks sharing a connection without it would commit each other's half-done
work (GUIDE §5). Writes happen inside :meth:`Database.transaction`; reads inside
:meth:`Database.read`, which fetches all rows so no cursor pins an old WAL snapshot.

Group commit: writers that queue up behind each other share one SQLite transaction, each inside
its own ``SAVEPOINT`` (so one writer's failure rolls back only its own work; it travels with the
writer's first statement, no trip of its own), and one ``COMMIT``
— one fsync — covers them all. Each writer's ``transaction()`` returns only after that COMMIT,
so nothing is acknowledged before it is durable. The group is committed (or failed) exactly
once even when its writers fail or are cancelled (see :class:`Database`).

Single-trip units (issue 15, :meth:`Database.single_trip`): a unit of work that is one batch of
statements (a command's versioned UPDATE, log row and redo history) does not hold the writer lock
while it waits on the database thread. Units go in batches, ONE trip each — ``BEGIN
IMMEDIATE``, the units' statements, ``COMMIT``; run again with a savepoint a unit when one of
them raised — with no task in between: the units that come in one turn of the event loop
while the writer is idle are handed to the database thread together at the end of that turn,
and when a batch's COMMIT returns the thread itself takes the units that came meanwhile as
the next batch, while the event loop prepares the next commands (it never waits for the loop to
hand it work). The guarantees above hold for units too.

Storage faults (disk full, I/O error, read-only file, locked past the busy timeout) become
:class:`~bot.errors.StorageUnavailable`, a domain error whose message is shown to the member;
the log gets one line per failure. Reads use a second connection, which in WAL
mode sees only committed data and never waits for the writer.

Checkpoints are off the commit path (issue 15): no connection checkpoints on COMMIT
(``wal_autocheckpoint = 0``); every :data:`CHECKPOINT_EVERY` committed writers a background task
runs ``PRAGMA wal_checkpoint(PASSIVE)`` on a third connection, which copies what it can from the
WAL into the database without waiting for (or blocking) the writer or readers. A group that began
while it ran could not write the WAL from its start again (SQLite restarts the WAL only for a
transaction that begins with every frame copied), so under steady writes the WAL grew without
bound (460 MB in one benchmark run); once a background checkpoint finds the WAL at
:data:`RESTART_FRAMES` pages or more, the first group to begin after it finished copies what it
left — only the groups committed meanwhile — before its ``BEGIN``, on the writer's thread, and
SQLite restarts the WAL.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.errors import StorageUnavailable
from bot.store.base import SingleTrip

log = logging.getLogger(__name__)
_T = TypeVar("_T")

CHECKPOINT_EVERY = 1600
"""Committed writers (a transaction or a single-trip unit each) between two background WAL
checkpoints: 50 full groups of :data:`MAX_GROUP`. Counted in writers, not groups: at 1,000
commands/s groups are small, and a checkpoint every 50 of them copied each busy channel's row
several times a second and synced the database file as often."""

MAX_GROUP = 32
"""At most this many writers share one group's COMMIT (one fsync), and at most this many
single-trip units one batch's trip. The writer lock is held through a :meth:`Database.transaction`
group's COMMIT, so every writer queued meanwhile waits for it; with 100 busy channels 8 a group
made the benchmark commit 376 times per 3,000 commands, 32 makes it 95 times, for fewer CPU µs
per command (issue 15; docs/performance.md). Batches of 16 or 64 units measured no better than
32 (one noisy run each)."""

RESTART_FRAMES = 16384
"""Frames (pages) in the WAL from which the next group catches up with the background
checkpoint so SQLite restarts the WAL (:func:`_begin`). The catch-up makes that one group wait
for a checkpoint of what was committed meanwhile (its database fsync: 6–18 ms here), and every
command queued behind it waits too; at 8,192 pages (32 MiB at 4 KiB) 7 catch-ups of ~18 ms in
10 s at 1,000 commands/s set the p99; at 16,384 (64 MiB) one run measured 6 of 6–8 ms
(docs/performance.md, "The p99 at 1,000 commands/s"). It still bounds the WAL (it grew without
bound before)."""

CHECKPOINT_PASSES = 3
"""PASSIVE passes a background checkpoint makes, back to back (see :meth:`Database._checkpoint`).
Measured at 1,000 commands/s (two runs each): the catch-up that follows took 7.6–8.4 ms (p50)
after one pass, 2.3–2.6 ms after two, 2.0–2.7 ms (max 2.7–5.6) after three."""

WAL_SIZE_LIMIT = 128 * 1024 * 1024
"""Bytes: when SQLite writes the WAL from its start again it cuts a longer file back to this
(``journal_size_limit``), so a burst does not keep its peak on disk. Above the size the WAL
reaches under steady load (:data:`RESTART_FRAMES` plus what is written while a checkpoint
runs): cutting it back at every restart measured 105–117 ms catch-ups (a truncate of ~190 MB)."""

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.(sql|py)$")

MigrationStep = Callable[["Connection"], Awaitable[None]]
"""A Python migration's step: ``async def migrate(conn: Connection) -> None``."""


class Migration:
    """One numbered migration in ``bot/store/migrations``; ``version`` is its number.

    Two kinds, applied the same way (in one transaction with the ``user_version`` bump, so it
    happens entirely or not at all):

    * ``NNNN_name.sql``: SQL statements (``sql``), run in order;
    * ``NNNN_name.py``: a module defining ``async def migrate(conn: Connection) -> None``
      (``step``), for changes SQL cannot express (rewriting JSON, renaming with rules). It gets
      the transaction's :class:`Connection` and must only use it (no commits, no other
      connection); whatever it raises rolls the whole migration back.
    """

    def __init__(
        self, version: int, name: str, sql: str = "", step: MigrationStep | None = None
    ) -> None:
        self.version = version
        self.name = name
        self.sql = sql
        self.step = step


def _python_step(name: str) -> MigrationStep:
    """The ``migrate`` coroutine function of the migration module ``name`` (``NNNN_x.py``)."""
    module = importlib.import_module(f"{__package__}.migrations.{name.removesuffix('.py')}")
    step = getattr(module, "migrate", None)
    if not inspect.iscoroutinefunction(step):
        raise RuntimeError(f"migration {name} must define `async def migrate(conn)`")
    return cast(MigrationStep, step)


class SchemaAhead(RuntimeError):
    """The database's schema is at a migration this version of the bot does not have: a newer
    bot upgraded it (this one is a rollback). Nothing is applied or changed; the bot does not
    start on it (what that bot stored may not read here, and what this one writes may not fit
    that schema)."""

    def __init__(self, current: int, newest: int) -> None:
        super().__init__(
            f"the database's schema is at migration {current}, and this version of the bot "
            f"knows migrations up to {newest}: a newer version of the bot upgraded it"
        )
        self.current = current
        self.newest = newest


def refuse_if_ahead(current: int, migrations: Sequence[Migration]) -> None:
    """Raise :class:`SchemaAhead` when a database at migration ``current`` is past the newest
    of ``migrations`` (the bundled ones)."""
    newest = max((m.version for m in migrations), default=0)
    if current > newest:
        raise SchemaAhead(current, newest)


def bundled_migrations() -> list[Migration]:
    """The migrations shipped in ``bot/store/migrations`` (``.sql`` and ``.py``), ordered by
    number.

    Raises ``RuntimeError`` if two files share a number, the numbers have a gap, or a Python
    migration has no ``async def migrate(conn)``.
    """
    found: list[Migration] = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if not match:
            continue
        if match.group(2) == "py":
            found.append(Migration(int(match.group(1)), entry.name, step=_python_step(entry.name)))
        else:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1..N without gaps, found {numbers}")
    return found


def _run_in_order(
    conn: sqlite3.Connection, statements: Sequence[tuple[str, Sequence[Any]]]
) -> list[int]:
    """On the database thread: run ``statements`` in order; how many rows each changed. When
    the first changes nothing the others are not run (the list then has that one count)."""
    counts: list[int] = []
    for sql, params in statements:
        before = conn.total_changes
        conn.execute(sql, params).fetchall()
        counts.append(conn.total_changes - before)
        if counts[0] == 0:
            break
    return counts


class _Unit:
    """A single-trip unit of work waiting for the committer (:meth:`Database.single_trip`):
    its statements, the query run after them, and the future its writer awaits."""

    __slots__ = ("future", "params", "query", "statements")

    def __init__(
        self,
        statements: Sequence[tuple[str, Sequence[Any]]],
        query: str | None,
        params: Sequence[Any],
        future: asyncio.Future[tuple[list[int], list[aiosqlite.Row] | None]],
    ) -> None:
        self.statements = statements
        self.query = query
        self.params = params
        self.future = future


class _GroupLost(Exception):
    """On the database thread: a unit's failure took SQLite's whole transaction with it (a full
    disk, an I/O error), so no unit of the batch can be committed."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


_Outcome = tuple[list[int], "list[aiosqlite.Row] | None"] | Exception


def _begin(conn: sqlite3.Connection, catch_up: bool) -> None:
    """On the database thread: ``BEGIN IMMEDIATE``; first, when ``catch_up``, a ``PASSIVE``
    checkpoint on this (the writer's) connection, which copies what the last background
    checkpoint left (what groups committed while it ran), so the WAL is wholly copied when the
    transaction begins and SQLite writes it from its start again instead of growing it."""
    if catch_up:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    conn.execute("BEGIN IMMEDIATE")


def _run_units(
    conn: sqlite3.Connection, units: Sequence[_Unit], catch_up: bool = False
) -> list[_Outcome]:
    """On the database thread, in one trip: ``BEGIN IMMEDIATE`` (see :func:`_begin`), each
    unit's statements, then one ``COMMIT``. A unit whose first statement changed nothing wrote
    nothing. When a unit raises, the whole batch is rolled back and run again with each unit in
    its own savepoint (:func:`_run_units_apart`), so one unit's failure still cannot undo
    another's work: the savepoints' two statements a unit are paid only then (each statement
    takes the GIL back, which the event loop holds while it computes a burst; issue 15:
    "retry the batch without it"). Raises what ``BEGIN``, ``COMMIT`` or that ``ROLLBACK``
    raise (after rolling back), or :class:`_GroupLost` when a unit's failure ended the
    transaction in the run again (a first run SQLite ended is run again all the same: it wrote
    nothing); nothing of the batch is then committed."""
    _begin(conn, catch_up)
    try:
        outcomes: list[_Outcome] = []
        for unit in units:
            try:
                outcomes.append(_run_unit(conn, unit))
            except Exception:  # noqa: BLE001 - run again apart: the unit gets its own error
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                return _run_units_apart(conn, units)
        conn.execute("COMMIT")
    except BaseException:
        _roll_back(conn)
        raise
    return outcomes


def _run_units_apart(conn: sqlite3.Connection, units: Sequence[_Unit]) -> list[_Outcome]:
    """:func:`_run_units` again after a unit raised: each unit in its own savepoint (a unit
    that raises is rolled back alone and gets its error), then one ``COMMIT``. Raises what
    ``BEGIN`` or ``COMMIT`` raise (after rolling back), or :class:`_GroupLost` when a unit's
    failure ended the transaction."""
    _begin(conn, False)
    try:
        outcomes: list[_Outcome] = []
        for unit in units:
            conn.execute("SAVEPOINT unit")
            try:
                outcome = _run_unit(conn, unit)
            except Exception as error:
                if not conn.in_transaction:
                    raise _GroupLost(error) from error
                conn.execute("ROLLBACK TO unit")
                conn.execute("RELEASE unit")
                outcomes.append(error)
                continue
            conn.execute("RELEASE unit")
            outcomes.append(outcome)
        conn.execute("COMMIT")
    except BaseException:
        _roll_back(conn)
        raise
    return outcomes


def _run_unit(
    conn: sqlite3.Connection, unit: _Unit
) -> tuple[list[int], list[aiosqlite.Row] | None]:
    """On the database thread: ``unit``'s statements (:func:`_run_in_order`), then its query
    unless the first statement changed nothing."""
    counts = _run_in_order(conn, unit.statements)
    rows = None
    if unit.query is not None and counts[0] != 0:
        rows = list(conn.execute(unit.query, unit.params).fetchall())
    return counts, rows


def _roll_back(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


class Connection:
    """The handle a transaction or read gets: thin, typed helpers over the raw connection.

    In a transaction the writer's ``SAVEPOINT`` is not a trip of its own: it is sent together
    with the writer's first statement (:attr:`savepoint_sent` says whether it went), and
    :meth:`execute_all` runs several statements in one trip to the database thread."""

    dialect = "sqlite"
    """Which store this is (:attr:`bot.store.base.StoreConnection.dialect`)."""

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self._raw = raw
        self._opening: str | None = None  # sent before the next statement, in its trip
        self.savepoint_sent = False
        self._made: list[bool] = []  # this writer's: [True] once its savepoint exists

    def _open_with_next(self, statement: str) -> None:
        self._opening = statement
        self.savepoint_sent = False
        self._made = []

    async def _undo_writer(self) -> None:
        """Roll back to the writer's savepoint and release it, in one trip — if the savepoint
        was made (it was sent with a statement that may have failed before it)."""

        made = self._made  # this writer's, even if another writer begins before this runs

        def undo(conn: sqlite3.Connection) -> None:
            if made:
                conn.execute("ROLLBACK TO writer")
                conn.execute("RELEASE writer")

        await self._call(undo)

    async def _begin(self, catch_up: bool) -> None:
        """``BEGIN IMMEDIATE`` (with the catch-up checkpoint first: :func:`_begin`), one trip."""
        await self._call(lambda conn: _begin(conn, catch_up))

    def _closed_writer(self) -> None:
        self._opening = None
        self.savepoint_sent = False

    async def _call(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the connection's own thread (one trip), after the pending opening
        statement if any. aiosqlite (pinned in pyproject) has no public call for this; its
        ``_execute`` queues a function on that thread, in order with every other call."""
        opening, self._opening = self._opening, None
        raw, made = self._raw, self._made

        def run() -> _T:
            conn = raw._conn
            if opening is not None:
                conn.execute(opening)
                made.append(True)  # on the thread, before anything queued after it
            return work(conn)

        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._queue_on_thread(future, run)
        if opening is not None:
            self.savepoint_sent = True  # queued: it runs, whatever happens to this task
        return await future

    def _queue(self, future: asyncio.Future[_T], work: Callable[[sqlite3.Connection], _T]) -> None:
        """Queue ``work`` on the connection's own thread without waiting: ``future`` gets its
        result or exception (set from that thread through the event loop). Raises
        ``ValueError`` when the connection is closed."""
        assert self._opening is None, "a transaction writer's SAVEPOINT is pending"
        raw = self._raw
        self._queue_on_thread(future, lambda: work(raw._conn))

    def _queue_on_thread(self, future: asyncio.Future[_T], run: Callable[[], _T]) -> None:
        # aiosqlite (pinned in pyproject) has no public call for this: its worker thread takes
        # (future, function) pairs from ``_tx`` in order, runs each and sets the future with
        # call_soon_threadsafe (what its own ``_execute`` queues, without the coroutine).
        raw = self._raw
        if not raw._running or raw._connection is None:
            raise ValueError("Connection closed")
        raw._tx.put_nowait((future, run))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed. One round trip to the
        database thread (the connection is used by one task at a time, so the change counter
        read before and after belongs to this statement)."""
        if self._opening is not None:
            return (await self.execute_all([(sql, params)]))[0]
        before = self._raw.total_changes
        await self._raw.execute_fetchall(sql, params)
        return self._raw.total_changes - before

    async def execute_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run ``statements`` in order in ONE trip to the database thread; return how many rows
        each changed. When the first changes nothing (e.g. a versioned ``UPDATE`` that found
        its row moved on) the others are not run and the list has that one count only."""

        return await self._call(lambda conn: _run_in_order(conn, statements))

    async def execute_all_fetch(
        self, statements: Sequence[tuple[str, Sequence[Any]]], query: str, params: Sequence[Any]
    ) -> tuple[list[int], list[aiosqlite.Row] | None]:
        """:meth:`execute_all`, then — only if the first statement changed a row, so every
        statement ran — ``query``, all in ONE trip to the database thread: how many rows each
        statement changed, and the query's rows (``None`` when the first statement changed
        nothing and the rest were skipped)."""

        def work(conn: sqlite3.Connection) -> tuple[list[int], list[aiosqlite.Row] | None]:
            counts = _run_in_order(conn, statements)
            if counts[0] == 0:  # the rest were skipped (or there was nothing else)
                return counts, None
            return counts, list(conn.execute(query, params).fetchall())

        return await self._call(work)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; return the new row's id."""
        if self._opening is not None:
            row = await self._call(lambda conn: conn.execute(sql, params).lastrowid)
            if row is None:
                raise RuntimeError("INSERT did not produce a row id")
            return int(row)
        found = await self._raw.execute_insert(sql, params)
        if found is None or found[0] is None:
            raise RuntimeError("INSERT did not produce a row id")
        return int(found[0])

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Run a query and return every row (no cursor stays open)."""
        if self._opening is not None:
            return list(await self._call(lambda conn: conn.execute(sql, params).fetchall()))
        return list(await self._raw.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """Run a query and return its first row, or ``None``."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Database:
    """An open SQLite database: WAL journal, foreign keys on, ``synchronous=FULL``.

    ``synchronous=FULL`` because a reply is only sent after its commit and a committed command
    must survive a power cut, not just a process crash.

    Group commit invariant: a group (one open SQLite transaction) is committed or failed exactly
    once, whatever its writers do. The writer that ends a group hands the COMMIT and the lock's
    release to a task of their own, so cancelling that writer cannot interrupt the COMMIT or
    leave the group unresolved; a writer that leaves the group open for a queued one also queues
    a flush on the lock, which commits the group if nobody else did (the queued writer may be
    cancelled before it joins).
    """

    shared_by_processes = False
    """One bot process per SQLite file (README, "Sharding"):
    :attr:`bot.store.base.Store.shared_by_processes`."""

    def __init__(
        self,
        raw: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        path: Path,
        *,
        max_group: int = MAX_GROUP,
        checkpointer: aiosqlite.Connection | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        self._checkpointer = checkpointer
        self.checkpoint_every = checkpoint_every
        self.restart_frames = RESTART_FRAMES
        self.checkpoint_passes = CHECKPOINT_PASSES
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Task[None] | None = None
        self.checkpoints = 0
        """Background checkpoints completed (each copied what it could)."""
        self._raw = raw
        self._conn = Connection(raw)
        self._reader = reader
        self._reader_conn = Connection(reader)
        self._reader_lock = asyncio.Lock()
        self._lock = asyncio.Lock()
        self.path = path
        self.max_group = max_group
        self._group: asyncio.Future[None] | None = None
        self._group_size = 0
        # Set when the group's transaction can no longer be committed as a whole (a writer's
        # failure took SQLite's transaction with it, or its undo failed); reported to all.
        self._group_failure: BaseException | None = None
        self._flushing: asyncio.Future[None] | None = None  # the group a flush is queued for
        self._writers_waiting = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._units: list[_Unit] = []  # single-trip units waiting to be sent
        # The database thread takes units from that list too (:meth:`_drain`).
        self._units_lock = threading.Lock()
        self._committer: asyncio.Task[None] | None = None  # waits for the lock for the units
        self._sending = False  # the units own the writer lock
        self._start_due = False  # units came this loop turn: they start at its end
        self._draining = False  # the database thread is running units (:meth:`_drain`)
        self._catch_up = False  # the last background checkpoint left frames behind

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating the file and its folder if needed) and configure the database.

        Raises ``OSError`` when the folder cannot be created and ``sqlite3.Error`` when SQLite
        cannot open or configure the file (unopenable, read-only, not a database); every
        connection opened before the failure is closed again, so no worker thread is left
        running."""
        path.parent.mkdir(parents=True, exist_ok=True)
        connections: list[aiosqlite.Connection] = []
        try:
            for _ in range(3):  # the writer, the reader, the checkpointer
                raw = await _connect(path)
                connections.append(raw)
                raw.row_factory = aiosqlite.Row
                for pragma in (
                    "PRAGMA journal_mode = WAL",
                    "PRAGMA foreign_keys = ON",
                    "PRAGMA synchronous = FULL",
                    "PRAGMA busy_timeout = 5000",
                    "PRAGMA wal_autocheckpoint = 0",  # checkpoints run in the background
                    f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}",
                ):
                    cursor = await raw.execute(pragma)
                    await cursor.close()
            return cls(connections[0], connections[1], path, checkpointer=connections[2])
        except BaseException:
            for raw in connections:
                with contextlib.suppress(Exception):
                    await raw.close()
            raise

    async def close(self) -> None:
        """Commit the open group and the single-trip units waiting when it is called (if any),
        and close every connection. A unit submitted after it was called is committed if a
        batch takes it before ``close`` gets the writer lock, else it fails with
        ``ValueError("Connection closed")`` and nothing of it is written: ``close`` does not
        wait for as long as units keep coming."""
        while self._committer is not None:
            await asyncio.wait([self._committer])  # whatever became of it (it tells its units)
        with self._units_lock:
            waiting = [unit.future for unit in self._units]
        if waiting:  # the units waiting now go first (their batches are on their way)
            await asyncio.wait(waiting)
        # Then counted as a waiting writer, so a run of units gives way to it after its batch
        # instead of going on for as long as units keep coming (those fail: closed).
        self._writers_waiting += 1
        try:
            await self._lock.acquire()  # once the units' trips (if any) are done
        finally:
            self._writers_waiting -= 1
        try:
            await self._commit_group()
            for task in list(self._tasks):  # flushes queued on the lock: nothing left to do
                task.cancel()
            await self._raw.close()
        finally:
            self._lock.release()
        async with self._reader_lock:
            await self._reader.close()
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await self._checkpointing
        if self._checkpointer is not None:
            await self._checkpointer.close()

    @asynccontextmanager
    async def transaction(self, *, channel: int | None = None) -> AsyncIterator[Connection]:
        """One writer's unit of work: all of it is committed, or (on any exception, which is
        re-raised) none of it. Returns only once the work is durable (see group commit above).
        ``channel`` (:meth:`bot.store.base.Store.transaction`) changes nothing here: SQLite's
        one writer already runs every unit of work alone.

        Raises :class:`~bot.errors.StorageUnavailable` when SQLite refuses the write for a
        reason outside the command — disk full, disk I/O error, read-only file, locked past
        the busy timeout — from a statement or from the COMMIT (logged as one line). Raises the
        COMMIT's other errors (e.g. a deferred constraint) to every writer of the group."""
        self._writers_waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self._writers_waiting -= 1
        group: asyncio.Future[None] | None = None
        in_savepoint = False
        try:
            if self._group is None:
                # Once queued, the BEGIN runs whatever happens to this task: the group is open
                # from here, so a writer cancelled meanwhile leaves it to _leave() (committed
                # empty, or kept for the writers queued), never a transaction nobody owns.
                self._group = asyncio.get_running_loop().create_future()
                try:
                    await self._conn._begin(self._take_catch_up())
                except Exception:
                    self._group = None  # the trip ended without a transaction begun
                    raise
            group = self._group
            self._group_size += 1
            # Savepoints of successful writers are left open (COMMIT ends them all), which
            # saves a round trip per writer; ROLLBACK TO names the newest one, this writer's.
            # The SAVEPOINT travels with the writer's first statement (no trip of its own); a
            # writer that sent nothing has nothing to undo.
            self._conn._open_with_next("SAVEPOINT writer")
            yield self._conn
        except BaseException as error:
            in_savepoint = self._conn.savepoint_sent
            self._conn._closed_writer()
            if in_savepoint:
                await self._undo_writer(error)
            elif group is not None and not self._raw.in_transaction:
                self._fail_group(error)
            mapped = storage_error(error)
            if mapped is not None:
                log.warning("storage refused a write (%s): %s", mapped.reason, error)
                raise mapped from error
            raise
        finally:
            self._conn._closed_writer()
            self._leave()
        assert group is not None  # the block ran, so this writer joined a group
        await asyncio.shield(group)

    async def _undo_writer(self, error: BaseException) -> None:
        """Roll back this writer's savepoint; if that fails, or SQLite already rolled the whole
        transaction back (it may, on a full disk or an I/O error), the group cannot be
        committed: every writer of it gets the failure."""
        try:
            await self._conn._undo_writer()
        except BaseException as undo_error:
            self._fail_group(error if storage_error(error) else undo_error)
            if not isinstance(undo_error, Exception):
                raise
            return
        if not self._raw.in_transaction:
            self._fail_group(error)

    def _fail_group(self, error: BaseException) -> None:
        if self._group is not None and self._group_failure is None:
            self._group_failure = error

    def _leave(self) -> None:
        """A writer is done with the lock (synchronous, so a cancellation cannot stop half of
        it): commit the group in a task of its own, or leave it open for the queued writers and
        make sure it gets flushed; release the lock either way (the commit task releases it
        after the COMMIT)."""
        group = self._group
        if group is None:
            self._lock.release()
        elif (
            self._group_failure is not None
            or self._writers_waiting == 0
            or self._group_size >= self.max_group
        ):
            self._spawn(self._commit_and_release())
        else:
            if self._flushing is not group:
                self._flushing = group
                self._spawn(self._flush(group))
            self._lock.release()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _commit_and_release(self) -> None:
        try:
            await self._commit_group()
        finally:
            self._lock.release()

    async def _flush(self, group: asyncio.Future[None]) -> None:
        """Queued on the lock behind the writers a group was left open for: commit that group
        if none of them did (each may have been cancelled before joining it)."""
        async with self._lock:
            if self._group is group:
                await self._commit_group()

    async def _commit_group(self) -> None:
        """COMMIT the open group (if any) and tell its writers; on failure roll it back and
        hand every writer the error (a storage fault as :class:`StorageUnavailable`)."""
        group, failure, size = self._group, self._group_failure, self._group_size
        self._group, self._group_size, self._group_failure = None, 0, None
        if group is None:
            return
        try:
            if failure is not None:
                raise failure
            await self._conn.execute("COMMIT")
        except BaseException as error:
            if self._raw.in_transaction:
                with contextlib.suppress(Exception):
                    await self._conn.execute("ROLLBACK")
            reported: BaseException = error
            mapped = storage_error(error)
            if mapped is not None:
                if failure is None:  # the failing writer has logged its own error
                    log.warning("storage refused a commit (%s): %s", mapped.reason, error)
                reported = mapped
            elif not isinstance(error, Exception):
                reported = RuntimeError("the database was closed before the commit finished")
            if not group.done():
                group.set_exception(reported)
                group.exception()  # retrieved here; each writer re-raises it
            if not isinstance(error, Exception):
                raise
            return
        group.set_result(None)
        self._committed(size)

    def _committed(self, writers: int) -> None:
        """A group of ``writers`` committed: every :attr:`checkpoint_every` writers start a
        background checkpoint (unless one is still running, or the next group catches up)."""
        self._since_checkpoint += writers
        if (
            self._since_checkpoint >= self.checkpoint_every
            and self._checkpointing is None
            and not self._catch_up  # the next group catches up first; then the next one
        ):
            self._since_checkpoint = 0
            self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())

    async def checkpointed(self) -> None:
        """Wait for the background checkpoint running now, if any (tests, shutdown)."""
        if self._checkpointing is not None:
            await asyncio.shield(self._checkpointing)

    async def _checkpoint(self) -> None:
        """Copy what can be copied from the WAL into the database (``PASSIVE``: waits for no
        writer or reader) on the checkpointer's own connection and thread; a failure is logged
        and the next one tries again."""
        try:
            if self._checkpointer is not None:
                rows: list[Any] = []
                for _ in range(self.checkpoint_passes):
                    cursor = await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    rows = list(await cursor.fetchall())
                    await cursor.close()
                self.checkpoints += 1
                # (busy, frames in the WAL, frames copied). A group that began while it ran
                # began with frames not yet copied, so SQLite could not write the WAL from its
                # start again; once the WAL is long, the next group to begin copies what is
                # left first (_begin), so it can. Each pass after the first copies only what
                # committed during the one before, so the catch-up (which every command queued
                # behind it waits for) is left less to copy.
                if rows and rows[0][1] >= self.restart_frames:
                    self._catch_up = True
        except (sqlite3.Error, ValueError) as error:  # the WAL only grows until the next try
            log.warning("background WAL checkpoint failed: %s", error)
        finally:
            self._checkpointing = None

    def _take_catch_up(self) -> bool:
        """Whether the group beginning now copies what the last background checkpoint left
        first (:func:`_begin`): yes once that checkpoint has finished — not while another one
        runs, which would keep the catch-up from copying anything (one checkpoint at a time)."""
        if not self._catch_up or self._checkpointing is not None:
            return False
        self._catch_up = False
        return True

    def single_trip(self, *, channel: int | None = None) -> SingleTrip:
        """A unit of work of one ``execute_all``/``execute_all_fetch`` call
        (:meth:`bot.store.base.Store.single_trip`; ``channel`` changes nothing here).

        The call queues the unit and returns once it is committed. Units go to the database
        thread in batches of up to :attr:`max_group`, ONE trip each — ``BEGIN IMMEDIATE``, the
        units' statements, one ``COMMIT`` (again with a savepoint a unit when one raised:
        :func:`_run_units`) — handed over at the end of the event loop's turn in which they
        came when the writer is idle (no task in between); while a batch runs, the units that
        come wait, and the thread takes them as its next batch when the COMMIT returns
        (:meth:`_drain`). The units hold the writer lock while their trips run
        (so :meth:`transaction` writers never interleave) and give it up when no unit waits or
        a transaction writer does; a unit that finds the lock taken waits for it in a committer
        task, in turn with the transaction writers. A unit whose statement raises is
        rolled back alone and its writer gets the error (a storage fault as
        :class:`~bot.errors.StorageUnavailable`); a failed ``COMMIT``, or a failure that ended
        SQLite's transaction, fails every unit of the batch and commits none. A writer
        cancelled before its unit was taken for a batch writes nothing (from the moment its
        ``cancel()`` returns, before its task has run again: :meth:`_take`); one cancelled
        after still has its unit committed with the others (as a :meth:`transaction` writer
        cancelled while waiting for its group's COMMIT)."""
        return SingleTrip("sqlite", self._submit)

    async def _submit(
        self,
        statements: Sequence[tuple[str, Sequence[Any]]],
        query: str | None,
        params: Sequence[Any],
    ) -> tuple[list[int], list[aiosqlite.Row] | None]:
        loop = asyncio.get_running_loop()
        unit = _Unit(list(statements), query, params, loop.create_future())
        with self._units_lock:
            self._units.append(unit)
        if not self._start_due:
            self._start_due = True
            loop.call_soon(self._start_due_units)
        try:
            # Not shielded: a writer cancelled here cancels its own future only. The unit is
            # then either still waiting (left by every take from then on, and removed below:
            # nothing of it is written) or already taken for a trip (committed or failed with
            # its batch; nobody reads the outcome).
            return await unit.future
        except asyncio.CancelledError:
            with self._units_lock:
                if unit in self._units:
                    self._units.remove(unit)
            raise

    def _start_due_units(self) -> None:
        """End of the loop turn in which units came: start them (:meth:`_start_units`) all
        together. Started at once, the first unit of a burst (commands whose timers or
        messages woke in the same turn) went alone, and its trip waited for the GIL while the
        loop computed the rest of the burst, which then waited for that trip: two trips for
        one burst, the slowest commands (docs/performance.md, "Units sent at the end of the
        loop turn")."""
        self._start_due = False
        if self._units:
            self._start_units()

    def _start_units(self) -> None:
        """Units are waiting: while the units own the writer lock, let :meth:`_pump` start the
        database thread on them if it is not running them already; else take the lock now if
        nobody holds or waits for it (and no transaction group is open), without a trip
        through the event loop; else a task waits for it (:meth:`_take_lock`)."""
        if self._sending:
            self._pump()
        elif self._committer is None:
            if self._group is None and _acquire_now(self._lock):
                self._sending = True
                self._pump()
            else:
                self._committer = asyncio.get_running_loop().create_task(self._take_lock())
                self._committer.add_done_callback(self._committer_ended)

    async def _take_lock(self) -> None:
        """The committer: wait for the writer lock for the waiting units (behind the
        :meth:`transaction` writers queued first), commit the group they left open if any,
        then send (:meth:`_pump`). Units waiting when it stops on an error (a cancellation:
        shutdown) get that error; nothing of theirs was sent."""
        try:
            await self._lock.acquire()
            try:
                if self._group is not None:
                    await self._commit_group()
            except BaseException:
                self._lock.release()
                raise
        except BaseException as error:
            self._committer = None
            self._fail_units(error)
            if not isinstance(error, Exception):
                raise
            log.exception("the committer stopped")
            return
        self._committer = None
        self._sending = True
        self._pump(turn=True)

    def _committer_ended(self, task: asyncio.Task[None]) -> None:
        """A committer cancelled before its first step ran none of :meth:`_take_lock`: its
        units are told, and the next unit starts another."""
        if self._committer is task:
            self._committer = None
            self._fail_units(asyncio.CancelledError())

    def _fail_units(self, error: BaseException) -> None:
        with self._units_lock:
            left, self._units = self._units, []
        for unit in left:
            _settle(unit.future, _reported(error))

    def _pump(self, *, turn: bool = False) -> None:
        """While the units own the writer lock and the database thread is not running them
        already: start it on the waiting units (:meth:`_drain`) — unless :meth:`transaction`
        writers wait for the lock, except when the units have just got it in their ``turn``
        (so a stream of transactions cannot starve them). Else release the lock; units still
        waiting then (writers came first) wait for it again."""
        if self._draining:
            return
        if turn or not self._writers_waiting:
            batch = self._take()
            if batch:
                self._drain(batch)
                return
        self._sending = False
        self._lock.release()
        if self._units:
            self._start_units()

    def _take(self) -> list[_Unit]:
        """Up to :attr:`max_group` waiting units, oldest first, no longer waiting (on either
        thread: a unit taken cannot be withdrawn by its cancelled writer). A unit whose writer
        was cancelled is dropped, not taken: ``cancel()`` cancels the unit's future at once,
        but the writer's task withdraws the unit (:meth:`_submit`) only when it next runs: in
        a later loop turn than the start due at the end of the turn the unit came in
        (:meth:`_start_due_units`), and maybe after the database thread's own next take."""
        with self._units_lock:
            batch: list[_Unit] = []
            looked = 0
            for unit in self._units:
                if len(batch) == self.max_group:
                    break
                looked += 1
                if not unit.future.cancelled():  # read on either thread: set by the loop's
                    batch.append(unit)  # cancel(), under the GIL; a unit taken stays taken
            del self._units[:looked]
        return batch

    def _drain(self, batch: list[_Unit]) -> None:
        """Run ``batch`` on the database thread, one trip (:func:`_run_units`), and after it,
        still on that thread, batches of the units that came meanwhile, until none is left, a
        :meth:`transaction` writer waits for the lock or a catch-up checkpoint is due (the
        next run begins with it). The thread never waits for the event loop to hand it the
        next batch; each batch's outcome goes to the loop as soon as its COMMIT returns
        (:meth:`_trip_done`), and the end of the run (:meth:`_drained`) after the last."""
        loop = asyncio.get_running_loop()
        catch_up = self._take_catch_up()

        def drain(conn: sqlite3.Connection) -> None:
            current, first = batch, catch_up
            while current:
                try:
                    outcomes = _run_units(conn, current, first)
                except BaseException as error:
                    loop.call_soon_threadsafe(self._trip_done, current, None, error)
                    if not isinstance(error, Exception):
                        raise  # the run stops; units left wait for the next one
                else:
                    loop.call_soon_threadsafe(self._trip_done, current, outcomes, None)
                # plain reads of the loop's counters (under the GIL): a stale one only ends
                # this run one batch early or late
                if self._writers_waiting or self._catch_up:
                    return
                current, first = self._take(), False

        ended: asyncio.Future[None] = loop.create_future()
        ended.add_done_callback(self._drained)
        self._draining = True
        try:
            self._conn._queue(ended, drain)
        except ValueError as error:  # the connection is closed
            self._draining = False
            self._trip_done(batch, None, error)
            self._pump()

    def _drained(self, _ended: asyncio.Future[None]) -> None:
        """The database thread's run of units ended (after every batch's outcome was handed
        out): start another on what waits, or give the lock up."""
        if not _ended.cancelled():
            _ended.exception()  # a BaseException that stopped the run: its batch was told
        self._draining = False
        self._pump()

    def _trip_done(
        self, batch: list[_Unit], outcomes: list[_Outcome] | None, error: BaseException | None
    ) -> None:
        """On the event loop: a batch's trip ended with ``outcomes`` (one per unit) or raised
        ``error``; tell each writer its outcome."""
        if error is not None:
            failure = error.error if isinstance(error, _GroupLost) else error
            reported = _reported(failure)
            if isinstance(reported, StorageUnavailable):
                log.warning("storage refused a write (%s): %s", reported.reason, failure)
            for unit in batch:
                _settle(unit.future, reported)
            return
        assert outcomes is not None
        for unit, outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, Exception):
                reported = _reported(outcome)
                if isinstance(reported, StorageUnavailable):
                    log.warning("storage refused a write (%s): %s", reported.reason, outcome)
                _settle(unit.future, reported)
            elif not unit.future.done():
                unit.future.set_result(outcome)
        self._committed(len(batch))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """The reader connection, for reads of committed data only (never blocks writers)."""
        async with self._reader_lock:
            yield self._reader_conn

    async def schema_version(self) -> int:
        """The number of the last migration applied (``PRAGMA user_version``)."""
        async with self.read() as conn:
            row = await conn.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Iterable[Migration] | None = None) -> list[int]:
        """Apply every migration newer than :meth:`schema_version`, each in its own transaction
        together with the ``user_version`` bump (a Python migration's step runs inside that
        transaction, after its SQL if it has any). Returns the numbers applied (empty when the
        database is already at head, which changes nothing). Raises :class:`SchemaAhead`, and
        changes nothing, when the database is past the bundled migrations (a newer bot's)."""
        pending = sorted(
            migrations if migrations is not None else bundled_migrations(),
            key=lambda m: m.version,
        )
        current = await self.schema_version()
        if migrations is None:
            refuse_if_ahead(current, pending)
        applied: list[int] = []
        for migration in pending:
            if migration.version <= current:
                continue
            async with self.transaction() as conn:
                for statement in _statements(migration.sql):
                    await conn.execute(statement)
                if migration.step is not None:
                    await migration.step(conn)
                await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            log.info("applied migration %s", migration.name)
            applied.append(migration.version)
        if applied:
            async with self._reader_lock:  # let the reader load the new schema
                await self._reader_conn.fetch_all("SELECT count(*) FROM sqlite_master")
        return applied


def _reported(error: BaseException) -> Exception:
    """What a writer is told of ``error``: a storage fault as
    :class:`~bot.errors.StorageUnavailable`, another exception as it is, and a
    cancellation or shutdown of the trip as a ``RuntimeError``."""
    mapped = storage_error(error)
    if mapped is not None:
        return mapped
    if isinstance(error, Exception):
        return error
    return RuntimeError("the database was closed before the commit finished")


def _acquire_now(lock: asyncio.Lock) -> bool:
    """Take ``lock`` if that needs no wait (nobody holds it or waits for it): ``acquire()``'s
    own first step, run without the event loop; a wait it would start is given up."""
    if lock.locked():
        return False
    attempt = lock.acquire()
    try:
        attempt.send(None)
    except StopIteration:
        return True
    attempt.close()  # it would wait (a waiter woken but not yet run): leaves the lock alone
    return False


def _settle(future: asyncio.Future[Any], error: Exception) -> None:
    if not future.done():
        future.set_exception(error)
        future.add_done_callback(_outcome_read)


def _outcome_read(future: asyncio.Future[Any]) -> None:
    """Mark a unit's outcome as read (its writer was cancelled and will not read it)."""
    if not future.cancelled():
        future.exception()


async def _connect(path: Path) -> aiosqlite.Connection:
    """One aiosqlite connection in autocommit mode (transactions are explicit)."""
    connection = aiosqlite.connect(path, isolation_level=None)
    try:
        return await connection
    except BaseException:
        # aiosqlite stops its worker thread on a failed connect without waiting for it; wait
        # here, or the thread reports to an event loop that is closed by then (a traceback).
        thread = getattr(connection, "_thread", None)
        if thread is not None:
            await asyncio.to_thread(thread.join, 5)
        raise


# What a user is told when SQLite refuses a write for a reason outside the command, by SQLite's
# primary result code. Nothing of the command was changed when these are raised.
_STORAGE_FAULTS: dict[int, str] = {
    sqlite3.SQLITE_FULL: (
        "The bot's storage is full; nothing was changed. Tell whoever hosts the bot."
    ),
    sqlite3.SQLITE_IOERR: (
        "The bot could not write to its storage (a disk error); nothing was changed. "
        "Tell whoever hosts the bot."
    ),
    sqlite3.SQLITE_READONLY: (
        "The bot's storage has become read-only; nothing was changed. Tell whoever hosts the bot."
    ),
    sqlite3.SQLITE_BUSY: (
        "The bot's storage is busy (another program is holding the database); nothing was "
        "changed. Try again in a moment."
    ),
    sqlite3.SQLITE_LOCKED: (
        "The bot's storage is busy (another program is holding the database); nothing was "
        "changed. Try again in a moment."
    ),
}


def storage_error(error: BaseException) -> StorageUnavailable | None:
    """The :class:`StorageUnavailable` for a ``sqlite3.Error`` that means the storage itself
    refused (full, I/O error, read-only, busy/locked), or ``None`` for anything else."""
    if isinstance(error, StorageUnavailable):
        return error
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(error, sqlite3.Error) or not isinstance(code, int):
        return None
    message = _STORAGE_FAULTS.get(code & 0xFF)  # extended codes keep the primary in the low byte
    if message is None:
        return None
    return StorageUnavailable(message, getattr(error, "sqlite_errorname", None) or str(code))


def _statements(script: str) -> list[str]:
    """Split a migration file into statements (executescript would COMMIT on its own)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement in migration: {buffer.strip()[:80]}")
    return statements
