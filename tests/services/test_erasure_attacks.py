"""Attacks on a member's erasure scrubbing encounter log rows that later replays read (issue 15;
``tests/services/test_erasure_replay.py``): whatever the scrub changes — a row's result, or the
state a later row is replayed over — an undo, a redo or a restart gives the state committed,
scrubbed, and never a refusal."""

from __future__ import annotations

from typing import Any

from bot.engine.core.commands import EndTurn
from bot.services.encounters import Encounter
from bot.services.member_scrub import scrub_json
from bot.store.base import Store
from tests.services.test_snapstate_attacks import CHANNEL, GM, OTHER, Bot, afresh

HOUND = f"<@{OTHER.user_id}>'s hound"


def scrubbed(encounter: Encounter, state_json: str) -> str:
    """``state_json`` without ``OTHER``, as the encounter's rules load it (combatants whose
    names became equal numbered)."""
    return encounter.rules.load_state(scrub_json(state_json, OTHER.user_id)).model_dump_json()


async def test_a_later_row_replayed_over_a_scrubbed_name_is_not_refused(store: Store) -> None:
    bot = Bot(store)
    await bot.fight()
    await bot.mod.add_one_off(CHANNEL, GM, HOUND, {})
    await bot.mod.add_one_off(CHANNEL, GM, "a former member's hound", {})
    before = (await bot.encounters.live(CHANNEL)).state_json
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")
    await bot.erase(OTHER)

    result: Any = await bot.mod.undo(CHANNEL, GM)

    assert result[1].command == "endturn"
    undone = await bot.encounters.live(CHANNEL)
    assert undone.state_json == scrubbed(undone, before)
    assert await afresh(store, True) == undone.state_json
