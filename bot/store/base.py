"""The store contract both stores meet: SQLite (:mod:`bot.store.db`) and PostgreSQL
(:mod:`bot.store.pg`).

A repository module (``bot/store/sheets.py`` and the like) takes a :class:`StoreConnection` and
writes its SQL once, in the dialect both stores accept: ``?`` placeholders (the PostgreSQL
connection numbers them ``$1, $2, …``), ``INSERT … ON CONFLICT … DO UPDATE SET x = excluded.x``,
``RETURNING``, integers for ids and flags, ISO text for timestamps. A row is read by column name
or position (``sqlite3.Row`` and ``asyncpg.Record`` both are). A constraint violation is one of
:data:`INTEGRITY_ERRORS` on either store. On PostgreSQL a failed statement aborts its whole
transaction, so a repository that turns a violation into a domain error (``sheets`` →
:class:`~bot.errors.Conflict`) must let that error end the transaction, never carry on in it.

Every repository meets it (one parametrised test suite, tests/store, runs each against both
stores): ``sheets``, ``prompts``, ``guild_settings``, ``member_settings``, ``notices``,
``meta``, ``away``, ``decisions``, ``campaign``, ``turn_timers``, ``turn_pings``, ``reminders``,
``standing``, ``default_actions``, ``guild_encounters``, the encounter store (``encounters``,
``encounter_log``) and ``member_data``. Where the dialects differ (JSON aggregation, a
substring's position) the repository picks its SQL by :attr:`StoreConnection.dialect`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import asyncpg


class Row(Protocol):
    """A result row: by column name or position (``sqlite3.Row``, ``asyncpg.Record``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class StoreConnection(Protocol):
    """What a transaction or a read hands a repository function: one connection, used by one
    task at a time, with ``?`` placeholders on either store."""

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``: for the few statements only one store has (row
        locks, ``FOR UPDATE SKIP LOCKED``)."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        ...

    async def execute_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run ``statements`` in order (SQLite: in one trip); how many rows each changed; when
        the first changed nothing the others are not run."""
        ...

    async def execute_all_fetch(
        self, statements: Sequence[tuple[str, Sequence[Any]]], query: str, params: Sequence[Any]
    ) -> tuple[list[int], Sequence[Any] | None]:
        """:meth:`execute_all`, then ``query`` (SQLite: all in one trip) if every statement ran:
        the counts, and the query's rows (:class:`Row`), or ``None`` when the first statement
        changed nothing and the rest were skipped."""
        ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT into a table with an integer ``id`` key; return the new row's id."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        """Run a query (or a statement with ``RETURNING``); return every row (:class:`Row`)."""
        ...

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        """Run a query; return its first row (:class:`Row`) or ``None``."""
        ...


class Migrator(Protocol):
    """A store that applies its dialect's numbered migrations."""

    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for an empty database)."""
        ...

    async def migrate(self) -> list[int]:
        """Apply every bundled migration newer than :meth:`schema_version`; return the numbers
        applied (empty when already at head). Safe when several processes start at once."""
        ...


class Store(Migrator, Protocol):
    """An open database: transactions for writes, reads of committed data, migrations."""

    shared_by_processes: bool
    """Whether other bot processes may write this database too (PostgreSQL: yes; SQLite: one
    process per file). A process may keep a copy of what it wrote last only when not."""

    def transaction(
        self, *, channel: int | None = None
    ) -> AbstractAsyncContextManager[StoreConnection]:
        """One unit of work: all of it is committed when the block ends, or (on any exception,
        re-raised) none of it.

        ``channel``: the caller promises the work writes only that channel's live encounter (its
        row by a versioned UPDATE, its log, redo history, decisions and turn timers) and reads
        nothing of other channels; a store may then let such work of other channels run at
        the same time (PostgreSQL: a per-channel lock instead of the one writer lock). ``None``
        (the default): the work may read or write anything, and runs alone."""
        ...

    def single_trip(self, *, channel: int | None = None) -> StoreConnection:
        """A unit of work that is one :meth:`~StoreConnection.execute_all` or
        :meth:`~StoreConnection.execute_all_fetch` call (:class:`SingleTrip`): that call
        returns only once its statements are committed — all of them, or (when it raises, or
        the first statement changed nothing and the rest were skipped) none. ``channel`` as
        for :meth:`transaction`. SQLite sends every such unit queued meanwhile to its database
        thread in one trip with one ``COMMIT`` (issue 15; a unit that raises is undone alone),
        so no writer holds the writer lock while waiting on the thread."""
        ...

    def read(self) -> AbstractAsyncContextManager[StoreConnection]:
        """A connection for reads of committed data."""
        ...

    async def close(self) -> None:
        """Finish pending work and close every connection."""
        ...


Trip = Callable[
    [Sequence[tuple[str, Sequence[Any]]], str | None, Sequence[Any]],
    Awaitable[tuple[list[int], Sequence[Any] | None]],
]
"""How a store sends a single-trip unit: ``(statements, query or None, query params)`` →
``(counts, rows or None)``, committed before it returns."""


class SingleTrip:
    """The :class:`StoreConnection` of :meth:`Store.single_trip`: a unit of work that is one
    ``execute_all``/``execute_all_fetch`` (or ``execute``) call, committed before the call
    returns. Anything else — a second call, ``insert``, a query — raises ``RuntimeError``: it
    is work that needs :meth:`Store.transaction`."""

    def __init__(self, dialect: str, send: Trip) -> None:
        self.dialect = dialect
        self._send = send
        self._sent = False

    async def _once(
        self,
        statements: Sequence[tuple[str, Sequence[Any]]],
        query: str | None,
        params: Sequence[Any],
    ) -> tuple[list[int], Sequence[Any] | None]:
        if self._sent:
            raise RuntimeError("a single-trip unit of work sends one trip; use transaction()")
        self._sent = True
        return await self._send(statements, query, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement and commit it; the number of rows it changed."""
        return (await self._once([(sql, params)], None, ()))[0][0]

    async def execute_all(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """:meth:`StoreConnection.execute_all`, committed before it returns."""
        return (await self._once(statements, None, ()))[0]

    async def execute_all_fetch(
        self, statements: Sequence[tuple[str, Sequence[Any]]], query: str, params: Sequence[Any]
    ) -> tuple[list[int], Sequence[Any] | None]:
        """:meth:`StoreConnection.execute_all_fetch`, committed before it returns."""
        return await self._once(statements, query, params)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        raise RuntimeError("a single-trip unit of work cannot insert; use transaction()")

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any]:
        raise RuntimeError("a single-trip unit of work cannot query; use transaction()")

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        raise RuntimeError("a single-trip unit of work cannot query; use transaction()")


INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.IntegrityConstraintViolationError,
)
"""A unique, foreign-key, check or not-null violation, on either store."""
