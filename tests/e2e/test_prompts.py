"""Confirm / Cancel prompts through the real bot: buttons posted before prompts were recorded
(custom_ids carrying a sheet or encounter id) change nothing and say to run the command again;
every dynamic button template matches only its own custom_ids."""

from __future__ import annotations

import copy
import re

import pytest

from bot.client import DYNAMIC_ITEMS, CombatBot
from bot.services.actor import Actor
from bot.services.prompts import PROMPT_GONE
from tests.e2e.combat_helpers import answered, button, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness


def _as_before(h: DiscordHarness, message: StoredMessage, old_prefix: str, old_id: int) -> str:
    """Make ``message`` show the buttons the bot posted before this change (a sheet or encounter
    id after the old prefix); return the old Confirm's custom_id."""
    stored = h.message(message)
    components = copy.deepcopy(stored.payload["components"])
    for row in components:
        for component in row["components"]:
            answer = "yes" if component["label"].startswith("Confirm") else "no"
            component["custom_id"] = f"{old_prefix}:{answer}:{old_id}"
    stored.payload["components"] = components
    return f"{old_prefix}:yes:{old_id}"


async def test_old_delete_button_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await answered(await slash(h, player, "character import", example="willow"))
    await slash(h, player, "character delete", name="Willow")
    prompt = h.interactions[-1]
    await prompt.response()
    sheets, owner = bot.services.sheets, Actor(user_id=player.id)
    sheet = await sheets.get_own(h.guild.id, owner, "character", "Willow")
    old_confirm = _as_before(h, prompt.message, "sheet:del", sheet.id)
    click = await h.click(player, h.message(prompt.message), old_confirm)
    assert await refused(click) == PROMPT_GONE
    assert (await sheets.get_own(h.guild.id, owner, "character", "Willow")).id == sheet.id


async def test_old_end_button_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.gm
    await ok(await slash(h, gm, "encounter start", name="Old buttons"))
    live = await bot.services.encounters.live(h.channel.id)
    await slash(h, gm, "encounter end")
    prompt = h.interactions[-1]
    await prompt.response()
    assert button(prompt.message, "Confirm")["custom_id"].startswith("enc:endp:yes:")
    old_confirm = _as_before(h, prompt.message, "enc:end", live.id)
    click = await h.click(gm, h.message(prompt.message), old_confirm)
    assert await refused(click) == PROMPT_GONE
    assert (await bot.services.encounters.live(h.channel.id)).id == live.id


@pytest.mark.parametrize(
    "custom_id",
    [
        "enc:endp:yes:12",
        "enc:endp:no:12",
        "sheet:delp:yes:12",
        "sheet:delp:no:12",
        "enc:end:yes:12",
        "sheet:del:no:12",
        "rx:1:2:evade",
    ],
)
def test_one_template_matches_each_custom_id(custom_id: str) -> None:
    matching = [
        item.__name__
        for item in DYNAMIC_ITEMS
        if re.fullmatch(item.__discord_ui_compiled_template__, custom_id)
    ]
    assert len(matching) == 1, f"{custom_id} matches {matching}"
