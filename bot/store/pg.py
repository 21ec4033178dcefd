"""The PostgreSQL store: an asyncpg pool, transactions, and the PostgreSQL migrations.

Used when ``DATABASE_URL`` is a ``postgresql://`` URL (:mod:`bot.settings`). It meets the same
contract as the SQLite store (:class:`bot.store.base.Store`): repository modules write ``?``
placeholders and :class:`PgConnection` numbers them for PostgreSQL (``$1, $2, …``).

Each :meth:`PgDatabase.transaction` (unless opened for one channel, below) is one PostgreSQL
transaction on a pooled connection that first takes ``pg_advisory_xact_lock(WRITER_LOCK)``:
writers run one at a time, across every process sharing the database, exactly as SQLite's
single writer (``BEGIN IMMEDIATE``) runs them.
The repositories' check-then-write steps (a member's sheet limit: count, then insert) rely on
that; under PostgreSQL's READ COMMITTED alone, concurrent writers each counted 24 of 25 and all
inserted (tests/services/test_sheets.py::test_default_limits caught it). Reads take no lock.

**Per-channel locks** (issue 16). A transaction opened with ``transaction(channel=…)`` — an
ordinary encounter change (:meth:`bot.services.encounters.EncounterService.change` without
``prepare``/``finish``, bringing no character in and taking none out) whose writes are only its
channel's encounter row (versioned UPDATE), log row, redo history, decisions and turn timers,
and which reads nothing of another channel — takes ``pg_advisory_xact_lock_shared(WRITER_LOCK)``
and then that channel's exclusive lock (:func:`channel_lock_sql`). Such changes of different
channels, in any process, commit at the same time; two of one channel queue on its lock, and
the versioned UPDATE refuses the one computed from the older version. Everything else takes
``WRITER_LOCK`` exclusively, as before: every non-encounter write, start and end, the expiry
claims, a change with ``prepare`` (undo, join, handover) or ``finish``, and a change that moves
a character in or out (its campaign record follows it, and a character must not be in two live
fights of a server — a check across channels). The exclusive writer lock waits for every
channel-only transaction to end and keeps new ones out, so a check across channels sees no
channel-only write in progress, exactly as when every write took the one lock.

*Lock order, no deadlock*: every transaction takes its advisory locks first, before any other
statement (so before any row lock), in one order — the writer lock (shared or exclusive) first,
then at most one channel lock; a transaction holding the writer lock exclusively takes no
channel lock. So no transaction waits for an advisory lock while holding a row lock, and two
transactions cannot each hold an advisory lock the other waits for (the writer lock is never
asked for after a channel lock). A migration takes :data:`MIGRATION_LOCK` after the writer lock.

So one channel's changes in several processes are put in order when they commit (its lock, or
the writer lock, then the versioned UPDATE refusing a change computed from an older version),
not queued before they are computed: :mod:`bot.services.encounters` computes a refused one
again.

Migrations live in ``bot/store/migrations_pg`` (``NNNN_name.sql``, or ``.py`` with
``async def migrate(conn)``), numbered like SQLite's ``bot/store/migrations``: PostgreSQL
migration N leaves the same tables and columns as SQLite migration N. The first file is a
baseline (``0019_baseline.sql``: SQLite's schema after 0001–0019, written once for PostgreSQL).
The applied version is kept in ``schema_version``. Every migration runs in one transaction
holding ``pg_advisory_xact_lock(MIGRATION_LOCK)`` and re-reads the version under it, so two
processes starting at once apply each migration exactly once (the second waits, then finds
nothing left to do).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from importlib import resources
from typing import Any, cast

import asyncpg

from bot.errors import StorageUnavailable
from bot.store.base import SingleTrip
from bot.store.db import Migration, MigrationStep, refuse_if_ahead
from bot.store.db import _statements as sql_statements

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x7467_6D69_6772  # "tgmigr": the advisory lock key the migrators share
WRITER_LOCK = 0x7467_7772_6974  # "tgwrit": held by every write transaction until it ends
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.(sql|py)$")
CONNECT_TIMEOUT = 10.0  # seconds to reach the server before giving up


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` placeholder outside quotes replaced by ``$1``, ``$2``, … (string
    literals ``'…'`` and quoted names ``"…"`` are left alone)."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def channel_lock_sql(channel_id: int) -> str:
    """The statements (one trip, no parameters: both keys are integers written into the text)
    that begin a channel-only write: :data:`WRITER_LOCK` taken shared, *then* the channel's own
    lock — ``pg_advisory_xact_lock(hi, lo)``, the two-key form, whose keys never meet the
    one-key :data:`WRITER_LOCK` and :data:`MIGRATION_LOCK` — ``hi`` and ``lo`` being the
    channel id's upper and lower 32 bits as signed integers. Raises ``ValueError`` for an id
    outside 0 … 2**63 − 1 (Discord snowflakes are)."""
    if not 0 <= channel_id < 2**63:
        raise ValueError(f"channel id out of range: {channel_id}")
    hi, lo = channel_id >> 32, channel_id & 0xFFFF_FFFF
    lo = lo - 2**32 if lo >= 2**31 else lo
    return (
        f"SELECT pg_advisory_xact_lock_shared({int(WRITER_LOCK)}); "
        f"SELECT pg_advisory_xact_lock({int(hi)}, {int(lo)})"
    )


_COMMAND_COUNT = re.compile(r"^(?:INSERT \d+|UPDATE|DELETE|SELECT|MERGE|COPY) (\d+)$")


class PgConnection:
    """One pooled asyncpg connection behind the :class:`~bot.store.base.StoreConnection`
    methods (``?`` placeholders)."""

    dialect = "postgresql"
    """Which store this is (:attr:`bot.store.base.StoreConnection.dialect`)."""

    def __init__(self, raw: asyncpg.Connection) -> None:
        self._raw = raw

    @property
    def raw(self) -> asyncpg.Connection:
        """The asyncpg connection (for PostgreSQL-only statements in this module and tests)."""
        return self._raw

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed (0 for DDL)."""
        status = await self._raw.execute(numbered(sql), *params)
        match = _COMMAND_COUNT.match(status or "")
        return int(match.group(1)) if match else 0

    async def execute_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run ``statements`` in order; return how many rows each changed. When the first
        changes nothing the others are not run (as :meth:`bot.store.db.Connection.execute_all`;
        one trip each here)."""
        counts: list[int] = []
        for sql, params in statements:
            counts.append(await self.execute(sql, params))
            if counts[0] == 0:
                break
        return counts

    async def execute_all_fetch(
        self, statements: Sequence[tuple[str, Sequence[Any]]], query: str, params: Sequence[Any]
    ) -> tuple[list[int], list[asyncpg.Record] | None]:
        """:meth:`execute_all`, then ``query`` if every statement ran (as
        :meth:`bot.store.db.Connection.execute_all_fetch`; one trip each here): the counts, and
        the query's rows or ``None``."""
        counts = await self.execute_all(statements)
        if counts and counts[0] == 0:
            return counts, None
        return counts, await self.fetch_all(query, params)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT into a table with an ``id`` key; return the new row's id."""
        if "RETURNING" not in sql.upper():
            sql = f"{sql} RETURNING id"
        value = await self._raw.fetchval(numbered(sql), *params)
        if value is None:
            raise RuntimeError("INSERT did not produce a row id")
        return int(value)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        """Run a query and return every row."""
        return list(await self._raw.fetch(numbered(sql), *params))

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        """Run a query and return its first row, or ``None``."""
        return cast("asyncpg.Record | None", await self._raw.fetchrow(numbered(sql), *params))


