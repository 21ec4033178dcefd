"""A member's erasure works out its log replays before its write transactions (issue 15:
``plan_scrub``): inside them the log is only read again, checked to start as it was read, and
what came since replayed — and a log changed meanwhile is walked again, so every version still
rebuilds as it was, scrubbed."""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import Talk
from bot.errors import Conflict
from bot.services import member_data, member_sources
from bot.services.member_sources import Erasure
from bot.store import encounter_log as log_repo
from bot.store import member_data as member_data_repo
from bot.store.base import Store
from bot.store.db import Database
from tests.services.test_erasure_attacks import _check_every_version, _play, _traces, _words
from tests.services.test_snapstate_attacks import CHANNEL, GM, GUILD, NOW, OTHER, Bot

_inside: contextvars.ContextVar[bool] = contextvars.ContextVar("inside", default=False)


class Steps:
    """Counts :func:`member_sources._step` calls inside the write transactions' scrub
    (``inside``) and outside it (``planned``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.inside = self.planned = 0
        step, scrub = member_sources._step, member_sources.scrub_encounter_log

        def counted(*args: Any) -> Any:
            if _inside.get():
                self.inside += 1
            else:
                self.planned += 1
            return step(*args)

        async def scrubbing(*args: Any) -> int:
            token = _inside.set(True)
            try:
                return await scrub(*args)
            finally:
                _inside.reset(token)

        monkeypatch.setattr(member_sources, "_step", counted)
        monkeypatch.setattr(member_sources, "scrub_encounter_log", scrubbing)
        monkeypatch.setattr(member_data, "scrub_encounter_log", scrubbing)


def after_plan(
    monkeypatch: pytest.MonkeyPatch, nth: int | None, then: Callable[[], Awaitable[Any]]
) -> None:
    """Run ``then`` right after the erasure's ``nth`` plan (None: after every plan). With one
    live fight naming the member: 1, between its plan and step 2's transaction
    (``forget_member``); 2, between step 2 and step 3's transaction (every source's erase)."""
    plan = member_sources.plan_scrub
    calls = 0

    async def planned(db: Store, encounter_id: int, e: Erasure) -> None:
        nonlocal calls
        await plan(db, encounter_id, e)
        calls += 1
        if nth is None or calls == nth:
            await then()

    monkeypatch.setattr(member_data, "plan_scrub", planned)


@pytest.mark.parametrize("ended", [False, True])
async def test_the_write_transaction_replays_nothing_the_plan_walked(
    store: Store, monkeypatch: pytest.MonkeyPatch, ended: bool
) -> None:
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=50), states)
    if ended:  # archived: its log is scrubbed by step 3's transaction
        bot = Bot(store)
        await bot.encounters.end((await bot.encounters.live(CHANNEL)).id, GM)
    steps = Steps(monkeypatch)

    await Bot(store, snapshot_every=50).erase(OTHER)

    # Only the erasure's own version (a snapshot) is walked in the transaction: live, its
    # ``forget_member``; archived, the version that removes the member from its combatants.
    assert steps.inside == 1
    assert steps.planned >= len(states)
    if not ended:
        await _check_every_version(Bot(store), states)
    assert await _traces(store) == []


async def test_commands_between_the_plan_and_the_transaction_are_replayed_there(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    states: dict[int, str] = {}
    await _play(Bot(db, snapshot_every=50), states)
    bot = Bot(db, snapshot_every=50)

    async def more() -> None:  # two more versions, one naming the member
        for make, label in (
            (lambda cur: Talk(actor=cur.state.turn, text=_words(20)), "talk"),
            (lambda cur: EndTurn(actor=cur.state.turn), "endturn"),
        ):
            await bot.gm(make, label)
            live = await bot.encounters.live(CHANNEL)
            states[live.version] = live.state_json

    after_plan(monkeypatch, 1, more)
    steps = Steps(monkeypatch)

    await bot.erase(OTHER)

    assert steps.inside == 3  # the two commands and the erasure's version
    await _check_every_version(Bot(db), states)
    assert await _traces(db) == []


async def test_a_log_changed_after_the_plan_is_walked_again_in_the_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    states: dict[int, str] = {}
    await _play(Bot(store, snapshot_every=50), states)
    encounter_id = (await Bot(store).encounters.live(CHANNEL)).id

    async def rewrite() -> None:
        # The first logged row's result, written again in other JSON (the same replay): the
        # log no longer starts as the plan read it.
        async with store.transaction() as conn:
            entry = await log_repo.log_entry(conn, encounter_id, 2)
            assert entry is not None
            await conn.execute(
                "UPDATE encounter_log SET result = ? WHERE encounter_id = ? AND version = ?",
                (json.dumps(json.loads(entry.result), indent=1), encounter_id, 2),
            )

    after_plan(monkeypatch, 1, rewrite)
    steps = Steps(monkeypatch)

    await Bot(store).erase(OTHER)

    assert steps.inside >= len(states)  # the whole walk again
    await _check_every_version(Bot(store), states)
    assert await _traces(store) == []


async def test_planning_gives_the_event_loop_turns(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    states: dict[int, str] = {}
    await _play(Bot(db, snapshot_every=50), states)
    encounter_id = (await Bot(db).encounters.live(CHANNEL)).id
    monkeypatch.setattr(member_sources, "PLAN_SLICE", 2)
    turns = 0
    planning = True

    async def ticker() -> None:
        nonlocal turns
        while planning:
            turns += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    erasure = Erasure(guild_id=GUILD, user_id=OTHER.user_id, actor_id=0, now=NOW)
    await member_sources.plan_scrub(db, encounter_id, erasure)
    planning = False
    await task

    plan = erasure.plans[encounter_id]
    assert turns >= plan.walked // 2 - 1


async def test_a_rewrite_naming_a_missing_log_entry_rewrites_nothing(store: Store) -> None:
    states: dict[int, str] = {}
    await _play(Bot(store), states)
    live = await Bot(store).encounters.live(CHANNEL)
    async with store.read() as conn:
        before = await log_repo.log_entry(conn, live.id, 2)
    rewrites = [
        member_data_repo.LogRewrite(2, 0, "{}", "{}", None),
        member_data_repo.LogRewrite(live.version + 5, 0, "{}", "{}", None),  # no such entry
    ]

    with pytest.raises(Conflict, match="log changed"):
        async with store.transaction() as conn:
            await member_data_repo.rewrite_log(conn, live.id, rewrites)

    async with store.read() as conn:
        assert await log_repo.log_entry(conn, live.id, 2) == before
