"""A ranged martial art through Discord (issue 11, Missing 8; UTTAS "Stamina Costs": "Damage
added through ranged Martial Arts do not add to the Stamina cost"; "Range Modifiers"): the sheet
says its range, ``/character show`` lists it, ``/attack`` strikes at range paying only the
Strength dice, and a sheet with an impossible range is refused at import."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, pass_turns_until, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

MONK = {
    "name": "Monk",
    "agility": 14,
    "strength": 10,
    "speed": 4,
    "health": 20,
    "stamina": 30,
    "martial_arts": [
        {"name": "Wind Palm", "maneuver": "attack", "bonus_dice": 3, "range_m": 10},
    ],
}


async def test_a_ranged_martial_art_strikes_at_range_for_its_strength_dice(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Courtyard"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=1))
    sheet = h.make_attachment("monk.json", json.dumps(MONK).encode())
    await answered(await h.slash(player, h.channel, "character import", {"file": sheet}))
    shown = await h.slash(player, h.channel, "character show", {"name": "Monk"})
    await shown.response()
    assert "ranged, range 10 m" in str(shown.response_data)
    await ok(await slash(h, player, "encounter join", character="Monk"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Monk")

    far = await refused(
        await slash(h, player, "attack", target="Thug 1", with_="Wind Palm", range=100)
    )
    assert "out of range" in far and "Wind Palm (10 m)" in far
    done = await ok(await slash(h, player, "attack", target="Thug 1", with_="Wind Palm", range=8))
    assert "Monk spends 2 Stamina on Wind Palm (28 left)" in done.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Monk").stamina == 28


async def test_a_sheet_with_a_ranged_defence_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    bad = {**MONK, "martial_arts": [{"name": "Far Wall", "maneuver": "block", "range_m": 10}]}
    attachment = h.make_attachment("bad.json", json.dumps(bad).encode())
    record = await h.slash(table.player, h.channel, "character import", {"file": attachment})
    await record.response()
    text = (
        (await record.followup(0)).text()
        if record.deferred
        else str(record.response_data.get("content"))
    )
    assert "only an attack or counter martial art is ranged" in text
