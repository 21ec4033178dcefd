"""One encounter written by two processes (two services, each with its own database object, on
one SQLite file or one PostgreSQL database) — the bot's loops write any server's fights, not only
the shards' own: a process's kept knowledge of a fight (its last row, an empty redo history)
never outlives another process's write."""

from __future__ import annotations

import re

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import SetVitals
from bot.errors import Conflict
from bot.services.moderation import NOTHING_TO_REDO
from bot.store.base import Store
from tests.services.test_undo import CHANNEL, GM, PLAYER, Table, fight


@pytest.fixture
def two(store_twice: list[Store]) -> tuple[Table, Table]:
    """Two processes' services on one migrated database (SQLite file or PostgreSQL)."""
    return Table(store_twice[0]), Table(store_twice[1])


async def test_a_command_after_another_processes_undo_clears_the_redo_history(
    two: tuple[Table, Table],
) -> None:
    """Process A knows the fight's redo history is empty (its own commands cleared it); process
    B undoes a command; A's next command must still clear the redo history, or B's redo would
    bring back the state before A's command — losing it. (With shards, the GM's undo comes
    through the process of the server's shard while any process's expiry loop may end a turn
    there: the same sequence.)"""
    a, b = two
    willow, thug = await fight(a)
    await a.gm(lambda cur: SetVitals(target=thug, health_change=-3))
    hurt = (await a.live()).state
    await b.mod.undo(CHANNEL, GM)
    assert (await b.live()).state.get(thug).health == hurt.get(thug).health + 3
    await a.gm(lambda cur: SetVitals(target=willow, health_change=-2))
    with pytest.raises(Conflict, match=re.escape(NOTHING_TO_REDO)):
        await b.mod.redo(CHANNEL, GM)
    final = (await a.live()).state
    assert final.get(willow).health == hurt.get(willow).health - 2
    assert final.get(thug).health == hurt.get(thug).health + 3


async def test_a_refusal_is_never_worked_out_from_a_row_another_process_moved_on(
    two: tuple[Table, Table],
) -> None:
    """Process A keeps the row it wrote last (the next command there need not read it; a write
    from it is checked by its version). Process B ends the Thug's turn — Willow's turn again.
    Willow's player's command in A is judged on the fight as it is, not on A's kept row (where
    it is still the Thug's turn and the command would be refused as "not your turn")."""
    a, b = two
    willow, _ = await fight(a)
    await a.gm(lambda cur: EndTurn(actor=cur.state.turn))  # Willow's turn → the Thug's
    await b.gm(lambda cur: EndTurn(actor=cur.state.turn))  # B: the Thug's → Willow's
    assert (await b.live()).state.turn == willow
    result = await a.combat.act(
        CHANNEL, PLAYER, None, "end", {}, lambda cur, me: EndTurn(actor=me.id)
    )
    assert result.acting.id == willow
    assert (await b.live()).state.turn != willow
