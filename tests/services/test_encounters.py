"""The encounter service on a real SQLite file: lifecycle, permissions, concurrency."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.engine import REGISTRY
from bot.errors import (
    ConcurrentUpdate,
    Conflict,
    InvalidInput,
    NotAllowed,
    NotFound,
    RulesetNotImplemented,
)
from bot.services.actor import Actor
from bot.services.encounters import Encounter, EncounterService
from bot.store import encounters as repo
from bot.store.db import Database
from tests.store.test_single_trip import count_trips

GM = Actor(user_id=1)
PLAYER = Actor(user_id=2)
MODERATOR = Actor(user_id=3, manages_channel=True)


@pytest.fixture
def service(db: Database) -> EncounterService:
    return EncounterService(db, seeds=lambda: 42)


async def start(
    service: EncounterService, channel: int = 10, name: str | None = "Ambush"
) -> Encounter:
    return await service.start(guild_id=1, channel_id=channel, actor=GM, ruleset="uttas", name=name)


async def test_start_status_end_lifecycle(service: EncounterService) -> None:
    started = await start(service)
    assert started.row.name == "Ambush"
    assert started.row.ruleset == "uttas"
    assert started.row.gm_id == GM.user_id
    assert started.state.phase == "setup"
    assert started.version == 1

    live = await service.live(10)
    assert live.id == started.id

    with pytest.raises(NotAllowed, match="Only the GM"):
        await service.end(started.id, PLAYER)
    assert (await service.live(10)).version == 1

    ended = await service.end(started.id, GM)
    assert ended.row.status == "archived"
    assert ended.row.ended_at is not None
    with pytest.raises(NotFound, match="no encounter"):
        await service.live(10)
    with pytest.raises(Conflict, match="already ended"):
        await service.end(started.id, GM)
    # Archived, not deleted: still readable, with its log.
    kept = await service.get(started.id)
    assert kept.row.status == "archived"
    assert [entry.command for entry in await service.log(started.id)] == ["start", "end"]


async def test_moderator_may_end_anyones_encounter(service: EncounterService) -> None:
    started = await start(service)
    assert (await service.end(started.id, MODERATOR)).row.status == "archived"


async def test_refusals(service: EncounterService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(REGISTRY, "_planned", {"zeta": "Zeta"})  # every shipped system plays
    with pytest.raises(RulesetNotImplemented, match="Zeta combat is planned"):
        await service.start(guild_id=1, channel_id=10, actor=GM, ruleset="zeta", name=None)
    with pytest.raises(InvalidInput):
        await service.start(guild_id=1, channel_id=10, actor=GM, ruleset="dnd", name=None)
    with pytest.raises(InvalidInput, match="at most 100 characters"):
        await start(service, name="x" * 101)
    with pytest.raises(NotFound):
        await service.live(10)
    await start(service)
    with pytest.raises(Conflict, match="already running"):
        await start(service)


async def test_default_name_and_whitespace(service: EncounterService) -> None:
    assert (await start(service, channel=1, name=None)).row.name == "Encounter"
    assert (await start(service, channel=2, name="  Ford   fight ")).row.name == "Ford fight"


async def test_simultaneous_starts_create_exactly_one(service: EncounterService) -> None:
    results = await asyncio.gather(
        *(start(service, name=f"E{i}") for i in range(20)), return_exceptions=True
    )
    winners = [r for r in results if isinstance(r, Encounter)]
    losers = [r for r in results if isinstance(r, Exception)]
    assert len(winners) == 1
    assert len(losers) == 19
    assert all(isinstance(e, Conflict) for e in losers)


async def test_simultaneous_starts_from_two_services_on_one_file(
    db: Database, tmp_path: Path
) -> None:
    other_db = await Database.open(db.path)
    try:
        first, second = EncounterService(db), EncounterService(other_db)
        results = await asyncio.gather(
            first.start(guild_id=1, channel_id=5, actor=GM, ruleset="uttas", name="a"),
            second.start(guild_id=1, channel_id=5, actor=GM, ruleset="uttas", name="b"),
            return_exceptions=True,
        )
        assert sum(isinstance(r, Encounter) for r in results) == 1
    finally:
        await other_db.close()


async def test_concurrent_changes_never_lose_an_update(service: EncounterService) -> None:
    started = await start(service)

    def rename_round(current: Encounter) -> tuple:
        state = current.state.model_copy(update={"round": current.state.round + 1})
        return state, {"round": state.round}

    await asyncio.gather(*(service.change(10, GM, "bump", {}, rename_round) for _ in range(50)))
    live = await service.live(10)
    assert live.state.round == 50
    assert live.version == started.version + 50
    log = await service.log(started.id)
    assert [entry.version for entry in log] == list(range(1, 52))


async def test_stale_write_is_refused(db: Database, service: EncounterService) -> None:
    started = await start(service)
    text = started.state_json
    async with db.transaction() as conn:
        await repo.save(conn, started.row, now=started.row.updated_at, state_json=text)
    with pytest.raises(ConcurrentUpdate):
        async with db.transaction() as conn:
            await repo.save(conn, started.row, now=started.row.updated_at, state_json=text)
    assert (await service.live(10)).version == 2


async def test_a_change_computed_outside_the_lock_from_a_row_that_moved_on_is_computed_again(
    db: Database, service: EncounterService
) -> None:
    """Issue 15: the engine runs outside the writer lock on the row as committed; when another
    writer (here a second process, straight through sqlite3) moves the row on meanwhile, the
    version check inside the transaction sees it and the step runs again on the new row —
    nothing is lost and nothing is written from the stale one."""
    started = await start(service)
    seen: list[tuple[int, int]] = []

    def bump(current: Encounter) -> tuple:
        seen.append((current.version, current.state.round))
        if len(seen) == 1:  # the other writer commits between this read and our transaction
            state = current.state.model_copy(update={"round": 7})
            with sqlite3.connect(db.path) as other:
                other.execute(
                    "UPDATE encounters SET state = ?, version = version + 1 WHERE id = ?",
                    (state.model_dump_json(), current.id),
                )
        return current.state.model_copy(update={"round": current.state.round + 1}), {}

    await service.change(10, GM, "bump", {}, bump)
    assert seen == [(started.version, 0), (started.version + 1, 7)]
    live = await service.live(10)
    assert (live.version, live.state.round) == (started.version + 2, 8)
    assert [e.version for e in await service.log(started.id)] == [1, 3]


async def test_a_change_makes_one_trip_to_the_database_thread(
    db: Database, service: EncounterService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, one trip per command: the group's BEGIN, the writer's SAVEPOINT, the versioned
    UPDATE, the log row, the redo history and the COMMIT go to the writer connection's thread
    together (a single-trip unit); the row is not read in the transaction."""
    started = await start(service)
    trips = count_trips(db, monkeypatch)

    def bump(current: Encounter) -> tuple:
        return current.state.model_copy(update={"round": current.state.round + 1}), {}

    await service.change(10, GM, "bump", {}, bump)
    assert len(trips) == 1, trips  # BEGIN IMMEDIATE, the change and COMMIT, in one trip
    monkeypatch.undo()
    live = await service.live(10)
    assert (live.version, live.state.round) == (started.version + 1, 1)
    assert [e.version for e in await service.log(started.id)] == [1, 2]


