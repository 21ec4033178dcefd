"""The expiry loop's claims (bot/store/expiry.py) on both stores: a due reaction decision or
turn deadline is claimed once, by one claimer, until its claim lapses; and on PostgreSQL two
claimers running at once — each in its own transaction, without the writer lock — take disjoint
rows, the second never waiting on the rows the first holds (``FOR UPDATE SKIP LOCKED``)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest

from bot.services.turn_deadlines import TurnDeadlines
from bot.store import expiry, turn_timers
from bot.store.base import Store
from bot.store.decisions import REACTION, Opening, set_deadline, sync
from bot.store.pg import PgConnection, PgDatabase
from tests.store.test_encounter_side_stores import NOW, add_encounter, state

LATER = NOW + timedelta(minutes=5)


async def due_turns(store: Store, count: int) -> list[int]:
    """``count`` encounters, each with a turn deadline 60 s after NOW; their timer ids."""
    ids = []
    async with store.transaction() as conn:
        for channel in range(count):
            enc = await add_encounter(conn, 100 + channel)
            await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
            timer = await turn_timers.open_timer(conn, enc)
            assert timer is not None
            ids.append(timer.id)
    return ids


async def test_a_due_turn_is_claimed_once_until_its_claim_lapses(store: Store) -> None:
    ids = await due_turns(store, 3)
    async with store.transaction() as conn:
        assert await expiry.claim_due_turns(conn, NOW + timedelta(seconds=59), "a") == []
        first = await expiry.claim_due_turns(conn, LATER, "a", limit=2)
        assert [c.id for c in first] == ids[:2] and [c.ref for c in first] == [1, 1]
    async with store.transaction() as conn:
        assert [c.id for c in await expiry.claim_due_turns(conn, LATER, "b")] == ids[2:]
        assert await expiry.claim_due_turns(conn, LATER, "c") == []
        assert await turn_timers.close(conn, ids[0], LATER)  # a expired it
    lapsed = LATER + expiry.LEASE + timedelta(seconds=1)  # a and b died holding the others
    async with store.transaction() as conn:
        assert [c.id for c in await expiry.claim_due_turns(conn, lapsed, "c")] == ids[1:]


async def test_reactions_opened_by_one_change_are_claimed_together(store: Store) -> None:
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        paused = await add_encounter(conn, 11, paused=1)
        await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
        soon = NOW + timedelta(seconds=30)
        await sync(conn, enc, [], [Opening(1, 3, soon), Opening(2, 3, soon)], NOW, REACTION)
        await sync(conn, paused, [], [Opening(1, 3, soon)], NOW, REACTION)
    async with store.transaction() as conn:
        assert await expiry.claim_due_turns(conn, LATER, "a") == []  # a reaction waits
        claimed = await expiry.claim_due_reactions(conn, LATER, "a")
        assert [(c.encounter_id, c.opened_version, c.ref) for c in claimed] == [
            (enc, 3, 1),
            (enc, 3, 2),
        ]
        assert await expiry.claim_due_reactions(conn, LATER, "b") == []


async def test_claimers_racing_through_transactions_take_each_row_once(store: Store) -> None:
    ids = await due_turns(store, 12)

    async def claimer(name: str) -> list[int]:
        taken: list[int] = []
        for _ in range(6):
            async with store.transaction() as conn:
                taken += [c.id for c in await expiry.claim_due_turns(conn, LATER, name, limit=1)]
        return taken

    results = await asyncio.gather(*(claimer(f"p{n}") for n in range(4)))
    everything = [row for taken in results for row in taken]
    assert sorted(everything) == ids  # every due row, none twice


async def test_two_postgres_claimers_at_once_skip_each_others_rows(pg_url: str) -> None:
    """Two processes' claims overlapping in time: the first holds its rows' locks (its
    transaction still open) while the second claims; the second gets the rest at once."""
    pg = await PgDatabase.open(pg_url)
    try:
        await pg.migrate()
        ids = await due_turns(pg, 5)
    finally:
        await pg.close()
    first, second = await asyncpg.connect(pg_url), await asyncpg.connect(pg_url)
    try:
        hold = first.transaction()
        await hold.start()
        a = await expiry.claim_due_turns(PgConnection(first), LATER, "a", limit=2)
        async with second.transaction():
            b = await asyncio.wait_for(
                expiry.claim_due_turns(PgConnection(second), LATER, "b"), timeout=5
            )
        await hold.commit()
        assert [c.id for c in a] == ids[:2]
        assert [c.id for c in b] == ids[2:]  # skipped a's locked rows, did not wait for them
        async with second.transaction():
            assert await expiry.claim_due_turns(PgConnection(second), LATER, "c") == []
        claims = await first.fetch("SELECT id, claim FROM decisions ORDER BY id")
        assert [row["claim"].split(" ")[1] for row in claims] == ["a", "a", "b", "b", "b"]
    finally:
        await first.close()
        await second.close()


async def test_without_skip_locked_the_second_claimer_would_wait(pg_url: str) -> None:
    """The control for the test above: a plain ``FOR UPDATE`` select of the same rows does
    wait on the first claimer's locks (so the test above shows SKIP LOCKED at work)."""
    pg = await PgDatabase.open(pg_url)
    try:
        await pg.migrate()
        await due_turns(pg, 2)
    finally:
        await pg.close()
    first, second = await asyncpg.connect(pg_url), await asyncpg.connect(pg_url)
    try:
        hold = first.transaction()
        await hold.start()
        await expiry.claim_due_turns(PgConnection(first), LATER, "a")
        async with second.transaction():
            await second.execute("SET LOCAL lock_timeout = '300ms'")
            with pytest.raises(asyncpg.LockNotAvailableError):
                await second.fetch("SELECT id FROM decisions FOR UPDATE")
        await hold.rollback()
    finally:
        await first.close()
        await second.close()


