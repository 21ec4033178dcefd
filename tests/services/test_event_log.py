"""The one event-log format (issue 10, decision G): every change that runs the engine logs its
commands and events; one reader serves undo, ``/gm log`` and exports, and keeps what it cannot
parse exactly as logged."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel

from bot.engine.core.commands import Begin, CommandBase
from bot.engine.core.events import Note
from bot.engine.uttas.ruleset import UttasRuleset
from bot.services import event_log
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.store.db import Database
from bot.store.encounters import LogEntry
from bot.ui.log_files import log_document
from tests.contract.harness import HARNESSES
from tests.contract.test_ruleset_contract import machine_for, machine_tests
from tests.engine.helpers import sheet

GM = Actor(user_id=1, manages_channel=True)
NOW = datetime(2026, 11, 30, tzinfo=UTC)


async def test_every_engine_change_logs_its_commands_and_events(db: Database) -> None:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 1)
    combat = CombatService(encounters, clock=lambda: NOW)
    await encounters.start(guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name="Log")
    await encounters.join(10, GM, name="Ann", sheet=sheet("Ann", agility=20))
    await encounters.add_npcs(10, GM, template="Thug", sheet=sheet("Thug"), count=2)
    await combat.gm_command(10, GM, "begin", {}, lambda e: Begin(), action="begin")
    live = await encounters.live(10)
    records = [event_log.read(e, live.rules) for e in await encounters.log(live.id)]
    assert [r.command for r in records] == ["start", "join", "add_npcs", "begin"]
    join, added, begin = records[1:]
    assert [c["kind"] for c in join.commands] == ["add_combatant"]
    assert [e.kind for e in join.events] == ["combatant_joined"] and join.data == {
        "combatant": "Ann"
    }
    assert len(added.commands) == 2 and added.data == {"added": ["Thug 1", "Thug 2"]}
    assert any(e.kind == "turn_started" for e in begin.events)
    document = log_document(live, await encounters.log(live.id))
    assert document["format"] == event_log.FORMAT
    assert document["encounter"]["rules_version"] == UttasRuleset.rules_version
    stored = [json.loads(e.result) for e in await encounters.log(live.id)]
    assert [e["result"] for e in document["entries"]] == stored  # exactly as logged


def test_an_event_this_version_cannot_read_is_kept_as_logged() -> None:
    from bot.engine import get_ruleset

    future = {"kind": "take_cover", "combatant": "c1", "text": "Ann takes cover."}
    entry = LogEntry(
        encounter_id=1,
        version=3,
        actor_id=2,
        command="act",
        options=json.dumps({"action": "take-cover"}),
        result=json.dumps({"events": [future], "commands": [{"kind": "take_cover"}]}),
        state="{}",
        created_at=NOW,
    )
    record = event_log.read(entry, get_ruleset("uttas"))
    assert isinstance(record.events[0], Note)  # a GM-only note saying so
    assert record.raw_events == [future]
    assert event_log.entry_json(record)["result"] == json.loads(entry.result)


async def test_each_change_logs_every_die_it_rolled_and_replays_exactly_from_them(
    db: Database,
) -> None:
    """Issue 15: the log keeps every die a change rolled, in order. Replaying the logged
    commands over the state before them with those dice in a ``ScriptedRoller`` gives the
    logged events again and uses every die — nothing is re-rolled, nothing is missing."""
    from bot.engine import ScriptedRoller
    from bot.engine.uttas.commands import Attack

    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 5)
    combat = CombatService(encounters, clock=lambda: NOW)
    await encounters.start(guild_id=1, channel_id=11, actor=GM, ruleset="uttas", name="Dice")
    await encounters.join(11, GM, name="Ann", sheet=sheet("Ann", agility=20))
    await encounters.add_npcs(11, GM, template="Thug", sheet=sheet("Thug"), count=2)
    await combat.gm_command(11, GM, "begin", {}, lambda e: Begin(), action="begin")
    live = await encounters.live(11)
    me = live.state.current
    assert me is not None
    foe = next(c for c in live.state.combatants if c.side != me.side)
    weapon = me.sheet.weapons[0].name
    await combat.act(
        11, GM, None, "attack", {}, lambda _e, _m: Attack(actor=me.id, target=foe.id, attack=weapon)
    )
    entries = await encounters.log(live.id)
    rolled = [
        (e, event_log.read(e, live.rules)) for e in entries if json.loads(e.result).get("dice")
    ]
    assert [r.command for _, r in rolled] == ["begin", "attack"]  # initiative; the attack
    for before, (entry, record) in zip(
        [entries[entries.index(e) - 1] for e, _ in rolled], rolled, strict=True
    ):
        dice = ScriptedRoller(record.dice)
        async with db.read() as conn:
            state = await encounters.state_at(conn, live, before.version)
        events = []
        for data in record.commands:
            outcome = live.rules.apply(state, live.rules.parse_command(data), dice, NOW)
            state, events = outcome.state, [*events, *outcome.events]
        assert dice.remaining == 0, entry.command
        assert [e.model_dump(mode="json") for e in events] == record.raw_events
    assert "dice" not in json.loads(entries[0].result)  # start rolls nothing
    exported = log_document(live, entries)["entries"]
    assert exported[-1]["result"]["dice"] == rolled[-1][1].dice


def written_machine(key: str) -> Any:
    """The contract machine of ``key`` checking that every command it applies and every event
    it sees is written by :func:`event_log.written` as ``orjson`` wrote its ``model_dump``
    (the log's text before: the same JSON, and here the same bytes)."""

    class WrittenMachine(machine_for(HARNESSES[key])):  # type: ignore[misc]
        def apply(self, command: CommandBase) -> bool:
            self.same(command)
            return bool(super().apply(command))

        def check_events(self, before: Any, after: Any, events: list[Any]) -> None:
            super().check_events(before, after, events)
            for event in events:
                self.same(event)

        @staticmethod
        def same(model: BaseModel) -> None:
            text = orjson.dumps(event_log.written([model]))
            before = orjson.dumps([model.model_dump(mode="json")])
            assert json.loads(text) == json.loads(before)
            assert text == before

    WrittenMachine.__name__ = f"Written_{key}"
    return WrittenMachine


globals().update(machine_tests("TestWritten", written_machine))
