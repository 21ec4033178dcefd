"""The live row's state is rewritten only with a snapshot (issue 15, the write path): a change
whose log row keeps no snapshot leaves the stored state at the version it was at
(``state_version``) and the log's changes since are replayed when the row is read — after a
restart too, exactly. A snapshot, or a change of who is in the fight or who plays them, rewrites
it (the store's searches read the stored state). A log missing a version is refused, never
guessed over."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import pytest

from bot.engine.core.commands import EndTurn
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.replay import ReplayFailed
from bot.store import encounters as repo
from bot.store.db import Database
from tests.services.test_held_encounters import begun, stored_state
from tests.services.test_undo import sheet

GM = Actor(user_id=1, manages_channel=True)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def services(db: Database, snapshot_every: int = 50) -> tuple[EncounterService, CombatService]:
    encounters = EncounterService(
        db, clock=lambda: NOW, seeds=lambda: 7, check_replay=True, snapshot_every=snapshot_every
    )
    return encounters, CombatService(encounters, clock=lambda: NOW)


def stored_version(db: Database, encounter_id: int) -> tuple[int | None, int]:
    """``(state_version, version)`` of the encounter's row as written."""
    with sqlite3.connect(db.path) as conn:
        found = conn.execute(
            "SELECT state_version, version FROM encounters WHERE id = ?", (encounter_id,)
        ).fetchone()
    return found[0], found[1]


async def end_turns(combat: CombatService, encounters: EncounterService, times: int) -> None:
    for _ in range(times):
        turn = (await encounters.live(5)).state.turn
        await combat.gm_command(
            5, GM, "endturn", {}, lambda e, t=turn: EndTurn(actor=t), action="x"
        )


async def test_a_change_without_a_snapshot_leaves_the_stored_state_and_a_restart_replays_it(
    db: Database,
) -> None:
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 5)
    stored_at, version = stored_version(db, encounter_id)  # the begin kept no snapshot either
    before = stored_state(db, encounter_id)
    await end_turns(combat, encounters, 3)
    live = await encounters.live(5)
    assert stored_at is not None and stored_at < version
    assert stored_version(db, encounter_id) == (stored_at, version + 3)
    assert stored_state(db, encounter_id) == before != live.state_json  # not rewritten

    restarted, combat_after = services(db)  # nothing kept in memory: the row and the log
    again = await restarted.live(5)
    assert again.version == live.version
    assert again.state_json == live.state_json  # exactly the state committed

    await end_turns(combat_after, restarted, 1)  # play goes on from the replayed state
    assert (await restarted.live(5)).state.turn != again.state.turn


async def test_a_snapshot_rewrites_the_stored_state(db: Database) -> None:
    encounters, combat = services(db, snapshot_every=2)
    encounter_id = await begun(encounters, combat, 5)
    await end_turns(combat, encounters, 2)
    live = await encounters.live(5)
    state_version, version = stored_version(db, encounter_id)
    if version % 2 == 0:  # this version's log row keeps a snapshot: so does the row
        assert state_version is None and stored_state(db, encounter_id) == live.state_json
    else:
        assert state_version == version - 1
    assert (await services(db)[0].live(5)).state_json == live.state_json


async def test_who_is_in_the_fight_changing_rewrites_the_stored_state(db: Database) -> None:
    """A join (or a control handed over, an erasure…) rewrites the state: the member's id and
    the character fighting are found in the stored state by the store's searches."""
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 5)
    await end_turns(combat, encounters, 1)
    assert stored_version(db, encounter_id)[0] is not None
    await encounters.join(5, Actor(user_id=77), name="Rowan", sheet=sheet("Rowan"))
    assert stored_version(db, encounter_id)[0] is None
    assert '"controller_id":77' in stored_state(db, encounter_id)


async def test_ending_a_fight_rewrites_the_stored_state_it_ends_with(db: Database) -> None:
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 5)
    await end_turns(combat, encounters, 2)
    live = await encounters.live(5)
    ended = await encounters.end(encounter_id, GM)
    assert stored_version(db, encounter_id) == (None, ended.version)
    assert stored_state(db, encounter_id) == live.state_json


async def test_a_log_missing_a_version_is_refused_not_guessed_over(db: Database) -> None:
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 5)
    await end_turns(combat, encounters, 3)
    state_version, _ = stored_version(db, encounter_id)
    assert state_version is not None
    with sqlite3.connect(db.path) as conn:
        conn.execute(
            "DELETE FROM encounter_log WHERE encounter_id = ? AND version = ?",
            (encounter_id, state_version + 2),
        )
    with pytest.raises(ReplayFailed, match="does not hold every version"):
        await services(db)[0].live(5)


async def test_a_row_whose_stored_state_is_older_gives_no_state_as_current(db: Database) -> None:
    encounters, combat = services(db)
    encounter_id = await begun(encounters, combat, 5)
    await end_turns(combat, encounters, 1)
    async with db.read() as conn:
        row = await repo.by_id(conn, encounter_id)
    assert row is not None and row.state_version is not None
    assert row.state_version < row.version
    with pytest.raises(ValueError, match="the stored state is at version"):
        _ = row.stored_state
    assert row.stored_state_version == row.state_version
