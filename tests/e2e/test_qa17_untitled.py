"""Audit 17 of Untitled against ``untitled-combat.txt``, through Discord with scripted dice: a
defender's shield whose skill is Legendary while the Storyteller has set no Legendary dice
(rules version 4 checks the shield's dice when the attack is declared)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "untitled"


async def test_a_legendary_shield_is_checked_when_the_attack_is_declared(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Brask's Heater shield skill is 22, Legendary: "Storyteller" on the ladder. The giant's
    swing at him is refused before anything is paid, naming how to set the dice — version 3
    declared it, and then raising the shield (and the window running out, which raises it)
    was refused while the GM could not set the dice with the attack waiting. Once the GM sets
    them, the swing waits on Brask's choice and the raised shield rolls 3d12."""
    h = discord_harness
    t = Table5(h, table, dice)
    await t.gm("encounter start", name="Burnt mill", ruleset="untitled")
    await answered(await slash(h, table.player, "character import", example="wren"))
    data = json.loads((SHEETS / "brask.json").read_text())
    data["shield_skills"] = [{"name": "Heater shield", "level": 22}]
    upload = h.make_attachment("brask.json", json.dumps(data).encode())
    await answered(await slash(h, table.other_player, "character import", file=upload))
    await t.player("encounter join", character="Wren")
    await ok(await slash(h, table.other_player, "encounter join", character="Brask"))
    await answered(await slash(h, table.moderator, "npc import", example="hill-giant"))
    await t.gm("gm add-npc", template="Hill giant")
    await t.gm("encounter begin")
    await t.player("endturn")
    await ok(await slash(h, table.other_player, "endturn"))

    text = await refused(await slash(h, table.moderator, "act", action="attack", target="Brask"))
    assert "Level 22 is Legendary" in text and "rule:Legendary dice" in text, text
    assert dice.empty

    await t.gm("gm settings", rule="Legendary dice", value="3d12")
    swing = await t.gm("act", action="attack", target="Brask")
    # Clubs 9: 2d8 + 9 = 20 against Combat Defense 5: 2d6 + 5 = 12, + the shield's 3d12 = 3:
    # a hit; Crushing blows 11: 2d10 + 11 = 18; the mail's 2d6 stops 6: 12 lost (30 → 18).
    await t.decide(
        table.other_player, swing, "Raise the Oak heater shield", [6, 5, 4, 3, 1, 1, 1, 4, 3, 4, 2]
    )
    result = h.message(swing).text()
    assert "3d12" in result and "Legendary" in result, result
    assert "12 Health lost, 18 left" in result, result
    assert h.message(swing).components == []


async def test_a_servers_ten_standard_actions_are_ten(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The GM gives every round ten standard actions (`/tables set` allows up to ten): Wren's
    turn says so and she attacks twice. Version 3 read the packed counts as three moves and
    no standard action, refusing her first attack."""
    h = discord_harness
    t = Table5(h, table, dice)
    set_ = await slash(
        h, table.moderator, "tables set", ruleset="untitled", entry="round.standard", value="10"
    )
    await answered(set_)
    await t.gm("encounter start", name="Burnt mill", ruleset="untitled")
    await answered(await slash(h, table.player, "character import", example="wren"))
    await t.player("encounter join", character="Wren")
    await answered(await slash(h, table.moderator, "npc import", example="hill-giant"))
    await t.gm("gm add-npc", template="Hill giant")
    begun = await t.gm("encounter begin")
    assert "2 moves and 10 standards" in begun.text(), begun.text()
    # Bows 7: 2d8 + 7 = 9 against the giant's 2d6 + 2 = 12, a miss; she reloads (her second
    # move action) and shoots again with a second standard action.
    await t.player("act", action="draw", detail="Longbow")
    dice.load([1, 1, 5, 5])
    await t.player("act", action="attack", target="Hill giant 1", detail="Longbow")
    await t.player("act", action="reload")
    dice.load([1, 1, 5, 5])
    shot = await t.player("act", action="attack", target="Hill giant 1", detail="Longbow")
    assert "a miss" in shot.text(), shot.text()
    assert dice.empty
