"""Encounters held in memory (issue 15, "Memory"): an :class:`Encounter` keeps its row without
the ~12 KB state text — the parsed state is the state — and nothing that needs the text loses
it: the text it gives is the state at its version as the database gives it to a fresh read (the
stored state, with the log's changes since replayed), ending a fight stores the state it ends
with and logs it, and a kept live row whose parsed state was let go is read again instead of
failing."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.services import encounters as encounters_module
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.store.db import Database
from bot.store.encounters import STATE_PAD
from tests.services.test_undo import sheet

GM = Actor(user_id=1, manages_channel=True)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def begun(encounters: EncounterService, combat: CombatService, channel: int) -> int:
    """A UTTAS fight under way in ``channel`` (a PC and an NPC); its encounter id."""
    started = await encounters.start(
        guild_id=1, channel_id=channel, actor=GM, ruleset="uttas", name=f"Fight {channel}"
    )
    await encounters.join(channel, Actor(user_id=2), name="Willow", sheet=sheet("Willow"))
    await encounters.add_npcs(channel, GM, template="Thug", sheet=sheet("Thug"), count=1)
    await combat.gm_command(channel, GM, "begin", {}, lambda e: Begin(), action="x")
    return started.id


def stored_state(db: Database, encounter_id: int) -> str:
    """The state column as written, without the trailing spaces that pad it to a multiple of
    ``STATE_PAD`` (checked here: the padding is all that is added)."""
    with sqlite3.connect(db.path) as conn:
        (text,) = conn.execute(
            "SELECT state FROM encounters WHERE id = ?", (encounter_id,)
        ).fetchone()
    assert len(text) % STATE_PAD == 0
    stripped = str(text).rstrip(" ")
    assert len(text) - len(stripped) < STATE_PAD
    return stripped


async def test_each_version_of_a_live_row_is_stored_at_the_same_size(db: Database) -> None:
    """Issue 15: the state is padded to a multiple of STATE_PAD, so a command's new version
    has the row's old size and SQLite overwrites it in place (only the changed pages are
    written) — as long as the state's text stays within its bucket, as a turn's changes do."""
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 7)
    sizes = set()
    for _ in range(4):
        end = EndTurn(actor=(await encounters.live(7)).state.turn)
        await combat.gm_command(7, GM, "endturn", {}, lambda e, c=end: c, action="x")
        with sqlite3.connect(db.path) as conn:
            (size,) = conn.execute(
                "SELECT length(state) FROM encounters WHERE id = ?", (encounter_id,)
            ).fetchone()
        sizes.add(size)
    assert len(sizes) == 1 and sizes.pop() % STATE_PAD == 0


async def as_read_afresh(db: Database, channel: int) -> str:
    """The channel's live state text as a service that kept nothing gives it (a restart)."""
    return (await services(db)[0].live(channel)).state_json


def services(db: Database) -> tuple[EncounterService, CombatService]:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 7, check_replay=True)
    return encounters, CombatService(encounters, clock=lambda: NOW)


async def test_an_encounter_holds_its_row_without_the_state_text_and_gives_the_stored_one(
    db: Database,
) -> None:
    encounters, combat = services(db)
    await begun(encounters, combat, 5)
    live = await encounters.live(5)
    assert live.row.state_json is None
    assert live.state_json == await as_read_afresh(db, 5)
    changed, _ = await encounters.change(
        5,
        GM,
        "endturn",
        {},
        lambda e: (e.state, {}),  # a change that keeps the state
    )
    assert changed.row.state_json is None and changed.version == live.version + 1
    assert changed.state_json == await as_read_afresh(db, 5) == live.state_json


async def test_ending_a_fight_stores_the_state_it_ends_with_and_logs_it(db: Database) -> None:
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 5)
    before = (await encounters.live(5)).state_json
    ended = await encounters.end(encounter_id, GM)
    assert ended.row.status == "archived"
    assert stored_state(db, encounter_id) == before  # the state it ends with, as it was
    last = (await encounters.log(encounter_id))[-1]
    assert last.command == "end" and last.state == before


@pytest.mark.state_cache
async def test_a_kept_row_whose_parsed_state_was_let_go_is_read_again(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live row a channel's last command wrote is kept without its text; when its parsed
    state is no longer kept (here: one parsed state is kept, and another channel's was read
    since), the next command reads the row again instead of failing."""
    monkeypatch.setattr(encounters_module, "STATE_CACHE_SIZE", 1)
    encounters, combat = services(db)
    await begun(encounters, combat, 5)
    await begun(encounters, combat, 6)
    turn = (await encounters.live(5)).state.turn
    done = await combat.gm_command(5, GM, "endturn", {}, lambda e: EndTurn(actor=turn), action="x")
    await encounters.live(6)  # channel 6's state is now the one kept
    assert encounters.cached_encounters == 1
    after = done.encounter.state.turn
    result = await combat.gm_command(
        5, GM, "endturn", {}, lambda e: EndTurn(actor=after), action="x"
    )
    assert result.encounter.version == (await encounters.live(5)).version
    assert result.encounter.state_json == await as_read_afresh(db, 5)
