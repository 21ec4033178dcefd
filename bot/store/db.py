"""The SQLite connection, its pragmas, transactions and numbered migrations.

One :class:`Database` owns one aiosqlite connection. Every statement runs while holding the
database's lock: two tasks sharing a connection without it would commit each other's half-done
work (GUIDE §5). Writes happen inside :meth:`Database.transaction` (``BEGIN IMMEDIATE`` …
``COMMIT``, rolled back on any exception); reads inside :meth:`Database.read`, which fetches all
rows so no cursor pins an old WAL snapshot.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class Migration:
    """One numbered ``NNNN_name.sql`` file; ``version`` is its number."""

    def __init__(self, version: int, name: str, sql: str) -> None:
        self.version = version
        self.name = name
        self.sql = sql


def bundled_migrations() -> list[Migration]:
    """The migrations shipped in ``bot/store/migrations``, ordered by number.

    Raises ``RuntimeError`` if two files share a number or the numbers have a gap.
    """
    found: list[Migration] = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
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
        """Run one statement; return the number of rows it changed."""
        cursor = await self._raw.execute(sql, params)
        count = cursor.rowcount
        await cursor.close()
        return count

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; return the new row's id."""
        cursor = await self._raw.execute(sql, params)
        row_id = cursor.lastrowid
        await cursor.close()
        if row_id is None:
            raise RuntimeError("INSERT did not produce a row id")
        return row_id

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Run a query and return every row (the cursor is closed before returning)."""
        cursor = await self._raw.execute(sql, params)
        rows = await cursor.fetchall()
        await cursor.close()
        return list(rows)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """Run a query and return its first row, or ``None``."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Database:
    """An open SQLite database: WAL journal, foreign keys on, ``synchronous=FULL``.

    ``synchronous=FULL`` because a reply is only sent after its commit and a committed command
    must survive a power cut, not just a process crash.
    """

    def __init__(self, raw: aiosqlite.Connection, path: Path) -> None:
        self._raw = raw
        self._conn = Connection(raw)
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: Path) -> Database:
        """Open (creating the file and its folder if needed) and configure the database."""
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = await aiosqlite.connect(path, isolation_level=None)
        raw.row_factory = aiosqlite.Row
        for pragma in (
            "PRAGMA journal_mode = WAL",
            "PRAGMA foreign_keys = ON",
            "PRAGMA synchronous = FULL",
            "PRAGMA busy_timeout = 5000",
        ):
            cursor = await raw.execute(pragma)
            await cursor.close()
        return cls(raw, path)

    async def close(self) -> None:
        async with self._lock:
            await self._raw.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls everything back and re-raises."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """Exclusive use of the connection for reads outside any open transaction."""
        async with self._lock:
            yield self._conn

    async def schema_version(self) -> int:
        """The number of the last migration applied (``PRAGMA user_version``)."""
        async with self.read() as conn:
            row = await conn.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Iterable[Migration] | None = None) -> list[int]:
        """Apply every migration newer than :meth:`schema_version`, each in its own transaction
        together with the ``user_version`` bump. Returns the numbers applied (empty when the
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
                await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            log.info("applied migration %s", migration.name)
            applied.append(migration.version)
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
