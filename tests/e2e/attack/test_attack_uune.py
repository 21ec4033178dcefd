"""QA attack on Uune's new commands and the Uune create form: text at Discord's limits, odd
numbers, a player using the GM's commands, and actions nobody asked for — each answered with a
specific refusal or a proper result, never the unexpected-error reply."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import answered, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_characters import answer, names
from tests.e2e.uune_steps import Docks
from tests.harness.server import DiscordHarness

FORM = "sheet:create:character:uune"
BASE = {
    "name": "Sable Reed",
    "shticks": "Quickblade; Night eyes",
    "bonds": "motivation: find her brother; flaw: trusts no one in uniform",
    "experiences": "Lamplighter: walked every alley at night; Pickpocket",
    "items": "Hooked knife, Lantern, Rope",
}


@pytest.mark.parametrize(
    "values",
    [
        {"shticks": "Quickblade 99999999999999999999999999999999; Night eyes"},
        {"shticks": "Quickblade 0; Night eyes 2"},
        {"shticks": "; ".join(f"S{i}" for i in range(60))},
        {"shticks": "x" * 300},
        {"bonds": "; ".join(f"motivation: {'w' * 40} {i}" for i in range(17))},
        {"bonds": "motivation: " + "w" * 970 + "; flaw: x"},
        {"bonds": ";;;;;;;"},
        {"experiences": "; ".join(f"E{i}: {'d' * 30}" for i in range(26))},
        {"experiences": "e" * 990 + "; f"},
        {"items": ", ".join("i" * 90 for _ in range(10))},
        {"items": "x" * 1000},
        {"name": "@everyone"},
        {"name": "<@1234>"},
        {"name": "   "},
    ],
)
async def test_uune_form_with_text_at_the_limits(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, values: dict[str, str]
) -> None:
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character create", ruleset="uune")).response()
    record = await h.submit_modal(table.player, h.channel, FORM, {**BASE, **values})
    ephemeral, text, _ = await answer(record)
    assert ephemeral and text != UNEXPECTED, (values, text)
    if not text.startswith("Created"):
        assert await names(bot, h, table.player) == [], text


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("gm time minutes", {"count": 600}),
        ("act", {"action": "propose", "detail": "Street fencing"}),
        ("act", {"action": "propose", "detail": ", ".join(["Street fencing"] * 15)}),
        ("act", {"action": "help"}),
        ("act", {"action": "help", "detail": "x" * 300}),
        ("act", {"action": "stabilise"}),
        ("act", {"action": "stabilise", "target": "Dock Thug 1"}),
        ("act", {"action": "stabilise", "target": "Mira Quell"}),
        ("act", {"action": "stabilise", "target": "Nobody"}),
        ("act", {"action": "action", "detail": "x" * 300}),
        ("act", {"action": "action", "detail": "climb: " + ", ".join(["Lockpicks"] * 25)}),
        ("act", {"action": "action", "detail": "climb: " + ", ".join(f"R{i}" for i in range(40))}),
        ("act", {"action": "attack", "target": "Dock Thug 1", "detail": "x" * 300}),
        ("act", {"action": "attack", "target": "Tobin Ash", "detail": "Lockpicks"}),
        ("odds", {"target": "Tobin Ash", "with_": "Attack", "resources": "2"}),
        ("odds", {"target": "Mira Quell", "with_": "Attack", "resources": "2"}),
        ("odds", {"target": "Dock Thug 1", "with_": "Attack", "resources": "Lockpicks, lockpicks"}),
        ("odds", {"target": "Dock Thug 1", "with_": "Attack", "resources": "  ,  ,  "}),
        ("odds", {"target": "Dock Thug 1", "with_": "Attack", "range": 9999.0}),
        ("gm settings", {"combatant": "Mira Quell", "default_action": "x" * 60}),
        ("gm settings", {"combatant": "Dock Thug 1", "default_action": "center"}),
    ],
)
async def test_uune_commands_hostile_and_careless(
    scripted_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    dice: DiceBox,
    command: str,
    options: dict[str, object],
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast()
    await u.run(table.moderator, "encounter begin")
    await u.run(table.moderator, "gm settings", show_odds=True)
    dice.load([5] * 40)
    for member in (table.player, table.moderator):
        record = await slash(h, member, command, **options)
        await answered(record)
        text = str(record.response_data.get("content") or "")
        assert text != UNEXPECTED, (member.name, command, options, text)


async def test_a_player_passing_time_or_ending_with_a_chart(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast()
    text = await refused(await slash(h, table.player, "gm time minutes", count=5))
    assert text != UNEXPECTED and "GM" in text, text
    record = await slash(h, table.player, "encounter status", chart=True)
    await answered(record)
    assert str(record.response_data.get("content") or "") != UNEXPECTED
