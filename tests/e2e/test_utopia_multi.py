"""Utopia's multi-weapon attack through Discord ("Multi-weapon Attacks"): the Stone hound bites
and stomps Vesna at once with ``/act attack detail:"Crushing bite, Quake stomp"`` — the highest
TA once, each weapon's roll halved with its modifier in full, one defense prompt per weapon;
the same weapon twice is refused and changes nothing."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, press, refused, slash, version
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_utopia_assist import utopia_fight
from tests.harness.server import DiscordHarness


async def test_a_multi_weapon_attack_gives_one_defense_per_weapon(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, gm = discord_harness, table.moderator
    await utopia_fight(h, table, dice)
    await ok(await slash(h, gm, "gm place apart", combatant="Brannoc"))  # no Assist here
    before = await version(scripted_bot, h)
    text = await refused(
        await slash(
            h, gm, "act", action="attack", target="Vesna", detail="Crushing bite, crushing bite"
        )
    )
    assert "Crushing bite is named twice" in text
    assert await version(scripted_bot, h) == before
    # Bite (1d10 [9]) / 2 = 4, + Power 2 = 6, − Vesna's 2 = 4; stomp (1d6 [5]) / 2 = 2 kinetic.
    dice.load([9, 5])
    both = await ok(
        await slash(
            h, gm, "act", action="attack", target="Vesna", detail="Crushing bite, Quake stomp"
        )
    )
    shown = str(both.response_data)
    assert "Crushing bite damage: [9] physical; 4 after defenses" in shown, shown
    assert "Quake stomp damage: [5] kinetic; 2 after defenses" in shown, shown
    assert "/ 2" not in shown  # how the hound's damage is worked out is the GM's to see
    live = await scripted_bot.services.encounters.live(h.channel.id)
    hound = next(c for c in live.state.combatants if c.name == "Stone hound 1")
    assert hound.pools["turn"] == 6 - 3  # the highest TA (the stomp's 3), once
    await h.wait_for(
        lambda: any("with **Quake stomp**" in m.content for m in h.messages_in(h.channel))
    )
    stomp = next(m for m in h.messages_in(h.channel) if "with **Quake stomp**" in m.content)
    assert "Crushing bite" in both.message.content
    dice.load([1])  # Vesna's Block 1d4 [1] against the bite: 3 taken
    await press(h, table.player, both.message, "Block (1 IA)")
    dice.load([12, 12])  # her Dodge 2d12 against the stomp: 24 ≥ 2, nothing taken
    await press(h, table.player, stomp, "Dodge (1 IA)")
    live = await scripted_bot.services.encounters.live(h.channel.id)
    vesna = next(c for c in live.state.combatants if c.name == "Vesna")
    assert live.state.decisions == [] and vesna.shp == vesna.sheet.shp - 3
    assert vesna.pools["interrupt"] == 0  # one IA per defense
