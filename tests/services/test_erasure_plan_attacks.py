"""Attacks on a member's erasure whose log replays are planned before its write transactions
(``plan_scrub``, issue 15): the plans read the log, replay it with no lock held and give the
event loop turns, so every channel goes on between an erasure's steps — commands of every kind,
another erasure, the fight ending, a restart. After each erasure every version rebuilds as it
was, scrubbed, undo and redo walk the whole log, and no table keeps the member's id."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.core.commands import Begin, EndTurn, RemoveCombatant
from bot.engine.uttas.commands import Attack, Ready, Talk
from bot.errors import Conflict
from bot.services import member_data, member_sources
from bot.services.actor import Actor
from bot.services.encounters import Encounter
from bot.services.member_scrub import scrub_json
from bot.services.member_sources import Erasure
from bot.store.base import Store
from bot.store.db import Database
from tests.services.test_erasure_attacks import (
    _check_every_version,
    _play,
    _traces,
    _words,
    scrubbed,
    walk_undo_redo,
)
from tests.services.test_erasure_plan import after_plan
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

Step = Callable[[Bot], Awaitable[Any]]


async def _scrubbed_throughout(store: Store, states: dict[int, str]) -> None:
    """Every version rebuilds as it was, scrubbed, before and after undo and redo walk the
    whole log (a restart before each step); no table keeps the member's id."""
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []
    await walk_undo_redo(store, states)
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []


async def _join(bot: Bot) -> Any:
    """The member joins the fight again, with another character."""
    return await bot.encounters.join(CHANNEL, OTHER, name="Crow", sheet=sheet("Crow"))


async def _named_npc(bot: Bot) -> Any:
    """The GM adds an NPC named after the member."""
    return await bot.mod.add_one_off(CHANNEL, GM, f"<@{OTHER.user_id}>'s cat", {})


async def _talk(bot: Bot) -> Any:
    """Willow mentions the member."""
    live = await bot.encounters.live(CHANNEL)
    willow = next(c.id for c in live.state.combatants if c.name == "Willow")
    return await bot.gm(lambda cur: Talk(actor=willow, text=_words(2)), "talk")


NAMING: dict[str, Step] = {"join": _join, "named npc": _named_npc, "talk": _talk}


@pytest.mark.parametrize("snapshot_every", [1, 50])
@pytest.mark.parametrize("what", list(NAMING))
async def test_a_fight_naming_the_member_again_before_the_erasure_commits_is_released_too(
    store: Store, monkeypatch: pytest.MonkeyPatch, what: str, snapshot_every: int
) -> None:
    """Between step 2 (the live fight forgets the member) and step 3's transaction the plans
    give the loop turns: the member joins again, or the GM names an NPC after them. Step 3
    alone scrubbed the log rows of the live fight outside its write path and left the id in
    its state (``encounters.state``); the erasure releases the fight again first."""
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=snapshot_every), states)

    async def then() -> None:
        other = Bot(store, snapshot_every=snapshot_every)  # another process, or a restart
        await NAMING[what](other)
        live = await other.encounters.live(CHANNEL)
        states[live.version] = live.state_json

    after_plan(monkeypatch, 2, then)
    bot = Bot(store, snapshot_every=snapshot_every)
    report = await bot.erase(OTHER)

    assert [r.channel_id for r in report.released] == [CHANNEL]
    live = await bot.encounters.live(CHANNEL)
    assert str(OTHER.user_id) not in live.state_json
    assert await afresh(store, True) == live.state_json
    await _scrubbed_throughout(store, states)


