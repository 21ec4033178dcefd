"""A brand-new GM and two players follow the README alone: each test here is a place where the
bot's reply left them stuck, misled or guessing, and states what they should see."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import pass_turns_until, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_gm_attacking_on_a_players_turn_is_told_they_acted_as_that_player(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The README's first fight has the GM type `/attack target:Willow with:Cudgel` "on a
    thug's turn". A new GM typed it while it was still Willow's turn and read "Willow cannot
    attack themselves." — nothing said that, without `as:`, the GM acts as whoever holds the
    turn. The refusal now says whom the GM acted as and how to name another."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    text = await refused(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    assert "cannot attack themselves" in text, text
    assert "**Willow**, whose turn it is" in text and "`as:`" in text, text
