"""The UTTAS text's "Chase Scenes in Action", played through Discord: the GM runs the arsonist
and the chase (``/gm chase``, ``/gm damage``, ``/gm place``), the player runs Willow, each with
the slash commands and buttons they would use.

As in "Combat in action" (tests/e2e/test_worked_example.py), the text fixes what happens, not
the dice, so every die is SCRIPTED to give the narrated outcome — the two numbers the text does
give (the arsonist's Stealth 21 on 6d6, Willow's Perception 23) are rolled as given. The sheets
are the shipped examples ``willow`` and ``arsonist`` (same Run 12 and Speed 6: a chase).
"""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness


async def test_chase_scenes_in_action(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player = table.moderator, table.player

    await t.gm("encounter start", name="Wildfire")
    await answered(await slash(h, player, "character import", example="willow"))
    await t.player("encounter join", character="Willow")
    await answered(await slash(h, gm, "npc import", example="arsonist"))
    await t.gm("gm add-npc", template="Arsonist")  # he joins as Arsonist 1
    await t.gm("gm settings", npcs_react=True)
    begun = await t.gm("encounter begin")  # Agility 13 before 12: no tie, no dice
    assert "**Arsonist 1**'s turn" in begun.text()

    # The condition of "Chase Scenes": the same movement and Speed. They start 12 m apart.
    started = await t.gm("gm chase start", quarry="Arsonist 1", pursuer="Willow", gap=12.0)
    assert "Willow chases Arsonist 1, 12 m apart — both at 12 m and Speed 6" in started.text()

    # ---- Round 1 ---------------------------------------------------------------------------
    # The arsonist hides: 6d6 for a score of 21. The players see the faces, not his total.
    dice.load([6, 5, 4, 3, 2, 1])
    hid = await t.gm("check", skill="Stealth")
    assert "Arsonist 1 is now Hidden" in hid.text() and "= 21" not in hid.text()
    # Willow cannot strike what she cannot see …
    text = await refused(await slash(h, player, "attack", target="Arsonist 1", with_="Blast"))
    assert "Arsonist 1 is hidden: find them first" in text
    # … so she looks: Perception 6d6, one Disadvantage at 12 m ("Range Modifiers"): 5 dice, 23.
    dice.load([5, 5, 5, 4, 4])
    seen = await t.player("check", skill="Perception", target="Arsonist 1")
    assert "Willow's Perception" in seen.text() and "23" in seen.text()
    assert "12 m away: 1 Disadvantage" in seen.text() and "finds Arsonist 1" in seen.text()
    assert "Arsonist 1 is no longer Hidden (found by Willow)" in seen.text()

    # ---- Round 2 ---------------------------------------------------------------------------
    # The arsonist lights a bush as he runs (his half move; the chase keeps the gap).
    await t.gm("move", meters=6.0)
    await t.gm("endturn")
    # Willow braves the fire (the GM's hazard: 2d6 heat through her Defense) …
    dice.load([3, 4])
    burnt = await t.gm("gm damage", target="Willow", dice=2, type="heat", source="the burning bush")
    assert "the burning bush" in burnt.text() and "Willow" in burnt.text()
    # … and finds a short cut (Knowledge (Nature) 4d6 against the GM's 15); her action ends the
    # round, and the GM closes the gap to 6 m.
    dice.load([4, 4, 4, 4])
    shortcut = await t.player("check", skill="Knowledge (Nature)", difficulty=15)
    assert "vs 15 — success" in shortcut.text()
    await t.gm("gm place distance", a="Willow", b="Arsonist 1", meters=6.0)

    def chase_shown() -> str:  # the tracker (reposted at the bottom as the fight goes on)
        return next((m.text() for m in h.messages_in(h.channel) if "chasing" in m.text()), "")

    await h.wait_for(lambda: "R2 12 m · R3 6 m" in chase_shown())
    scene = chase_shown()
    assert "Willow chasing Arsonist 1 since round 1" in scene
    assert "Willow ↔ Arsonist 1: R1 12 m · R2 12 m · R3 6 m" in scene  # the gap, round by round

    # ---- Round 3 ---------------------------------------------------------------------------
    # The arsonist goes off the path and hides (20); Willow tracks him (Tracking 5d6: 21).
    dice.load([4, 4, 4, 3, 3, 2])
    await t.gm("check", skill="Stealth")
    dice.load([5, 5, 4, 4, 3])
    tracked = await t.player("check", skill="Tracking", target="Arsonist 1")
    assert "finds Arsonist 1" in tracked.text()

    # ---- Round 4 ---------------------------------------------------------------------------
    # He Sprints and hopes for the best; Willow has him within range of her Entangle.
    assert "sprints 24 m" in (await t.gm("sprint", meters=24.0)).text()
    prompt = await t.player("attack", target="Arsonist 1", with_="Entangle")
    await t.decide(gm, prompt, "Take it", [5, 5, 5])
    assert "Arsonist 1 is now Entangled" in t.seen(prompt)

    # ---- Round 5 ---------------------------------------------------------------------------
    # He breaks down half of the Entangle; Willow moves forward and Fire Blasts him out cold.
    broke = await t.gm("act", action="break-free")
    assert "Arsonist 1 is now Entangled (broke part of it, 1 of 2 parts left)" in broke.text()
    await t.player("move", meters=4.0, toward="Arsonist 1")
    prompt = await t.player("attack", target="Arsonist 1", with_="Fire Blast")
    await t.decide(gm, prompt, "Take it", [5, 5, 5, 1, *[6] * 8])  # Entangled: an Advantage die
    end = t.seen(prompt)
    assert "Arsonist 1 looks **Down**" in end
    assert "The chase ends after 5 rounds: Arsonist 1 is caught." in end
    assert "The fight is over" in end

    # A chase needs the text's condition: nobody can chase a fallen foe now, and the GM alone
    # runs chases.
    text = await refused(await slash(h, player, "gm chase end"))
    assert "Only the GM" in text
    text = await refused(await slash(h, gm, "gm chase end"))
    assert "No chase is running" in text
