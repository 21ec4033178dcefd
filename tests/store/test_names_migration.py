"""Migration 0008 on a database the bot filled before it (built with migrations 0001-0007):
stored names in their normal form, colliding ones numbered and their owners told, the result
loadable by today's strict models; and running it again changes nothing."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.uttas.sheet import UttasSheet
from bot.services.encounters import EncounterService
from bot.services.notices import NoticeService
from bot.services.sheets import SheetService
from bot.store.db import Database, bundled_migrations
from tests.store.legacy_names import ZWSP, Legacy, build_legacy_database

LEGACY = Legacy(guild_id=100, other_guild_id=200, player=1, other_player=2, gm=3, channel_id=10)


@pytest.fixture
async def migrated(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[Database]:
    path = tmp_path / "bot.sqlite3"
    await build_legacy_database(path, LEGACY)
    db = await Database.open(path)
    with caplog.at_level(logging.INFO, logger="bot.store.migrations"):
        applied = await db.migrate()
    assert applied[0] == 8
    yield db
    await db.close()


async def rows(db: Database, sql: str) -> list[dict[str, Any]]:
    async with db.read() as conn:
        return [dict(row) for row in await conn.fetch_all(sql)]


async def test_sheet_names_are_normalised_and_collisions_numbered(migrated: Database) -> None:
    sheets = await rows(
        migrated, "SELECT guild_id, owner_id, kind, name, name_key, sheet FROM sheets ORDER BY id"
    )
    found = [(s["guild_id"], s["owner_id"], s["kind"], s["name"]) for s in sheets]
    assert found == [
        (100, 1, "character", "Willow 3"),  # was Willow<ZWSP>: the older, but not normal
        (100, 1, "character", "Willow"),  # already normal: keeps its name
        (100, 1, "character", "Willow 4"),  # was full-width
        (100, 1, "character", "Willow 2"),  # already normal, already "Willow 2"
        (100, 1, "character", "Bear"),
        (100, 1, "character", "Unnamed"),  # was only a zero-width space
        (100, 2, "character", "Willow"),  # another member's: no clash
        (200, 1, "character", "Willow"),  # another server: no clash
        (100, 3, "npc", "Thug"),
        (100, 2, "npc", "Thug 2"),  # NPC templates are unique per server
    ]
    for sheet in sheets:
        assert sheet["name_key"] == sheet["name"].casefold()
        data = json.loads(sheet["sheet"])
        assert data["name"] == sheet["name"]
        if sheet["guild_id"] == 100:
            UttasSheet.model_validate(data)  # today's strict model: every name is normal
    inside = json.loads(sheets[1]["sheet"])
    assert [w["name"] for w in inside["weapons"]] == ["Club", "club 2"]
    assert [w["damage_type"] for w in inside["weapons"]] == ["physical", "fire"]
    assert inside["powers"][0]["name"] == "Blast"
    assert inside["powers"][0]["inflicts"] == ["Prone"]
    assert inside["stances"] == ["Steady"]
    assert inside["skills"] == {"Stealth": 2}
    assert inside["armor"] == {"fire": 1}
    assert inside["extra_limbs"][0]["name"] == "Tail"


async def test_encounter_names_and_live_combatants_are_normalised(migrated: Database) -> None:
    encounters = await rows(migrated, "SELECT name, status, state FROM encounters ORDER BY id")
    assert [e["name"] for e in encounters] == ["Ambush", "Old"]
    state = get_ruleset("uttas").load_state(encounters[0]["state"])
    assert state.name == "Ambush"
    assert [c.name for c in state.combatants] == ["Willow", "Willow 2", "Thug"]
    assert [w.name for w in state.combatants[2].sheet.weapons] == ["Club", "CLUB 2"]
    # The stored JSON itself is normal: today's model reads it without the STORED context.
    strict = json.loads(encounters[0]["state"])
    assert [c["name"] for c in strict["combatants"]] == ["Willow", "Willow 2", "Thug"]
    assert encounters[1]["state"] == '{"name": "Old\\u200b"}'  # archived states stay as kept


async def test_owners_of_renamed_things_are_told_once(migrated: Database) -> None:
    notices = NoticeService(migrated)
    player = await notices.take(LEGACY.guild_id, LEGACY.player)
    assert len(player) == 3
    assert player[0] == (
        "Two of your characters were both called **Willow** once invisible characters, letter "
        "case and letter width are ignored; one of them is now called **Willow 3**. Use that "
        "name with `/character` commands, or import it again under another name."
    )
    assert "one of them is now called **Willow 4**" in player[1]
    assert player[2].startswith(
        "Your character with a blank name (only invisible characters) is now called **Unnamed**."
    )
    other = await notices.take(LEGACY.guild_id, LEGACY.other_player)
    assert len(other) == 2
    assert other[0].startswith(
        "Two of this server's NPC templates were both called **Thug** once invisible"
    )
    assert "now called **Thug 2**. Use that name with `/npc` commands" in other[0]
    assert other[1] == (
        "In the encounter **Ambush**, two of its combatants were both called **Willow** once "
        "invisible characters, letter case and letter width are ignored; one of them is now "
        "called **Willow 2**."
    )
    for who in (LEGACY.player, LEGACY.other_player, LEGACY.gm):
        assert await notices.take(LEGACY.guild_id, who) == []
    assert await notices.take(LEGACY.other_guild_id, LEGACY.player) == []


async def test_each_rename_is_logged(migrated: Database, caplog: pytest.LogCaptureFixture) -> None:
    records = caplog.get_records("setup")
    logged = [r.getMessage() for r in records if r.name.startswith("bot.store.migr")]
    renames = [line for line in logged if " renamed " in line]
    assert len(renames) == 5  # Willow 3, Willow 4, Unnamed, Thug 2, the combatant Willow 2
    clashes = [line for line in renames if "clashed with" in line]
    assert any(f"{'Willow' + ZWSP!r} -> 'Willow 3'" in line for line in clashes)
    assert any(f"{'Bear' + ZWSP!r} is now 'Bear'" in line for line in logged)
    assert any(f"name {'Ambush' + ZWSP!r} is now 'Ambush'" in line for line in logged)


async def test_migrating_again_changes_nothing(migrated: Database) -> None:
    everything = (
        "SELECT 'sheet', id, name, name_key, sheet FROM sheets UNION ALL "
        "SELECT 'encounter', id, name, state, version FROM encounters UNION ALL "
        "SELECT 'notice', id, text, guild_id, user_id FROM member_notices"
    )
    before = await rows(migrated, everything)
    assert await migrated.migrate() == []
    (step,) = [m for m in bundled_migrations() if m.version == 8]
    assert step.step is not None
    async with migrated.transaction() as conn:
        await step.step(conn)  # the step itself is idempotent too
    assert await rows(migrated, everything) == before


async def test_the_services_load_what_the_migration_left(migrated: Database) -> None:
    encounters = EncounterService(migrated)
    live = await encounters.live(LEGACY.channel_id)
    assert live.row.name == "Ambush"
    assert live.state.find(f"willow{ZWSP} 2").controller_id == LEGACY.other_player
    sheets = SheetService(migrated)
    names = await sheets.name_choices(LEGACY.guild_id, _actor(LEGACY.player), "character", "wil")
    assert names == ["Willow", "Willow 2", "Willow 3", "Willow 4"]


def _actor(user_id: int) -> Any:
    from bot.services.actor import Actor

    return Actor(user_id=user_id)
