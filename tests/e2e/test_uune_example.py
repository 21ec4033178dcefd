"""The Uune worked example ("A Uune conflict" in ``docs/rules/uune.md``), replayed through
Discord with the dice the prose rolls: two PCs and two NPCs at the docks; an approved and a
refused resource, an NPC forcing a reroll, a focus reroll, a vitality bump, Center, a Defend
that takes a light wound, Bleeding over two rounds, and a Downtime afterwards that heals a
wound step (issue 14). Each step asserts what the channel shows."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks, labels, prompt_with
from tests.harness.server import DiscordHarness


async def test_the_uune_worked_example(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira, tobin = table.moderator, table.player, table.other_player
    await u.cast(wren=False, witch_first=True)
    await u.run(gm, "encounter begin")

    # Round 1. Mira centers: her focus rises to its maximum, 2; that is her action.
    centered = await u.run(mira, "act", action="center")
    assert "Mira Quell centers and gains their maximum focus (2)." in centered.message.text()
    assert "Round 1: Tobin Ash's turn" in centered.message.text()

    # Tobin attacks the thug with his quarterstaff and his caravan cooking: the GM approves
    # the staff, refuses the cooking.
    await u.run(
        tobin, "act", action="attack", target="Dock Thug 1", detail="Quarterstaff, Caravan cook"
    )
    await u.press(gm, "GM: refuse Caravan cook")
    rolled = await u.press(gm, "GM: approve Quarterstaff", [5, 3])
    assert u.said("The GM refuses Caravan cook.")
    assert "action 1d6 + Quarterstaff 1d6 [5] [3] = 1 hit vs 3 needed: failure" in rolled.text()
    # The thug spends vitality to force a reroll of the hit: a 4.
    forced = await u.press(gm, "Force a reroll of die 1", [4], on="GM: choose Dock Thug 1")
    assert "Dock Thug 1 forces Tobin Ash to reroll a hit die: " in forced.text()
    assert "[5→4] [3] = 0 hits vs 3 needed: failure" in forced.text()
    # Tobin's focus rerolls the staff's die: a 6.
    spend = await prompt_with(h, "Keep the roll")
    assert "Reroll dice 2 (1 focus)" in labels(spend)
    assert "Bump die 1 by 1 (10 vitality)" in labels(spend)
    focused = await u.press(tobin, "Reroll dice 2", [6])
    assert "Tobin Ash rerolls resource dice (1 focus): " in focused.text()
    assert "[5→4] [3→6] = 1 hit vs 3 needed" in focused.text()
    # …and 10 vitality bumps the 4 to a 5: two hits, one short — a light wound.
    bumped = await u.press(tobin, "Bump die 1 by 1")
    assert "Tobin Ash bumps a die by 1 (10 vitality): " in bumped.text()
    assert "[5→4+1] [3→6] = 2 hits vs 3 needed: failure" in bumped.text()
    kept = await u.press(tobin, "Keep the roll")
    assert "Tobin Ash's attack gives Dock Thug 1 a light wound." in kept.text()
    assert "Round 1: River Witch 1's turn." in kept.text()

    # The witch's bone knife at Mira: one hit of four — a heavy wound, and the knife's
    # special: she bleeds.
    await u.run(gm, "act", action="npc-attack", target="Mira Quell", detail="Bone knife")
    await u.run(mira, "act", action="propose", detail="Street fencing")
    rolled = await u.press(gm, "GM: approve Street fencing", [2, 5])
    assert "[2] [5] = 1 hit vs 4 needed: failure" in rolled.text()
    kept = await u.press(mira, "Keep the roll")
    assert "gives Mira Quell a heavy wound (vitality 50/50, wounds: 1 heavy)." in kept.text()
    await u.run(gm, "gm condition", combatant="Mira Quell", action="add", name="Bleeding")

    # The thug's cudgel at Tobin: his Defend with the staff rolls two hits of three — failed
    # by one, a light wound.
    await u.run(gm, "act", action="npc-attack", target="Tobin Ash", detail="Cudgel")
    await u.run(tobin, "act", action="propose", detail="Quarterstaff")
    rolled = await u.press(gm, "GM: approve Quarterstaff", [5, 6])
    assert "[5] [6] = 2 hits vs 3 needed: failure" in rolled.text()
    kept = await u.press(tobin, "Keep the roll")
    assert (
        "Dock Thug 1's Cudgel gives Tobin Ash a light wound (vitality 80/90, wounds: 1 light)."
        in kept.text()
    )

    # Round 2 begins: Mira bleeds 10. She slips behind the crane (a new position: her
    # action); Tobin's staff and herb pouch put the thug down.
    assert u.said("Round 2 begins.\nMira Quell bleeds: 10 vitality lost (vitality 40/50")
    await u.run(mira, "act", action="move", detail="behind the crane")
    await u.run(
        tobin, "act", action="attack", target="Dock Thug 1", detail="Quarterstaff, Herb pouch"
    )
    rolled = await u.press(gm, "GM: approve all", [6, 5, 6])
    assert "= 3 hits vs 3 needed: success" in rolled.text()
    kept = await u.press(tobin, "Keep the roll")
    assert "Tobin Ash's attack gives Dock Thug 1 a heavy wound." in kept.text()
    assert "Dock Thug 1 is now Incapacitated" in kept.text()
    await u.run(gm, "endturn")  # the witch watches from the water

    # Round 3: Mira bleeds again, and staunches it. The witch sinks into the river: the GM
    # ends the conflict, then the scene.
    assert u.said("Round 3 begins.\nMira Quell bleeds: 10 vitality lost (vitality 30/50")
    staunched = await u.run(mira, "act", action="staunch")
    assert "Mira Quell is no longer Bleeding (staunched)." in staunched.message.text()
    await u.run(gm, "gm end-fight")
    await u.run(gm, "gm time end-of", period="scene")

    # The next day, in comfortable lodgings, Tobin's Downtime heals his light wound.
    await u.run(tobin, "act", action="downtime", detail="comfortable: Herbalist, Temple infirmary")
    rolled = await u.press(gm, "GM: approve all", [5, 6, 5])
    assert "= 3 hits vs 3 needed: success" in rolled.text()
    # A success with nothing to spend on (no NPC is part of it) is final at once.
    assert (
        "Tobin Ash's Downtime succeeds: 50 vitality restored; the heaviest wound heals a step "
        "(light→none) (vitality 100/100)." in rolled.text()
    )

    # Tobin stabilises Mira's heavy wound (the GM names the difficulty: 2), and her own
    # Downtime then mends it a step: heavy → four light.
    await u.run(
        tobin, "act", action="stabilise", target="Mira Quell", detail="Field medic, Medic's satchel"
    )
    await u.press(gm, "GM: difficulty 2 (Easy)")
    rolled = await u.press(gm, "GM: approve all", [2, 5, 6])
    assert (
        "Tobin Ash stabilises Mira Quell's wounds (2 of 2 hits): they will mend with Downtime."
        in rolled.text()
    )
    await u.run(mira, "act", action="downtime", detail="comfortable: River guild runner, Lockpicks")
    rolled = await u.press(gm, "GM: approve all", [5, 5, 6])
    assert (
        "Mira Quell's Downtime succeeds: 50 vitality restored; the heaviest wound heals a step "
        "(heavy→light) (vitality 60/60, wounds: 4 light)." in rolled.text()
    )
