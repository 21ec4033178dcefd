"""A member's erasure scrubs log rows that replays read (issue 15: a state is its nearest
snapshot with the changes after it replayed). Scrubbing a row can change what replaying it
gives — a Talk's mention of the member becomes "a former member", three words instead of one,
counted against the round's 25 — so an undo to a version before the erasure, a restart of a row
whose stored state is behind, or a redo must never replay a scrubbed row: each row the scrub
changes keeps the state it left, scrubbed, as its snapshot."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import Talk
from bot.services.member_sources import SOURCES, Erasure
from bot.store.base import Store
from tests.services.test_snapstate_attacks import CHANNEL, GM, GUILD, NOW, OTHER, Bot, afresh

WORDS_24 = " ".join(["word"] * 23) + f" <@{OTHER.user_id}>"
"""24 words, one of them a mention of ``OTHER``: scrubbed, 26 — over UTTAS's 25 a round."""


async def _talked(bot: Bot) -> tuple[str, Any]:
    """A fight where Willow said :data:`WORDS_24`; the encounter as it stood after."""
    willow, _thug = await bot.fight()
    await bot.gm(lambda cur: Talk(actor=willow, text=WORDS_24), "talk")
    return willow, await bot.encounters.live(CHANNEL)


async def _log(store: Store, encounter_id: int) -> dict[int, dict[str, Any]]:
    async with store.read() as conn:
        rows = await conn.fetch_all(
            "SELECT version, command, result, state FROM encounter_log WHERE encounter_id = ?"
            " ORDER BY version",
            (encounter_id,),
        )
    return {int(r["version"]): dict(r) for r in rows}


async def test_an_undo_to_before_an_erasure_restores_the_state_without_replaying_it(
    store: Store,
) -> None:
    """The GM undoes the command given before a member was erased: the state before it is the
    one after the Talk that named the member, rebuilt from the log — the same as it was, not
    refused because the scrubbed Talk now says 26 words."""
    bot = Bot(store)
    _willow, talked = await _talked(bot)
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    await bot.erase(OTHER)

    result = await bot.mod.undo(CHANNEL, GM)

    assert result[1].command == "endturn"
    undone = await bot.encounters.live(CHANNEL)
    assert undone.state_json == talked.state_json
    assert await afresh(store, True) == undone.state_json  # a restart gives the same
    # and further back: the Talk itself undone, then redone to what it left
    await bot.mod.undo(CHANNEL, GM)
    redone = await bot.mod.redo(CHANNEL, GM)
    assert redone[0].encounter.state_json == talked.state_json
    log = await _log(store, talked.id)
    assert all(str(OTHER.user_id) not in json.dumps(row) for row in log.values())


async def test_a_row_behind_scrubbed_between_the_erasures_steps_restarts_as_committed(
    store: Store,
) -> None:
    """A command naming the member committed after the erasure released its encounters and
    before it erased the rest (its last step scrubs every log): the live row's stored state is
    behind, so a restart replays the log — and must not replay the scrubbed Talk."""
    bot = Bot(store)
    _willow, talked = await _talked(bot)
    assert talked.row.state_version is not None  # the Talk is in the log only
    erasure = Erasure(guild_id=GUILD, user_id=OTHER.user_id, actor_id=OTHER.user_id, now=NOW)
    async with store.transaction() as conn:  # the erasure's last step alone
        for source in SOURCES:
            await source.erase(conn, erasure)

    assert await afresh(store, True) == talked.state_json
    log = await _log(store, talked.id)
    talk = log[talked.version]
    assert str(OTHER.user_id) not in talk["result"]
    assert talk["state"] is not None  # the state it left, kept as its snapshot
    await Bot(store).gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")  # play goes on