async def test_a_gm_seat_the_member_took_before_the_erasure_commits_is_refused(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The member starts a fight in another channel between step 2 and step 3 (checked in step
    1 only): step 3 left them its GM seat, and said the erasure was done. It is refused as step
    1 refuses it; once the fight is ended the erasure finishes."""
    states: dict[int, str] = {}
    await _play(Bot(store), states)
    runner = Actor(user_id=OTHER.user_id, manages_channel=True)

    async def then() -> None:
        await Bot(store).encounters.start(
            guild_id=GUILD, channel_id=CHANNEL + 1, actor=runner, ruleset="uttas", name="V"
        )

    after_plan(monkeypatch, 2, then)
    with pytest.raises(Conflict, match="GM seat"):
        await Bot(store).erase(OTHER)

    monkeypatch.undo()
    bot = Bot(store)
    await bot.encounters.end((await bot.encounters.live(CHANNEL + 1)).id, runner)
    await bot.erase(OTHER)
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []


async def _everything(bot: Bot, states: dict[int, str]) -> None:
    """Commands of every kind in the live fight (``states``: the state each version had): talk
    naming the member, an attack and its reaction, a GM vitals change, an NPC added and
    removed, a pause and a resume, an undo, a redo, an end of turn."""

    async def ids() -> dict[str, str]:
        live = await bot.encounters.live(CHANNEL)
        return {c.name: c.id for c in live.state.combatants}

    async def attack() -> Any:
        found = await ids()
        turn = str((await bot.encounters.live(CHANNEL)).state.turn)
        foe = found["Thug 1"] if turn != found["Thug 1"] else found["Willow"]
        await bot.gm(lambda cur: Attack(actor=turn, target=foe, attack="Sword"), "attack")
        live = await bot.encounters.live(CHANNEL)
        states[live.version] = live.state_json
        if live.row.pending_version is not None:
            await bot.combat.decide(live.id, live.row.pending_version, GM, "none")

    async def remove_wolf() -> Any:
        wolf = (await ids())["Wolf"]
        return await bot.gm(lambda cur: RemoveCombatant(combatant=wolf), "remove")

    steps: list[Callable[[], Awaitable[Any]]] = [
        lambda: _talk(bot),
        attack,
        lambda: bot.mod.set_vitals(CHANNEL, GM, "Willow", {"health": "-1"}),
        lambda: bot.mod.add_one_off(CHANNEL, GM, "Wolf", {}),
        remove_wolf,
        lambda: bot.mod.set_paused(CHANNEL, GM, True),
        lambda: bot.mod.set_paused(CHANNEL, GM, False),
        lambda: bot.mod.undo(CHANNEL, GM),
        lambda: bot.mod.redo(CHANNEL, GM),
        lambda: bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn"),
    ]
    for step in steps:
        await step()
        live = await bot.encounters.live(CHANNEL)
        states[live.version] = live.state_json


@pytest.mark.parametrize("snapshot_every", [1, 3, 50])
@pytest.mark.parametrize("nth", [1, 2])
async def test_commands_of_every_kind_between_an_erasures_plans_and_its_transactions(
    store: Store, monkeypatch: pytest.MonkeyPatch, nth: int, snapshot_every: int
) -> None:
    """Talk, an attack with its reaction, vitals, an NPC added and removed, pause and resume,
    undo, redo and an end of turn, from a restarted bot, right after the live fight's plan
    (before ``forget_member``) or after step 2 (before step 3's transaction)."""
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=snapshot_every), states)

    async def then() -> None:
        await _everything(Bot(store, snapshot_every=snapshot_every), states)

    after_plan(monkeypatch, nth, then)
    await Bot(store, snapshot_every=snapshot_every).erase(OTHER)

    live = await Bot(store).encounters.live(CHANNEL)
    assert await afresh(store, True) == live.state_json
    await _scrubbed_throughout(store, states)


async def _check_archived(store: Store, encounter_id: int, states: dict[int, str]) -> None:
    """Every version of an archived encounter rebuilds as it was, scrubbed."""
    bot = Bot(store)
    archived = await bot.encounters.get(encounter_id)
    assert archived.row.status == "archived"
    async with store.read() as conn:
        for version, state_json in states.items():
            rebuilt = await bot.encounters.state_at(conn, archived, version)
            assert rebuilt.model_dump_json() == scrubbed(archived, state_json), version


