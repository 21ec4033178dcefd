"""Wording defects in what players read, found by issue 24's new-user run
(``tests/e2e/test_newuser24.py`` shows how it played): each test states what a player should
see, through Discord."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks
from tests.harness.server import DiscordHarness


async def test_uune_a_turn_lost_to_stunned_is_said_before_the_level_it_takes(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The GM stunned Tobin; when Mira ended her turn the channel read "Tobin Ash is no longer
    Stunned (a turn lost to it)." and then "Tobin Ash spends the turn stunned." — the level
    was said lost before the turn it was lost to. Uune 7 says them in the order they happen
    (the core's ``after_turn_taken_up``; versions 1 to 6 replay as they were)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False, witch=False)
    await u.run(u.gm, "encounter begin")
    await u.run(u.gm, "gm condition", combatant="Tobin Ash", action="add", name="Stunned")
    said = (await u.run(table.player, "endturn")).message.text()
    spends = said.find("Tobin Ash spends the turn stunned.")
    lost = said.find("Tobin Ash is no longer Stunned (a turn lost to it).")
    assert 0 <= spends < lost, said
