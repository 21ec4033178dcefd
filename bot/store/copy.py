"""``python -m bot copy-db``: copy a SQLite database into an empty PostgreSQL database (issue
16, "Moving data").

Every table of the SQLite file that PostgreSQL's schema has — the ported stores' and the
encounter store's (encounters, their logs, pending decisions and timers) alike — is copied row
for row as it is, one PostgreSQL transaction per table, then verified: the row count and a
SHA-256 checksum over the rows in primary-key order must match the source's. Each finished
table is recorded in ``copy_db_progress`` in the same transaction, so an interrupted copy
re-run skips (after verifying again) the tables already complete and copies the rest; the
table is dropped when every table is done. Identity sequences (``id`` columns) are moved past
the copied ids, so rows the bot adds later get new ids.

The source must be at the migration number the PostgreSQL migrations reach (start the bot once
on SQLite to bring an older file up to date); it is only read. A target with rows in any table
and no copy in progress is refused (:class:`CopyRefused`): copy-db fills an empty database
only. One copy-db runs at a time per target (a session advisory lock, :data:`COPY_LOCK`); a
second one started meanwhile is refused.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.pg import PgDatabase, bundled_pg_migrations

PROGRESS = "copy_db_progress"
COPY_LOCK = 0x7467_636F_7079  # "tgcopy": held (session-level) by the running copy-db
_FIRST = ("encounters",)  # tables others refer to (foreign keys) are copied first
_SKIPPED = {"schema_version", PROGRESS}


class CopyRefused(Exception):
    """The copy cannot start or go on; the message says why and what to do (one line)."""


@dataclass(frozen=True)
class TableCopy:
    """One table's outcome: its ``rows``, their ``checksum`` (hex SHA-256) and whether this
    run copied it (``False``: a previous run had, and it verified again)."""

    table: str
    rows: int
    checksum: str
    copied: bool

    def line(self) -> str:
        """The line ``copy-db`` prints for the table."""
        how = "copied" if self.copied else "already copied"
        return f"{self.table}: {self.rows} rows {how}, count and checksum verified"


@dataclass(frozen=True)
class _Column:
    name: str
    kind: str  # PostgreSQL data_type: bigint, double precision, text


def _coerce(table: str, column: _Column, value: Any) -> Any:
    """``value`` as PostgreSQL's column type wants it, refusing any change of meaning."""
    if value is None:
        return None
    if column.kind == "bigint":
        number = int(value)
        if number != value:
            raise CopyRefused(f"{table}.{column.name} holds {value!r}, not an integer")
        return number
    if column.kind == "double precision":
        return float(value)
    if column.kind == "text":
        if not isinstance(value, str):
            raise CopyRefused(f"{table}.{column.name} holds {value!r}, not text")
        if "\x00" in value:
            raise CopyRefused(f"{table}.{column.name} holds a NUL character PostgreSQL refuses")
        return value
    raise CopyRefused(f"{table}.{column.name} has a type copy-db does not know: {column.kind}")


