"""Per-channel write locks across processes (issue 16, "Correct across processes"): on
PostgreSQL an ordinary encounter change takes its channel's lock (and the writer lock shared),
so two "processes" — two services, each with its own :class:`PgDatabase` on one database —
change different channels at the same time, while two changes of one channel still queue and
are put in order by the version check, and a change that checks across channels (a character
joining a fight) still runs alone. The same tests run on SQLite where they can (its one writer
runs everything alone: the parallel one is PostgreSQL's only)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import SetVitals
from bot.errors import Conflict, DomainError
from bot.services.combat import CombatService
from bot.services.encounters import Encounter, EncounterService
from bot.store.base import Store
from bot.store.pg import PgConnection, PgDatabase, channel_lock_sql
from tests.services.test_undo import GM, NOW, PLAYER, sheet

ONE, TWO = 10, 20  # two channels of one server
WAIT_S = 10.0  # how long a change that should not be held up may take (a loaded machine)
HELD_S = 1.0  # how long a change that should be held up is watched not finishing


class Holding(PgDatabase):
    """A :class:`PgDatabase` whose next transaction, once its locks are taken, stops until the
    test lets it go (``held`` is set while it waits): a commit caught holding its locks."""

    def __init__(self, pool: Any) -> None:
        super().__init__(pool)
        self.hold_next = False
        self.held = asyncio.Event()
        self.release = asyncio.Event()
        self.channels: list[int | None] = []  # what each transaction was opened for

    @asynccontextmanager
    async def transaction(self, *, channel: int | None = None) -> AsyncIterator[PgConnection]:
        self.channels.append(channel)
        async with super().transaction(channel=channel) as conn:
            if self.hold_next:
                self.hold_next = False
                self.held.set()
                await self.release.wait()
            yield conn


class Process:
    """One bot process's services on its own database object."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self.encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 7)  # type: ignore[arg-type]
        self.combat = CombatService(self.encounters, clock=lambda: NOW)

    async def live(self, channel: int) -> Encounter:
        return await self.encounters.live(channel)

    async def gm(self, channel: int, make: Any) -> Any:
        return await self.combat.gm_command(channel, GM, "gm", {}, make, action="do that")

    async def fight(self, channel: int) -> tuple[str, str]:
        """A running fight in ``channel``: Willow (the player's) and a Thug, Willow's turn."""
        await self.encounters.start(
            guild_id=1, channel_id=channel, actor=GM, ruleset="uttas", name="U"
        )
        await self.encounters.join(
            channel, PLAYER, name="Willow", sheet=sheet("Willow", agility=14)
        )
        await self.encounters.add_npcs(channel, GM, template="Thug", sheet=sheet("Thug"), count=1)
        state = (await self.live(channel)).state
        willow, thug = (c.id for c in state.combatants)
        await self.gm(channel, lambda cur: Begin())
        assert (await self.live(channel)).state.turn == willow
        return willow, thug


@pytest.fixture
async def pg_two(pg_url: str) -> AsyncIterator[tuple[Process, Process, Holding]]:
    """Two processes on one migrated PostgreSQL database; the first's can hold a commit."""
    first = await Holding.open(pg_url)
    second = await PgDatabase.open(pg_url)
    try:
        await first.migrate()
        await second.migrate()
        yield Process(first), Process(second), first
    finally:
        first.release.set()
        await first.close()
        await second.close()


@pytest.fixture
def two(store_twice: list[Store]) -> tuple[Process, Process]:
    """Two processes' services on one migrated database (SQLite file or PostgreSQL)."""
    return Process(store_twice[0]), Process(store_twice[1])


async def test_other_channels_change_commits_while_one_channel_holds_its_lock(
    pg_two: tuple[Process, Process, Holding],
) -> None:
    """Process A's change in channel ONE holds its transaction open (its locks taken, its write
    not committed); process B's change in channel TWO commits meanwhile — B is not held up by
    A's lock — and A's commits once let go. Both were channel-only transactions."""
    a, b, holding = pg_two
    _, thug_one = await a.fight(ONE)
    _, thug_two = await b.fight(TWO)
    one_before, two_before = (await a.live(ONE)).version, (await b.live(TWO)).version
    holding.channels.clear()
    holding.hold_next = True
    held = asyncio.create_task(a.gm(ONE, lambda cur: SetVitals(target=thug_one, health=7)))
    await asyncio.wait_for(holding.held.wait(), WAIT_S)
    await asyncio.wait_for(b.gm(TWO, lambda cur: SetVitals(target=thug_two, health=5)), WAIT_S)
    assert (await b.live(TWO)).version == two_before + 1
    assert (await b.live(TWO)).state.get(thug_two).health == 5
    assert not held.done()
    assert (await b.live(ONE)).version == one_before  # A's write is not committed yet
    holding.release.set()
    await asyncio.wait_for(held, WAIT_S)
    assert (await b.live(ONE)).state.get(thug_one).health == 7
    assert (await b.live(ONE)).version == one_before + 1
    assert holding.channels == [ONE]


