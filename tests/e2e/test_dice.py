"""Dice as people type them, through the real bot: ``/roll`` and ``/gm hp`` read any letter
case, ``d%`` and a label after the expression, and refuse absurd input with a clear, specific
message only the member sees."""

from __future__ import annotations

import json
import re

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.models import HarnessError
from tests.harness.server import DiscordHarness

TOTAL = re.compile(r" = `(-?\d+)`$")


def total_of(text: str) -> int:
    match = TOTAL.search(text)
    assert match, text
    return int(match.group(1))


@pytest.mark.parametrize(
    ("typed", "starts", "low", "high"),
    [
        ("1D20", "1d20 (", 1, 20),
        ("2D6+1D4", "2d6 (", 3, 16),
        ("1d20+6 dex save", "dex save: 1d20 (", 7, 26),
        ("3d6 # attack", "attack: 3d6 (", 3, 18),
        ("1d%", "1d100 (", 1, 100),
    ],
)
async def test_roll_reads_dice_as_people_type_them(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    typed: str,
    starts: str,
    low: int,
    high: int,
) -> None:
    h = discord_harness
    record = await ok(await slash(h, table.player, "roll", dice=typed))
    (embed,) = record.message.embeds
    description = embed["description"]
    assert description.startswith(starts), description
    assert low <= total_of(description) <= high
    assert embed["title"].endswith(f"rolls {typed.split(' ')[0]}")


async def test_a_label_never_breaks_the_output(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    record = await ok(await slash(h, table.player, "roll", dice="1d20 ||boo|| **@everyone**"))
    description = record.message.embeds[0]["description"]
    assert description.startswith("\\|\\|boo\\|\\| \\*\\*@\u200beveryone\\*\\*: 1d20 (")
    reply = record.initial
    assert reply is not None
    assert reply["data"]["allowed_mentions"]["parse"] == []


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("999999d999999", "That asks for 999,999 dice; at most 100 dice"),
        ("1d0", "A d0 has no sides to roll"),
        ("d", "`d` is not a dice expression I understand (it stops too early)"),
        ("1d20 dex\u0000save", "may not contain line breaks or other control characters"),
    ],
)
async def test_absurd_dice_get_a_specific_refusal(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, typed: str, message: str
) -> None:
    h = discord_harness
    text = await refused(await slash(h, table.player, "roll", dice=typed))
    assert message in text


async def test_a_label_counts_toward_the_200_characters(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    longest = "1d20 " + "x" * 195
    record = await ok(await slash(h, table.player, "roll", dice=longest))
    assert record.message.embeds[0]["description"].startswith("x" * 195 + ": 1d20 (")
    # Discord itself refuses a longer option: the command is registered with max_length 200.
    with pytest.raises(HarnessError, match="max_length"):
        await slash(h, table.player, "roll", dice="1d20 " + "x" * 300)


async def test_gm_hp_takes_dice_with_a_label(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Rockfall"))
    await answered(await slash(h, table.player, "character import", example="willow"))
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    before = (await bot.services.encounters.live(h.channel.id)).state.find("Willow").health

    await ok(await slash(h, table.gm, "gm hp", combatant="Willow", health="-1D6 falling rock"))

    live = await bot.services.encounters.live(h.channel.id)
    entries = await bot.services.encounters.log(live.id)
    options = json.loads(entries[-1].options)
    assert options["health"] == "-1D6 falling rock"
    assert options["health_rolled"].startswith("falling rock: 1d6 (")
    damage = total_of(options["health_rolled"])
    assert 1 <= damage <= 6
    assert live.state.find("Willow").health == before - damage
    text = await refused(
        await slash(h, table.gm, "gm hp", combatant="Willow", health="-999999d999999")
    )
    assert "at most 100 dice" in text
