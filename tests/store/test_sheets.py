"""The sheets repository on both stores (SQLite and PostgreSQL, tests/store/conftest.py):
migration, exact-name uniqueness, listing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bot.errors import Conflict
from bot.store import sheets as repo
from bot.store.base import Store
from bot.store.sheets import SheetKind, SheetRow
from tests.store.conftest import head_version, index_names

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def db(store: Store) -> Store:
    return store


async def add(
    db: Store,
    name: str,
    *,
    kind: SheetKind = "character",
    guild: int = 1,
    owner: int = 10,
    ruleset: str = "uttas",
) -> SheetRow:
    async with db.transaction() as conn:
        return await repo.insert(
            conn,
            guild_id=guild,
            owner_id=owner,
            kind=kind,
            ruleset=ruleset,
            name=name,
            name_key=" ".join(name.split()).casefold(),
            sheet_json=json.dumps({"name": name}),
            now=NOW,
        )


async def test_migrates_to_head_with_the_sheets_table(db: Store) -> None:
    assert await db.schema_version() == head_version(db) >= 2
    indexes = await index_names(db, "sheets")
    assert {"sheets_character_name", "sheets_npc_name"} <= indexes


async def test_insert_and_read_back(db: Store) -> None:
    row = await add(db, "Willow")
    assert row.name == "Willow" and row.name_key == "willow"
    assert row.created_at == NOW and row.updated_at == NOW
    async with db.read() as conn:
        assert await repo.by_id(conn, row.id) == row
        assert await repo.character_by_key(conn, 1, 10, "willow") == row
        assert await repo.character_by_key(conn, 1, 11, "willow") is None
        assert await repo.character_by_key(conn, 2, 10, "willow") is None
        assert await repo.npc_by_key(conn, 1, "willow") is None


async def test_character_names_unique_per_member_case_insensitively(db: Store) -> None:
    await add(db, "Willow")
    with pytest.raises(Conflict, match="already have a character"):
        await add(db, "WILLOW")
    # Another member, another server, or an NPC template may use the name.
    await add(db, "Willow", owner=11)
    await add(db, "Willow", guild=2)
    await add(db, "Willow", kind="npc")


async def test_npc_names_unique_per_server_whoever_made_them(db: Store) -> None:
    await add(db, "Thug", kind="npc", owner=10)
    with pytest.raises(Conflict, match="NPC template"):
        await add(db, "thug", kind="npc", owner=99)
    await add(db, "Thug", kind="npc", guild=2)


async def test_lists_and_counts_are_scoped(db: Store) -> None:
    for name in ("Zed", "anna", "Bob"):
        await add(db, name)
    await add(db, "Other", owner=11)
    await add(db, "Thug", kind="npc")
    await add(db, "Utopian", ruleset="utopia")
    async with db.read() as conn:
        mine = await repo.characters_of(conn, 1, 10)
        assert [r.name for r in mine] == ["anna", "Bob", "Utopian", "Zed"]
        assert [r.name for r in await repo.characters_of(conn, 1, 10, "utopia")] == ["Utopian"]
        assert await repo.count_characters(conn, 1, 10) == 4
        assert await repo.count_characters(conn, 1, 11) == 1
        assert [r.name for r in await repo.npcs_of(conn, 1)] == ["Thug"]
        assert await repo.count_npcs(conn, 1) == 1
        assert await repo.count_npcs(conn, 2) == 0


async def test_update_renames_and_refuses_a_taken_name(db: Store) -> None:
    first = await add(db, "Willow")
    await add(db, "Bear")
    later = datetime(2026, 2, 1, tzinfo=UTC)
    async with db.transaction() as conn:
        renamed = await repo.update(
            conn, first, name="Willow II", name_key="willow ii", sheet_json="{}", now=later
        )
    assert renamed.name == "Willow II" and renamed.updated_at == later
    with pytest.raises(Conflict):
        async with db.transaction() as conn:
            await repo.update(
                conn, renamed, name="bear", name_key="bear", sheet_json="{}", now=later
            )
    async with db.read() as conn:
        stored = await repo.by_id(conn, first.id)
    assert stored == renamed


async def test_delete(db: Store) -> None:
    row = await add(db, "Willow")
    async with db.transaction() as conn:
        assert await repo.delete(conn, row.id)
        assert not await repo.delete(conn, row.id)
        assert await repo.by_id(conn, row.id) is None