def checksum(rows: Sequence[Sequence[Any]]) -> str:
    """Hex SHA-256 over ``rows`` (in the order given), each row as its JSON list."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(list(row), ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


async def _pg_tables(raw: asyncpg.Connection) -> dict[str, list[_Column]]:
    rows = await raw.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, list[_Column]] = {}
    for row in rows:
        if row["table_name"] not in _SKIPPED:
            tables.setdefault(row["table_name"], []).append(
                _Column(row["column_name"], row["data_type"])
            )
    return tables


async def _primary_key(raw: asyncpg.Connection, table: str) -> list[str]:
    rows = await raw.fetch(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY (i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary"
        " ORDER BY array_position(i.indkey, a.attnum)",
        table,
    )
    return [row["attname"] for row in rows]


def _source_rows(
    source: sqlite3.Connection, table: str, columns: list[_Column], order: list[str]
) -> list[tuple[Any, ...]]:
    names = ", ".join(f'"{c.name}"' for c in columns)
    by = ", ".join(f'"{c}"' for c in order)
    rows = source.execute(f'SELECT {names} FROM "{table}" ORDER BY {by}').fetchall()
    return [tuple(_coerce(table, c, v) for c, v in zip(columns, row, strict=True)) for row in rows]


async def _target_rows(
    raw: asyncpg.Connection, table: str, columns: list[_Column], order: list[str]
) -> list[tuple[Any, ...]]:
    names = ", ".join(f'"{c.name}"' for c in columns)
    by = ", ".join(f'"{c}"' for c in order)
    return [tuple(row) for row in await raw.fetch(f'SELECT {names} FROM "{table}" ORDER BY {by}')]


def _open_source(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise CopyRefused(f"There is no SQLite database at {path}.")
    try:
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        source.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        raise CopyRefused(f"Cannot read the SQLite database at {path} ({error}).") from None
    return source


async def _target(
    pg: PgDatabase,
) -> tuple[dict[str, list[_Column]], dict[str, tuple[int, str]], dict[str, list[str]]]:
    """The target's tables (columns, primary keys) and the tables a previous run finished;
    refuses a target with rows and no copy in progress (leaving it as it was)."""
    async with pg.read() as conn:
        raw = conn.raw
        tables = await _pg_tables(raw)
        done: dict[str, tuple[int, str]] = {}
        if await raw.fetchval("SELECT to_regclass($1) IS NOT NULL", PROGRESS):
            done = {
                row["table_name"]: (int(row["row_count"]), row["checksum"])
                for row in await raw.fetch(f"SELECT * FROM {PROGRESS}")
            }
        for table in sorted(set(tables) - set(done)):
            count = await raw.fetchval(f'SELECT count(*) FROM "{table}"')
            if count:
                raise CopyRefused(
                    f"The PostgreSQL database is not empty (table {table} has {count} rows) "
                    "and holds no interrupted copy: copy-db only fills an empty database."
                )
        keys = {table: await _primary_key(raw, table) for table in tables}
    async with pg.transaction() as conn:
        await conn.execute(
            f"CREATE TABLE IF NOT EXISTS {PROGRESS} (table_name TEXT PRIMARY KEY,"
            " row_count BIGINT NOT NULL, checksum TEXT NOT NULL)"
        )
    return tables, done, keys


async def _verify_done(
    pg: PgDatabase,
    table: str,
    columns: list[_Column],
    key: list[str],
    expected: tuple[int, str],
    recorded: tuple[int, str],
) -> None:
    async with pg.read() as conn:
        found = await _target_rows(conn.raw, table, columns, key)
    if recorded != expected or (len(found), checksum(found)) != expected:
        raise CopyRefused(
            f"{table}: the rows copied earlier no longer match the SQLite database's (a "
            "different source file, or changes since): start again with an empty PostgreSQL "
            "database."
        )


async def _copy_table(
    pg: PgDatabase,
    table: str,
    columns: list[_Column],
    key: list[str],
    rows: list[tuple[Any, ...]],
    expected: tuple[int, str],
) -> None:
    async with pg.transaction() as conn:
        raw = conn.raw
        names = [c.name for c in columns]
        if rows:
            await raw.copy_records_to_table(table, records=rows, columns=names)
        if "id" in names:  # new rows must get ids after the copied ones
            await raw.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f' GREATEST((SELECT max(id) FROM "{table}"), 1),'
                f' (SELECT max(id) FROM "{table}") IS NOT NULL)'
            )
        found = await _target_rows(raw, table, columns, key)
        if (len(found), checksum(found)) != expected:
            raise CopyRefused(
                f"{table}: {len(found)} rows arrived of {len(rows)}, or their checksum "
                "differs; nothing of this table was kept."
            )
        await raw.execute(
            f"INSERT INTO {PROGRESS} (table_name, row_count, checksum) VALUES ($1, $2, $3)",
            table,
            *expected,
        )


async def copy_database(
    path: Path, pg: PgDatabase, say: Callable[[str], None] = print
) -> list[TableCopy]:
    """Copy the SQLite database at ``path`` into ``pg`` (migrated here to its head first), as
    the module docstring describes; ``say`` gets one line per table. Returns each table's
    outcome, in copy order. Raises :class:`CopyRefused` (nothing of the refused table written)
    when the source cannot be read or is at another migration number, the target has rows and
    no copy in progress, a value cannot be carried over unchanged, or a table's count or
    checksum does not match."""
    source = _open_source(path)
    try:
        async with pg.read() as conn:
            if not await conn.raw.fetchval("SELECT pg_try_advisory_lock($1)", COPY_LOCK):
                raise CopyRefused("Another copy-db is writing to this PostgreSQL database.")
            try:
                return await _copy_all(path, source, pg, say)
            finally:
                await conn.raw.execute("SELECT pg_advisory_unlock($1)", COPY_LOCK)
    finally:
        source.close()


async def _copy_all(
    path: Path, source: sqlite3.Connection, pg: PgDatabase, say: Callable[[str], None]
) -> list[TableCopy]:
    head = bundled_pg_migrations()[-1].version
    version = int(source.execute("PRAGMA user_version").fetchone()[0])
    if version > head:
        raise CopyRefused(
            f"The SQLite database at {path} was upgraded by a newer version of the bot (its "
            f"schema is at migration {version}; this version knows migrations up to {head}): "
            "copy it with that version's copy-db."
        )
    if version != head:
        raise CopyRefused(
            f"The SQLite database at {path} is at migration {version}, PostgreSQL's schema "
            f"at {head}: start the bot once on SQLite (it migrates the file), then copy."
        )
    await pg.migrate()
    tables, done, keys = await _target(pg)
    present = {
        row[0] for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    order = [t for t in _FIRST if t in tables] + sorted(set(tables) - set(_FIRST))
    outcomes = []
    for table in order:
        columns = tables[table]
        key = keys[table] or [c.name for c in columns]
        rows = _source_rows(source, table, columns, key) if table in present else []
        expected = (len(rows), checksum(rows))
        if table in done:
            await _verify_done(pg, table, columns, key, expected, done[table])
        else:
            await _copy_table(pg, table, columns, key, rows, expected)
        outcome = TableCopy(table, *expected, copied=table not in done)
        say(outcome.line())
        outcomes.append(outcome)
    async with pg.transaction() as conn:
        await conn.execute(f"DROP TABLE {PROGRESS}")
    return outcomes
