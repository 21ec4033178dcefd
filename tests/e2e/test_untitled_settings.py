"""Untitled's encounter settings through Discord (issue 13: Legendary "Storyteller-defined dice,
an encounter setting"; armor "above 18: the Storyteller's call, an encounter setting"; combined
move actions "a player's option the GM can refuse"): ``/gm settings rule: value:
[combatant:]`` — GM only, validated with d20, shown in ``/gm settings``, used by the rolls,
undone with ``/gm undo``. Every die is scripted."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, refused, slash
from tests.e2e.conftest import BotProcess, DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

LEGEND = {
    "system": "untitled",
    "name": "Ysolde",
    "health": 40,
    "speed_m": 9,
    "weapon_skills": [{"name": "Swords", "level": 22}],
    "combat_forms": [{"name": "Duelling", "level": 21}],
    "combat_defense": 5,
    "armor_skills": {"heavy": 20},
    "armor": {"name": "Plate", "weight": "heavy"},
    "weapons": [{"name": "Longsword", "skill": "Swords", "form": "Duelling", "reach_m": 1}],
}
GIANT = "Hill giant 1"


async def settings_text(h: DiscordHarness, table: Table) -> str:
    shown = await answered(await slash(h, table.moderator, "gm settings"))
    assert shown.message.ephemeral
    return shown.message.text()


async def legend_fight(h: DiscordHarness, table: Table, t: Table5) -> None:
    await t.gm("encounter start", name="High pass", ruleset="untitled")
    sheet = h.make_attachment("ysolde.json", json.dumps(LEGEND).encode())
    await answered(await slash(h, table.player, "character import", file=sheet))
    await t.player("encounter join", character="Ysolde")
    await answered(await slash(h, table.moderator, "npc import", example="hill-giant"))
    await t.gm("gm add-npc", template="Hill giant")
    await t.gm("encounter begin")


async def test_the_gm_sets_the_legendary_dice_for_the_encounter(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player = table.moderator, table.player
    await legend_fight(h, table, t)

    # Unset: refused before a die is rolled, saying how to set it.
    text = await refused(await slash(h, player, "act", action="attack", target=GIANT))
    assert "Level 22 is Legendary" in text and "`/gm settings rule:Legendary dice" in text
    assert dice.empty
    shown = await settings_text(h, table)
    assert "- Legendary dice: not set — the Storyteller's call (refused until set)" in shown
    assert "- Combined move actions: allowed for everyone" in shown

    # The rule's name comes from the encounter's system.
    choices = await h.autocomplete(gm, h.channel, "gm settings", focused="rule", value="arm")
    assert sorted(c["name"] for c in choices) == [
        "Heavy armor above 18",
        "Light armor above 18",
        "Medium armor above 18",
    ]

    # GM only; bad values are refused by name, and nothing changes.
    text = await refused(await slash(h, player, "gm settings", rule="Legendary dice", value="3d12"))
    assert "GM" in text
    for value, reason in (
        ("999999d999999", "dice have 2 to 1000 sides, not 999999"),
        ("200d6", "at most 100 dice, not 200"),
        ("3d12 + 100000000000", "the whole numbers add up to at most 1000"),
        ("0d12", "rolls no dice"),
        ("lots", "is not a dice expression"),
    ):
        text = await refused(await slash(h, gm, "gm settings", rule="Legendary dice", value=value))
        assert "`Legendary dice`: " in text and reason in text, text
    text = await refused(await slash(h, gm, "gm settings", rule="Legendary dice"))
    assert "Give a `rule:` and its `value:` together." in text
    text = await refused(await slash(h, gm, "gm settings", combatant="Ysolde"))
    assert "`combatant:` goes with a `rule:` set for one combatant." in text
    text = await refused(
        await slash(h, gm, "gm settings", rule="Legendary dice", value="3d12", npcs_react=True)
    )
    assert "Set a `rule:` on its own" in text
    text = await refused(await slash(h, gm, "gm settings", rule="Mythic dice", value="3d12"))
    assert "Untitled has no encounter rule called 'Mythic dice'" in text
    text = await refused(
        await slash(h, gm, "gm settings", rule="Legendary dice", value="3d12", combatant="Ysolde")
    )
    assert "whole encounter: leave `combatant:` out" in text
    assert "not set" in await settings_text(h, table)

    set_ = await t.gm("gm settings", rule="legendary dice", value="3d12")
    assert "Legendary dice: 3d12 in this encounter (the Storyteller's call)." in set_.text()
    assert "- Legendary dice: 3d12 (this encounter)" in await settings_text(h, table)

    # Swords 22: 3d12 [2, 2, 2] + 22 = 28 against the giant's 2d6 [6, 6] + 2 = 14: a critical
    # (28 >= 2 x 14); one tier above Legendary is its dice and one d12 more: [1, 1, 1, 1] + 21.
    dice.load([2, 2, 2, 6, 6, 1, 1, 1, 1, 1])
    hit = await t.player("act", action="attack", target=GIANT)
    assert "3d12 [2] [2] [2] + 22 = 28" in hit.text() and dice.empty
    assert "a critical hit" in hit.text()

    # Undo takes the attack back, then the setting.
    await answered(await slash(h, gm, "gm undo"))
    undone = await answered(await slash(h, gm, "gm undo"))
    assert "Undid **/gm settings**" in undone.message.text()
    assert "- Legendary dice: not set" in await settings_text(h, table)
    text = await refused(await slash(h, player, "act", action="attack", target=GIANT))
    assert "Level 22 is Legendary" in text


async def test_the_gm_sets_armor_above_18_and_refuses_a_combined_move(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player = table.moderator, table.player
    await legend_fight(h, table, t)
    await t.gm("gm settings", rule="Legendary dice", value="3d12")
    await t.player("endturn")

    # The giant's club on Ysolde, plate at heavy armor 20: refused until the GM sets it.
    text = await refused(await slash(h, gm, "act", action="attack", target="Ysolde"))
    assert "Heavy armor at level 20" in text and "rule:Heavy armor above 18 value:5d8" in text
    await t.gm("gm settings", rule="Heavy armor above 18", value="5d8")
    assert "- Heavy armor above 18: 5d8 (this encounter)" in await settings_text(h, table)
    # Clubs 9: 2d8 [8, 7] + 9 = 24 against 2d6 [3, 3] + 5 = 11: a critical (24 >= 22);
    # Crushing blows 11 a tier up: Master 2d12 [6, 6] + 11 = 23; the plate 5d8 [2, 2, 2, 2, 2].
    dice.load([8, 7, 3, 3, 6, 6, 2, 2, 2, 2, 2])
    club = await t.gm("act", action="attack", target="Ysolde")
    assert "5d8" in club.text() and "13 Health lost" in club.text() and dice.empty
    await t.gm("endturn")

    # Combined move actions: the GM refuses Ysolde's; she draws with a move of its own.
    await t.player("act", action="stow", detail="Longsword")
    text = await refused(
        await slash(
            h,
            player,
            "gm settings",
            rule="Combined move actions",
            value="refused",
            combatant="Ysolde",
        )
    )
    assert "GM" in text
    text = await refused(
        await slash(h, gm, "gm settings", rule="Combined move actions", value="refused")
    )
    assert "set for one combatant: name it with `combatant:`" in text
    refusal = await t.gm(
        "gm settings", rule="Combined move actions", value="refused", combatant="Ysolde"
    )
    assert "Ysolde may not combine move actions (the Storyteller's call)." in refusal.text()
    assert "- Combined move actions: refused for Ysolde" in await settings_text(h, table)
    text = await refused(
        await slash(
            h, gm, "gm settings", rule="Combined move actions", value="refused", combatant="Ysolde"
        )
    )
    assert "Ysolde already may not combine move actions." in text
    text = await refused(
        await slash(h, player, "act", action="move", amount=3.0, detail="Longsword")
    )
    assert "The Storyteller refused Ysolde's combined move actions" in text
    drawn = await t.player("act", action="draw", detail="Longsword")
    assert "draw their Longsword" in drawn.text()


async def test_the_storytellers_dice_outlast_a_sigkill(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h = discord_harness
    await bot_process.start()
    t = Table5(h, table, DiceBox())
    await legend_fight(h, table, t)
    await t.gm("gm settings", rule="Legendary dice", value="2d12 + 1d10")
    await t.gm("gm settings", rule="Combined move actions", value="refused", combatant="Ysolde")

    bot_process.kill()
    await bot_process.start()

    shown = await settings_text(h, table)
    assert "- Legendary dice: 2d12 + 1d10 (this encounter)" in shown
    assert "- Combined move actions: refused for Ysolde" in shown
    hit = await t.player("act", action="attack", target=GIANT)
    assert "Longsword (Legendary): 2d12 + 1d10 [" in hit.text(), hit.text()
