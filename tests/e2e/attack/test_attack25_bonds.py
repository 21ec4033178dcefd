"""QA attack (round 25): newuser24's Uune bond named by its kind (`/act action:bond
detail:motivation`), with a sheet holding two bonds of one kind."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import Table
from tests.e2e.test_characters import import_file
from tests.harness.server import DiscordHarness

MIRA = Path(__file__).resolve().parents[3] / "data" / "sheets" / "uune" / "mira.json"


async def test_two_bonds_of_one_kind_are_named_apart_not_missing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Mira's sheet lists two motivations; her player typed `detail:motivation` and read
    "Mira Quell has no such bond (bonds: 1. motivation: …; 2. motivation: …)" — the list
    showing the very kind she named. The refusal now says which bonds that kind names and how
    to name one of them; "kind: words" and the number still name each."""
    h, gm, player = discord_harness, table.moderator, table.player
    sheet = json.loads(MIRA.read_text())
    sheet["bonds"] = [
        {"kind": "motivation", "text": "Pay back the river guild that sheltered her as a child."},
        {"kind": "motivation", "text": "Find the sister the flood took."},
    ]
    accepted, text, _ = await import_file(h, player, json.dumps(sheet).encode())
    assert accepted, text
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, player, "encounter join", character="Mira Quell"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug", count=1))
    await ok(await slash(h, gm, "encounter begin"))
    text = await refused(await slash(h, player, "act", action="bond", detail="motivation"))
    assert "no such bond" not in text, text
    assert text == (
        "Mira Quell has 2 bonds of the kind motivation: name one by its number or words "
        "(1. motivation: Pay back the river guild that...; "
        "2. motivation: Find the sister the flood took.)."
    ), text
    asked = await ok(await slash(h, player, "act", action="bond", detail="motivation: find"))
    assert "for acting on Bond 2 — Find the sister" in asked.message.text()
