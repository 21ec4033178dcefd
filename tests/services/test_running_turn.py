"""The running turn kept beside each encounter's state (migration 0025): it follows every
change through the write path — a turn's end, undo, redo, the fight's end — so start-up finds
the turns a stop left unannounced without loading every live fight."""

from __future__ import annotations

from typing import Any

from bot.engine.core.commands import EndCombat, EndTurn
from bot.services.encounters import EncounterService
from bot.services.turn_pings import TurnPings
from bot.store import turn_pings as turn_pings_repo
from bot.store.db import Database
from tests.services.test_undo import CHANNEL, GM, Table, fight


async def column(db: Database, channel_id: int = CHANNEL) -> int | None:
    async with db.read() as conn:
        row = await conn.fetch_one(
            "SELECT running_turn FROM encounters WHERE channel_id = ?", (channel_id,)
        )
    assert row is not None
    value: int | None = row["running_turn"]
    return value


async def test_the_column_follows_the_running_turn_through_undo_and_redo(db: Database) -> None:
    t = Table(db)
    other = CHANNEL + 1
    await t.encounters.start(guild_id=1, channel_id=other, actor=GM, ruleset="uttas", name="V")
    assert await column(db, other) == -1  # gathering: no turn runs
    await fight(t)
    first = (await t.live()).state.turn_seq
    assert first >= 1 and await column(db) == first
    await t.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    assert await column(db) == first + 1 == (await t.live()).state.turn_seq
    await t.mod.undo(CHANNEL, GM)
    assert await column(db) == first
    await t.mod.redo(CHANNEL, GM)
    assert await column(db) == first + 1
    await t.gm(lambda cur: EndCombat(), "endcombat")  # the fight is over: no turn runs
    assert (await t.live()).state.phase == "finished" and await column(db) == -1


async def test_start_up_loads_only_the_fights_that_owe_a_ping(
    db: Database, monkeypatch: Any
) -> None:
    t = Table(db)
    await fight(t)
    live = await t.live()
    async with db.transaction() as conn:
        await turn_pings_repo.announced(conn, live.id, live.state.turn_seq)
    fresh = EncounterService(db, clock=lambda: live.row.updated_at, seeds=lambda: 7)
    loads: list[int] = []
    original = fresh.live

    async def counted(channel_id: int) -> Any:
        loads.append(channel_id)
        return await original(channel_id)

    monkeypatch.setattr(fresh, "live", counted)
    assert await TurnPings(fresh).owed() == []
    assert loads == []  # its turn was shown: not loaded
    await t.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")  # a stop before its post
    assert await TurnPings(fresh).owed() == [(CHANNEL, (await t.live()).state.turn_seq)]
    assert loads == [CHANNEL]
