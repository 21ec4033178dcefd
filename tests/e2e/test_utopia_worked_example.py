"""The Utopia worked example, "The toll bridge at Reed Ford" (``docs/rules/utopia.md``, "A
worked example"), replayed through Discord with scripted dice: a ranged duel with Aim and Take
Cover, an Assist on a Dodge, a run-up and a leap across the ford, damage spilling from SHP into
DHP, a grapple and an escape, and an off-turn attack paid with interrupt actions. Each step is
what the prose says, with the slash commands and buttons a table would use; the dice are the
prose's."""

from __future__ import annotations

from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_utopia_assist import newest_with
from tests.e2e.test_worked_example import Table5
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"


def labels(message: StoredMessage) -> list[str]:
    return [c.get("label", "") for row in message.components for c in row["components"]]


async def test_the_toll_bridge_at_reed_ford(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, vesna, brannoc = table.moderator, table.player, table.other_player

    async def other(command: str, **options: Any) -> StoredMessage:
        """Brannoc's player."""
        return (await ok(await slash(h, brannoc, command, **options))).message

    # The cast: Vesna and Brannoc on the near bank, a Bandit archer on the far one, 12 m away.
    await t.gm("encounter start", name="Reed Ford", ruleset="utopia")
    await answered(await slash(h, vesna, "character import", example="vesna"))
    await answered(await slash(h, brannoc, "character import", example="brannoc"))
    await t.player("encounter join", character="Vesna")
    await other("encounter join", character="Brannoc")
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await t.gm("gm add-npc", template="Bandit archer")
    await t.gm("gm settings", npcs_react=True)
    # Speed tests: Vesna 6+6+5 +1 = 18, Brannoc 2+2+1 −1 = 4, the bandit 4+4+3 = 11.
    dice.load([6, 6, 5, 2, 2, 1, 4, 4, 3])
    begun = await t.gm("encounter begin")
    assert "Initiative: 1. Vesna (rolled 18), 2. Bandit archer 1, 3. Brannoc (rolled 4)" in (
        begun.text()
    )
    await t.gm("gm place distance", a="Vesna", b=BANDIT, meters=12.0)
    await t.gm("gm place distance", a="Brannoc", b=BANDIT, meters=12.0)
    await t.gm("gm place distance", a="Vesna", b="Brannoc", meters=1.0)

    # ---- Round 1 ---------------------------------------------------------------------------
    # Vesna aims (1 TA) and looses an arrow: close range and Aim, two favors: 5d6 + 3 = 14
    # against the 12 meters. 1d10 [9], the bandit's Physical defense 1: 8 damage waits.
    assert "favor on their next ranged attack" in (await t.player("act", action="aim")).text()
    dice.load([3, 3, 2, 2, 1, 9])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=12.0)
    assert "3d6 +2 favor [3, 3, 2, 2, 1] + 3 = 14 against difficulty 12" in shot.text()
    # The GM ducks the bandit behind the toll booth (Take Cover, 1 IA): his Dodge doubles …
    click = await press(h, gm, shot, "Take Cover")
    assert "takes cover behind an obstacle" in h.message(shot).text()
    follow = next(m for m in click.followups if "GM chooses" in m.text())
    # … and he dodges (1 IA more): 2d12 [3, 2] = 5, short of 8. SHP 16 → 8; players see "Hurt".
    dice.load([3, 2])
    click = await press(h, gm, follow, "Dodge")
    assert "Bandit archer 1 dodges" in h.message(follow).text()
    assert "and takes damage: Hurt." in h.message(follow).text()
    [gm_copy] = [m.text() for m in click.followups if "Exact numbers" in m.text()]
    assert "takes 8 of 8 from Longbow (SHP); SHP 8, DHP 10" in gm_copy
    await t.player("endturn")  # her last 3 TA are lost

    # The bandit's bolt: 4d6 + 1 = 15 against 12; 2d6 [6, 5] = 11, Vesna's defense 2: 9.
    dice.load([5, 4, 3, 2, 6, 5])
    bolt = await t.gm("act", action="attack", target="Vesna", detail="Crossbow", amount=12.0)
    assert "**Vesna** may Block (1 IA), Dodge (1 IA) or Take Cover (1 IA)" in bolt.text()
    # Vesna dodges (1 IA); Brannoc, beside her, may Assist before they roll.
    await press(h, vesna, bolt, "Dodge")
    prompt = await newest_with(h, "Assist Vesna's Dodge")
    assert "**Brannoc** may Assist (+1d12 per IA" in prompt.text()
    assert labels(prompt) == ["Roll the Dodge now", "Assist Vesna's Dodge: +1d12 (1 IA)"]
    await press(h, brannoc, prompt, "Assist Vesna's Dodge")  # 1 IA: one more d12
    prompt = await newest_with(h, "Roll the Dodge now")
    dice.load([4, 3, 5])
    await press(h, vesna, prompt, "Roll the Dodge now")
    rolled = h.message(prompt).text()
    assert "Assist from Brannoc: 1d12 [5] = 5): 2d12 [4, 3] + 5 = 12): takes 0 of 9" in rolled
    await t.gm("endturn")

    # Brannoc runs 3 m (1 TA) and, after the run-up, leaps his Strength score (Power 7 +
    # Fortitude 6 = 13 m; 3 TA, 3 Stamina) across the ford onto the bandit.
    assert (
        "travels 3 m by land"
        in (await other("act", action="travel", target=BANDIT, amount=3.0)).text()
    )
    leapt = await other("act", action="leap", target=BANDIT)
    assert "Brannoc leaps 13 m (Strength score after a run-up)." in leapt.text()
    # A Cestus jab (1 TA): 1d6 [4] + Power 3 = 7, the bandit's defense 1: 6. He blocks (1 IA,
    # his interrupt actions back at the start of Brannoc's turn): 1d4 [2]. SHP 8 → 4.
    dice.load([4])
    jab = await other("act", action="attack", target=BANDIT, detail="Cestus")
    dice.load([2])
    click = await press(h, gm, jab, "Block")
    [gm_copy] = [m.text() for m in click.followups if "Exact numbers" in m.text()]
    assert "takes 4 of 6 from Cestus (SHP); SHP 4, DHP 10" in gm_copy
    await other("endturn")

    # ---- Round 2 ---------------------------------------------------------------------------
    # Vesna's arrow (4d6 + 3 = 17): 1d10 [10] − 1 = 9. The bandit takes it: 4 from his SHP,
    # the 5 beyond it from his DHP — now "Bloodied".
    dice.load([4, 4, 3, 3, 10])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow", amount=12.0)
    click = await press(h, gm, shot, "Take it")
    assert "Bandit archer 1 does not defend and takes damage: Bloodied." in (h.message(shot).text())
    [gm_copy] = [m.text() for m in click.followups if "Exact numbers" in m.text()]
    assert "takes 9 of 9 from Longbow (SHP); SHP 0, DHP 5" in gm_copy
    await t.player("endturn")
    # The bandit's Hatchet (2 TA): 1d6 [6] − 2 = 4 against Brannoc's Physical defense 4
    # (innate 1, his hide 1, the studded vest 2): nothing gets through, nothing to defend.
    dice.load([6])
    chop = await t.gm("act", action="attack", target="Brannoc", detail="Hatchet")
    assert (
        "Brannoc does not defend: takes no damage from Hatchet (their defenses stop it)"
        in chop.text()
    )
    assert labels(h.message(chop)) == []
    await t.gm("endturn")
    # Brannoc grapples (3 TA, 2 Stamina): his Agility test 3d6 + 2 = 19 against the bandit's
    # better of Strength and Agility (Agility, +5): 10. Held: no Travel for the bandit.
    dice.load([6, 6, 5, 2, 2, 1])
    grab = await other("act", action="grapple", target=BANDIT)
    assert "Brannoc grapples Bandit archer 1" in grab.text()
    assert "Brannoc's Agility test: 3d6 [6, 6, 5] + 2 = 19 against Bandit archer 1's" in (
        grab.text()
    )
    assert "+ 5" not in grab.text()  # the bandit's modifier is the GM's secret
    await other("endturn")

    # ---- Round 3 ---------------------------------------------------------------------------
    await t.player("endturn")  # Vesna holds her fire with Brannoc in the way
    # The bandit wrenches free (2 TA, 2 Stamina): Brannoc contests (2 Stamina): 1 + 1 + 2 + 2 =
    # 6 against the bandit's 18 + 5 = 23. He is free …
    dice.load([1, 1, 2, 6, 6, 6])
    freed = await t.gm("act", action="escape")
    assert "Brannoc contests (Stamina −2)." in freed.text()
    assert "Bandit archer 1 breaks free of Brannoc." in freed.text()
    # … and Brannoc strikes on the bandit's turn, paying the Cestus's 1 TA with 2 IA — and
    # warned that he cannot defend until the next creature's turn: 1d6 [4] + 3 − 1 = 6.
    dice.load([4])
    jab = await other("act", action="attack", target=BANDIT, detail="Cestus")
    assert "Brannoc spends 2 IA to attack Bandit archer 1 with Cestus." in jab.text()
    assert "they cannot defend until the next creature's turn" in jab.text()
    t.clicks[jab.id] = await press(h, gm, jab, "Take it")
    end = t.seen(jab)
    assert "Bandit archer 1 is now Down (their DHP fell to 0 or below)." in end
    assert "The fight is over: only one side is left standing. Winner: the party side." in end
