"""The odds an attack had, on its result through Discord (issue 18): "Odds: … to hit" in the
result the channel sees only when players may see both sides' numbers or the GM allows the odds
against hidden NPCs (``/gm settings show_odds``); the GM's exact copy always has it."""

from __future__ import annotations

import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, pass_turns_until, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

ODDS = re.compile(r"Odds: \d+(\.\d)? % to hit")


async def gm_copy(record: InteractionRecord) -> str:
    await record.wait_for(lambda r: any("Exact numbers" in m.text() for m in r.followups))
    [copy] = [m for m in record.followups if "Exact numbers (GM only)" in m.text()]
    assert copy.ephemeral
    return copy.text()


async def test_attack_results_show_the_odds_by_audience(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)

    await pass_turns_until(bot, h, table, "Willow")
    # The GM plays Willow's turn: the channel's result hides the odds against the Thug, the
    # GM's exact copy has them.
    attacked = await ok(await slash(h, gm, "attack", target="Thug 1", with_="Club"))
    public = h.message(attacked.message).text()
    assert "Willow" in public and "Thug 1" in public and "Accuracy 3d6" in public
    assert not ODDS.search(public), public
    assert ODDS.search(await gm_copy(attacked))

    await ok(await slash(h, gm, "gm settings", show_odds=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    allowed = await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws"))
    assert ODDS.search(h.message(allowed.message).text())
