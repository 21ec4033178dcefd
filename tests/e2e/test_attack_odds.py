"""The odds an attack had, on its result through Discord (issue 18): "Odds: … to hit" (UTTAS),
"… damage gets through the Dodge" (Utopia) and "… to hit with 2 resources" (Uune) in the result
the channel sees only when players may see both sides' numbers or the GM allows the odds
against hidden NPCs (``/gm settings show_odds``); the GM's exact copy always has it."""

from __future__ import annotations

import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, pass_turns_until, press, set_up_fight, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.e2e.uune_steps import prompt_with
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


async def test_uune_rolls_show_the_odds_for_the_approved_resources(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira's Attack with two approved resources rolls 3d6 needing the thug's Defensiveness 3
    in hits: 3.7 %, the figure ``/odds resources:2`` gives. The channel reads it only once the
    GM allows the odds against hidden NPCs; the GM's exact copy always has it."""
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player, other = table.moderator, table.player, table.other_player
    await t.gm("encounter start", name="Dock nine", ruleset="uune")
    await answered(await slash(h, player, "character import", example="mira"))
    await answered(await slash(h, other, "character import", example="tobin"))
    await t.player("encounter join", character="Mira Quell")
    await answered(await slash(h, other, "encounter join", character="Tobin Ash"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await t.gm("gm add-npc", template="Dock Thug")
    await t.gm("encounter begin")

    prompt = await t.player(
        "act", action="attack", target="Dock Thug 1", detail="Twin short blades, Street fencing"
    )
    await h.wait_for(lambda: h.message(prompt).components != [])
    dice.load([2, 1, 1])  # no hit: nothing to spend, the attack fails at once
    click = await press(h, gm, prompt, "GM: approve all")
    public = h.message(prompt).text()
    assert "Mira Quell rolls for an attack on Dock Thug 1" in public, public
    assert "Odds: " not in public, public
    assert "Odds: 3.7 % to hit with 2 resources" in await gm_copy(click)
    await press(h, player, await prompt_with(h, "Keep the roll"), "Keep the roll")

    await ok(await slash(h, gm, "gm settings", show_odds=True))
    attack = dict(action="attack", target="Dock Thug 1", detail="Field medic")
    second = (await ok(await slash(h, other, "act", **attack))).message
    await h.wait_for(lambda: h.message(second).components != [])
    dice.load([5, 6])
    await press(h, gm, second, "GM: approve all")
    allowed = h.message(second).text()
    assert "Tobin Ash rolls for an attack on Dock Thug 1" in allowed, allowed
    assert "Odds: 0 % to hit with 1 resource" in allowed, allowed  # 2 dice, 3 hits needed
