"""A whole Untitled fight through slash commands and buttons (issue 13, "Done when"): the GM
starts an Untitled encounter, two players' Wren and Brask and the GM's Bandit crossbowman join,
the Storyteller's order is the join order until the GM moves someone (``/gm order``) or rolls
the order die (``/gm roll-order``), Wren draws while moving, shoots and reloads with the second
move, Brask holds his action and keeps the new place, the bandit's crossbow bolt on Wren (no
shield) is rolled at once while its sword on Brask waits on his shield button, and the fight
ends when the bandit's Health reaches 0. Every die is scripted."""

from __future__ import annotations

from bot.client import CombatBot
from bot.engine.untitled.ruleset import UntitledRuleset
from tests.e2e.combat_helpers import answered, press, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

BANDIT = "Bandit crossbowman 1"


def labels(message: object) -> list[str]:
    rows = getattr(message, "components", [])
    return [c.get("label", "") for row in rows for c in row.get("components", [])]


async def board(h: DiscordHarness, member: object) -> str:
    status = await slash(h, member, "encounter status")  # type: ignore[arg-type]
    await status.response()
    text: str = status.response_data["embeds"][0]["description"]
    return text


async def test_an_untitled_fight_through_discord(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player, other = table.moderator, table.player, table.other_player

    started = await t.gm("encounter start", name="Reed ford", ruleset="untitled")
    assert f"Untitled · rules v{UntitledRuleset.rules_version}" in started.text()
    await answered(await slash(h, player, "character import", example="wren"))
    await answered(await slash(h, other, "character import", example="brask"))
    await t.player("encounter join", character="Wren")
    await answered(await slash(h, other, "encounter join", character="Brask"))
    await answered(await slash(h, gm, "npc import", example="bandit-crossbowman"))
    await t.gm("gm add-npc", template="Bandit crossbowman")

    # The Storyteller's order: the join order is the suggestion; nothing is rolled.
    begun = await t.gm("encounter begin")
    assert "Order (the Storyteller's; the GM changes it with `/gm order`): 1. Wren, 2. Brask, " in (
        begun.text()
    )
    assert "Agility" not in begun.text() and "Initiative" not in begun.text()
    assert "it is **Wren**'s turn (round 1): up to two move actions and a standard action" in (
        begun.text()
    )
    moved = await t.gm("gm order", combatant=BANDIT, position=2)
    assert "Order: 1. Wren, 2. Bandit crossbowman 1, 3. Brask" in moved.text()
    # The order die (a d20) between two: they take the places they held, highest first.
    dice.load([4, 17])
    rolled = await t.gm("gm roll-order", combatant=BANDIT, other="Brask")
    assert "The order is rolled (d20): Bandit crossbowman 1 4, Brask 17." in rolled.text()
    assert "Order: 1. Wren, 2. Brask, 3. Bandit crossbowman 1" in rolled.text()
    text = await refused(await slash(h, gm, "gm roll-order", combatant="Brask"))
    assert "Name two combatants to break a tie between them, or none for everyone." in text
    text = await refused(await slash(h, player, "gm roll-order"))
    assert "GM" in text

    # ---- Wren: draws the bow while moving, shoots (the standard), reloads with the 2nd move --
    drew = await t.player("act", action="move", amount=9.0, detail="Longbow")
    assert "Wren moves 9 m while drawing their Longbow." in drew.text()
    # Bows 7 (Journeyman 2d8 [3, 2] + 7 = 12) against Combat Defense 2 (2d6 [4, 3] + 2 = 9):
    # a hit; Archery 4 (2d6 [3, 3] + 4 = 10), light armor 1d4 [2]: 8 of 16 Health.
    dice.load([3, 2, 4, 3, 3, 3, 2])
    shot = await t.player("act", action="attack", target=BANDIT, detail="Longbow")
    assert "2d8 [3] [2] + 7 = 12 against Combat Defense: [4, 3]: a hit" in shot.text()
    assert "Bloodied" in shot.text() and "8 Health lost" not in shot.text()
    assert labels(h.message(shot)) == []  # no shield: rolled at once
    reloaded = await t.player("act", action="reload")
    assert "Wren spends 1 move action to reload their Longbow." in reloaded.text()
    text = await refused(await slash(h, player, "act", action="move", amount=1.0))
    assert "no move action left" in text
    await t.player("endturn")

    # ---- Brask holds his action until the bandit shoots. ----------------------------------
    held = (
        await answered(await slash(h, other, "act", action="hold", detail="the bandit shoots"))
    ).message
    assert "Brask holds their action until the bandit shoots." in held.text()
    assert "Round 1: Bandit crossbowman 1's turn." in held.text()

    # ---- The bandit's bolt at Wren: she has no shield, so it is rolled at once. -------------
    dice.load([4, 4, 2, 2, 3, 3, 1])
    bolt = await t.gm("act", action="attack", target="Wren", detail="Heavy crossbow")
    assert "Heavy crossbow: [4, 4] against Combat Defense (Novice): 2d6 [2] [2] + 3 = 7" in (
        bolt.text()
    )
    assert "8 Health lost, 14 left" in bolt.text() and labels(h.message(bolt)) == []
    # The bolt is his moment: Brask acts when the bandit's turn ends, and keeps that place.
    resumed = (await answered(await slash(h, other, "act", action="resume"))).message
    assert "Brask will act as soon as the current turn ends." in resumed.text()
    ended = await t.gm("endturn")
    assert "Brask takes their held action and goes after Bandit crossbowman 1 from now on." in (
        ended.text()
    )
    assert "Round 1: Brask's turn" in ended.text()
    dice.load([1, 1, 4, 4])
    missed = (await answered(await slash(h, other, "act", action="attack", target=BANDIT))).message
    assert "2d8 [1] [1] + 6 = 8 against Combat Defense: [4, 4]: a miss." in missed.text()
    await answered(await slash(h, other, "endturn"))

    # The tracker: each player sees their own numbers, the NPC's Health hidden; the GM sees it.
    seen = await board(h, player)
    assert "**Wren** · 2 move · 1 std · Health 14/22" in seen
    assert "**Bandit crossbowman 1** · Bloodied · NPC" in seen and "8/16" not in seen
    assert "Health 8/16" in await board(h, gm)

    # ---- Round 2: Wren, the bandit, Brask — the hold moved him for good. -------------------
    await t.player("endturn")
    # The bandit's sword on Brask: he carries a shield, so the choice is his (buttons).
    cut = await t.gm("act", action="attack", target="Brask", detail="Short sword")
    assert "**Brask** may defend with their Oak heater shield or with Combat Defense alone." in (
        cut.text()
    )
    assert labels(h.message(cut)) == ["Raise the Oak heater shield", "Combat Defense alone"]
    # Short blades 2 [6, 6] + 2 = 14 against Combat Defense 5 [3, 3] + 5 and the shield [2, 2]:
    # 15, a miss.
    dice.load([6, 6, 3, 3, 2, 2])
    await press(h, other, cut, "Raise the Oak heater shield")
    assert dice.empty
    assert "a miss" in h.message(cut).text()
    turn = await t.gm("endturn")
    assert "Round 2: Brask's turn" in turn.text()

    # ---- Brask's critical: 22 is at least double the defense 4; damage a tier higher (Expert
    # 2d10 + 5 = 15), light armor [2]: 13 of the 8 left — Down, and the fight is over. -----
    dice.load([8, 8, 1, 1, 5, 5, 2])
    crit = (await answered(await slash(h, other, "act", action="attack", target=BANDIT))).message
    assert "a critical hit" in crit.text() and "(Expert, critical)" in crit.text()
    assert "Bandit crossbowman 1 is now Down (their Health is 0)." in crit.text()
    assert "Winner: the party side." in crit.text()


async def test_a_system_without_an_order_die_refuses_it_by_name(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await answered(await slash(h, table.gm, "encounter start", name="Bridge"))
    text = await refused(await slash(h, table.gm, "gm roll-order"))
    assert "UTTAS has no die roll for the order in the bot." in text
