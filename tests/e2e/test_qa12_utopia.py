"""QA round 12: Utopia as a brand-new table plays it, and its newest parts attacked through
Discord. Each test here is a problem found, marked ``xfail(strict=True)`` until the bot is
fixed: the test states what a user should see."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, hound_pass, ok, pass_turns_until, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"


async def _state(bot: CombatBot, h: DiscordHarness) -> str:
    return (await bot.services.encounters.live(h.channel.id)).state_json


async def _readme_fight(h: DiscordHarness, table: Table) -> None:
    """The README's "A Utopia fight", literally: the GM starts it, the player brings Vesna,
    the server GM imports the Bandit archer, the GM adds one and begins."""
    gm, player = table.gm, table.player
    await ok(await slash(h, gm, "encounter start", name="Reed Ford", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await answered(await slash(h, table.moderator, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer"))
    await ok(await slash(h, gm, "encounter begin"))


async def hound_fight(h: DiscordHarness, table: Table) -> None:
    """A Stone hound (the GM's) against Vesna and Brannoc (the two players'), all engaged."""
    gm = table.moderator
    await hound_pass(h, table)
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Brannoc"))
    await ok(await slash(h, gm, "gm place engage", a="Vesna", b="Stone hound 1"))


# ---- hidden NPC numbers ---------------------------------------------------------------------


async def test_npc_damage_expression_does_not_show_its_hidden_modifier(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await _readme_fight(h, table)
    await pass_turns_until(bot, h, table, BANDIT)
    # The GM's Hatchet swing (1d6 + the bandit's Power modifier, −2) at Vesna, in the channel.
    swing = await ok(
        await slash(h, table.gm, "act", action="attack", target="Vesna", detail="Hatchet")
    )
    shown = swing.message.text()
    assert "Hatchet damage" in shown, shown
    # Players see the dice, as for the bandit's tests ("[4, 6, 4, 3] against difficulty 12"),
    # never the modifier its hidden Power gives.
    assert "- 2" not in shown and "−2" not in shown and "− 2" not in shown, shown


# ---- casting --------------------------------------------------------------------------------


async def test_a_spell_with_fixed_damage_shows_no_phantom_dice(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    spells = [{"name": "Spark", "stamina": 1, "damage": "5", "range_m": 0}]
    await answered(await slash(h, table.player, "character import", example="vesna"))
    await answered(
        await slash(
            h,
            table.player,
            "character edit",
            name="Vesna",
            field="spells",
            value=json.dumps(spells),
        )
    )
    await _readme_fight(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    cast = await ok(
        await slash(
            h, table.player, "act", action="cast", detail="Spark", target=BANDIT, amount=1.0
        )
    )
    shown = cast.message.text()
    assert "Spark damage" in shown, shown
    assert "0d1" not in shown and "[]" not in shown, shown


# ---- pledged Assists --------------------------------------------------------------------------


async def test_pledging_an_assist_to_an_enemy_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await hound_fight(h, table)
    before = await _state(bot, h)
    record = await answered(
        await slash(h, table.player, "act", action="assist", target="Stone hound 1", detail="test")
    )
    content = str(record.response_data)
    assert record.ephemeral, content
    assert "Something went wrong" not in content
    assert "Stone hound 1" in content, content
    assert await _state(bot, h) == before


# ---- what a newcomer can find out ---------------------------------------------------------------


async def test_help_for_check_tells_a_utopia_player_it_takes_a_trait(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await _readme_fight(h, table)
    record = await answered(await slash(h, table.player, "help", topic="check"))
    shown = str(record.response_data)
    assert record.ephemeral
    assert "/check" in shown, shown
    assert "trait" in shown.lower(), shown
