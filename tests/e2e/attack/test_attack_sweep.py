"""QA attack: odd text in every new text option (away, recap, member settings, standing
reactions, pacing settings, odds) — control characters, digits of other scripts, huge numbers,
markdown and mentions. Each must be answered, never with the unexpected-error reply."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import answered, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

NASTY = [
    "\x00",
    "\u202e12h",
    "@everyone",
    "```",
    "\\",
    "%",
    "9" * 40,
    "-0",
    "nan",
    "inf",
    "１２h",
    "٣d",
    "12h\n6h",
    "²",
    "50%,",
    "0%",
    "1e9",
    "2026-02-30",
    "2026-12-24T25:00",
    "12:00-\u0663\u0663:00",
]

OPTIONS = [
    ("away", "until"),
    ("encounter recap", "since"),
    ("me settings", "timezone"),
    ("me settings", "quiet_hours"),
    ("me reactions", "rule"),
    ("me reactions", "combatant"),
    ("gm settings", "reminders"),
    ("gm settings", "turn_deadline"),
    ("odds", "resources"),
]


@pytest.mark.parametrize(("command", "option"), OPTIONS)
async def test_nasty_text_in_every_new_text_option(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, command: str, option: str
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    failures = []
    for value in NASTY:
        for member in (table.player, table.moderator):
            options: dict[str, object] = {option: value[: 20 if option == "quiet_hours" else 40]}
            if command == "odds":
                options.update(target="Thug 1", with_="Club")
            if command == "me reactions" and option == "combatant":
                options["rule"] = "evade"
            record = await answered(await slash(h, member, command, **options))
            text = str(record.response_data.get("content") or "")
            if text == UNEXPECTED:
                failures.append((member.name, value))
            if command == "away" and not record.ephemeral:
                await answered(await slash(h, member, "back"))
    assert not failures, failures
