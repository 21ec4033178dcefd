"""A whole Utopia fight through slash commands and buttons (issue 12, "Done when"): the GM
starts a Utopia encounter, a player's Vesna and the GM's Bandit archer join, the Speed tests
set the order, attacks are paid in TA on the attacker's turn and in IA off it (and the text's
warning follows), the target's defense is a button after the damage is rolled, damage spills
from SHP into DHP, and the fight ends when the bandit is Down. Every die is scripted."""

from __future__ import annotations

from bot.client import CombatBot
from bot.engine.utopia.ruleset import UtopiaRuleset
from tests.e2e.combat_helpers import answered, press, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"


def labels(message: object) -> list[str]:
    rows = getattr(message, "components", [])
    return [c.get("label", "") for row in rows for c in row.get("components", [])]


async def test_a_utopia_fight_through_discord(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player = table.moderator, table.player

    started = await t.gm("encounter start", name="Reed ford", ruleset="utopia")
    assert f"Utopia · rules v{UtopiaRuleset.rules_version}" in started.text()
    await answered(await slash(h, player, "character import", example="vesna"))
    await t.player("encounter join", character="Vesna")
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await t.gm("gm add-npc", template="Bandit archer")
    await t.gm("gm settings", npcs_react=True)

    # "Turn order": a Speed test each, highest first (Vesna 6+6+5 +1 = 18; the bandit 4).
    dice.load([6, 6, 5, 1, 2, 1])
    begun = await t.gm("encounter begin")
    assert "Initiative: 1. Vesna (rolled 18), 2. Bandit archer 1" in begun.text()
    assert "Round 1: Vesna's turn (6 TA left)." in begun.text()

    # ---- Vesna's turn: a Longbow shot at 10 m (close range: a favor, 4 dice, Dex +3). -------
    dice.load([4, 4, 4, 4, 8])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    assert "Vesna spends 2 TA to attack Bandit archer 1 with Longbow." in shot.text()
    assert "3d6 +1 favor [4, 4, 4, 4] + 3 = 19 against difficulty 10" in shot.text()
    assert "the GM chooses **Bandit archer 1**'s defense" in shot.text()
    # The GM blocks for the bandit (1 IA off its turn): 1d4 against the 7 after its defense.
    dice.load([3])
    click = await press(h, gm, shot, "Block")
    assert "Bandit archer 1 blocks" in h.message(shot).text()
    [gm_copy] = [m.text() for m in click.followups if "Exact numbers" in m.text()]
    assert "takes 4 of 7 from Longbow (SHP); SHP 12, DHP 10" in gm_copy
    # A miss (2 TA more), and the turn ends.
    dice.load([1, 1, 1, 1])
    missed = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    assert "= 7 against difficulty 10: a miss" in missed.text()
    ended = await t.player("endturn")
    assert "Round 1: Bandit archer 1's turn." in ended.text()

    # ---- The bandit's turn: a Crossbow bolt; Vesna's defense buttons cost IA off her turn. ---
    dice.load([5, 5, 5, 6, 6, 6])
    bolt = await t.gm("act", action="attack", target="Vesna", detail="Crossbow", amount=10.0)
    assert "**Vesna** may Block (1 IA), Dodge (1 IA) or Take Cover (1 IA)" in bolt.text()
    assert labels(h.message(bolt))[:2] == ["Block (1 IA)", "Dodge (1 IA)"]
    await press(h, player, bolt, "Take it")
    assert "takes 10 of 10 from Crossbow (SHP); SHP 12, DHP 14" in h.message(bolt).text()
    # Off her turn Vesna stabs with the Knife (1 TA = 2 IA), and the text's warning follows.
    dice.load([4])
    knife = await t.player("act", action="attack", target=BANDIT, detail="Knife")
    assert "Vesna spends 2 IA to attack Bandit archer 1 with Knife." in knife.text()
    assert "they cannot defend until the next creature's turn" in knife.text()
    await press(h, gm, knife, "Take it")
    # So the bandit's Hatchet finds her unable to defend: no buttons.
    dice.load([6])
    hatchet = await t.gm("act", action="attack", target="Vesna", detail="Hatchet")
    assert "Vesna cannot defend (they attacked with interrupt actions" in hatchet.text()
    assert labels(h.message(hatchet)) == []
    # Out of IA, she cannot react with another attack.
    text = await refused(
        await slash(h, player, "act", action="attack", target=BANDIT, detail="Knife")
    )
    assert "Vesna cannot attack Bandit archer 1 with Knife" in text
    await t.gm("endturn")

    # ---- Round 2: two shots; the damage spills from SHP into DHP and the bandit goes Down. --
    dice.load([4, 4, 4, 4, 10])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    await press(h, gm, shot, "Take it")
    assert "Bandit archer 1 does not defend and takes damage: Bloodied." in h.message(shot).text()
    # The player's view of the tracker: her numbers, the bandit's wound level only.
    status = await slash(h, player, "encounter status")
    await status.response()
    board = status.response_data["embeds"][0]["description"]
    assert "**Vesna** · 4 TA · 0 IA · SHP 10/22 · DHP 14/14 · St 18/18" in board
    assert "**Bandit archer 1** · Bloodied · NPC" in board and "DHP 7" not in board
    dice.load([4, 4, 4, 4, 10])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=10.0)
    t.clicks[shot.id] = await press(h, gm, shot, "Take it")
    end = t.seen(shot)
    assert "Bandit archer 1 is now Down (their DHP fell to 0 or below)." in end
    assert "The fight is over: only one side is left standing. Winner: the party side." in end
