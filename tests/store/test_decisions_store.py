"""The decisions store on both stores (SQLite and PostgreSQL, tests/store/conftest.py): opening
and closing by ``sync``, a prompt recorded once, due windows of live unpaused fights soonest
first, and prompts left to retire. (Claiming due decisions across processes with
``FOR UPDATE SKIP LOCKED`` is planned with the encounter store's port, issue 16.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store import decisions
from bot.store.base import Store, StoreConnection
from bot.store.decisions import Opening

NOW = datetime(2026, 5, 6, 7, 8, 9, tzinfo=UTC)
CHANNEL = 2**62 + 11


async def encounter(conn: StoreConnection, channel: int, *, paused: int = 0) -> int:
    """A bare encounter row (the decisions' foreign key), live."""
    return await conn.insert(
        "INSERT INTO encounters (guild_id, channel_id, name, ruleset, started_by, gm_id,"
        " status, state, created_at, updated_at, paused)"
        " VALUES (?, ?, 'Fight', 'uttas', 1, 1, 'live', '{}', ?, ?, ?)",
        (3, channel, decisions.ts(NOW), decisions.ts(NOW), paused),
    )


async def test_sync_opens_keeps_and_closes(store: Store) -> None:
    async with store.transaction() as conn:
        fight = await encounter(conn, CHANNEL)
        ids = await decisions.sync(conn, fight, [], [Opening(1, 4, NOW), Opening(2, 4, NOW)], NOW)
    assert sorted(ids) == [1, 2]
    async with store.transaction() as conn:
        current = [(r.id, r.ref, r.opened_version) for r in await decisions.open_of(conn, fight)]
        assert await decisions.sync(conn, fight, current, [Opening(2, 4, NOW)], NOW) == {}
    async with store.read() as conn:
        left = await decisions.open_of(conn, fight)
    assert [(r.ref, r.id, r.deadline, r.status) for r in left] == [(2, ids[2], NOW, "open")]


async def test_a_prompt_is_recorded_once_and_retired_later(store: Store) -> None:
    async with store.transaction() as conn:
        fight = await encounter(conn, CHANNEL)
        await decisions.sync(conn, fight, [], [Opening(1, 2, None)], NOW)
        assert await decisions.set_prompt(conn, fight, 2, 900, [7, 5]) == "recorded"
        assert await decisions.set_prompt(conn, fight, 2, 900, [8]) == "recorded"  # same one
        assert await decisions.set_prompt(conn, fight, 2, 901, [7]) == "other"
    async with store.read() as conn:
        (row,) = await decisions.open_of(conn, fight)
    assert row.prompt_message_id == 900 and row.asked == (5, 7) and not row.prompt_retired
    async with store.transaction() as conn:
        assert not await decisions.retire_later(conn, 900, "Too late", None)  # still open
        await decisions.close_all(conn, fight, NOW)
        assert await decisions.set_prompt(conn, fight, 2, 900, [7]) == "closed"
        assert await decisions.retire_later(conn, 900, "Lapsed", {"title": "Lapsed"})
    async with store.read() as conn:
        ((channel, retiring),) = await decisions.to_retire(conn)
    assert channel == CHANNEL and retiring.retire_embed == {"title": "Lapsed"}
    async with store.transaction() as conn:
        await decisions.prompt_retired(conn, 900)
    async with store.read() as conn:
        assert await decisions.to_retire(conn) == []


async def test_a_retirement_kept_with_the_retired_prompt_is_read_back(store: Store) -> None:
    """Where other processes share the database, what a prompt was retired with stays in its
    row (``keep``), so a process whose late edit gave it its buttons back retires it again."""
    async with store.transaction() as conn:
        fight = await encounter(conn, CHANNEL)
        await decisions.sync(conn, fight, [], [Opening(1, 2, None)], NOW)
        assert await decisions.set_prompt(conn, fight, 2, 900, [7]) == "recorded"
    async with store.read() as conn:
        assert await decisions.closed_prompt(conn, 900) is None  # it waits
    async with store.transaction() as conn:
        await decisions.close_all(conn, fight, NOW)
        assert await decisions.retire_later(conn, 900, "Lapsed", None)
        await decisions.prompt_retired(conn, 900, keep=True)
    async with store.read() as conn:
        assert await decisions.to_retire(conn) == []
        closed = await decisions.closed_prompt(conn, 900)
    assert closed is not None and closed.prompt_retired and closed.retire_text == "Lapsed"


async def test_due_windows_of_live_unpaused_fights_soonest_first(store: Store) -> None:
    async with store.transaction() as conn:
        late = await encounter(conn, CHANNEL)
        soon = await encounter(conn, CHANNEL + 1)
        paused = await encounter(conn, CHANNEL + 2, paused=1)
        await decisions.sync(conn, late, [], [Opening(1, 3, NOW - timedelta(seconds=1))], NOW)
        await decisions.sync(conn, soon, [], [Opening(1, 5, NOW - timedelta(minutes=1))], NOW)
        await decisions.sync(conn, paused, [], [Opening(1, 1, NOW - timedelta(hours=1))], NOW)
        await decisions.sync(
            conn, soon, [], [Opening(2, 6, NOW + timedelta(seconds=1))], NOW
        )  # not yet due
    async with store.read() as conn:
        assert await decisions.due(conn, NOW) == [(soon, 5), (late, 3)]
