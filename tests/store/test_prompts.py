"""Migration 0005 (sheets rebuilt with AUTOINCREMENT, the prompts table; SQLite) and the prompts
repository on both stores (tests/store/conftest.py): a prompt is answered once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.store import prompts as repo
from bot.store.base import Store
from bot.store.db import Database, bundled_migrations

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def db(store: Store) -> Store:
    return store


async def _sheet_indexes(db: Database) -> list[tuple[str, str]]:
    async with db.read() as conn:
        rows = await conn.fetch_all(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sheets'"
            " AND sql IS NOT NULL ORDER BY name"
        )
    return [(row["name"], row["sql"]) for row in rows]


async def test_0005_keeps_sheets_and_their_ids_and_never_reuses_one(tmp_path: Path) -> None:
    migrations = bundled_migrations()
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        await db.migrate(migrations[:4])
        before = await _sheet_indexes(db)
        async with db.transaction() as conn:
            for sheet_id, name in ((1, "Willow"), (2, "Bear"), (3, "Top")):
                await conn.execute(
                    "INSERT INTO sheets (id, guild_id, owner_id, kind, ruleset, name, name_key,"
                    " sheet, created_at, updated_at) VALUES (?, 1, 10, 'character', 'uttas', ?,"
                    " ?, '{}', 'then', 'then')",
                    (sheet_id, name, name.casefold()),
                )
            await conn.execute("DELETE FROM sheets WHERE id = 3")
        assert await db.migrate(migrations[:5]) == [5]
        async with db.read() as conn:
            rows = await conn.fetch_all("SELECT id, name FROM sheets ORDER BY id")
            ddl = await conn.fetch_one("SELECT sql FROM sqlite_master WHERE name = 'sheets'")
        assert [(r["id"], r["name"]) for r in rows] == [(1, "Willow"), (2, "Bear")]
        assert ddl is not None and "AUTOINCREMENT" in ddl["sql"]
        assert await _sheet_indexes(db) == before  # the indexes of 0002, exactly
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM sheets WHERE id = 2")
            new_id = await conn.insert(
                "INSERT INTO sheets (guild_id, owner_id, kind, ruleset, name, name_key, sheet,"
                " created_at, updated_at) VALUES (1, 10, 'character', 'uttas', 'New', 'new',"
                " '{}', 'now', 'now')"
            )
        assert new_id == 3  # not 2, the id of the sheet just deleted
    finally:
        await db.close()


async def _open(db: Store, target: int = 7) -> int:
    async with db.transaction() as conn:
        return await repo.open_prompt(
            conn,
            kind="sheet.delete",
            target_id=target,
            guild_id=1,
            channel_id=2,
            opened_by=10,
            now=NOW,
        )


async def test_a_prompt_is_answered_once(db: Store) -> None:
    prompt_id = await _open(db)
    async with db.transaction() as conn:
        assert not await repo.answer(conn, prompt_id, "encounter.end", "confirmed", NOW)
        assert await repo.answer(conn, prompt_id, "sheet.delete", "cancelled", NOW)
        assert not await repo.answer(conn, prompt_id, "sheet.delete", "confirmed", NOW)
    async with db.read() as conn:
        row = await repo.by_id(conn, prompt_id, "sheet.delete")
        assert await repo.by_id(conn, prompt_id, "encounter.end") is None
        assert await repo.by_id(conn, prompt_id + 1, "sheet.delete") is None
    assert row is not None and row.status == "cancelled" and row.answered_at is not None
    assert (row.target_id, row.guild_id, row.channel_id, row.opened_by) == (7, 1, 2, 10)


async def test_simultaneous_answers_one_wins(db: Store) -> None:
    prompt_id = await _open(db)

    async def click(status: repo.Answer) -> bool:
        async with db.transaction() as conn:
            return await repo.answer(conn, prompt_id, "sheet.delete", status, NOW)

    results = await asyncio.gather(click("confirmed"), click("cancelled"), click("confirmed"))
    assert sorted(results) == [False, False, True]


async def test_prompt_ids_are_never_reused(db: Store) -> None:
    first = await _open(db)
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM prompts WHERE id = ?", (first,))
    assert await _open(db) == first + 1
