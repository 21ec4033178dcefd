"""Utopia is planned (issue 12): its example sheets ship in ``data/sheets/utopia/`` but
``/character import example:`` neither offers nor imports them until the ruleset is registered,
and an uploaded Utopia sheet is refused by name — through Discord, as a player sees it."""

from __future__ import annotations

from pathlib import Path

from bot.client import CombatBot
from bot.services.actor import Actor
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

VESNA = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia" / "vesna.json"


async def test_planned_utopia_examples_are_not_offered(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    offered = await h.autocomplete(
        table.player, h.channel, "character import", focused="example", value=""
    )
    assert offered and all("(UTTAS)" in c["name"] for c in offered)
    assert (
        await h.autocomplete(
            table.player, h.channel, "character import", focused="example", value="vesna"
        )
        == []
    )
    record = await h.slash(table.player, h.channel, "character import", example="vesna")
    await record.response()
    reply = record.message.text() if record.message else str(record.response_data)
    assert record.ephemeral and "There is no example sheet **vesna**" in reply
    upload = h.make_attachment("vesna.json", VESNA.read_bytes())
    record = await h.slash(table.player, h.channel, "character import", file=upload)
    await record.response()
    message = await record.followup(0) if record.deferred else record.message
    assert message is not None
    assert "Utopia combat is planned but not available yet" in message.text()
    rows = await bot.services.sheets.list_sheets(h.guild.id, Actor(table.player.id), "character")
    assert rows == []
