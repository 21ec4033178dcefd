"""A Foundry VTT actor export of the official Utopia system imports through ``/character
import file:`` (issue 12, "Bring characters from where Utopia players keep them"): the reply
names what could not be mapped, the sheet shows as Utopia, and a malformed export is refused
naming the field, storing nothing — through Discord, as a player sees it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.client import CombatBot
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "foundry"


async def _import(h: DiscordHarness, user: Any, name: str, content: bytes) -> str:
    upload = h.make_attachment(name, content)
    record = await h.slash(user, h.channel, "character import", file=upload)
    await record.response()
    message = await record.followup(0) if record.deferred else record.message
    assert message is not None and record.ephemeral
    return message.text()


async def test_a_foundry_export_imports_and_lists_what_it_could_not_map(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    text = await _import(h, table.player, "mirela.json", (FIXTURES / "character.json").read_bytes())
    assert text.startswith("Imported **Mirela of the Reeds**.")
    assert "From a Foundry VTT actor export; not mapped (7):" in text
    assert "- weapon Shock Maul: accuracyFavor not modelled" in text
    assert "Healing Draught" in text
    shown = await h.slash(table.player, h.channel, "character show", name="Mirela of the Reeds")
    await shown.response()
    fields = {f["name"]: f["value"] for f in shown.response_data["embeds"][0]["fields"]}
    assert "SHP 16 · DHP 14 · Stamina 16" in fields["Vitals"]
    assert "Reed Bow" in fields["Weapons"]


async def test_a_malformed_foundry_export_is_refused_naming_the_field(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    text = await _import(h, table.player, "bad.json", (FIXTURES / "malformed.json").read_bytes())
    assert "`system.subtraits.pow.value` is 'strong', not a number" in text
    listed = await h.slash(table.player, h.channel, "character list")
    await listed.response()
    assert "Mirela" not in json.dumps(listed.response_data)


async def test_a_long_list_of_unmapped_things_fits_one_message(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    export = json.loads((FIXTURES / "character.json").read_text("utf-8"))
    export["system"].update({f"unknownField{i:03}" + "x" * 40: i for i in range(120)})
    text = await _import(h, table.player, "long.json", json.dumps(export).encode())
    assert len(text) <= 2000 and text.startswith("Imported **Mirela of the Reeds**.")
    assert "not mapped (7):" in text