async def test_a_second_change_of_the_same_channel_waits_and_builds_on_the_first(
    pg_two: tuple[Process, Process, Holding],
) -> None:
    """While A's change of channel ONE holds its lock, B's change of ONE does not commit; once
    A's commits, B's (computed from the version before) is refused by the version check,
    computed again and applied on top: both changes are kept, one after the other."""
    a, b, holding = pg_two
    willow, thug = await a.fight(ONE)
    before = await a.live(ONE)
    holding.hold_next = True
    held = asyncio.create_task(a.gm(ONE, lambda cur: SetVitals(target=thug, health=7)))
    await asyncio.wait_for(holding.held.wait(), WAIT_S)
    waiting = asyncio.create_task(b.gm(ONE, lambda cur: SetVitals(target=willow, health=3)))
    done, _ = await asyncio.wait({waiting}, timeout=HELD_S)
    assert not done  # queued on channel ONE's lock
    assert (await b.live(ONE)).version == before.version
    holding.release.set()
    await asyncio.wait_for(asyncio.gather(held, waiting), WAIT_S)
    after = await b.live(ONE)
    assert after.version == before.version + 2
    assert after.state.get(thug).health == 7
    assert after.state.get(willow).health == 3


async def test_of_two_processes_ending_the_same_turn_exactly_one_applies(
    two: tuple[Process, Process],
) -> None:
    """Willow's player ends her turn through both processes at once: one ends it, the other is
    refused (it is no longer her turn), and the fight moved on exactly one turn."""
    a, b = two
    willow, thug = await a.fight(ONE)
    before = await a.live(ONE)

    async def end(p: Process) -> Any:
        return await p.combat.act(
            ONE, PLAYER, None, "end", {}, lambda cur, me: EndTurn(actor=me.id)
        )

    results = await asyncio.gather(end(a), end(b), return_exceptions=True)
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1, results
    assert isinstance(refused[0], DomainError), refused
    after = await b.live(ONE)
    assert after.version == before.version + 1
    assert after.state.turn == thug != willow


async def test_a_character_joining_fights_in_two_channels_at_once_joins_exactly_one(
    two: tuple[Process, Process],
) -> None:
    """The check across channels still holds: the same campaign character joining a fight in
    channel ONE through process A and one in channel TWO through process B at the same time —
    exactly one join succeeds, the other is refused naming the first's channel."""
    a, b = two
    for p, channel in ((a, ONE), (b, TWO)):
        await p.encounters.start(
            guild_id=1, channel_id=channel, actor=GM, ruleset="uttas", name="U"
        )
    for character in (77, 78, 79):  # a few races, so the order they happen in varies
        name = f"Rook {character}"
        results = await asyncio.gather(
            a.encounters.join(ONE, PLAYER, name=name, sheet=sheet(name), character_id=character),
            b.encounters.join(TWO, PLAYER, name=name, sheet=sheet(name), character_id=character),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1, results
        assert isinstance(refused[0], Conflict) and "already fighting" in refused[0].message
        joined = [
            ch
            for ch in (ONE, TWO)
            if any(c.character_id == character for c in (await a.live(ch)).state.combatants)
        ]
        assert len(joined) == 1


async def test_a_change_moving_a_character_waits_for_channel_only_writes(
    pg_two: tuple[Process, Process, Holding],
) -> None:
    """A join (it reads and writes across channels) takes the writer lock exclusively: while A's
    channel-only change of ONE holds its locks, B's join in TWO does not commit; it does once A's
    commit ends."""
    a, b, holding = pg_two
    _, thug = await a.fight(ONE)
    await b.encounters.start(guild_id=1, channel_id=TWO, actor=GM, ruleset="uttas", name="U")
    holding.hold_next = True
    held = asyncio.create_task(a.gm(ONE, lambda cur: SetVitals(target=thug, health=7)))
    await asyncio.wait_for(holding.held.wait(), WAIT_S)
    join = asyncio.create_task(
        b.encounters.join(TWO, PLAYER, name="Rook", sheet=sheet("Rook"), character_id=77)
    )
    done, _ = await asyncio.wait({join}, timeout=HELD_S)
    assert not done  # the exclusive writer lock waits for A's shared hold
    holding.release.set()
    await asyncio.wait_for(asyncio.gather(held, join), WAIT_S)
    assert any(c.character_id == 77 for c in (await b.live(TWO)).state.combatants)


def test_channel_lock_keys_cover_every_snowflake() -> None:
    """The channel's lock is the two-key form from the id's two halves (signed 32-bit each)."""
    assert channel_lock_sql(10).endswith("pg_advisory_xact_lock(0, 10)")
    assert channel_lock_sql(2**63 - 1).endswith(f"pg_advisory_xact_lock({2**31 - 1}, -1)")
    assert channel_lock_sql(2**32 + 2**31).endswith(f"pg_advisory_xact_lock(1, {-(2**31)})")
    assert channel_lock_sql(1).startswith("SELECT pg_advisory_xact_lock_shared(")
    with pytest.raises(ValueError):
        channel_lock_sql(-1)
