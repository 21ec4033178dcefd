"""A database written by main at db9a58d (``tests/fixtures/systems.sqlite3``, made through the
real bot by ``tests/fixtures/make_systems_db.py``; schema 16, a state copy in every log row)
holding a live fight of each system but UTTAS — Utopia waiting on a defense, Untitled with its
newest command undone, Uune waiting on the GM's approval — upgrades in place: each fight reads
as it was saved, keeps its frozen rules (version 1 of each system), goes on (the open decision
answered, the undone command redone, a turn ended), and undo reaches back, exactly, to the
fight's start. (``test_statelog_database.py`` and ``test_wave1_database.py`` hold UTTAS.)"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import EndTurn
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.decisions import option_code
from bot.services.encounters import EncounterService
from bot.services.moderation import ModerationService
from bot.store.db import Database
from tests.e2e.combat_helpers import game_state
from tests.upgrade.copies import upgraded

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "systems.sqlite3"
NOW = datetime(2026, 12, 6, tzinfo=UTC)


@dataclass(frozen=True)
class Saved:
    """One fight as the old code saved it: its ids and its logged state copies by version,
    each read as this version reads a state (fields added since take their defaults)."""

    id: int
    channel_id: int
    gm: Actor
    ruleset: str
    states: dict[int, str]


def saved(name: str) -> Saved:
    with sqlite3.connect(FIXTURE) as raw:
        [(eid, channel_id, gm_id, ruleset)] = raw.execute(
            "SELECT id, channel_id, gm_id, ruleset FROM encounters WHERE name = ?", (name,)
        ).fetchall()
        rows = raw.execute(
            "SELECT version, state FROM encounter_log WHERE encounter_id = ? ORDER BY version",
            (eid,),
        ).fetchall()
    rules = get_ruleset(ruleset)
    states = {int(v): rules.load_state(s).model_dump_json() for v, s in rows}
    return Saved(eid, channel_id, Actor(user_id=gm_id), ruleset, states)


def same(fight: Saved, text: str) -> str:
    return get_ruleset(fight.ruleset).load_state(text).model_dump_json()


def game(fight: Saved, text: str) -> dict[str, Any]:
    """The game in a state (as :func:`same` reads it) without the marks undo and redo date
    anew (:func:`tests.e2e.combat_helpers.game_state`)."""
    return game_state(same(fight, text))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async for database in upgraded(FIXTURE, tmp_path, schema=16):
        yield database


@dataclass
class Services:
    encounters: EncounterService
    combat: CombatService
    mod: ModerationService


def services(db: Database) -> Services:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 3, check_replay=True)
    combat = CombatService(encounters, clock=lambda: NOW)
    return Services(
        encounters, combat, ModerationService(db, encounters, combat, clock=lambda: NOW)
    )


async def undo_to_the_start(s: Services, fight: Saved, newer: int) -> None:
    """Undo the ``newer`` commands made since the upgrade (by replay), then every old one, each
    back to exactly the state the old code recorded before it; the fight's first state last."""
    for _ in range(newer):
        await s.mod.undo(fight.channel_id, fight.gm)
    live = await s.encounters.live(fight.channel_id)
    assert game(fight, live.state_json) == game(fight, fight.states[max(fight.states)])
    undone = []
    while True:
        try:
            result, entry = await s.mod.undo(fight.channel_id, fight.gm)
        except Conflict:
            break
        undone.append(entry.version)
        before = fight.states[entry.version - 1]
        assert game(fight, result.encounter.state_json) == game(fight, before)
    live = await s.encounters.live(fight.channel_id)
    assert undone[-1] == 2 and game(fight, live.state_json) == game(fight, fight.states[1])


async def test_each_fight_reads_as_saved_with_its_rules_frozen(db: Database) -> None:
    s = services(db)
    for name, ruleset in (("Reed ford", "utopia"), ("Old mill", "untitled"), ("Dock nine", "uune")):
        fight = saved(name)
        assert fight.ruleset == ruleset
        live = await s.encounters.live(fight.channel_id)
        assert live.row.status == "live" and live.rules.version == 1
        assert same(fight, live.state_json) == fight.states[live.version]
        logged = await s.encounters.log(fight.id)
        assert [same(fight, e.state or "") for e in logged] == list(fight.states.values())


async def test_a_utopia_defense_waiting_at_the_upgrade_is_answered(db: Database) -> None:
    s, fight = services(db), saved("Reed ford")
    live = await s.encounters.live(fight.channel_id)
    [decision] = live.state.decisions
    [(vesna, options)] = live.rules.decision_options(live.state, decision).items()
    assert [option_code(o) for o in options] == ["block", "dodge", "cover", "none"]
    player = Actor(user_id=live.state.get(vesna).controller_id)
    answered = await s.combat.decide(fight.id, live.version, player, "none")
    assert not answered.encounter.state.decisions
    assert answered.encounter.state.get(vesna) != live.state.get(vesna)  # the bolt's damage
    with pytest.raises(Conflict):  # the button pressed twice: once only
        await s.combat.decide(fight.id, live.version, player, "none")
    await undo_to_the_start(s, fight, newer=1)


async def test_an_untitled_command_undone_before_the_upgrade_is_redone(db: Database) -> None:
    s, fight = services(db), saved("Old mill")
    live = await s.encounters.live(fight.channel_id)
    redone, entry = await s.mod.redo(fight.channel_id, fight.gm)
    assert entry.command == "act"
    assert game(fight, redone.encounter.state_json) == game(fight, fight.states[entry.version])
    turn = redone.encounter.state.turn
    await s.combat.gm_command(
        fight.channel_id, fight.gm, "endturn", {}, lambda cur: EndTurn(actor=turn), action="x"
    )
    assert (await s.encounters.live(fight.channel_id)).state.turn != turn
    new = [e for e in await s.encounters.log(fight.id) if e.version > live.version]
    assert [e.command for e in new] == ["redo", "endturn"]
    await undo_to_the_start(s, fight, newer=2)


async def test_a_uune_approval_waiting_at_the_upgrade_is_answered(db: Database) -> None:
    s, fight = services(db), saved("Dock nine")
    live = await s.encounters.live(fight.channel_id)
    [decision] = live.state.decisions
    [(mira, options)] = live.rules.decision_options(live.state, decision).items()
    [approve] = [o for o in options if o.label == "GM: approve all"]
    player = Actor(user_id=live.state.get(mira).controller_id)
    with pytest.raises(Exception, match="GM"):  # the approval waits on the GM alone
        await s.combat.decide(fight.id, live.version, player, option_code(approve))
    answered = await s.combat.decide(fight.id, live.version, fight.gm, option_code(approve))
    # Approved, the roll is made; Mira may now spend on it (the next decision).
    assert [d.kind for d in answered.encounter.state.decisions] == ["spend"]
    await undo_to_the_start(s, fight, newer=1)
