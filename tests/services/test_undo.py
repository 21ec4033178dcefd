"""Undo and redo on a real SQLite file: exact states, across many steps, after a restart, with
pending reactions; pause; the GM role and transfer."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import Attack, Command, GrantDice, React, SetVitals
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import Conflict, NotAllowed
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import PAUSED, Encounter, EncounterService
from bot.services.moderation import ModerationService, parse_amount
from bot.store.base import Store
from bot.store.db import Database

GM = Actor(user_id=1)
PLAYER = Actor(user_id=2)
OTHER = Actor(user_id=3)
MANAGER = Actor(user_id=9, manages_channel=True, manages_guild=True)
CHANNEL = 10
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def sheet(name: str, **kw: Any) -> UttasSheet:
    return UttasSheet.model_validate(
        {
            "name": name,
            "speed": 4,
            "health": 20,
            "stamina": 40,
            "agility": 12,
            "weapons": [{"name": "Sword", "damage_dice": 2}],
            **kw,
        }
    )


class Table:
    def __init__(self, db: Database, snapshot_every: int = 50) -> None:
        self.db = db
        self.encounters = EncounterService(
            db, clock=lambda: NOW, seeds=lambda: 7, check_replay=True, snapshot_every=snapshot_every
        )
        self.combat = CombatService(self.encounters, clock=lambda: NOW)
        self.mod = ModerationService(db, self.encounters, self.combat, clock=lambda: NOW)

    async def live(self) -> Encounter:
        return await self.encounters.live(CHANNEL)

    async def gm(self, make: Any, label: str = "gm") -> Any:
        return await self.combat.gm_command(CHANNEL, GM, label, {}, make, action="do that")


async def fight(t: Table) -> tuple[str, str]:
    await t.encounters.start(guild_id=1, channel_id=CHANNEL, actor=GM, ruleset="uttas", name="U")
    await t.encounters.join(CHANNEL, PLAYER, name="Willow", sheet=sheet("Willow", agility=14))
    await t.encounters.add_npcs(CHANNEL, GM, template="Thug", sheet=sheet("Thug"), count=1)
    state = (await t.live()).state
    willow, thug = (c.id for c in state.combatants)
    await t.gm(lambda cur: Begin(), "begin")
    return willow, thug


async def test_undo_and_redo_many_steps_reproduce_the_recorded_states(db: Database) -> None:
    t = Table(db)
    willow, thug = await fight(t)
    states = {e.version: e.state_json for e in [await t.live()]}

    async def record() -> None:
        live = await t.live()
        states[live.version] = live.state_json

    steps: list[Any] = [
        lambda cur: SetVitals(target=thug, health_change=-3),
        lambda cur: GrantDice(target=willow, dice=2),
        lambda cur: Attack(actor=willow, target=thug, attack="Sword"),
        lambda cur: SetVitals(target=willow, stamina=30),
        lambda cur: EndTurn(actor=cur.state.turn),
        lambda cur: Attack(actor=thug, target=willow, attack="Sword"),
        lambda cur: React(actor=willow, choice="evade"),
    ]
    for make in steps:
        await t.gm(make)
        await record()
    top = (await t.live()).version
    applied = sorted(v for v in states if v > 4)  # versions made by the steps above
    assert len(applied) == len(steps)

    # Undo every step: each undo restores exactly the state before that step.
    for version in reversed(applied):
        result, entry = await t.mod.undo(CHANNEL, GM)
        assert entry.version == version
        assert result.encounter.state_json == states[version - 1]
    # …and further back, through begin, the NPC, the join, to the start.
    for _ in range(3):
        await t.mod.undo(CHANNEL, GM)
    log = await t.encounters.log((await t.live()).id)
    assert (await t.live()).state_json == log[0].state
    with pytest.raises(Conflict, match="nothing to undo"):
        await t.mod.undo(CHANNEL, GM)

    # Redo everything: the same recorded states, nothing re-rolled.
    for _ in range(3):
        await t.mod.redo(CHANNEL, GM)
    for version in applied:
        result, entry = await t.mod.redo(CHANNEL, GM)
        assert entry.version == version
        assert result.encounter.state_json == states[version]
    with pytest.raises(Conflict, match="nothing to redo"):
        await t.mod.redo(CHANNEL, GM)
    assert (await t.live()).version == top + 2 * (len(applied) + 3)


async def test_a_new_command_clears_the_redo_history(db: Database) -> None:
    t = Table(db)
    _, thug = await fight(t)
    await t.gm(lambda cur: SetVitals(target=thug, health=5))
    await t.gm(lambda cur: SetVitals(target=thug, health=6))
    await t.mod.undo(CHANNEL, GM)
    await t.mod.undo(CHANNEL, GM)
    await t.mod.redo(CHANNEL, GM)
    await t.gm(lambda cur: SetVitals(target=thug, health=9))
    with pytest.raises(Conflict, match="nothing to redo"):
        await t.mod.redo(CHANNEL, GM)
    # Undo now takes back the new command, then the redone one.
    await t.mod.undo(CHANNEL, GM)
    assert (await t.live()).state.get(thug).health == 5
    await t.mod.undo(CHANNEL, GM)
    assert (await t.live()).state.get(thug).health == 20


async def test_undo_works_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    first = await Database.open(path)
    await first.migrate()
    t = Table(first)
    _, thug = await fight(t)
    before = (await t.live()).state_json
    await t.gm(lambda cur: SetVitals(target=thug, health=1))
    await first.close()
    reopened = await Database.open(path)  # new connection, new services: nothing in memory
    try:
        result, entry = await Table(reopened).mod.undo(CHANNEL, GM)
        assert entry.command == "gm"
        assert result.encounter.state_json == before
    finally:
        await reopened.close()


@pytest.mark.parametrize("every", [1, 3, 50])
async def test_the_log_keeps_sparse_snapshots_and_undo_replays_to_the_start_after_a_restart(
    tmp_path: Path, every: int
) -> None:
    """Issue 15: a log row keeps a state snapshot only every ``every`` versions (and for changes
    that cannot be replayed); undo rebuilds any other state from the nearest snapshot by
    replaying the logged commands with their dice — exactly, after a restart, back to the
    start of the encounter."""
    path = tmp_path / "sparse.sqlite3"
    first = await Database.open(path)
    await first.migrate()
    t = Table(first, snapshot_every=every)
    willow, thug = await fight(t)
    states = {1: ""}
    steps: list[Any] = [
        lambda cur: Attack(
            actor=cur.state.turn,
            target=thug if cur.state.turn == willow else willow,
            attack="Sword",
        ),
        lambda cur: SetVitals(target=thug, health_change=-2),
        lambda cur: GrantDice(target=willow, dice=1),
        lambda cur: SetVitals(target=willow, stamina=25),
    ]
    for make in steps:
        await t.gm(make)
    log = await t.encounters.log((await t.live()).id)
    top = log[-1].version
    snapshots = [e.version for e in log if e.state is not None]
    expected = {1, *(v for v in range(1, top + 1) if v % every == 0)}
    assert set(snapshots) == expected  # start; every `every`; all the rest replay
    live = await t.live()
    async with first.read() as conn:  # the states as committed, rebuilt from the log
        for entry in log:
            states[entry.version] = (
                await t.encounters.state_at(conn, live, entry.version)
            ).model_dump_json()
    assert states[top] == (await t.live()).state_json
    await first.close()

    reopened = await Database.open(path)  # nothing in memory
    try:
        again = Table(reopened, snapshot_every=every)
        undone = []
        while True:
            try:
                result, entry = await again.mod.undo(CHANNEL, GM)
            except Conflict:
                break
            undone.append(entry.version)
            assert result.encounter.state_json == states[entry.version - 1]
        assert undone == list(range(top, 1, -1))
        assert (await again.live()).state_json == log[0].state
        for version in reversed(undone):
            result, entry = await again.mod.redo(CHANNEL, GM)
            assert entry.version == version
            assert result.encounter.state_json == states[version]
    finally:
        await reopened.close()


async def test_undo_past_a_pending_reaction_cancels_it_and_its_button(db: Database) -> None:
    t = Table(db)
    willow, thug = await fight(t)
    await t.gm(lambda cur: EndTurn(actor=cur.state.turn))
    await t.gm(lambda cur: Attack(actor=thug, target=willow, attack="Sword"))
    encounter = await t.live()
    assert encounter.state.pending is not None
    pending_version = encounter.row.pending_version
    assert pending_version is not None
    result, _ = await t.mod.undo(CHANNEL, GM)
    assert result.encounter.state.pending is None
    assert result.encounter.row.pending_version is None
    with pytest.raises(Conflict, match="no longer pending"):
        await t.combat.decide(encounter.id, pending_version, PLAYER, "none")
    # Redo brings the decision back under a new pending version: old buttons stay dead.
    redone, _ = await t.mod.redo(CHANNEL, GM)
    assert redone.decision is not None
    assert redone.decision.pending_version == redone.encounter.version
    with pytest.raises(Conflict, match="no longer pending"):
        await t.combat.decide(encounter.id, pending_version, PLAYER, "none")
    decided = await t.combat.decide(encounter.id, redone.decision.pending_version, PLAYER, "none")
    assert decided.encounter.state.pending is None


async def test_undoing_a_reaction_restores_the_decision_with_fresh_buttons(db: Database) -> None:
    t = Table(db)
    willow, thug = await fight(t)
    await t.gm(lambda cur: EndTurn(actor=cur.state.turn))
    await t.gm(lambda cur: Attack(actor=thug, target=willow, attack="Sword"))
    waiting = await t.live()
    first = waiting.row.pending_version
    assert first is not None
    await t.combat.decide(waiting.id, first, PLAYER, "none")
    result, entry = await t.mod.undo(CHANNEL, GM)
    assert entry.command == "react"
    assert result.encounter.state_json == waiting.state_json
    assert result.decision is not None and result.decision.pending_version != first
    with pytest.raises(Conflict, match="no longer pending"):
        await t.combat.decide(waiting.id, first, PLAYER, "none")


async def test_only_the_gm_may_undo_redo_pause_transfer(db: Database) -> None:
    t = Table(db)
    _, thug = await fight(t)
    await t.gm(lambda cur: SetVitals(target=thug, health=3))
    version = (await t.live()).version
    for call in (
        lambda: t.mod.undo(CHANNEL, PLAYER),
        lambda: t.mod.redo(CHANNEL, OTHER),
        lambda: t.mod.set_paused(CHANNEL, PLAYER, True),
        lambda: t.mod.transfer(CHANNEL, PLAYER, PLAYER),
        lambda: t.mod.log(CHANNEL, OTHER),
    ):
        with pytest.raises(NotAllowed, match="Only the GM"):
            await call()
    assert (await t.live()).version == version


async def test_pause_refuses_players_not_the_gm(db: Database) -> None:
    t = Table(db)
    willow, thug = await fight(t)
    paused = await t.mod.set_paused(CHANNEL, GM, True)
    assert paused.row.paused
    version = paused.version

    def attack(cur: Encounter, me: Any) -> Command:
        return Attack(actor=me.id, target=thug, attack="Sword")

    with pytest.raises(NotAllowed, match="The GM has paused the encounter"):
        await t.combat.act(CHANNEL, PLAYER, None, "attack", {}, attack)
    with pytest.raises(NotAllowed, match="paused"):
        await t.encounters.join(CHANNEL, OTHER, name="Bear", sheet=sheet("Bear"))
    assert (await t.live()).version == version
    assert PAUSED.startswith("The GM has paused the encounter.")
    # The GM still runs the table while paused; undo never un-pauses.
    await t.gm(lambda cur: SetVitals(target=thug, health=4))
    await t.mod.undo(CHANNEL, GM)
    assert (await t.live()).row.paused
    with pytest.raises(Conflict, match="already paused"):
        await t.mod.set_paused(CHANNEL, GM, True)
    await t.mod.set_paused(CHANNEL, GM, False)
    result = await t.combat.act(CHANNEL, PLAYER, None, "attack", {}, attack)
    assert result.acting is not None and result.acting.id == willow


async def test_gm_role_and_transfer(db: Database) -> None:
    t = Table(db)
    await fight(t)
    role_holder = Actor(user_id=5, role_ids=frozenset({77}))
    assert not (await t.live()).is_gm(role_holder)
    with pytest.raises(NotAllowed, match="Manage Server"):
        await t.mod.set_gm_role(1, GM, 77)
    await t.mod.set_gm_role(1, MANAGER, 77)
    assert await t.mod.gm_role(1) == 77
    assert (await t.live()).is_gm(role_holder)
    moved = await t.mod.transfer(CHANNEL, role_holder, OTHER)
    assert moved.row.gm_id == OTHER.user_id
    assert not moved.is_gm(GM)
    assert moved.is_gm(OTHER)
    # Transfer is bookkeeping: undo skips it.
    result, entry = await t.mod.undo(CHANNEL, OTHER)
    assert entry.command == "begin"
    assert result.encounter.row.gm_id == OTHER.user_id


def test_parse_amount() -> None:
    assert parse_amount("15") == parse_amount(" 15 ")
    assert (parse_amount("15").value, parse_amount("15").relative) == (15, False)
    assert (parse_amount("-3").value, parse_amount("-3").relative) == (-3, True)
    assert parse_amount("+4").value == 4 and parse_amount("+4").relative
    rolled = parse_amount("-1d1")
    assert (rolled.value, rolled.relative) == (-1, True) and rolled.rolled
    assert parse_amount("2d1+1").value == 3


async def test_a_command_in_another_process_after_an_undo_clears_the_redo_history(
    store: Store,
) -> None:
    """Two bot processes on one database (issue 16), as two service stacks: each remembers
    that an encounter's redo history is empty after its own write. An undo in the other
    process makes that stale — the next command here must still clear the history, or a later
    ``/gm redo`` would bring back a state from before that command and silently undo it."""
    first, second = Table(cast(Database, store)), Table(cast(Database, store))
    _, thug = await fight(first)
    await second.gm(lambda cur: SetVitals(target=thug, health=15))  # redo history: empty
    await first.mod.undo(CHANNEL, GM)  # health 20 again; the change above may be redone
    await second.gm(lambda cur: SetVitals(target=thug, health=12))  # a new command
    with pytest.raises(Conflict, match="nothing to redo"):
        await first.mod.redo(CHANNEL, GM)
    [_, npc] = (await second.live()).state.combatants
    assert npc.health == 12