async def test_a_column_kept_without_a_version_that_moved_meanwhile_is_not_written_back(
    db: Database, service: EncounterService
) -> None:
    """The versioned UPDATE also checks what changes without a version (here the tracker
    message, noted by another connection between the read and the write): the step runs again
    on the row as it is now, at the same version, and the new tracker message is kept."""
    started = await start(service)
    seen: list[tuple[int, int | None]] = []

    def bump(current: Encounter) -> tuple:
        seen.append((current.version, current.row.tracker_message_id))
        if len(seen) == 1:
            with sqlite3.connect(db.path) as other:
                other.execute(
                    "UPDATE encounters SET tracker_message_id = 555 WHERE id = ?", (current.id,)
                )
        return current.state.model_copy(update={"round": current.state.round + 1}), {}

    await service.change(10, GM, "bump", {}, bump)
    assert seen == [(started.version, None), (started.version, 555)]
    live = await service.live(10)
    assert (live.version, live.row.tracker_message_id) == (started.version + 1, 555)
    assert [e.version for e in await service.log(started.id)] == [1, 2]


@pytest.mark.state_cache
async def test_the_next_change_uses_the_row_kept_in_memory_and_a_moved_row_is_read_again(
    db: Database, service: EncounterService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, live encounters in memory: after a change, the channel's next change starts
    from the row this process wrote (no read of the row); when the row moved meanwhile (here a
    second process notes a tracker message) the versioned UPDATE finds it, and the change is
    read again and computed on the row as it is, keeping what the other process wrote."""
    started = await start(service)
    reads = count_reads(monkeypatch)
    seen: list[tuple[int, int | None]] = []

    def bump(current: Encounter) -> tuple:
        seen.append((current.version, current.row.tracker_message_id))
        return current.state.model_copy(update={"round": current.state.round + 1}), {}

    await service.change(10, GM, "bump", {}, bump)
    assert reads == [10]
    await service.change(10, GM, "bump", {}, bump)
    assert reads == [10]  # kept in memory
    with sqlite3.connect(db.path) as other:
        other.execute("UPDATE encounters SET tracker_message_id = 777 WHERE id = ?", (started.id,))
    await service.change(10, GM, "bump", {}, bump)
    assert reads == [10, 10]  # the kept row was stale: read again
    v = started.version
    assert seen == [(v, None), (v + 1, None), (v + 2, None), (v + 2, 777)]
    live = await service.live(10)
    assert (live.version, live.state.round, live.row.tracker_message_id) == (v + 3, 3, 777)


async def test_failed_step_writes_nothing(service: EncounterService) -> None:
    started = await start(service)

    def refuse(current: Encounter) -> tuple:
        raise NotAllowed("no")

    with pytest.raises(NotAllowed):
        await service.change(10, PLAYER, "refused", {}, refuse)
    live = await service.live(10)
    assert live.version == started.version
    assert len(await service.log(started.id)) == 1


@pytest.mark.state_cache
async def test_parsed_states_are_bounded_and_let_go_when_idle(db: Database) -> None:
    """Issue 15: the live encounters' parsed states stay in memory while they are busy — a
    command reads no JSON it parsed before — and are let go after STATE_IDLE_S unused (a
    command then parses its row again) and beyond STATE_CACHE_SIZE."""
    from bot.services import encounters as module

    service = EncounterService(db, seeds=lambda: 42)
    clock = [1000.0]
    service._monotonic = lambda: clock[0]
    for channel in (10, 11):
        await start(service, channel)
    first = await service.live(10)
    await service.live(11)
    assert service.cached_encounters == 2
    assert (await service.live(10)).state is first.state  # the same parsed object, no re-parse
    clock[0] += module.STATE_IDLE_S - 1
    await service.live(11)  # used: stays; channel 10's is not idle yet either
    assert service.cached_encounters == 2
    clock[0] += 2  # channel 10's state idle for STATE_IDLE_S + 1 s
    again = await service.live(11)
    assert service.cached_encounters == 1
    fresh = await service.live(10)
    assert fresh.state is not first.state and fresh.state == first.state  # parsed anew
    assert again.version == 1


async def test_the_dice_of_a_change_are_those_of_its_seed_and_version(
    service: EncounterService,
) -> None:
    """The roller of a change rolls exactly what ``random.Random(f"{seed}:{version}")`` rolls
    (seeded fights and replays rely on it), though it seeds only once a die is rolled."""
    import random

    from bot.engine import RandomRoller

    started = await start(service)
    dice = service.roller(started)
    same = RandomRoller(random.Random(f"{started.state.seed}:{started.version}"))
    assert [dice.roll(3, 20), dice.roll(2, 6), dice.roll(1, 100)] == [
        same.roll(3, 20),
        same.roll(2, 6),
        same.roll(1, 100),
    ]
    with pytest.raises(InvalidInput):
        service.roller(started).roll(2, 1)


async def test_a_message_noted_by_this_process_drops_the_kept_row_so_nothing_is_computed_twice(
    service: EncounterService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Noting the tracker message (a write the versioned UPDATE checks, outside the change
    path) drops the channel's kept row: the next change reads the row once and runs its step
    once, instead of starting from the stale kept row, failing the check and running again."""
    started = await start(service)
    reads = count_reads(monkeypatch)
    runs: list[int | None] = []

    def bump(current: Encounter) -> tuple:
        runs.append(current.row.tracker_message_id)
        return current.state.model_copy(update={"round": current.state.round + 1}), {}

    await service.change(10, GM, "bump", {}, bump)
    await service.set_tracker_message(started.id, 4242)
    await service.change(10, GM, "bump", {}, bump)
    assert runs == [None, 4242] and reads == [10, 10]
    live = await service.live(10)
    assert (live.version, live.row.tracker_message_id) == (started.version + 2, 4242)


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the channel of every live row read (``repo.live_in_channel``), in order."""
    reads: list[int] = []
    read = repo.live_in_channel

    async def counted(conn, channel_id):  # type: ignore[no-untyped-def]
        reads.append(channel_id)
        return await read(conn, channel_id)

    monkeypatch.setattr(repo, "live_in_channel", counted)
    return reads
