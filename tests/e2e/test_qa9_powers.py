"""QA9: powers that are not attacks, and the tables entries they read (issue 11, "Powers that
are not attacks"): a Barrier on someone already Barred, a Barrier condition the tables lack."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import against_a_thug, answered, ok, pass_turns_until, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_power_effects import SAGE
from tests.harness.server import DiscordHarness


async def stamina(bot: CombatBot, h: DiscordHarness, name: str) -> int:
    live = await bot.services.encounters.live(h.channel.id)
    return int(next(c for c in live.state.combatants if c.name == name).stamina)


async def test_a_barrier_on_someone_already_barred_says_what_it_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await against_a_thug(h, table, SAGE)
    await pass_turns_until(bot, h, table, "Sage")
    first = await ok(await slash(h, player, "power", name="Wall", target="Thug 1"))
    assert "Thug 1 is now Barred 2" in first.message.text()
    await pass_turns_until(bot, h, table, "Sage")
    before = await stamina(bot, h, "Sage")
    again = await answered(await slash(h, player, "power", name="Wall", target="Thug 1"))
    if again.ephemeral:  # refused: then nothing may be spent
        assert "Barred" in again.response_data["content"]
        assert await stamina(bot, h, "Sage") == before
    else:  # accepted: the reply must say what became of the Barrier
        text = again.message.text()
        lines = [line for line in text.splitlines() if "Thug 1" in line and "Barred" in line]
        assert lines, text


async def test_a_barrier_condition_the_tables_lack_is_refused_when_set(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    done = await slash(h, gm, "tables set", entry="powers.barrier_condition", value='"Nonexistent"')
    await done.response()
    assert done.ephemeral
    assert "is now" not in done.response_data["content"], done.response_data["content"]
    assert "Nonexistent" in done.response_data["content"]
    assert (await bot.services.tables.overrides(h.guild.id)) == {}


async def test_an_invisibility_found_out_can_be_used_again(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    bot, h, gm, player = scripted_bot, discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Grove"))
    await answered(await slash(h, player, "character import", example="willow"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    sheet = h.make_attachment("sage.json", json.dumps(SAGE).encode())
    await answered(await slash(h, table.other_player, "character import", file=sheet))
    await ok(await slash(h, table.other_player, "encounter join", character="Sage"))
    dice.load([6] * 10 + [1] * 10)  # Agility 14 each: the tie's dice (some unused)
    await ok(await slash(h, gm, "encounter begin"))
    dice.faces.clear()
    await pass_turns_until(bot, h, table, "Sage")
    vanished = await ok(await slash(h, table.other_player, "power", name="Vanish"))
    assert "Sage is now Hidden" in vanished.message.text()
    await pass_turns_until(bot, h, table, "Willow")
    dice.load([6] * 6)
    found = await ok(await slash(h, player, "check", skill="Perception", target="Sage"))
    assert "Sage is no longer Hidden (found by Willow)" in found.message.text()
    await pass_turns_until(bot, h, table, "Sage")
    again = await answered(await slash(h, table.other_player, "power", name="Vanish"))
    if again.ephemeral:  # refused: then the refusal must say how to vanish again
        assert "drop" in again.response_data["content"].casefold(), again.response_data
    else:
        assert "Sage is now Hidden" in again.message.text()