@pytest.mark.parametrize("snapshot_every", [1, 50])
@pytest.mark.parametrize("nth", [1, 2])
async def test_the_fight_ending_between_an_erasures_plans_and_its_transactions(
    store: Store, monkeypatch: pytest.MonkeyPatch, nth: int, snapshot_every: int
) -> None:
    """The GM ends the fight right after its plan (step 2 then finds no live fight: step 3
    scrubs it as an archived one) or after step 2 (archived with the member already gone)."""
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=snapshot_every), states)
    encounter_id = (await Bot(store).encounters.live(CHANNEL)).id

    async def then() -> None:
        await Bot(store).encounters.end(encounter_id, GM)

    after_plan(monkeypatch, nth, then)
    await Bot(store, snapshot_every=snapshot_every).erase(OTHER)

    await _check_archived(store, encounter_id, states)
    assert await _traces(store) == []


async def _traces_of(store: Store, user_id: int) -> list[str]:
    """Every table and column holding ``user_id``'s digits."""
    async with store.read() as conn:
        if isinstance(store, Database):
            query = "SELECT name AS t FROM sqlite_master WHERE type = 'table'"
        else:
            query = (
                "SELECT table_name AS t FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            )
        found = []
        for table in [r["t"] for r in await conn.fetch_all(query)]:
            for row in await conn.fetch_all(f"SELECT * FROM {table}"):
                found += [f"{table}.{k}" for k, v in dict(row).items() if str(user_id) in str(v)]
    return found


def _scrubbed_of(encounter: Encounter, state_json: str, *user_ids: int) -> str:
    """``state_json`` as erasing each of ``user_ids`` in turn leaves it."""
    for user_id in user_ids:
        state_json = encounter.rules.load_state(scrub_json(state_json, user_id)).model_dump_json()
    return state_json


@pytest.mark.parametrize("snapshot_every", [1, 50])
async def test_two_erasures_at_once_each_in_the_others_gaps(
    store: Store, monkeypatch: pytest.MonkeyPatch, snapshot_every: int
) -> None:
    """``OTHER`` and ``PLAYER`` (both playing, both named) are erased at once, and ``OTHER``
    twice (two prompts confirmed together); the plans give the loop a turn every version, so
    each erasure's steps run between the others' plans and transactions."""
    monkeypatch.setattr(member_sources, "PLAN_SLICE", 1)
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=snapshot_every), states)
    bots = [Bot(store, snapshot_every=snapshot_every) for _ in range(3)]
    whom = [OTHER, PLAYER, OTHER]
    prompts = [
        await bot.members.open_delete(GUILD, CHANNEL, who, who.user_id)
        for bot, who in zip(bots, whom, strict=True)
    ]

    await asyncio.gather(
        *(
            bot.members.confirm_delete(GUILD, who, prompt.prompt_id)
            for bot, who, prompt in zip(bots, whom, prompts, strict=True)
        )
    )

    live = await Bot(store).encounters.live(CHANNEL)
    assert await afresh(store, True) == live.state_json
    async with store.read() as conn:
        for version, state_json in states.items():
            rebuilt = await Bot(store).encounters.state_at(conn, live, version)
            expected = _scrubbed_of(live, state_json, OTHER.user_id, PLAYER.user_id)
            assert rebuilt.model_dump_json() == expected, version
    assert await _traces_of(store, OTHER.user_id) == []
    assert await _traces_of(store, PLAYER.user_id) == []


@pytest.mark.parametrize("ended", [False, True])
async def test_an_erasure_cancelled_while_planning_finishes_when_run_again(
    store: Store, monkeypatch: pytest.MonkeyPatch, ended: bool
) -> None:
    """The erasure's task is cancelled in the middle of its first plan: the live fight's,
    before step 2, or the archived fight's, before step 3. Nothing of that step is written,
    and the delete command run again finishes the job."""
    monkeypatch.setattr(member_sources, "PLAN_SLICE", 1)
    states: dict[int, str] = {}
    await _play(Bot(store), states)
    encounter_id = (await Bot(store).encounters.live(CHANNEL)).id
    if ended:
        await Bot(store).encounters.end(encounter_id, GM)
    step = member_sources._step
    steps = 0
    midway = asyncio.Event()

    def counted(*args: Any) -> Any:
        nonlocal steps
        steps += 1
        if steps == 5:
            midway.set()
        return step(*args)

    monkeypatch.setattr(member_sources, "_step", counted)
    task = asyncio.create_task(Bot(store).erase(OTHER))
    await midway.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()
    assert str(OTHER.user_id) in (await Bot(store).encounters.get(encounter_id)).state_json

    await Bot(store).erase(OTHER)

    assert await _traces(store) == []
    if ended:
        await _check_archived(store, encounter_id, states)
        return
    live = await Bot(store).encounters.live(CHANNEL)
    assert await afresh(store, True) == live.state_json
    await _check_every_version(Bot(store), states)
    await walk_undo_redo(store, states)
    assert await _traces(store) == []


