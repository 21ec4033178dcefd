"""Attacks on a member's erasure whose log replays are planned before its write transactions
(``plan_scrub``, issue 15): the plans read the log, replay it with no lock held and give the
event loop turns, so every channel goes on between an erasure's steps — commands of every kind,
another erasure, the fight ending, a restart. After each erasure every version rebuilds as it
was, scrubbed, undo and redo walk the whole log, and no table keeps the member's id."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.engine.uttas.commands import Talk
from bot.errors import Conflict
from bot.services import member_data, member_sources
from bot.services.actor import Actor
from bot.services.member_sources import Erasure
from bot.store.base import Store
from tests.services.test_erasure_attacks import (
    _check_every_version,
    _play,
    _traces,
    _words,
    scrubbed,
)
from tests.services.test_snapstate_attacks import CHANNEL, GM, GUILD, OTHER, Bot, afresh
from tests.services.test_undo import sheet

Step = Callable[[Bot], Awaitable[Any]]


def after_plan(
    monkeypatch: pytest.MonkeyPatch, nth: int, then: Callable[[], Awaitable[Any]]
) -> None:
    """Run ``then`` once, right after the erasure's ``nth`` plan. With one live fight naming
    the member: 1, between its plan and step 2's transaction (``forget_member``); 2, between
    step 2 and step 3's transaction (every source's erase)."""
    plan = member_sources.plan_scrub
    calls = 0

    async def planned(db: Store, encounter_id: int, e: Erasure) -> None:
        nonlocal calls
        await plan(db, encounter_id, e)
        calls += 1
        if calls == nth:
            await then()

    monkeypatch.setattr(member_data, "plan_scrub", planned)


async def _walk_undo_redo(store: Store, states: dict[int, str]) -> None:
    """Undo to the log's start and redo back, a restart before each: every state as it was,
    scrubbed, and the same after a restart."""
    undone = 0
    while True:
        bot = Bot(store)
        try:
            _result, entry = await bot.mod.undo(CHANNEL, GM)
        except Conflict:
            break
        undone += 1
        live = await bot.encounters.live(CHANNEL)
        if entry.version - 1 in states:
            assert live.state_json == scrubbed(live, states[entry.version - 1]), entry.version
        assert await afresh(store, True) == live.state_json
    assert undone >= 8
    for _ in range(undone):
        bot = Bot(store)
        _result, entry = await bot.mod.redo(CHANNEL, GM)
        live = await bot.encounters.live(CHANNEL)
        if entry.version in states:
            assert live.state_json == scrubbed(live, states[entry.version]), entry.version
        assert await afresh(store, True) == live.state_json


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
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []
    await _walk_undo_redo(store, states)
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []


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
