"""Utopia's example sheets (``data/sheets/utopia/``) are offered by ``/character import
example:`` and ``/npc import example:`` beside UTTAS's, import as Utopia sheets, and an uploaded
Utopia sheet is accepted by its ``system`` — through Discord, as a player sees it."""

from __future__ import annotations

from pathlib import Path

from bot.client import CombatBot
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

VESNA = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia" / "vesna.json"


async def test_utopia_examples_are_offered_and_imported(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    offered = await h.autocomplete(
        table.player, h.channel, "character import", focused="example", value="vesna"
    )
    assert [c["name"] for c in offered] == ["Vesna (Utopia)"]
    record = await h.slash(table.player, h.channel, "character import", example="vesna")
    await record.response()
    assert record.ephemeral and "Imported **Vesna**" in record.response_data["content"]
    shown = await h.slash(table.player, h.channel, "character show", name="Vesna")
    await shown.response()
    embed = shown.response_data["embeds"][0]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert "Block" in fields["Vitals"] and "TA" in fields["Vitals"]
    npcs = await h.autocomplete(table.gm, h.channel, "npc import", focused="example", value="")
    assert {"Bandit archer (Utopia)", "Stone hound (Utopia)"} <= {c["name"] for c in npcs}


async def test_an_uploaded_utopia_sheet_is_imported_by_its_system(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    upload = h.make_attachment("vesna.json", VESNA.read_bytes())
    record = await h.slash(table.player, h.channel, "character import", file=upload)
    await record.response()
    message = await record.followup(0) if record.deferred else record.message
    assert message is not None and "Imported **Vesna**" in message.text()
