"""A database written by the wave-1 code (``tests/fixtures/wave1.sqlite3``, made by
``tests/fixtures/make_wave1_db.py``) upgrades in place and its fights continue."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.engine.core.commands import EndTurn
from bot.errors import Conflict, RuleViolation
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.moderation import ModerationService
from bot.services.sheets import SheetService
from bot.store.db import Database
from tests.upgrade.copies import upgraded

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "wave1.sqlite3"
GM = Actor(user_id=1)
PLAYER = Actor(user_id=2)
NOW = datetime(2026, 11, 2, tzinfo=UTC)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async for database in upgraded(FIXTURE, tmp_path):
        yield database


def services(db: Database) -> tuple[EncounterService, CombatService, ModerationService]:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 1)
    combat = CombatService(encounters, clock=lambda: NOW)
    return encounters, combat, ModerationService(db, encounters, combat, clock=lambda: NOW)


async def test_every_encounter_and_sheet_loads(db: Database) -> None:
    encounters, _, _ = services(db)
    for channel in (101, 102, 103, 104):
        live = await encounters.live(channel)
        assert live.state.combatants
    sheets = SheetService(db)
    willow = await sheets.get_own(1, PLAYER, "character", "Willow")
    assert willow.name == "Willow"


async def test_the_waiting_reaction_is_decided_and_the_fight_goes_on(db: Database) -> None:
    encounters, combat, mod = services(db)
    live = await encounters.live(101)
    decision = combat.decision(live)
    assert decision is not None and decision.subject is not None
    assert decision.subject.name == "Willow"
    result = await combat.decide(live.id, decision.pending_version, PLAYER, "none")
    assert result.encounter.state.pending is None
    assert result.encounter.state.current is not None
    # The redo history survived the upgrade until this new command cleared it.
    with pytest.raises(Conflict):
        await mod.redo(101, GM)
    undone, _ = await mod.undo(101, GM)
    assert undone.encounter.state.pending is not None


async def test_the_redo_history_survives(db: Database) -> None:
    _, _, mod = services(db)
    redone, entry = await mod.redo(101, GM)
    assert entry.command == "hp"
    assert redone.encounter.state.pending is not None


async def test_a_paused_fight_resumes_and_a_gathering_one_begins(db: Database) -> None:
    encounters, _, mod = services(db)
    await mod.set_paused(104, GM, False)
    live = await encounters.live(104)
    assert live.state.pending is not None and not live.row.paused
    gathering = await encounters.live(102)
    assert gathering.state.phase == "setup"


async def test_turns_continue_in_the_live_fight(db: Database) -> None:
    encounters, combat, _ = services(db)
    live = await encounters.live(101)
    decision = combat.decision(live)
    assert decision is not None
    await combat.decide(live.id, decision.pending_version, PLAYER, "none")
    for _ in range(4):
        await combat.gm_command(
            101, GM, "endturn", {}, lambda cur: EndTurn(actor=cur.state.turn), action="x"
        )
    assert (await encounters.live(101)).state.round >= 2


async def test_a_fight_that_ended_by_itself_loads_as_finished(db: Database) -> None:
    encounters, combat, _ = services(db)
    won = await encounters.live(103)
    assert won.state.phase == "finished" and won.state.winner == "party"
    with pytest.raises(RuleViolation, match="The fight is over"):
        await combat.act(103, PLAYER, None, "endturn", {}, lambda cur, me: EndTurn(actor=me.id))


async def test_its_encounters_are_frozen_at_rules_version_1_and_play_on(db: Database) -> None:
    encounters, _, mod = services(db)
    assert await encounters.freeze_rules() == 4  # every live encounter, once
    assert await encounters.freeze_rules() == 0
    for channel in (101, 102, 103, 104):
        live = await encounters.live(channel)
        assert live.rules.version == 1 and live.row.rules is not None
    redone, _ = await mod.redo(101, GM)
    assert redone.encounter.state.pending is not None
