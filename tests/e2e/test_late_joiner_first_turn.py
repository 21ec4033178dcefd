"""A late joiner is told when their first turn comes (play26, defect 3): Tobin's player joined
the Uune conflict while the Dock Thug's turn ran and read "Tobin Ash joins the player
characters, who act first and choose who goes next; then the NPCs." — the player characters
had acted, so his first turn was next round, unsaid. The same held in every system for a
newcomer placed before the turn's holder (a hound with a better Speed test: "takes place 1").
Every join's reply (`/encounter join`, `/gm add-npc`) now says it on a line after the place —
the reply's alone: the place words are the log's note, which an undo shows — in the same words,
from one place (:func:`bot.ui.embeds.first_turn_words` over
:func:`bot.engine.core.order.first_turn_round`)."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    current_name,
    ok,
    one_on_one,
    pass_turns_until,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_a_uune_pc_joining_on_an_npcs_turn_is_told_their_first_turn_is_next_round(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, other = discord_harness, table.other_player
    await one_on_one(h, table, "uune", name="Docks")
    await pass_turns_until(bot, h, table, "Dock Thug 1")
    await answered(await slash(h, other, "character import", example="tobin"))
    joined = await ok(await slash(h, other, "encounter join", character="Tobin Ash"))
    text = joined.message.text()
    assert (
        "Tobin Ash joins the player characters, who act first and choose who goes next; then "
        "the NPCs.\nTobin Ash's first turn comes in round 2."
    ) in text, text


async def test_a_uune_npc_added_on_a_pcs_turn_acts_this_round(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await one_on_one(h, table, "uune", name="Docks")
    assert await current_name(bot, h) == "Mira Quell"
    added = await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))
    assert (
        "Dock Thug 2 takes place 3: after the player characters, with the NPCs.\nDock Thug 2's "
        "first turn comes this round."
    ) in added.message.text(), added.message.text()


@pytest.mark.parametrize("system", list(ONE_ON_ONE))
async def test_every_system_says_when_a_late_npc_first_acts(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, system: str
) -> None:
    """The class: a second copy of the NPC added on the first one's turn, in every system —
    its place decides the round, and the reply says which, in the same words."""
    h, gm = discord_harness, table.moderator
    await one_on_one(h, table, system, name="Late")
    _, _, (_, template) = ONE_ON_ONE[system]
    await pass_turns_until(bot, h, table, f"{template} 1")
    added = await ok(await slash(h, gm, "gm add-npc", template=template))
    live = await bot.services.encounters.live(h.channel.id)
    state = live.state
    newcomer = state.find(f"{template} 2")
    before = state.order.index(newcomer.id) < state.order.index(str(state.turn))
    when = f"in round {state.round + 1}" if before else "this round"
    assert f"{template} 2's first turn comes {when}." in added.message.text(), added.message.text()