def bundled_pg_migrations() -> list[Migration]:
    """The migrations shipped in ``bot/store/migrations_pg``, ordered by number. Raises
    ``RuntimeError`` when their numbers are not contiguous (from the baseline's on) or a Python
    migration has no ``async def migrate(conn)``."""
    found: list[Migration] = []
    for entry in resources.files("bot.store").joinpath("migrations_pg").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if not match:
            continue
        if match.group(2) == "py":
            found.append(Migration(int(match.group(1)), entry.name, step=_pg_step(entry.name)))
        else:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if not numbers or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise RuntimeError(f"PostgreSQL migration numbers must run without gaps, found {numbers}")
    return found


def _pg_step(name: str) -> MigrationStep:
    module = importlib.import_module(f"{__package__}.migrations_pg.{name.removesuffix('.py')}")
    step = getattr(module, "migrate", None)
    if not inspect.iscoroutinefunction(step):
        raise RuntimeError(f"migration {name} must define `async def migrate(conn)`")
    return cast(MigrationStep, step)


# Failures that mean the server or the connection to it is gone, not that the command was bad.
_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InsufficientResourcesError,  # disk full, out of memory, too many connections
    asyncpg.CannotConnectNowError,
)


POOL_SIZE = 10
"""The most connections a process's pool opens (one at start, more while commands and passes
run at once). With the shard claim's own connection (:mod:`bot.store.shard_claims`) a process
may hold ``POOL_SIZE + 1`` connections: README, "PostgreSQL connection budget"."""


def storage_error(error: BaseException) -> StorageUnavailable | None:
    """The :class:`StorageUnavailable` for a failure of the server or the connection to it, or
    ``None`` for anything else (a constraint violation, a bad statement)."""
    if isinstance(error, StorageUnavailable):
        return error
    if isinstance(error, asyncpg.InsufficientResourcesError):
        return StorageUnavailable(
            "The bot's database server is out of space or resources; nothing was changed. "
            "Tell whoever hosts the bot.",
            type(error).__name__,
        )
    if isinstance(error, _UNAVAILABLE):
        return StorageUnavailable(
            "The bot cannot reach its database server; nothing was changed. Try again in a moment.",
            type(error).__name__,
        )
    return None