async def _side_fight(bot: Bot, guild_id: int, channel: int, *, end: bool) -> int:
    """A short fight in ``channel`` of ``guild_id`` where ``OTHER`` plays Rook, talks naming
    themselves and has an NPC named after them; ended when ``end``. Returns its id."""
    await bot.encounters.start(
        guild_id=guild_id, channel_id=channel, actor=GM, ruleset="uttas", name="S"
    )
    await bot.encounters.join(channel, OTHER, name="Rook", sheet=sheet(f"Rook{channel}"))
    await bot.encounters.join(channel, PLAYER, name="Willow", sheet=sheet(f"Willow{channel}"))
    await bot.mod.add_one_off(channel, GM, f"<@{OTHER.user_id}>'s owl", {})
    await bot.gm(lambda cur: Begin(), "begin", channel)
    live = await bot.encounters.live(channel)
    rook = next(c.id for c in live.state.combatants if c.name == "Rook")
    await bot.gm(lambda cur: Talk(actor=rook, text=_words(5)), "talk", channel)
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn", channel)
    if end:
        await bot.encounters.end(live.id, GM)
    return live.id


async def _log_of(store: Store, encounter_id: int) -> list[dict[str, Any]]:
    async with store.read() as conn:
        rows = await conn.fetch_all(
            "SELECT * FROM encounter_log WHERE encounter_id = ? ORDER BY version", (encounter_id,)
        )
    return [dict(r) for r in rows]


