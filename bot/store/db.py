"""The SQLite connection, its pragmas, transactions and numbered migrations.

One :class:`Database` owns one aiosqlite connection. Every statement runs while holding the
database's lock: two tasks sharing a connection without it would commit each other's half-done
work (GUIDE §5). Writes happen inside :meth:`Database.transaction`; reads inside
:meth:`Database.read`, which fetches all rows so no cursor pins an old WAL snapshot.

Group commit: writers that queue up behind each other share one SQLite transaction, each inside
its own ``SAVEPOINT`` (so one writer's failure rolls back only its own work), and one ``COMMIT``
— one fsync — covers them all. Each writer's ``transaction()`` returns only after that COMMIT,
so nothing is acknowledged before it is durable. Reads use a second connection, which in WAL
mode sees only committed data and never waits for the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, cast

import aiosqlite

log = logging.getLogger(__name__)

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


class Connection:
    """The handle a transaction or read gets: thin, typed helpers over the raw connection."""

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self._raw = raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed. One round trip to the
        database thread (the connection is used by one task at a time, so the change counter
        read before and after belongs to this statement)."""
        before = self._raw.total_changes
        await self._raw.execute_fetchall(sql, params)
        return self._raw.total_changes - before

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; return the new row's id."""
        row = await self._raw.execute_insert(sql, params)
        if row is None or row[0] is None:
            raise RuntimeError("INSERT did not produce a row id")
        return int(row[0])

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Run a query and return every row (no cursor stays open)."""
        return list(await self._raw.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """Run a query and return its first row, or ``None``."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Database:
    """An open SQLite database: WAL journal, foreign keys on, ``synchronous=FULL``.

    ``synchronous=FULL`` because a reply is only sent after its commit and a committed command
    must survive a power cut, not just a process crash.
    """

    def __init__(
        self,
        raw: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        path: Path,
        *,
        max_group: int = 8,
    ) -> None:
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
        self._writers_waiting = 0

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating the file and its folder if needed) and configure the database."""
        path.parent.mkdir(parents=True, exist_ok=True)
        connections = []
        for _ in range(2):  # the writer, then the reader
            raw = await aiosqlite.connect(path, isolation_level=None)
            raw.row_factory = aiosqlite.Row
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA synchronous = FULL",
                "PRAGMA busy_timeout = 5000",
                "PRAGMA wal_autocheckpoint = 10000",
            ):
                cursor = await raw.execute(pragma)
                await cursor.close()
            connections.append(raw)
        return cls(connections[0], connections[1], path)

    async def close(self) -> None:
        async with self._lock:
            await self._commit_group()
            await self._raw.close()
        async with self._reader_lock:
            await self._reader.close()

    async def _commit_group(self) -> None:
        """COMMIT the open group (if any) and tell its writers; on failure roll it back and
        hand every writer the error."""
        group, self._group, self._group_size = self._group, None, 0
        if group is None:
            return
        try:
            await self._conn.execute("COMMIT")
        except BaseException as error:
            with contextlib.suppress(Exception):
                await self._conn.execute("ROLLBACK")
            group.set_exception(error)
            group.exception()  # retrieved here; each writer re-raises it
            if not isinstance(error, Exception):
                raise
            return
        group.set_result(None)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One writer's unit of work: all of it is committed, or (on any exception, which is
        re-raised) none of it. Returns only once the work is durable (see group commit above).
        Raises the COMMIT's error if the group could not be committed."""
        self._writers_waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self._writers_waiting -= 1
        try:
            if self._group is None:
                await self._conn.execute("BEGIN IMMEDIATE")
                self._group = asyncio.get_running_loop().create_future()
            group = self._group
            self._group_size += 1
            # Savepoints of successful writers are left open (COMMIT ends them all), which
            # saves a round trip per writer; ROLLBACK TO names the newest one, this writer's.
            await self._conn.execute("SAVEPOINT writer")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK TO writer")
                await self._conn.execute("RELEASE writer")
                raise
        finally:
            if self._group is not None and (
                self._writers_waiting == 0 or self._group_size >= self.max_group
            ):
                await self._commit_group()
            self._lock.release()
        await asyncio.shield(group)

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
        database is already at head, which changes nothing)."""
        pending = sorted(
            migrations if migrations is not None else bundled_migrations(),
            key=lambda m: m.version,
        )
        current = await self.schema_version()
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
