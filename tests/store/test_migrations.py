"""Numbered migrations: an empty database reaches head; running them again changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.db import Connection, Database, Migration, bundled_migrations


async def _schema(db: Database) -> list[tuple[str, str]]:
    async with db.read() as conn:
        rows = await conn.fetch_all(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        )
    return [(row["name"], row["sql"]) for row in rows]


async def test_empty_database_migrates_to_head_and_again_is_a_no_op(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "sub" / "bot.sqlite3")
    try:
        assert await db.schema_version() == 0
        head = len(bundled_migrations())
        applied = await db.migrate()
        assert applied == list(range(1, head + 1))
        assert await db.schema_version() == head
        schema = await _schema(db)
        assert {"encounters", "encounter_log", "bot_meta", "member_notices"} <= {
            name for name, _ in schema
        }

        assert await db.migrate() == []
        assert await _schema(db) == schema
        assert await db.schema_version() == head
    finally:
        await db.close()


async def test_pragmas(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        async with db.read() as conn:
            journal = await conn.fetch_one("PRAGMA journal_mode")
            fks = await conn.fetch_one("PRAGMA foreign_keys")
        assert journal is not None and journal[0] == "wal"
        assert fks is not None and fks[0] == 1
    finally:
        await db.close()


async def test_failing_migration_rolls_back_whole(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        broken = [
            Migration(1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"),
            Migration(2, "0002_b.sql", "CREATE TABLE b (x INTEGER);\nINSERT INTO nope VALUES (1);"),
        ]
        with pytest.raises(Exception, match="nope"):
            await db.migrate(broken)
        assert await db.schema_version() == 1
        names = {name for name, _ in await _schema(db)}
        assert "a" in names
        assert "b" not in names
    finally:
        await db.close()


async def test_a_python_migration_runs_in_the_transaction_of_its_version_bump(
    tmp_path: Path,
) -> None:
    seen: list[int] = []

    async def fill(conn: Connection) -> None:
        row = await conn.fetch_one("PRAGMA user_version")
        assert row is not None
        seen.append(int(row[0]))
        await conn.execute("INSERT INTO a (x) VALUES (1)")

    async def broken(conn: Connection) -> None:
        await conn.execute("INSERT INTO a (x) VALUES (2)")
        raise RuntimeError("step failed")

    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        steps = [
            Migration(1, "0001_a.sql", "CREATE TABLE a (x INTEGER);"),
            Migration(2, "0002_fill.py", step=fill),
            Migration(3, "0003_broken.py", "CREATE TABLE b (x INTEGER);", step=broken),
        ]
        with pytest.raises(RuntimeError, match="step failed"):
            await db.migrate(steps)
        assert seen == [1]  # the step ran before its own bump, after the one before
        assert await db.schema_version() == 2
        async with db.read() as conn:
            values = [row[0] for row in await conn.fetch_all("SELECT x FROM a")]
        assert values == [1]  # the failed step's insert was rolled back with its SQL
        assert "b" not in {name for name, _ in await _schema(db)}
    finally:
        await db.close()


def test_bundled_migrations_include_python_steps() -> None:
    found = {m.version: m for m in bundled_migrations()}
    names_step = found[8]
    assert names_step.name == "0008_names_and_notices.py"
    assert names_step.step is not None and names_step.sql == ""
    assert all(m.step is None for v, m in found.items() if v < 8)
