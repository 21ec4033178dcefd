"""The PostgreSQL migrations (bot/store/migrations_pg): they leave the same tables, columns and
indexes as SQLite's migrations of the same number, every text column compares like SQLite's
(COLLATE "C"), and two migrators starting at once on one database apply each migration exactly
once (``pg_advisory_xact_lock``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.store.db import Database, Migration, bundled_migrations
from bot.store.pg import PgDatabase, bundled_pg_migrations

# Tables the ported repositories use (bot/store/base.py), and the encounter tables
# ``copy-db`` copies as they are: their columns must match at both stores' heads.
PORTED_TABLES = {
    "sheets",
    "guild_settings",
    "member_settings",
    "member_notices",
    "bot_meta",
    "away_members",
    "prompts",
    "decisions",
    "campaign_records",
    "turn_pings",
    "turn_announced",
    "default_actions",
    "standing_reactions",
    "encounters",
    "encounter_log",
}
PG_TYPE = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision"}

Columns = dict[str, list[tuple[str, str, bool]]]  # table -> [(column, type, not null)]


async def sqlite_schema(path: Path, up_to: int | None) -> tuple[Columns, set[str]]:
    db = await Database.open(path)
    try:
        wanted = [m for m in bundled_migrations() if up_to is None or m.version <= up_to]
        await db.migrate(wanted)
        columns: Columns = {}
        indexes: set[str] = set()
        async with db.read() as conn:
            tables = await conn.fetch_all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            for table in tables:
                info = await conn.fetch_all(f"PRAGMA table_info('{table['name']}')")
                columns[table["name"]] = [
                    (c["name"], PG_TYPE[c["type"].upper()], bool(c["notnull"] or c["pk"]))
                    for c in info
                ]
            for row in await conn.fetch_all(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            ):
                indexes.add(row["name"])
        return columns, indexes
    finally:
        await db.close()


async def pg_schema(url: str) -> tuple[Columns, set[str], list[Any]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, collation_name"
            " FROM information_schema.columns WHERE table_schema = 'public'"
            " AND table_name <> 'schema_version' ORDER BY table_name, ordinal_position"
        )
        columns: Columns = {}
        for row in rows:
            columns.setdefault(row["table_name"], []).append(
                (row["column_name"], row["data_type"], row["is_nullable"] == "NO")
            )
        text_collations = [
            (row["table_name"], row["column_name"], row["collation_name"])
            for row in rows
            if row["data_type"] == "text"
        ]
        indexes = {
            row["indexname"]
            for row in await conn.fetch(
                "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
                " AND indexname NOT LIKE '%_pkey'"
            )
        }
        return columns, indexes, text_collations
    finally:
        await conn.close()


async def test_postgres_head_has_sqlites_schema_of_the_same_number(
    tmp_path: Path, pg_url: str
) -> None:
    pg = await PgDatabase.open(pg_url)
    try:
        assert await pg.migrate() == [m.version for m in bundled_pg_migrations()]
        head = await pg.schema_version()
    finally:
        await pg.close()
    sqlite_columns, sqlite_indexes = await sqlite_schema(tmp_path / "a.sqlite3", head)
    pg_columns, pg_indexes, collations = await pg_schema(pg_url)
    assert pg_columns == sqlite_columns
    assert pg_indexes == sqlite_indexes
    assert [c for c in collations if c[2] != "C"] == []  # compares like SQLite's BINARY


async def test_ported_tables_match_at_both_heads(tmp_path: Path, pg_url: str) -> None:
    """A SQLite migration that changes a table a ported repository uses needs its PostgreSQL
    twin with the same number in bot/store/migrations_pg."""
    pg = await PgDatabase.open(pg_url)
    try:
        await pg.migrate()
    finally:
        await pg.close()
    sqlite_columns, _ = await sqlite_schema(tmp_path / "b.sqlite3", None)
    pg_columns, _, _ = await pg_schema(pg_url)
    for table in sorted(PORTED_TABLES):
        assert pg_columns[table] == sqlite_columns[table], table


async def test_migrating_again_changes_nothing(pg_url: str) -> None:
    pg = await PgDatabase.open(pg_url)
    try:
        assert await pg.migrate()
        version = await pg.schema_version()
        assert await pg.migrate() == []
        assert await pg.schema_version() == version
    finally:
        await pg.close()


def racing_migrations() -> list[Migration]:
    """Two migrations that fail if applied twice (CREATE TABLE without IF NOT EXISTS), the first
    slow enough (pg_sleep) that both migrators are inside it at once without the lock."""
    return [
        Migration(
            1,
            "0001_slow.sql",
            "CREATE TABLE ran (who TEXT);\n"
            "SELECT pg_sleep(0.3);\n"
            "INSERT INTO ran (who) VALUES ('first');\n",
        ),
        Migration(2, "0002_next.sql", "CREATE TABLE second (x BIGINT);\n"),
    ]


async def test_two_migrators_starting_at_once_apply_each_migration_once(pg_url: str) -> None:
    first, second = await PgDatabase.open(pg_url), await PgDatabase.open(pg_url)
    try:
        applied = await asyncio.gather(
            first.migrate(racing_migrations()), second.migrate(racing_migrations())
        )
        assert sorted(applied[0] + applied[1]) == [1, 2]  # each once, by whichever got there
        async with first.read() as conn:
            ran = await conn.fetch_all("SELECT who FROM ran")
            assert [row["who"] for row in ran] == ["first"]
        assert await first.schema_version() == await second.schema_version() == 2
    finally:
        await first.close()
        await second.close()


async def test_a_failing_migration_leaves_nothing_behind(pg_url: str) -> None:
    broken = [
        Migration(1, "0001_ok.sql", "CREATE TABLE kept (x BIGINT);\n"),
        Migration(2, "0002_bad.sql", "CREATE TABLE half (x BIGINT);\nSELECT no_such_fn();\n"),
    ]
    pg = await PgDatabase.open(pg_url)
    try:
        with pytest.raises(asyncpg.UndefinedFunctionError):
            await pg.migrate(broken)
        assert await pg.schema_version() == 1
        async with pg.read() as conn:
            row = await conn.fetch_one("SELECT to_regclass('half') IS NULL")
        assert row is not None and row[0]
    finally:
        await pg.close()
