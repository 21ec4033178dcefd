"""Utopia "Casting a spell" through Discord: ``/act action:cast`` spends 3 TA and the spell's
Stamina, its damage waits on the target's defense like an attack's, and the refusals are
ephemeral and specific."""

from __future__ import annotations

import json
from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.harness.server import DiscordHarness

MAGE: dict[str, Any] = {
    "system": "utopia",
    "name": "Ilse",
    "subtraits": {"dexterity": 4, "speed": 5, "power": 2},
    "shp": 12,
    "dhp": 10,
    "stamina": 10,
    "spells": [
        {"name": "Firebolt", "stamina": 2, "damage": "2d6", "damage_type": "heat", "range_m": 20}
    ],
}


async def utopia_fight(
    h: DiscordHarness, table: Table, dice: DiceBox, sheet: dict[str, Any]
) -> None:
    """A Utopia encounter: the Bandit archer (the GM's) and the player's ``sheet``; the
    player's Speed test is higher, so the player goes first."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Ruins", ruleset="utopia"))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer", count=1))
    upload = h.make_attachment("mage.json", json.dumps(sheet).encode())
    await answered(await h.slash(player, h.channel, "character import", {"file": upload}))
    await ok(await slash(h, player, "encounter join", character=sheet["name"]))
    dice.load([1, 1, 1, 6, 6, 6])
    await ok(await slash(h, gm, "encounter begin"))


async def test_casting_a_spell_through_act(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, player = discord_harness, table.player
    await utopia_fight(h, table, dice, MAGE)
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.name == "Ilse"

    unknown = await refused(await slash(h, player, "act", action="cast", detail="Meteor"))
    assert "Ilse has no spell called 'Meteor' (spells: Firebolt)" in unknown
    far = await refused(
        await slash(
            h, player, "act", action="cast", detail="Firebolt", target="Bandit archer 1", amount=30
        )
    )
    assert "out of Firebolt's range (20 m)" in far

    dice.load([5, 4])
    cast = await ok(
        await slash(
            h, player, "act", action="cast", detail="Firebolt", target="Bandit archer 1", amount=15
        )
    )
    text = cast.message.text() if cast.message else json.dumps(cast.response_data)
    assert "Ilse spends 3 TA to cast Firebolt at Bandit archer 1" in text
    assert "Ilse casts Firebolt at Bandit archer 1 (3 TA, 2 Stamina; Stamina 8 left)" in text
    live = await scripted_bot.services.encounters.live(h.channel.id)
    ilse = live.state.current
    assert ilse is not None and ilse.stamina == 10 - 2 and ilse.pools["turn"] == 3
    assert "Bandit archer 1 does not defend and takes damage: Hurt." in text
    assert dice.empty
