"""``/rehearse``'s service (issue 18): one rehearsal per server at a time (the next ones
queued, in order, up to ``QUEUE_MAX``; one more refused), the chunks run on the executor given,
and the stored encounter is only read."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.engine import RandomRoller
from bot.engine.core.commands import Begin
from bot.engine.uttas.commands import AddCombatant
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.services import rehearsal as module
from bot.services.actor import Actor
from bot.services.encounters import Encounter, EncounterService
from bot.services.rehearsal import RehearsalFailed, RehearsalService
from bot.store.db import Database
from tests.engine.helpers import sheet

GM = Actor(user_id=1)
PLAYER = Actor(user_id=2)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def running_fight(service: EncounterService, channel: int = 10) -> Encounter:
    await service.start(guild_id=1, channel_id=channel, actor=GM, ruleset="uttas", name="Ambush")

    def setup(current: Encounter) -> tuple[Any, dict[str, Any]]:
        rules, state, dice = current.rules, current.state, RandomRoller(seed=1)
        for name, npc in (("Ann", False), ("Thug", True)):
            add = AddCombatant(name=name, sheet=sheet(name), is_npc=npc)
            state = rules.apply(state, add, dice, NOW).state
        return rules.apply(state, Begin(), dice, NOW).state, {}

    encounter, _ = await service.change(channel, GM, "setup", {}, setup)
    return encounter


async def test_one_rehearsal_per_server_the_next_queued_in_order_and_a_full_queue_refused(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    encounters = EncounterService(db, seeds=lambda: 42)
    await running_fight(encounters, 10)
    await running_fight(encounters, 11)
    gate = threading.Event()
    real = module.play_in_worker

    played: list[int] = []  # the seeds, in the order their rehearsals ran

    def held(*args: Any) -> Any:
        played.append(args[4])
        assert gate.wait(10)
        return real(*args)

    pool = ThreadPoolExecutor(2)
    service = RehearsalService(encounters, executor=lambda: pool)
    monkeypatch.setattr(module, "play_in_worker", held)
    try:
        assert service.ahead(1) == 0
        first = await service.prepare(10, 1, GM, fights=20, policy=None, seed=3)
        assert first.ahead == 0 and service.ahead(1) == 1  # checking it took its place
        # The next ones are asked before the first runs (its reply still on its way): each
        # counts those asked before it, and the queue's bound holds.
        jobs = []
        for n in range(module.QUEUE_MAX):
            job = await service.prepare(11, 1, GM, fights=20, policy=None, seed=10 + n)
            assert job.ahead == 1 + n and service.ahead(1) == 2 + n
            jobs.append(job)
        with pytest.raises(Conflict, match=f"{module.QUEUE_MAX} rehearsals already wait"):
            await service.prepare(11, 1, GM, fights=20, policy=None, seed=3)
        # They run in the order asked, whatever order their runs were started in.
        queued = [asyncio.create_task(service.run(job)) for job in reversed(jobs)][::-1]
        running = asyncio.create_task(service.run(first))
        await asyncio.sleep(0)
        other_server = await service.prepare(11, 2, GM, fights=20, policy=None, seed=3)
        assert other_server.guild_id == 2 and other_server.ahead == 0
        service.leave(other_server)  # it will not run: its place is given back
        service.leave(other_server)
        assert service.ahead(2) == 0
        gate.set()
        found = await running
        later = [await task for task in queued]
    finally:
        pool.shutdown()
    assert found.fights == 20 and found.seed == 3 and found.policy == "simple"
    assert [r.seed for r in later] == [10, 11, 12]  # each whole
    assert played == [3, 10, 11, 12]  # in the order asked
    assert all(r.fights == 20 for r in later)
    assert service.ahead(1) == 0
    again = await service.prepare(11, 1, GM, fights=20, policy=None, seed=3)  # free again
    assert again.seed == 3


async def test_refusals_and_the_stored_encounter_untouched(db: Database) -> None:
    encounters = EncounterService(db, seeds=lambda: 42)
    before = await running_fight(encounters)
    log_before = await encounters.log(before.id)
    pool: Executor = ThreadPoolExecutor(1)
    service = RehearsalService(encounters, executor=lambda: pool, seeds=lambda: 99)
    try:
        with pytest.raises(NotAllowed, match="Only the GM can rehearse the fight"):
            await service.prepare(10, 1, PLAYER, fights=10, policy=None, seed=None)
        with pytest.raises(InvalidInput, match="between 1 and 10,000"):
            await service.prepare(10, 1, GM, fights=0, policy=None, seed=None)
        job = await service.prepare(10, 1, GM, fights=120, policy="reckless", seed=None)
        found = await service.run(job)
    finally:
        pool.shutdown()
    assert found.seed == 99 and found.policy == "reckless" and found.fights == 120
    after = await encounters.live(10)
    assert after.version == before.version
    assert after.state.model_dump_json() == before.state.model_dump_json()
    assert len(await encounters.log(before.id)) == len(log_before)


class Broken(Executor):
    """Workers that died: every submit fails as a broken process pool does."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        raise BrokenProcessPool("a worker was killed")


async def test_workers_that_stopped_give_a_clear_error_and_fresh_ones_next_time(
    db: Database,
) -> None:
    encounters = EncounterService(db, seeds=lambda: 42)
    await running_fight(encounters)
    pool = ThreadPoolExecutor(1)
    made = iter([Broken(), pool])
    service = RehearsalService(encounters, executor=lambda: next(made))
    try:
        job = await service.prepare(10, 1, GM, fights=10, policy=None, seed=1)
        with pytest.raises(RehearsalFailed, match="worker processes stopped"):
            await service.run(job)
        found = await service.run(await service.prepare(10, 1, GM, fights=10, policy=None, seed=1))
    finally:
        pool.shutdown()
    assert found.fights == 10


def test_a_queued_gm_is_told_behind_how_many_and_for_how_long() -> None:
    from bot.ui.rehearsal import queued_text

    assert queued_text(1, 60.0) == (
        "⏳ Queued behind one rehearsal on this server (one at a time): yours starts when it "
        "finishes, in at most 60 s; the result follows here."
    )
    assert "behind 3 rehearsals" in queued_text(3, 60.0) and "at most 180 s" in queued_text(3, 60)
