"""The Utopia worked example, "The toll bridge at Reed Ford" (``docs/rules/utopia.md``, "A
worked example"), replayed through Discord with scripted dice: a ranged duel with Aim and Take
Cover, an Assist on a Dodge, a leap across the ford, a grapple and an escape, an off-turn
attack paid with interrupt actions, and damage spilling from SHP into DHP. Each step is what
the prose says, with the slash commands and buttons a table would use."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_utopia_assist import newest_with
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"


async def test_the_toll_bridge_at_reed_ford(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, vesna, brannoc = table.moderator, table.player, table.other_player

    async def other(command: str, **options: object):  # Brannoc's player
        from tests.e2e.combat_helpers import ok

        return (await ok(await slash(h, brannoc, command, **options))).message

    await t.gm("encounter start", name="Reed Ford", ruleset="utopia")
    await answered(await slash(h, vesna, "character import", example="vesna"))
    await answered(await slash(h, brannoc, "character import", example="brannoc"))
    await t.player("encounter join", character="Vesna")
    await other("encounter join", character="Brannoc")
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await t.gm("gm add-npc", template="Bandit archer")
    await t.gm("gm settings", npcs_react=True)
    dice.load([6, 6, 5, 2, 2, 1, 4, 4, 3])
    begun = await t.gm("encounter begin")
    print("BEGIN", begun.text())
    await t.gm("gm place distance", a="Vesna", b=BANDIT, meters=12.0)
    await t.gm("gm place distance", a="Brannoc", b=BANDIT, meters=12.0)
    await t.gm("gm place distance", a="Vesna", b="Brannoc", meters=1.0)

    # Round 1 — Vesna aims and shoots
    aimed = await t.player("act", action="aim")
    print("AIM", aimed.text())
    dice.load([3, 3, 2, 2, 1, 9])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=12.0)
    print("SHOT", shot.text(), [c["label"] for r in h.message(shot).components for c in r["components"]])
    click = await press(h, gm, shot, "Take Cover")
    print("COVER", h.message(shot).text(), [m.text() for m in click.followups])
    follow = next(m for m in click.followups if "GM chooses" in m.text())
    dice.load([3, 2])
    click = await press(h, gm, follow, "Dodge")
    print("DODGE", h.message(follow).text(), [m.text() for m in click.followups])
    ended = await t.player("endturn")
    print("END", ended.text())
    # the bandit's bolt
    dice.load([5, 4, 3, 2, 6, 5])
    bolt = await t.gm("act", action="attack", target="Vesna", detail="Crossbow", amount=12.0)
    print("BOLT", bolt.text(), [c["label"] for r in h.message(bolt).components for c in r["components"]])
    click = await press(h, vesna, bolt, "Dodge")
    print("VDODGE", h.message(bolt).text(), [m.text() for m in click.followups])
    prompt = await newest_with(h, "Assist Vesna's Dodge")
    print("PROMPT", prompt.text(), [c["label"] for r in prompt.components for c in r["components"]])
    dice.load([])
    click = await press(h, brannoc, prompt, "Assist Vesna's Dodge")
    print("ASSISTED", [m.text() for m in click.followups])
    prompt = await newest_with(h, "Roll the Dodge now")
    dice.load([4, 3, 5])
    click = await press(h, vesna, prompt, "Roll the Dodge now")
    print("ROLLED", h.message(prompt).text(), [m.text() for m in click.followups])
    ended = await t.gm("endturn")
    print("END2", ended.text())
    ran = await other("act", action="travel", target=BANDIT, amount=3.0)
    print("RAN", ran.text())
    leapt = await other("act", action="leap", target=BANDIT)
    print("LEAPT", leapt.text())
    dice.load([4])
    punch = await other("act", action="attack", target=BANDIT, detail="Cestus")
    print("PUNCH", punch.text())
    dice.load([2])
    click = await press(h, gm, punch, "Block")
    print("PBLOCK", h.message(punch).text(), [m.text() for m in click.followups])
    ended = await other("endturn")
    print("END3", ended.text())
    dice.load([4, 4, 3, 3, 10])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=12.0)
    click = await press(h, gm, shot, "Take it")
    print("SPILL", h.message(shot).text(), [m.text() for m in click.followups])
    await t.player("endturn")
    dice.load([6])
    chop = await t.gm("act", action="attack", target="Brannoc", detail="Hatchet")
    print("CHOP", chop.text(), chop.components)
    await t.gm("endturn")
    dice.load([6, 6, 5, 2, 2, 1])
    grab = await other("act", action="grapple", target=BANDIT)
    print("GRAB", grab.text())
    await other("endturn")
    await t.player("endturn")
    dice.load([6, 6, 6, 1, 1, 2])
    esc = await t.gm("act", action="escape")
    print("ESC", esc.text())
    dice.load([4])
    jab = await other("act", action="attack", target=BANDIT, detail="Cestus")
    print("JAB", jab.text())
    click = await press(h, gm, jab, "Take it")
    print("END", h.message(jab).text(), [m.text() for m in click.followups])
