"""Dice text after the expression, through the real bot: a label is separated by a space (or
``#``/``:``); text glued to the dice, or a label that itself reads as dice or a number, is refused
with a hint instead of silently rolling the first part; a label with mentions is accepted, shown
escaped and pings nobody; ``/gm hp`` refuses a decimal instead of cutting it."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1 d20", "`1 d20` reads as the number 1 then the label 'd20' — did you mean `1d20`?"),
        ("1d20 2d6", "reads as the dice `1d20` then the label '2d6' — did you mean `1d20+2d6`?"),
        ("1d6d6", "`1d6d6` is not a dice expression I understand (`d6` at position 4 was"),
        ("1e3", "(`e3` at position 2 was unexpected)"),
    ],
)
async def test_text_after_the_dice_is_a_label_only_after_a_space(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, typed: str, message: str
) -> None:
    h = discord_harness
    text = await refused(await slash(h, table.player, "roll", dice=typed))
    assert message in text, text
    assert h.messages_in(h.channel) == []  # nothing was rolled in public


async def test_a_label_with_mentions_is_shown_escaped_and_pings_nobody(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    for typed in ("1d20 <@123456789012345678> hits", "1d20 @everyone"):
        record = await ok(await slash(h, table.player, "roll", dice=typed))
        (embed,) = record.message.embeds
        description = embed["description"]
        assert description.startswith(
            ("<@\u200b123456789012345678> hits: 1d20 (", "@\u200beveryone: 1d20 (")
        ), description
        assert record.initial is not None
        assert record.initial["data"]["allowed_mentions"]["parse"] == []
    record = await ok(await slash(h, table.player, "roll", dice="1d20 # 2d6 fire"))
    assert record.message.embeds[0]["description"].startswith("2d6 fire: 1d20 (")


async def test_gm_hp_refuses_a_decimal_and_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Rockfall"))
    await answered(await slash(h, table.player, "character import", example="willow"))
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    before = await bot.services.encounters.live(h.channel.id)
    for typed in ("2.7", "-2.5", "1d6+0.5 luck"):
        text = await refused(await slash(h, table.gm, "gm hp", combatant="Willow", health=typed))
        assert text.startswith("Amounts of Health and Stamina are whole numbers:"), text
    text = await refused(await slash(h, table.gm, "gm hp", combatant="Willow", stamina="1 d6"))
    assert "did you mean `1d6`?" in text
    after = await bot.services.encounters.live(h.channel.id)
    assert after.version == before.version
    assert after.state.find("Willow").health == before.state.find("Willow").health
    await ok(await slash(h, table.gm, "gm hp", combatant="Willow", health="7"))
    assert (await bot.services.encounters.live(h.channel.id)).state.find("Willow").health == 7
