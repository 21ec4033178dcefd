"""Attacks on a member's erasure scrubbing encounter log rows that later replays read (issue 15;
``tests/services/test_erasure_replay.py``): whatever the scrub changes — a row's result, or the
state a later row is replayed over — an undo, a redo or a restart gives the state committed,
scrubbed, and never a refusal."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import Attack, Ready, Talk
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.encounters import Encounter
from bot.services.member_scrub import scrub_json
from bot.store.base import Store
from bot.store.db import Database
from tests.services.test_snapstate_attacks import (
    CHANNEL,
    GM,
    GUILD,
    OTHER,
    PLAYER,
    Bot,
    afresh,
)
from tests.services.test_undo import sheet

HOUND = f"<@{OTHER.user_id}>'s hound"


def scrubbed(encounter: Encounter, state_json: str) -> str:
    """``state_json`` without ``OTHER``, as the encounter's rules load it (combatants whose
    names became equal numbered)."""
    return str(encounter.rules.load_state(scrub_json(state_json, OTHER.user_id)).model_dump_json())


async def test_a_later_row_replayed_over_a_scrubbed_name_is_not_refused(store: Store) -> None:
    bot = Bot(store)
    await bot.fight()
    await bot.mod.add_one_off(CHANNEL, GM, HOUND, {})
    await bot.mod.add_one_off(CHANNEL, GM, "a former member's hound", {})
    before = (await bot.encounters.live(CHANNEL)).state_json
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    await bot.erase(OTHER)

    result: Any = await bot.mod.undo(CHANNEL, GM)

    assert result[1].command == "endturn"
    undone = await bot.encounters.live(CHANNEL)
    assert undone.state_json == scrubbed(undone, before)
    assert await afresh(store, True) == undone.state_json


def _words(count: int) -> str:
    """``count`` words, the last a mention of ``OTHER`` (scrubbed: two more)."""
    return " ".join(["word"] * (count - 1) + [f"<@{OTHER.user_id}>"])


async def _play(bot: Bot, states: dict[int, str]) -> None:
    """A fight with ``OTHER`` playing Rook and named in talk, a readied plan, an NPC's name, a
    vitals change, an undo and a redo; ``states``: the state each version had."""
    await bot.encounters.start(
        guild_id=GUILD, channel_id=CHANNEL, actor=GM, ruleset="uttas", name="U"
    )
    await bot.encounters.join(CHANNEL, PLAYER, name="Willow", sheet=sheet("Willow"))
    await bot.encounters.join(CHANNEL, OTHER, name="Rook", sheet=sheet("Rook"))
    await bot.encounters.add_npcs(CHANNEL, GM, template="Thug", sheet=sheet("Thug"), count=1)
    await bot.gm(lambda cur: Begin(), "begin")
    ids: dict[str, str] = {
        c.name: c.id for c in (await bot.encounters.live(CHANNEL)).state.combatants
    }

    def turn(cur: Encounter) -> str:
        return str(cur.state.turn)

    def foe(cur: Encounter) -> str:
        return ids["Thug 1"] if cur.state.turn != ids["Thug 1"] else ids["Willow"]

    steps: list[Callable[[], Awaitable[Any]]] = [
        lambda: bot.gm(lambda cur: Talk(actor=ids["Willow"], text=_words(3)), "talk"),
        lambda: bot.gm(lambda cur: EndTurn(actor=turn(cur)), "endturn"),
        lambda: bot.gm(
            lambda cur: Ready(actor=turn(cur), trigger="movement", watch=foe(cur), plan=_words(6)),
            "ready",
        ),
        lambda: bot.gm(lambda cur: EndTurn(actor=turn(cur)), "endturn"),
        lambda: bot.gm(
            lambda cur: Attack(actor=turn(cur), target=foe(cur), attack="Sword"), "attack"
        ),
        lambda: _decide(bot),
        lambda: bot.mod.undo(CHANNEL, GM),
        lambda: bot.gm(lambda cur: Talk(actor=ids["Rook"], text=_words(24)), "talk"),
        lambda: bot.mod.add_one_off(CHANNEL, GM, HOUND, {}),
        lambda: bot.mod.add_one_off(CHANNEL, GM, "a former member's hound", {}),
        lambda: bot.mod.set_vitals(CHANNEL, GM, "Rook", {"health": "-1"}),
        lambda: bot.mod.undo(CHANNEL, GM),
        lambda: bot.mod.undo(CHANNEL, GM),
        lambda: bot.mod.redo(CHANNEL, GM),
        lambda: bot.gm(lambda cur: EndTurn(actor=turn(cur)), "endturn"),
        lambda: bot.gm(lambda cur: Talk(actor=ids["Willow"], text=_words(2)), "talk"),
    ]
    for step in steps:
        await step()
        live = await bot.encounters.live(CHANNEL)
        states[live.version] = live.state_json


async def _decide(bot: Bot) -> Any:
    live = await bot.encounters.live(CHANNEL)
    if live.row.pending_version is None:
        return None
    return await bot.combat.decide(live.id, live.row.pending_version, GM, "none")


async def _traces(store: Store) -> list[str]:
    """Every table and column of the database holding ``OTHER``'s id's digits."""
    async with store.read() as conn:
        if isinstance(store, Database):
            tables = [
                r["name"]
                for r in await conn.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
            ]
        else:
            tables = [
                r["table_name"]
                for r in await conn.fetch_all(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = current_schema()"
                )
            ]
        found = []
        for table in tables:
            for row in await conn.fetch_all(f"SELECT * FROM {table}"):
                found += [
                    f"{table}.{k}" for k, v in dict(row).items() if str(OTHER.user_id) in str(v)
                ]
    return found


async def _check_every_version(bot: Bot, states: dict[int, str]) -> None:
    live = await bot.encounters.live(CHANNEL)
    async with bot.db.read() as conn:
        for version, state_json in states.items():
            rebuilt = await bot.encounters.state_at(conn, live, version)
            assert rebuilt.model_dump_json() == scrubbed(live, state_json), version


async def walk_undo_redo(
    store: Store, states: dict[int, str], *, snapshot_every: int = 50, check: bool = True
) -> None:
    """Undo to the log's start and redo back, a restart (a new :class:`Bot`) before each:
    every state as it was (``states``), scrubbed, the redone one as the log rebuilds it, and
    the same after a restart."""
    undone = 0
    while True:
        bot = Bot(store, snapshot_every=snapshot_every, check=check)
        try:
            _result, entry = await bot.mod.undo(CHANNEL, GM)
        except Conflict:
            break
        undone += 1
        live = await bot.encounters.live(CHANNEL)
        if entry.version - 1 in states:
            assert live.state_json == scrubbed(live, states[entry.version - 1]), entry.version
        assert await afresh(store, not check) == live.state_json
    assert undone >= 8
    for _ in range(undone):
        bot = Bot(store, snapshot_every=snapshot_every, check=check)
        _result, entry = await bot.mod.redo(CHANNEL, GM)
        live = await bot.encounters.live(CHANNEL)
        async with store.read() as conn:
            left = await bot.encounters.state_at(conn, live, entry.version)
        assert live.state_json == left.model_dump_json()
        if entry.version in states:
            assert live.state_json == scrubbed(live, states[entry.version]), entry.version
        assert await afresh(store, not check) == live.state_json


@pytest.mark.parametrize("snapshot_every", [1, 2, 3, 50])
@pytest.mark.parametrize("check", [True, False])
async def test_every_version_rebuilds_scrubbed_and_undo_redo_walk_the_whole_log(
    db: Database, snapshot_every: int, check: bool
) -> None:
    states: dict[int, str] = {}
    await _play(Bot(db, snapshot_every=snapshot_every, check=check), states)
    await Bot(db, snapshot_every=snapshot_every, check=check).erase(OTHER)
    await _check_every_version(Bot(db, snapshot_every=snapshot_every, check=check), states)
    assert await _traces(db) == []
    await walk_undo_redo(db, states, snapshot_every=snapshot_every, check=check)
    await _check_every_version(Bot(db, snapshot_every=snapshot_every, check=check), states)
    assert await _traces(db) == []


async def test_the_same_on_both_stores_with_a_second_erasure(store: Store) -> None:
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=3), states)
    await Bot(store).erase(OTHER)
    await Bot(store).erase(OTHER)  # nothing left: changes nothing
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []


async def _talk_then_lose_a_row(store: Store, lost: int) -> tuple[Bot, int]:
    """Willow says 24 words naming ``OTHER``, two turns end; the log row ``lost`` versions
    before the last is deleted (a damaged log). Returns the bot and the Talk's version."""
    bot = Bot(store)
    willow, _thug = await bot.fight()
    await bot.gm(lambda cur: Talk(actor=willow, text=_words(24)), "talk")
    talk = (await bot.encounters.live(CHANNEL)).version
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    last = (await bot.encounters.live(CHANNEL)).version
    async with store.transaction() as conn:
        await conn.execute("DELETE FROM encounter_log WHERE version = ?", (last - lost,))
    return Bot(store), talk


