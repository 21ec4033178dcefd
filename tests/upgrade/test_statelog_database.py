"""A database written by the code that kept a state copy in every log row
(``tests/fixtures/statelog.sqlite3``, made by ``tests/fixtures/make_statelog_db.py`` at main
db9a58d) upgrades in place to the event log (migration 0021): its fights continue, new rows keep
no state copy, and undo still reaches back, exactly, to the start of the fight."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import SetVitals
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.moderation import ModerationService
from bot.store.db import Database
from tests.upgrade.copies import upgraded

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "statelog.sqlite3"
GM = Actor(user_id=1)
CHANNEL = 201
NOW = datetime(2026, 12, 5, tzinfo=UTC)


RULES = get_ruleset("uttas")


def same(text: str) -> str:
    """A state as this version stores it (fields added since read as their defaults)."""
    return RULES.load_state(text).model_dump_json()


def old_states() -> dict[int, str]:
    """The state copies the old code logged for the live fight, by version, as this version
    reads them."""
    with sqlite3.connect(FIXTURE) as raw:
        rows = raw.execute(
            "SELECT version, state FROM encounter_log WHERE encounter_id = 1 ORDER BY version"
        ).fetchall()
    return {int(v): same(str(s)) for v, s in rows}


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async for database in upgraded(FIXTURE, tmp_path, schema=16):
        yield database


def services(db: Database) -> tuple[EncounterService, CombatService, ModerationService]:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 3, check_replay=True)
    combat = CombatService(encounters, clock=lambda: NOW)
    return encounters, combat, ModerationService(db, encounters, combat, clock=lambda: NOW)


async def test_the_fight_goes_on_and_undo_reaches_its_start_exactly(db: Database) -> None:
    encounters, combat, mod = services(db)
    before = old_states()
    live = await encounters.live(CHANNEL)
    assert same(live.state_json) == before[live.version]  # the undo's state, kept as it was

    # The undone command from before the upgrade is redone from its old state copy…
    redone, entry = await mod.redo(CHANNEL, GM)
    assert entry.command == "hp" and same(redone.encounter.state_json) == before[entry.version]
    # …and the fight goes on with new commands, which log no state copy.
    await combat.gm_command(
        CHANNEL, GM, "endturn", {}, lambda cur: EndTurn(actor=cur.state.turn), action="x"
    )
    thug = next(c for c in live.state.combatants if c.name == "Thug 2")
    await combat.gm_command(
        CHANNEL, GM, "hp", {}, lambda cur: SetVitals(target=thug.id, health_change=-1), action="x"
    )
    new = [e for e in await encounters.log(live.id) if e.version > max(before)]
    assert [e.command for e in new] == ["redo", "endturn", "hp"]
    assert [e.state is None for e in new] == [False, True, True]  # a redo keeps a snapshot

    # Undo everything back to the start: the new commands by replay, the old ones from their
    # copies, each exactly the state the old code recorded before it.
    await mod.undo(CHANNEL, GM)
    await mod.undo(CHANNEL, GM)
    assert same((await encounters.live(CHANNEL)).state_json) == before[entry.version]
    undone = []
    while True:
        try:
            result, entry = await mod.undo(CHANNEL, GM)
        except Conflict:
            break
        undone.append(entry.version)
        assert same(result.encounter.state_json) == before[entry.version - 1]
    assert undone[-1] == 2 and same((await encounters.live(CHANNEL)).state_json) == before[1]


async def test_the_old_rows_keep_their_state_copies_and_the_archive_is_intact(
    db: Database,
) -> None:
    encounters, _, _ = services(db)
    old = await encounters.log(1)
    assert [same(e.state or "") for e in old] == list(old_states().values())
    ended = await encounters.get(2)
    assert ended.row.status == "archived" and [c.name for c in ended.state.combatants] == ["Willow"]
