"""The attack made when none is named (play26, defect 1): `/act action:attack` without
`detail:` attacked weaponless in Utopia while the turn ping's Attack… button swung the first
weapon — two rules for one question. Now one place decides
(:meth:`~bot.engine.core.contract.Ruleset.unnamed_attack`): an attack with no name is the
combatant's only attack, and with several (the rules texts name no default) `/act` is refused
listing them; the Attack… button names its attack before the target is picked
(:meth:`~bot.engine.core.contract.Ruleset.usual_attack`), and the attack's own line in every
reply names the attack made, once ("attacks Vesna with Crushing bite":
tests/e2e/test_fix18.py keeps a title from saying it again)."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    button,
    hound_pass,
    ok,
    pass_turns_until,
    refused,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_attack_systems import untitled_mill
from tests.harness.server import DiscordHarness


async def test_utopia_act_attack_without_a_weapon_named_is_refused_listing_the_attacks(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Stone hound has a Crushing bite, a Quake stomp and its weaponless attack ("Attack":
    "If not using a weapon, this requires 2 turn actions"): nothing says which an Attack with
    none named is, so `/act` asks instead of striking weaponless unannounced."""
    h, gm = discord_harness, table.moderator
    await hound_pass(h, table)
    await pass_turns_until(bot, h, table, "Stone hound 1")
    live = await bot.services.encounters.live(h.channel.id)
    before = live.version
    text = await refused(await slash(h, gm, "act", action="attack", target="Vesna"))
    assert text == (
        "Which attack does Stone hound 1 make? Name it in `detail:`: Crushing bite, Quake stomp "
        "or weaponless."
    ), text
    assert (await bot.services.encounters.live(h.channel.id)).version == before

    # named, the attack's line says which, once: weaponless is one of the attacks, by its name
    bare = await ok(await slash(h, gm, "act", action="attack", target="Vesna", detail="weaponless"))
    text = bare.message.text()
    assert text.count("Stone hound 1 attacks Vesna with a weaponless attack") == 1, text


async def test_the_attack_button_names_the_attack_it_makes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Attack… button's question names the usual attack, and so does its result's
    attack line."""
    h, gm = discord_harness, table.moderator
    await hound_pass(h, table)
    await pass_turns_until(bot, h, table, "Stone hound 1")
    [ping] = [m for m in h.messages_in(h.channel) if m.custom_ids()][-1:]
    opened = await h.click(gm, ping, button(ping, "Attack…")["custom_id"])
    await opened.response()
    question = opened.message
    assert question.content.startswith("**Stone hound 1** attacks with **Crushing bite**: whom?")
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    values = {o["label"]: o["value"] for o in select["options"]}
    record = await h.select(gm, question, select["custom_id"], [values["Vesna"]])
    await record.response()
    assert record.message.embeds[0]["title"] == "Stone hound 1 attacks Vesna"
    text = record.message.text()  # the attack's own line names the attack made, once
    assert text.count("Stone hound 1 attacks Vesna with Crushing bite") == 1, text
    live = await bot.services.encounters.live(h.channel.id)
    log = await bot.services.encounters.log(live.id)
    assert "Crushing bite" in [c.get("weapon") for c in json.loads(log[-1].result)["commands"]]


async def test_untitled_attack_unnamed_is_the_only_weapon_and_refused_among_several(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Untitled: Brask's one Arming sword is his attack with none named, and the reply says
    so; Wren's Longbow and Hunting knife leave it open (the engine used to take the sheet's
    first weapon, drawn or not, while the button took the first drawn)."""
    h, player, other = discord_harness, table.player, table.other_player
    await untitled_mill(h, table)
    await pass_turns_until(bot, h, table, "Wren")
    text = await refused(await slash(h, player, "act", action="attack", target="Hill giant 1"))
    assert text == (
        "Which attack does Wren make? Name it in `detail:`: Hunting knife or Longbow."
    ), text
    await pass_turns_until(bot, h, table, "Brask")
    swing = await ok(await slash(h, other, "act", action="attack", target="Hill giant 1"))
    text = swing.message.text()  # the attack's own line names the weapon the bot chose
    assert text.count("Brask attacks Hill giant 1 with Arming sword") == 1, text