@pytest.mark.parametrize("lost", [0, 1])
async def test_a_log_damaged_after_the_rows_naming_the_member_still_keeps_their_snapshots(
    store: Store, lost: int
) -> None:
    """A row lost after the Talk (the last one, or one before it): the erasure completes, and
    the Talk, which the log can still rebuild, keeps the state it left."""
    bot, talk = await _talk_then_lose_a_row(store, lost)
    await bot.erase(OTHER)
    async with store.read() as conn:
        row = await conn.fetch_one(
            "SELECT result, state FROM encounter_log WHERE version = ?", (talk,)
        )
    assert row is not None and row["state"] is not None
    assert await _traces(store) == []


async def test_a_log_damaged_before_the_member_is_named_is_still_erased(store: Store) -> None:
    """Nothing the log holds can be rebuilt (the start's snapshot is lost): the erasure still
    completes and leaves no trace."""
    bot = Bot(store)
    willow, _thug = await bot.fight()
    await bot.gm(lambda cur: Talk(actor=willow, text=_words(24)), "talk")
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    async with store.transaction() as conn:
        await conn.execute("DELETE FROM encounter_log WHERE version = 1")
    await Bot(store).erase(OTHER)
    assert await _traces(store) == []


@pytest.mark.parametrize("snapshot_every", [1, 3, 50])
async def test_an_archived_fight_the_member_ran_and_played_rebuilds_every_version_scrubbed(
    store: Store, snapshot_every: int
) -> None:
    """``OTHER`` started and ran a fight, played in it, named themselves, gave the seat to the
    GM, and the fight ended: every version of the archived encounter rebuilds as it was,
    scrubbed; the export of another member leaves the snapshots out."""
    bot = Bot(store, snapshot_every=snapshot_every)
    runner = Actor(user_id=OTHER.user_id, manages_channel=True)
    await bot.encounters.start(
        guild_id=GUILD, channel_id=CHANNEL, actor=runner, ruleset="uttas", name="U"
    )
    await bot.encounters.join(CHANNEL, PLAYER, name="Willow", sheet=sheet("Willow"))
    await bot.encounters.join(CHANNEL, runner, name="Rook", sheet=sheet("Rook"))
    await bot.mod.add_one_off(CHANNEL, runner, HOUND, {})
    ids = {c.name: c.id for c in (await bot.encounters.live(CHANNEL)).state.combatants}

    async def run(make: Any, label: str) -> None:
        await bot.combat.gm_command(CHANNEL, runner, label, {}, make, action="do that")

    await run(lambda cur: Begin(), "begin")
    await run(lambda cur: Talk(actor=ids["Rook"], text=_words(24)), "talk")
    await run(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    await bot.mod.add_one_off(CHANNEL, runner, "a former member's hound", {})
    await bot.mod.transfer(CHANNEL, runner, GM)
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    states: dict[int, str] = {}
    live = await bot.encounters.live(CHANNEL)
    async with store.read() as conn:
        for version in range(1, live.version + 1):
            states[version] = (await bot.encounters.state_at(conn, live, version)).model_dump_json()
    await bot.encounters.end(live.id, GM)

    await Bot(store).erase(OTHER)

    fresh = Bot(store, snapshot_every=snapshot_every)
    archived = await fresh.encounters.get(live.id)
    assert archived.row.status == "archived"
    async with store.read() as conn:
        for version, state_json in states.items():
            rebuilt = await fresh.encounters.state_at(conn, archived, version)
            assert rebuilt.model_dump_json() == scrubbed(archived, state_json), version
    assert await _traces(store) == []
    export = await fresh.members.export(GUILD, PLAYER, PLAYER.user_id, size_limit=8 << 20)
    document = json.loads(export.data)
    assert document["encounter_log"]["entries"]
    assert all("state" not in entry for entry in document["encounter_log"]["entries"])