class PgDatabase:
    """An open PostgreSQL database: a pool of asyncpg connections (see the module docstring)."""

    shared_by_processes = True
    """Several bot processes may write it (:attr:`bot.store.base.Store.shared_by_processes`)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, max_size: int = POOL_SIZE) -> PgDatabase:
        """Connect to the server at ``url`` (a pool of up to ``max_size`` connections).

        Raises ``OSError`` or ``TimeoutError`` when the server cannot be reached within
        :data:`CONNECT_TIMEOUT` seconds, and ``asyncpg.PostgresError`` when it refuses (wrong
        password, no such database). Messages never contain the password."""
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=max_size, timeout=CONNECT_TIMEOUT
        )
        return cls(pool)

    async def close(self) -> None:
        """Close every pooled connection (waiting for the ones in use to be released)."""
        await self._pool.close()

    async def server_time(self) -> datetime:
        """The server's clock now (``clock_timestamp()``: :class:`bot.store.server_clock.
        ServerClock`, every process's one clock)."""
        async with self.read() as conn:
            row = await conn.fetch_one("SELECT clock_timestamp()")
        assert row is not None
        moment: datetime = row[0]
        return moment

    @asynccontextmanager
    async def transaction(self, *, channel: int | None = None) -> AsyncIterator[PgConnection]:
        """One PostgreSQL transaction, committed when the block ends, rolled back (and the error
        re-raised) otherwise. Without ``channel`` it holds :data:`WRITER_LOCK` (one writer at a
        time, as on SQLite); with ``channel`` (a channel-only write,
        :meth:`bot.store.base.Store.transaction`) it holds the writer lock shared and the
        channel's lock (:func:`channel_lock_sql`), so other channels' such writes run
        meanwhile (see the module docstring for the lock order). A failure of the server or
        the connection becomes :class:`~bot.errors.StorageUnavailable` (one log line)."""
        try:
            async with self._pool.acquire() as raw, raw.transaction():
                if channel is None:
                    await raw.execute("SELECT pg_advisory_xact_lock($1)", WRITER_LOCK)
                else:
                    await raw.execute(channel_lock_sql(channel))
                yield PgConnection(raw)
        except Exception as error:
            mapped = storage_error(error)
            if mapped is None or mapped is error:
                raise
            log.warning("storage refused a write (%s): %s", mapped.reason, error)
            raise mapped from error

    def single_trip(self, *, channel: int | None = None) -> SingleTrip:
        """A unit of work of one ``execute_all``/``execute_all_fetch`` call
        (:meth:`bot.store.base.Store.single_trip`): here simply a :meth:`transaction` of its
        own (PostgreSQL commits each; its statements are one trip each)."""

        async def send(
            statements: Sequence[tuple[str, Sequence[Any]]],
            query: str | None,
            params: Sequence[Any],
        ) -> tuple[list[int], Sequence[Any] | None]:
            async with self.transaction(channel=channel) as conn:
                if query is None:
                    return await conn.execute_all(statements), None
                return await conn.execute_all_fetch(statements, query, params)

        return SingleTrip("postgresql", send)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConnection]:
        """A pooled connection outside any transaction: each statement sees committed data."""
        async with self._pool.acquire() as raw:
            yield PgConnection(raw)

    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for an empty database)."""
        async with self.read() as conn:
            return await _version(conn)

    async def migrate(self, migrations: Sequence[Migration] | None = None) -> list[int]:
        """Apply every migration newer than the database's version, each in its own
        transaction under ``pg_advisory_xact_lock(MIGRATION_LOCK)``, re-reading the version
        under the lock (so concurrent migrators never apply one twice). Returns the numbers
        this call applied. Raises :class:`~bot.store.db.SchemaAhead`, and changes nothing, when
        the database is past the bundled migrations (a newer bot's)."""
        pending = sorted(
            migrations if migrations is not None else bundled_pg_migrations(),
            key=lambda m: m.version,
        )
        if migrations is None:
            async with self.transaction() as conn:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
                )
                refuse_if_ahead(await _version(conn), pending)
        applied: list[int] = []
        for migration in pending:
            async with self.transaction() as conn:
                await conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
                )
                current = await _version(conn)
                if migration.version <= current:
                    continue
                for statement in sql_statements(migration.sql):
                    await conn.execute(statement)
                if migration.step is not None:
                    await migration.step(cast(Any, conn))
                await conn.execute("DELETE FROM schema_version")
                await conn.execute(
                    "INSERT INTO schema_version (version) VALUES (?)", (migration.version,)
                )
            log.info("applied PostgreSQL migration %s", migration.name)
            applied.append(migration.version)
        return applied


async def _version(conn: PgConnection) -> int:
    exists = await conn.fetch_one("SELECT to_regclass('schema_version') IS NOT NULL")
    if exists is None or not exists[0]:
        return 0
    row = await conn.fetch_one("SELECT max(version) FROM schema_version")
    return int(row[0]) if row is not None and row[0] is not None else 0
