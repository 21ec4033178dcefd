"""Leveling a Uune character through Discord (Uune SRD "Leveling": "increase your characters
level on their sheet and add additional items as dictated by the table"): the player raises
the saved sheet's level with ``/character edit``, the sheet says what the leveling row leaves
to place, placing more than it allows is refused, and the GM's ``/gm refresh`` brings the new
sheet into a running conflict, where the proficiency point adds its die."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness


def fields(record: InteractionRecord) -> dict[str, str]:
    embed = record.response_data["embeds"][0]
    return {f["name"]: f["value"] for f in embed.get("fields", [])}


async def test_a_level_up_is_placed_on_the_saved_sheet_and_refreshed_into_the_conflict(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm, mira = table.moderator, table.player
    await u.cast(wren=False)
    await u.run(gm, "encounter begin")

    shown = await u.reply(mira, "character show", name="Mira Quell")
    assert fields(shown)["Level"] == "Level 1 · to place: nothing"
    raised = await u.reply(mira, "character edit", name="Mira Quell", field="level", value="2")
    assert fields(raised)["Level"] == "Level 2 · to place: 1 proficiency point"
    too_many = [{"on": "Street fencing", "points": 2}]
    text = await refused(
        await slash(
            h,
            mira,
            "character edit",
            name="Mira Quell",
            field="proficiency",
            value=json.dumps(too_many),
        )
    )
    assert "proficiency points: 2 (at level 2: at most 1)" in text
    placed = await u.reply(
        mira,
        "character edit",
        name="Mira Quell",
        field="proficiency",
        value=json.dumps([{"on": "Street fencing", "points": 1}]),
    )
    assert fields(placed)["Level"] == "Level 2 · to place: nothing"
    assert "Street fencing (2d6)" in fields(placed)["Resources"]

    # The GM brings the new sheet into the conflict: Street fencing now rolls two dice.
    await u.reply(gm, "gm refresh", combatant="Mira Quell")
    await u.run(mira, "act", action="action", detail="vault the rail: Street fencing", amount=2)
    rolled = await u.press(gm, "GM: approve Street fencing", [1, 5, 6])
    assert "action 1d6 + Street fencing 2d6 [1] [5] [6] = 2 hits vs 2 needed: success" in (
        rolled.text()
    )
