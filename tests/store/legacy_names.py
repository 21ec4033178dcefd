"""A database as the bot left it before migration 0008: built by running the bundled
migrations 0001-0007 and inserting rows with names that were unique then and collide once
normalised (zero-width spaces, full-width letters, right-to-left marks, a blank name)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.engine import RandomRoller, get_ruleset
from bot.engine.uttas.commands import AddCombatant
from bot.engine.uttas.sheet import UttasSheet
from bot.store.db import Database, bundled_migrations

ZWSP = "\u200b"
BEFORE_NAMES = 7  # the last migration before 0008


@dataclass(frozen=True)
class Legacy:
    """Who owns what in the legacy database."""

    guild_id: int
    other_guild_id: int
    player: int  # owns the colliding Willows
    other_player: int
    gm: int
    channel_id: int


def old_key(name: str) -> str:
    """``name_key`` as the code before 0008 computed it."""
    return " ".join(name.split()).casefold()


def sheet_json(name: str, **extra: Any) -> str:
    """A sheet as stored before 0008: a valid sheet's JSON with old-style names put in."""
    data = json.loads(UttasSheet(name="Placeholder").model_dump_json())
    data.update(name=name, **extra)
    return json.dumps(data)


DIRTY_SHEET = {
    "weapons": [
        {"name": "Club", "damage_type": "Physical"},
        {"name": f"club{ZWSP}", "damage_type": f"FIRE{ZWSP}"},
    ],
    "powers": [{"name": "\u202eBlast\u202c", "active_points": 10, "inflicts": [f"Prone{ZWSP}"]}],
    "stances": ["Steady\u200d"],
    "skills": {f"Stealth{ZWSP}": 2},
    "armor": {f"Fire{ZWSP}": 1},
    "extra_limbs": [{"name": f"Tail{ZWSP}", "is_arm": False}],
}


async def _sheet(
    db: Database, guild: int, owner: int, kind: str, name: str, data: str, when: datetime
) -> None:
    async with db.transaction() as conn:
        await conn.insert(
            "INSERT INTO sheets (guild_id, owner_id, kind, ruleset, name, name_key, sheet,"
            " created_at, updated_at) VALUES (?, ?, ?, 'uttas', ?, ?, ?, ?, ?)",
            (guild, owner, kind, name, old_key(name), data, when.isoformat(), when.isoformat()),
        )


def live_state(legacy: Legacy) -> str:
    """A live encounter's state with two combatants that collide once normalised."""
    rules = get_ruleset("uttas")
    state = rules.new_encounter(name="Ambush", seed=1)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    roller = RandomRoller(1)
    for name, controller, npc in (
        ("Willow", legacy.player, False),
        ("Willowx", legacy.other_player, False),
        ("Thugx", None, True),
    ):
        sheet = UttasSheet(name=name, weapons=[{"name": "Club"}])
        command = AddCombatant(name=name, sheet=sheet, controller_id=controller, is_npc=npc)
        state = rules.apply(state, command, roller, now).state
    data = json.loads(state.model_dump_json())
    data["name"] = f"Ambush{ZWSP}"
    data["combatants"][1]["name"] = f"Willow{ZWSP}"
    data["combatants"][1]["sheet"]["name"] = f"Willow{ZWSP}"
    data["combatants"][2]["name"] = "\u202bThug\u202c"
    data["combatants"][2]["sheet"]["weapons"].append({"name": f"CLUB{ZWSP}"})
    return json.dumps(data)


async def build_legacy_database(path: Path, legacy: Legacy) -> None:
    """Migrate a new database at ``path`` to 0007 and fill it (closes it afterwards)."""
    db = await Database.open(path)
    try:
        await db.migrate([m for m in bundled_migrations() if m.version <= BEFORE_NAMES])
        assert await db.schema_version() == BEFORE_NAMES
        when = datetime(2026, 1, 1, tzinfo=UTC)
        g, p = legacy.guild_id, legacy.player
        # The player's characters: four that all read "Willow", one already "Willow 2".
        await _sheet(db, g, p, "character", f"Willow{ZWSP}", sheet_json(f"Willow{ZWSP}"), when)
        await _sheet(db, g, p, "character", "Willow", sheet_json("Willow", **DIRTY_SHEET), when)
        await _sheet(db, g, p, "character", "Ｗｉｌｌｏｗ", sheet_json("Ｗｉｌｌｏｗ"), when)
        await _sheet(db, g, p, "character", "Willow 2", sheet_json("Willow 2"), when)
        await _sheet(db, g, p, "character", f"Bear{ZWSP}", sheet_json(f"Bear{ZWSP}"), when)
        await _sheet(db, g, p, "character", ZWSP, sheet_json(ZWSP), when)
        # Nothing collides across members, servers or kinds.
        await _sheet(
            db, g, legacy.other_player, "character", f"Willow{ZWSP}", sheet_json("W"), when
        )
        await _sheet(db, legacy.other_guild_id, p, "character", f"Willow{ZWSP}", "{}", when)
        await _sheet(db, g, legacy.gm, "npc", "Thug", sheet_json("Thug"), when)
        await _sheet(db, g, legacy.other_player, "npc", f"Thug{ZWSP}", sheet_json("T"), when)
        async with db.transaction() as conn:
            for channel, status, name, state in (
                (legacy.channel_id, "live", f"Ambush{ZWSP}", live_state(legacy)),
                (legacy.channel_id + 1, "archived", f"Old{ZWSP}", '{"name": "Old\\u200b"}'),
            ):
                await conn.insert(
                    "INSERT INTO encounters (guild_id, channel_id, name, ruleset, started_by,"
                    " gm_id, status, state, version, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'uttas', ?, ?, ?, ?, 1, ?, ?)",
                    (
                        g,
                        channel,
                        name,
                        legacy.gm,
                        legacy.gm,
                        status,
                        state,
                        when.isoformat(),
                        when.isoformat(),
                    ),
                )
    finally:
        await db.close()
