"""The odds an attack had, on its result through Discord (issue 18): "Odds: … to hit" in the
result the channel sees only when players may see both sides' numbers or the GM allows the odds
against hidden NPCs (``/gm settings show_odds``); the GM's exact copy always has it."""

from __future__ import annotations

import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, pass_turns_until, press, set_up_fight, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"
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


async def test_utopia_results_show_the_chance_damage_got_through_the_defense(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Vesna's Longbow leaves 7 after the bandit's defenses; the bandit's Dodge (1d12) lets
    damage through on 1-6: 50.0 %. The channel reads it only once the GM allows the odds
    against hidden NPCs; the GM's exact copy always has it."""
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player = table.moderator, table.player
    await t.gm("encounter start", name="Reed ford", ruleset="utopia")
    await answered(await slash(h, player, "character import", example="vesna"))
    await t.player("encounter join", character="Vesna")
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await t.gm("gm add-npc", template="Bandit archer")
    await t.gm("gm settings", npcs_react=True)  # the GM chooses the bandit's defense
    dice.load([6, 6, 5, 1, 2, 1])
    await t.gm("encounter begin")

    dice.load([4, 4, 4, 4, 8])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    dice.load([3])
    click = await press(h, gm, shot, "Dodge")
    public = h.message(shot).text()
    assert "Bandit archer 1 dodges" in public and "Odds: " not in public, public
    [copy] = [m.text() for m in click.followups if "Exact numbers" in m.text()]
    assert "Odds: 50.0 % damage gets through the Dodge" in copy, copy

    await ok(await slash(h, gm, "gm settings", show_odds=True))
    dice.load([4, 4, 4, 4, 8])
    again = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    dice.load([9])
    await press(h, gm, again, "Dodge")
    allowed = h.message(again).text()
    assert "Bandit archer 1 dodges" in allowed
    assert "Odds: 50.0 % damage gets through the Dodge" in allowed, allowed
