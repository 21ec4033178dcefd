"""Rules frozen per encounter (issue 10, decision C): an encounter stores the full tables and the
rules version it plays by when it starts, and plays by them for its whole life — whatever the
shipped defaults or the server's changes say later; rules of a version this bot does not know are
refused with a clear message and nothing changes."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import ChangeSettings
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.tables import default_tables
from bot.errors import RulesVersionUnknown
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.store import encounters as repo
from bot.store.db import Database

GM = Actor(user_id=1)
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def services(db: Database) -> tuple[EncounterService, CombatService]:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 1)
    return encounters, CombatService(encounters, clock=lambda: NOW)


async def set_rules(db: Database, encounter_id: int, rules: str | None) -> None:
    async with db.transaction() as conn:
        await conn.execute("UPDATE encounters SET rules = ? WHERE id = ?", (rules, encounter_id))


async def test_an_encounter_stores_every_table_and_its_rules_version(db: Database) -> None:
    encounters, _ = services(db)
    started = await encounters.start(
        guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None
    )
    assert started.row.rules is not None
    frozen = json.loads(started.row.rules)
    assert frozen["version"] == UttasRuleset.rules_version
    assert frozen["tables"] == default_tables().model_dump(mode="json")
    assert started.rules.version == UttasRuleset.rules_version


async def test_it_plays_by_its_stored_tables_not_todays_defaults(db: Database) -> None:
    encounters, _ = services(db)
    started = await encounters.start(
        guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None
    )
    # As if a later bot shipped other defaults: what the encounter stored still rules it.
    assert started.row.rules is not None
    frozen = json.loads(started.row.rules)
    frozen["tables"]["reactions"]["evade"]["dodge_bonus"] = 7
    await set_rules(db, started.id, json.dumps(frozen))
    live = await encounters.live(10)
    assert live.rules.tables.reactions["evade"].dodge_bonus == 7  # type: ignore[attr-defined]
    assert default_tables().reactions["evade"].dodge_bonus != 7
    other = await encounters.start(guild_id=1, channel_id=11, actor=GM, ruleset="uttas", name=None)
    assert other.rules.tables.reactions["evade"].dodge_bonus != 7  # type: ignore[attr-defined]


async def test_rules_of_an_unknown_version_are_refused_and_nothing_changes(db: Database) -> None:
    encounters, combat = services(db)
    started = await encounters.start(
        guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None
    )
    assert started.row.rules is not None
    newer = json.loads(started.row.rules) | {"version": 99}
    await set_rules(db, started.id, json.dumps(newer))
    before = await encounters.live(10)
    with pytest.raises(RulesVersionUnknown, match=r"rules version 99.*newer bot"):
        await combat.gm_command(
            10, GM, "settings", {}, lambda current: ChangeSettings(npcs_react=True), action="x"
        )
    after = await encounters.live(10)
    assert (after.version, after.state_json) == (before.version, before.state_json)


async def test_encounters_started_before_rules_froze_are_frozen_once_as_version_1(
    db: Database,
) -> None:
    encounters, _ = services(db)
    overrides = json.dumps({"uttas": {"reactions": {"evade": {"dodge_bonus": 5}}}})
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, rules_overrides, updated_at) VALUES (?, ?, ?)",
            (1, overrides, NOW.isoformat()),
        )
    started = await encounters.start(
        guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None
    )
    await set_rules(db, started.id, None)  # as an encounter stored before migration 0013
    assert await encounters.freeze_rules() == 1
    assert await encounters.freeze_rules() == 0
    live = await encounters.live(10)
    assert live.row.rules is not None
    frozen = json.loads(live.row.rules)
    assert frozen["version"] == 1
    assert frozen["tables"]["reactions"]["evade"]["dodge_bonus"] == 5  # its server's change
    async with db.read() as conn:
        assert await repo.unfrozen(conn) == []


def test_frozen_rules_round_trip_and_are_shared() -> None:
    rules = get_ruleset("uttas")
    again = get_ruleset("uttas", frozen=rules.frozen())
    assert again.tables_data() == rules.tables_data() and again.version == rules.version
    assert get_ruleset("uttas", frozen=rules.frozen()) is again  # one instance per rule set


async def test_an_encounter_of_unknown_rules_can_still_be_read_and_ended(db: Database) -> None:
    encounters, _ = services(db)
    started = await encounters.start(
        guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None
    )
    assert started.row.rules is not None
    await set_rules(db, started.id, json.dumps(json.loads(started.row.rules) | {"version": 99}))
    live = await encounters.live(10)
    assert live.rules.version == UttasRuleset.rules_version  # shown through this version's ruleset
    ended = await encounters.end(live.id, GM)
    assert ended.row.status == "archived"
