"""Every rule the engine has is reachable from Discord (issue 11, "Reachable through Discord"):
a Grapple names the limbs it grabs and a called shot the limb it aims at, as `/attack`
options (UTTAS "Conditions": Grappled, Disabled Limb)."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_a_grapple_names_its_limbs_and_a_called_shot_its_limb(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Thug 1")
    text = await refused(await slash(h, gm, "attack", target="Willow", with_="Grapple"))
    assert "limb" in text
    names = await h.autocomplete(gm, h.channel, "attack", "limbs", "left arm, ri", target="Willow")
    assert "left arm, right arm" in [c["value"] for c in names]
    grab = await ok(
        await slash(h, gm, "attack", target="Willow", with_="Grapple", limbs="left arm, right arm")
    )
    await press(h, player, grab.message, "Take it")
    live = await bot.services.encounters.live(h.channel.id)
    declared = [e for e in await bot.services.encounters.log(live.id) if e.command == "attack"]
    assert json.loads(declared[-1].result)["commands"][0]["limbs"] == ["left arm", "right arm"]
    await pass_turns_until(bot, h, table, "Thug 2")
    await ok(
        await slash(h, gm, "attack", target="General Bearington", with_="Cudgel", aim="left leg")
    )
    declared = [e for e in await bot.services.encounters.log(live.id) if e.command == "attack"]
    assert json.loads(declared[-1].result)["commands"][0]["aimed_limb"] == "left leg"
    assert json.loads(declared[-1].options)["aim"] == "left leg"
