"""QA9: feet boards with absurd values (issue 11, Missing 8; UTTAS "Range Modifiers")."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_an_absurd_square_size_on_a_feet_board_is_refused_clearly(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await (await slash(h, gm, "tables set", entry="range.board", value='"feet"')).response()
    tiny = await slash(h, gm, "tables set", entry="range.feet_per_space", value="0.0001")
    await tiny.response()
    assert tiny.ephemeral
    text = tiny.response_data["content"]
    assert "Something went wrong" not in text, text
    assert "range.feet_per_space" in text, text
    assert (await bot.services.tables.overrides(h.guild.id)) == {
        "uttas": {"range": {"board": "feet"}}
    }


async def test_an_absurd_square_size_set_before_the_board_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    tiny = await slash(h, gm, "tables set", entry="range.feet_per_space", value="1e-9")
    await tiny.response()
    assert tiny.ephemeral
    assert "is now" not in tiny.response_data["content"], tiny.response_data["content"]
    assert (await bot.services.tables.overrides(h.guild.id)) == {}
