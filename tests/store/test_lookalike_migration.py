"""Migration 0011 on a database the bot filled before it (built with migrations 0001-0010):
names that look the same (``Willow`` and ``Wіllow`` with a Cyrillic ``і``) numbered within what
must stay unique, names that show as blank renamed ``Unnamed``, every ``name_key`` recomputed,
owners told, the result loadable by today's strict models and found by today's lookups; and
running it again changes nothing."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot import names
from bot.engine import RandomRoller, get_ruleset
from bot.engine.uttas.commands import AddCombatant
from bot.engine.uttas.sheet import UttasSheet
from bot.services.actor import Actor
from bot.services.encounters import EncounterService
from bot.services.notices import NoticeService
from bot.services.sheets import SheetService
from bot.store.db import Database, bundled_migrations

BEFORE = 10  # the last migration before 0011
GUILD, PLAYER, OTHER, GM, CHANNEL = 100, 1, 2, 3, 10
CYRILLIC_WILLOW = "W\u0456llow"  # Cyrillic small i
CYRILLIC_THUG = "\u0422\u04bbug"  # Cyrillic capital Te, small shha
MARK = "\u0301"  # a combining acute accent with nothing to sit on
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def old_key(name: str) -> str:
    """``name_key`` as the code before 0011 computed it: the normal form, case-folded."""
    return names.visible(name).casefold() if names.visible(name) else name.casefold()


def sheet_json(name: str, **extra: Any) -> str:
    data = json.loads(UttasSheet(name="Placeholder").model_dump_json())
    data.update(name=name, **extra)
    return json.dumps(data, ensure_ascii=False)


def live_state() -> str:
    """A live encounter with two combatants that look the same and one that shows as blank."""
    rules = get_ruleset("uttas")
    state = rules.new_encounter(name="Ambush", seed=1)
    roller = RandomRoller(1)
    for name, controller, npc in (
        ("Willow", PLAYER, False),
        ("Willowx", OTHER, False),
        ("Markx", None, True),
    ):
        sheet = UttasSheet(name=name, weapons=[{"name": "Club"}])
        command = AddCombatant(name=name, sheet=sheet, controller_id=controller, is_npc=npc)
        state = rules.apply(state, command, roller, WHEN).state
    data = json.loads(state.model_dump_json())
    data["combatants"][1]["name"] = data["combatants"][1]["sheet"]["name"] = CYRILLIC_WILLOW
    data["combatants"][2]["name"] = MARK
    data["combatants"][2]["sheet"]["weapons"].append({"name": "\u0421lub"})  # Cyrillic Es
    return json.dumps(data, ensure_ascii=False)


async def build(path: Path) -> None:
    db = await Database.open(path)
    try:
        await db.migrate([m for m in bundled_migrations() if m.version <= BEFORE])
        assert await db.schema_version() == BEFORE
        club_twice = {"weapons": [{"name": "Club"}, {"name": "\u0421lub"}]}
        rows = [
            (PLAYER, "character", "Willow", sheet_json("Willow")),
            (PLAYER, "character", CYRILLIC_WILLOW, sheet_json(CYRILLIC_WILLOW, **club_twice)),
            (PLAYER, "character", "Zoë", sheet_json("Zoë")),  # its key changes, not its name
            (PLAYER, "character", MARK, sheet_json(MARK)),
            (PLAYER, "character", "Tom", sheet_json("Tom")),  # keyboard names stay apart
            (PLAYER, "character", "Torn", sheet_json("Torn")),
            (OTHER, "character", CYRILLIC_WILLOW, sheet_json("W")),  # another member's
            (GM, "npc", "Thug", sheet_json("Thug")),
            (OTHER, "npc", CYRILLIC_THUG, sheet_json("T")),  # NPC templates: one per server
        ]
        async with db.transaction() as conn:
            for owner, kind, name, data in rows:
                await conn.insert(
                    "INSERT INTO sheets (guild_id, owner_id, kind, ruleset, name, name_key, sheet,"
                    " created_at, updated_at) VALUES (?, ?, ?, 'uttas', ?, ?, ?, ?, ?)",
                    (
                        GUILD,
                        owner,
                        kind,
                        name,
                        old_key(name),
                        data,
                        WHEN.isoformat(),
                        WHEN.isoformat(),
                    ),
                )
            await conn.insert(
                "INSERT INTO encounters (guild_id, channel_id, name, ruleset, started_by, gm_id,"
                " status, state, version, created_at, updated_at)"
                " VALUES (?, ?, 'Ambush', 'uttas', ?, ?, 'live', ?, 1, ?, ?)",
                (GUILD, CHANNEL, GM, GM, live_state(), WHEN.isoformat(), WHEN.isoformat()),
            )
    finally:
        await db.close()


@pytest.fixture
async def migrated(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[Database]:
    path = tmp_path / "bot.sqlite3"
    await build(path)
    db = await Database.open(path)
    with caplog.at_level(logging.INFO, logger="bot.store.migrations"):
        assert (await db.migrate())[0] == 11
    yield db
    await db.close()


async def rows(db: Database, sql: str) -> list[dict[str, Any]]:
    async with db.read() as conn:
        return [dict(row) for row in await conn.fetch_all(sql)]


async def test_lookalike_and_blank_sheet_names_are_renamed(migrated: Database) -> None:
    sheets = await rows(
        migrated, "SELECT owner_id, kind, name, name_key, sheet FROM sheets ORDER BY id"
    )
    assert [(s["owner_id"], s["kind"], s["name"]) for s in sheets] == [
        (PLAYER, "character", "Willow"),  # the oldest keeps its name
        (PLAYER, "character", f"{CYRILLIC_WILLOW} 2"),
        (PLAYER, "character", "Zoë"),
        (PLAYER, "character", names.PLACEHOLDER),
        (PLAYER, "character", "Tom"),
        (PLAYER, "character", "Torn"),
        (OTHER, "character", CYRILLIC_WILLOW),  # another member's: no clash
        (GM, "npc", "Thug"),
        (OTHER, "npc", f"{CYRILLIC_THUG} 2"),
    ]
    for sheet in sheets:
        assert sheet["name_key"] == names.key(sheet["name"])
        data = json.loads(sheet["sheet"])
        assert data["name"] == sheet["name"]
        UttasSheet.model_validate(data)  # today's strict model: every name is normal and unique
    assert sheets[2]["name_key"] == names.key("Zoë") != old_key("Zoë")
    inside = json.loads(sheets[1]["sheet"])
    assert [w["name"] for w in inside["weapons"]] == ["Club", "\u0421lub 2"]


async def test_live_combatants_that_look_the_same_are_numbered(migrated: Database) -> None:
    (encounter,) = await rows(migrated, "SELECT state FROM encounters")
    strict = json.loads(encounter["state"])
    assert [c["name"] for c in strict["combatants"]] == [
        "Willow",
        f"{CYRILLIC_WILLOW} 2",
        names.PLACEHOLDER,
    ]
    assert [w["name"] for w in strict["combatants"][2]["sheet"]["weapons"]] == [
        "Club",
        "\u0421lub 2",
    ]
    state = get_ruleset("uttas").load_state(encounter["state"])
    assert state.find("WILLOW").controller_id == PLAYER
    assert state.find("willow 2").controller_id == OTHER


async def test_owners_are_told_once(migrated: Database) -> None:
    notices = NoticeService(migrated)
    player = await notices.take(GUILD, PLAYER)
    assert player == [
        f"Two of your characters had names that look the same, **Willow** and "
        f"**{CYRILLIC_WILLOW}**, so the bot now treats them as one name; one of them is now "
        f"called **{CYRILLIC_WILLOW} 2**. Use that name with `/character` commands, or import "
        f"it again under another name.",
        "Your character whose name showed as blank is now called **Unnamed**. Use that name "
        "with `/character` commands, or import it again under another name.",
    ]
    other = await notices.take(GUILD, OTHER)
    assert len(other) == 2
    assert other[0].startswith(
        f"Two of this server's NPC templates had names that look the same, **Thug** and "
        f"**{CYRILLIC_THUG}**"
    )
    assert other[1] == (
        f"In the encounter **Ambush**, two of its combatants had names that look the same, "
        f"**Willow** and **{CYRILLIC_WILLOW}**, so the bot now treats them as one name; one of "
        f"them is now called **{CYRILLIC_WILLOW} 2**."
    )
    gm = await notices.take(GUILD, GM)
    assert gm == [
        "In the encounter **Ambush**, your combatant whose name showed as blank is now called "
        "**Unnamed**."
    ]
    for who in (PLAYER, OTHER, GM):
        assert await notices.take(GUILD, who) == []


async def test_each_rename_is_logged(migrated: Database, caplog: pytest.LogCaptureFixture) -> None:
    logged = [r.getMessage() for r in caplog.get_records("setup") if " renamed " in r.getMessage()]
    assert len(logged) == 5  # two Willows, the blank character, the Thug, the blank combatant
    assert any(
        f"{CYRILLIC_WILLOW!r} -> '{CYRILLIC_WILLOW} 2' (looked like 'Willow')" in line
        for line in logged
    )
    assert any(f"{MARK!r} -> 'Unnamed' (the name showed as blank)" in line for line in logged)


async def test_migrating_again_changes_nothing(migrated: Database) -> None:
    everything = (
        "SELECT 'sheet', id, name, name_key, sheet FROM sheets UNION ALL "
        "SELECT 'encounter', id, name, state, version FROM encounters UNION ALL "
        "SELECT 'notice', id, text, guild_id, user_id FROM member_notices"
    )
    before = await rows(migrated, everything)
    assert await migrated.migrate() == []
    for version in (8, 11):
        (step,) = [m for m in bundled_migrations() if m.version == version]
        assert step.step is not None
        async with migrated.transaction() as conn:
            await step.step(conn)  # each step is idempotent, and 0008 agrees with 0011
    assert await rows(migrated, everything) == before


async def test_todays_lookups_find_what_the_migration_left(migrated: Database) -> None:
    sheets = SheetService(migrated)
    player = Actor(user_id=PLAYER)
    assert (await sheets.get_own(GUILD, player, "character", "ZOË")).name == "Zoë"
    # A lookalike typed finds the one sheet of that name, never a second one.
    assert (await sheets.get_own(GUILD, player, "character", CYRILLIC_WILLOW)).name == "Willow"
    found = await sheets.name_choices(GUILD, player, "character", "W\u0456l")
    assert found == ["Willow", f"{CYRILLIC_WILLOW} 2"]
    live = await EncounterService(migrated).live(CHANNEL)
    assert live.state.find(f"{CYRILLIC_WILLOW} 2").controller_id == OTHER