async def test_a_member_in_many_fights_of_two_servers_is_erased_in_one_server_at_a_time(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``OTHER`` plays in an archived fight, two live ones and a fight of another server: the
    erasure in the first server (its plans giving the loop a turn every version, a command in
    every live fight between its steps) leaves the other server's fight as it was; erased
    there too, no table keeps the id."""
    monkeypatch.setattr(member_sources, "PLAN_SLICE", 1)
    bot = Bot(store, snapshot_every=3)
    archived = await _side_fight(bot, GUILD, CHANNEL + 1, end=True)
    states: dict[int, str] = {}
    await _play(bot, states)
    second = await _side_fight(bot, GUILD, CHANNEL + 2, end=False)
    elsewhere = await _side_fight(bot, GUILD + 1, CHANNEL + 3, end=False)
    kept = await _log_of(store, elsewhere)

    async def then() -> None:
        other = Bot(store, snapshot_every=3)
        for channel in (CHANNEL, CHANNEL + 2, CHANNEL + 3):
            await other.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn", channel)

    after_plan(monkeypatch, 2, then)
    await Bot(store).erase(OTHER)

    other_server = await Bot(store).encounters.get(elsewhere)
    assert str(OTHER.user_id) in other_server.state_json
    assert (await _log_of(store, elsewhere))[: len(kept)] == kept
    for encounter_id in (archived, second):
        assert str(OTHER.user_id) not in (await Bot(store).encounters.get(encounter_id)).state_json
    await _check_every_version(Bot(store), states)
    assert set(await _traces(store)) <= {
        "encounters.state",
        "encounter_log.actor_id",
        "encounter_log.options",
        "encounter_log.result",
        "encounter_log.state",
        "sheets.owner_id",
    }

    monkeypatch.undo()
    preview = await Bot(store).members.open_delete(GUILD + 1, CHANNEL + 3, OTHER, OTHER.user_id)
    await Bot(store).members.confirm_delete(GUILD + 1, OTHER, preview.prompt_id)
    assert await _traces(store) == []
    live = await Bot(store).encounters.live(CHANNEL)
    assert await afresh(store, True) == live.state_json
    await walk_undo_redo(store, states)
    assert await _traces(store) == []


async def test_a_plan_filed_under_another_encounter_is_not_taken_for_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same fight played twice in one channel (the first archived; the same seeds and
    clock, so logs alike): every plan is filed under the other encounter's id. A plan is
    taken only for a log that reads as the one it walked, so both still rebuild every version
    scrubbed."""
    first: dict[int, str] = {}
    await _play(Bot(store), first)
    archived = (await Bot(store).encounters.live(CHANNEL)).id
    await Bot(store).encounters.end(archived, GM)
    second: dict[int, str] = {}
    await _play(Bot(store), second)
    live = (await Bot(store).encounters.live(CHANNEL)).id
    swap = {archived: live, live: archived}
    plan = member_sources.plan_scrub
    swapped: list[int] = []

    async def misfiled(db: Store, encounter_id: int, e: Erasure) -> None:
        await plan(db, encounter_id, e)
        if encounter_id in e.plans:
            e.plans[swap[encounter_id]] = e.plans.pop(encounter_id)
            swapped.append(encounter_id)

    monkeypatch.setattr(member_data, "plan_scrub", misfiled)
    await Bot(store).erase(OTHER)

    assert set(swapped) == set(swap)
    await _check_archived(store, archived, first)
    await _check_every_version(Bot(store), second)
    assert await _traces(store) == []
    await walk_undo_redo(store, second)


@pytest.mark.parametrize("after", [False, True])
@pytest.mark.parametrize("damage", ["a row lost", "the first snapshot lost", "newer rules"])
async def test_a_log_damaged_before_or_after_its_plan_is_still_erased(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    damage: str,
    after: bool,
) -> None:
    """An archived fight's log is damaged before the erasure (nothing planned: the replays
    cannot read it) or planned readable and damaged before step 3's transaction: a row after
    the member's first mention lost, the snapshot every replay starts from lost, or rules a
    newer bot froze. No plan is taken (the log no longer reads as walked), the rows from the
    damage on are scrubbed without snapshots, and no table keeps the id."""
    states: dict[int, str] = {}
    await _play(Bot(store), states)
    encounter_id = (await Bot(store).encounters.live(CHANNEL)).id
    await Bot(store).encounters.end(encounter_id, GM)

    async def then() -> None:
        async with store.transaction() as conn:
            if damage == "newer rules":
                row = await conn.fetch_one(
                    "SELECT rules FROM encounters WHERE id = ?", (encounter_id,)
                )
                assert row is not None
                newer = json.dumps(json.loads(row["rules"]) | {"version": 99})
                await conn.execute(
                    "UPDATE encounters SET rules = ? WHERE id = ?", (newer, encounter_id)
                )
            else:
                version = 1 if damage == "the first snapshot lost" else 12
                await conn.execute(
                    "DELETE FROM encounter_log WHERE encounter_id = ? AND version = ?",
                    (encounter_id, version),
                )

    if after:
        after_plan(monkeypatch, 1, then)
    else:
        await then()
    with caplog.at_level(logging.WARNING, logger=member_sources.__name__):
        await Bot(store).erase(OTHER)

    assert "could not all be rebuilt" in caplog.text
    assert await _traces(store) == []


def _digest(*parts: str | None) -> bytes:
    digest = hashlib.sha256()
    member_sources._fold(digest, *parts)
    return digest.digest()


@pytest.mark.parametrize(
    ("one", "two"),
    [
        ((None,), ("",)),
        (("",), ("0:",)),
        (("ab", ""), ("a", "b")),
        (("1:a", None), ("1", "a")),
        (("é", "x"), ("éx", "")),
        ((None, "a"), ("a", None)),
        (("\x00", ""), (None, "")),
    ],
)
def test_the_plans_digest_tells_field_boundaries_and_none_from_text(
    one: tuple[str | None, ...], two: tuple[str | None, ...]
) -> None:
    """What a plan folds of an entry (version, result, snapshot, scrubbed result) can shift
    text between fields or be None or empty: each gives another digest."""
    assert _digest(*one) != _digest(*two)


@given(
    st.lists(st.one_of(st.none(), st.text()), min_size=1, max_size=6),
    st.lists(st.one_of(st.none(), st.text()), min_size=1, max_size=6),
)
def test_the_plans_digest_folds_different_fields_to_different_digests(
    one: list[str | None], two: list[str | None]
) -> None:
    """The same number of fields (a plan folds four per entry): equal digests only for equal
    fields."""
    if len(one) == len(two) and one != two:
        assert _digest(*one) != _digest(*two)


@pytest.mark.parametrize("turns", [1, 3])
async def test_a_stored_state_behind_naming_the_member_is_rewritten(
    store: Store, turns: int
) -> None:
    """A readied plan naming the member is in the snapshot the live row was last stored with
    (every 5 versions); it is used up a turn later, with no snapshot since, so the current state
    no longer names the member but the stored one (behind, ``state_version``) does. Step 2 went
    by the current state only and left the id in ``encounters.state``."""
    bot = Bot(store, snapshot_every=5)
    willow, thug = await bot.fight()
    states: dict[int, str] = {}

    def ready(cur: Encounter) -> Ready:
        watch = thug if cur.state.turn != thug else willow
        return Ready(actor=cur.state.turn, trigger="movement", watch=watch, plan=_words(4))

    await bot.gm(ready, "ready")
    for _ in range(turns):
        await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    live = await bot.encounters.live(CHANNEL)
    async with store.read() as conn:
        row = await conn.fetch_one("SELECT state, state_version FROM encounters")
        for version in range(1, live.version + 1):
            states[version] = (await bot.encounters.state_at(conn, live, version)).model_dump_json()
    assert row is not None and row["state_version"] is not None
    assert str(OTHER.user_id) in row["state"] and str(OTHER.user_id) not in live.state_json

    await Bot(store, snapshot_every=5).erase(OTHER)

    assert await _traces(store) == []
    live = await Bot(store).encounters.live(CHANNEL)
    assert await afresh(store, True) == live.state_json
    await _check_every_version(Bot(store), states)


async def test_a_fight_naming_the_member_again_in_every_round_does_not_hold_the_erasure_up(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The GM names another NPC after the member after every plan: step 2 runs again
    :data:`~bot.services.member_data.ERASE_ROUNDS` times at most, then the rest is erased
    anyway and the fight logged (its last NPC keeps the name; the delete command run again
    releases it)."""
    states: dict[int, str] = {}
    await _play(Bot(store), states)
    named = 0

    async def cat() -> None:
        nonlocal named
        named += 1
        await Bot(store).mod.add_one_off(CHANNEL, GM, f"<@{OTHER.user_id}>'s cat {named}", {})

    after_plan(monkeypatch, None, cat)
    with caplog.at_level(logging.WARNING, logger=member_data.__name__):
        await Bot(store).erase(OTHER)

    assert "named member" in caplog.text
    assert named == 2 * member_data.ERASE_ROUNDS  # the live fight's plan and step 3's, per round
    monkeypatch.undo()
    await Bot(store).erase(OTHER)
    assert await _traces(store) == []
    await _check_every_version(Bot(store), states)


async def test_another_process_naming_the_member_between_the_steps_is_caught_too(
    store_twice: list[Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one database (a SQLite file; PostgreSQL): while one erases the member,
    the other lets them join the fight again and names an NPC after them between step 2 and
    step 3's transaction. Step 3's check runs under the writer lock both stores take."""
    first, second = store_twice
    states: dict[int, str] = {}
    await _play(Bot(first, check=False), states)

    async def then() -> None:
        other = Bot(second, check=False)
        for step in (_join, _named_npc):
            await step(other)
            live = await other.encounters.live(CHANNEL)
            states[live.version] = live.state_json

    after_plan(monkeypatch, 2, then)
    await Bot(first, check=False).erase(OTHER)

    for store in store_twice:
        live = await Bot(store).encounters.live(CHANNEL)
        assert str(OTHER.user_id) not in live.state_json
        await _check_every_version(Bot(store), states)
    assert await _traces(first) == []