async def test_a_claimer_is_one_word(store: Store) -> None:
    async with store.transaction() as conn:
        for bad in ("", "two words"):
            with pytest.raises(ValueError, match="one word"):
                await expiry.claim_due_turns(conn, LATER, bad)


async def test_a_released_or_paused_claim_is_free_again(store: Store) -> None:
    ids = await due_turns(store, 2)
    async with store.transaction() as conn:
        assert [c.id for c in await expiry.claim_due_turns(conn, LATER, "a")] == ids
        assert await expiry.release(conn, ids[0], "a")
        assert not await expiry.release(conn, ids[1], "b")  # not b's claim
    async with store.transaction() as conn:
        assert [c.id for c in await expiry.claim_due_turns(conn, LATER, "b")] == ids[:1]
        first = await turn_timers.get(conn, ids[1])
        assert first is not None
        await turn_timers.pause(conn, first.encounter_id, LATER)
        await turn_timers.resume(conn, first.encounter_id, LATER, 60)
    async with store.transaction() as conn:  # resumed with its 0 s left: due, and unclaimed
        assert [c.id for c in await expiry.claim_due_turns(conn, LATER, "c")] == ids[1:]


async def test_two_processes_turn_deadline_passes_share_the_due_deadlines(store: Store) -> None:
    """The expiry loop's :meth:`TurnDeadlines.due` in two processes (two services, one
    database): each passed deadline is handed to one of them; a second pass finds none."""
    ids = await due_turns(store, 6)

    def service() -> TurnDeadlines:
        async def never(*_: object) -> None:
            raise AssertionError("not fired here")

        encounters: Any = SimpleNamespace(db=store)
        return TurnDeadlines(encounters, never, lambda: LATER)

    first, second = service(), service()
    assert first.claimer != second.claimer
    got = await asyncio.gather(first.due(), second.due(), first.due(), second.due())
    handed = [timer for batch in got for _, timer in batch]
    assert sorted(handed) == ids


async def test_a_reaction_claim_is_let_go_by_its_claimer_or_a_fresh_window(store: Store) -> None:
    """:func:`expiry.release_reactions` lets go of the claimer's own claims on the decisions
    opened by one change (a failed expiry), and only those; a resumed fight's new window
    (:func:`bot.store.decisions.set_deadline`) is unclaimed, whoever held the old one."""
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        other = await add_encounter(conn, 11)
        soon = NOW + timedelta(seconds=30)
        ids = await sync(conn, enc, [], [Opening(1, 3, soon), Opening(2, 3, soon)], NOW, REACTION)
        await sync(conn, other, [], [Opening(1, 4, soon)], NOW, REACTION)
    async with store.transaction() as conn:
        assert len(await expiry.claim_due_reactions(conn, LATER, "a")) == 3
        assert await expiry.release_reactions(conn, enc, 3, "b") == 0  # not b's claims
        assert await expiry.release_reactions(conn, enc, 4, "a") == 0  # nothing opened at 4
        assert await expiry.release_reactions(conn, enc, 3, "a") == 2
    async with store.transaction() as conn:
        again = await expiry.claim_due_reactions(conn, LATER, "b")
        assert sorted(c.id for c in again) == sorted(ids.values())  # other's stays a's
        await set_deadline(conn, enc, ids[1], LATER + timedelta(seconds=30))
        assert await expiry.claim_due_reactions(conn, LATER, "c") == []  # not due yet
        later = LATER + timedelta(seconds=30)
        assert [c.id for c in await expiry.claim_due_reactions(conn, later, "c")] == [ids[1]]
