"""The one event-log format (issue 10, decision G): every change that runs the engine logs its
commands and events; one reader serves undo, ``/gm log`` and exports, and keeps what it cannot
parse exactly as logged."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from bot.engine.core.commands import Begin
from bot.engine.core.events import Note
from bot.services import event_log
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.store.db import Database
from bot.store.encounters import LogEntry
from bot.ui.log_files import log_document
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
    assert document["encounter"]["rules_version"] == 2
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
