"""QA round 10: items and healing through Discord — what a player learns of a hidden NPC, what
the hands hold after `/gm refresh`, the 31st item's refusal, and First Aid's reach."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_items import willow_and_a_thug
from tests.harness.server import DiscordHarness

WILLOW = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uttas" / "willow.json"


async def edit(h: DiscordHarness, table: Table, field: str, value: str) -> str:
    """``/character edit`` of the player's Willow; the reply's text."""
    edited = await slash(h, table.player, "character edit", name="Willow", field=field, value=value)
    await edited.response()
    return str(edited.response_data.get("content"))


async def test_a_tonic_on_a_hidden_npc_does_not_tell_a_player_its_stamina(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, player = scripted_bot, discord_harness, table.player
    await willow_and_a_thug(h, table)
    assert await current_name(bot, h) == "Willow"
    record = await slash(h, player, "act", action="use-item", detail="Tonic", target="Thug 1")
    await record.response()
    seen = str(record.response_data.get("content")) + (
        record.message.text() if not record.ephemeral else ""
    )
    assert "no Stamina to recover" not in seen, seen


async def test_a_weapon_renamed_on_the_sheet_leaves_no_ghost_in_hand_after_refresh(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await willow_and_a_thug(h, table, begin=False)
    assert "Updated" in await edit(h, table, "weapons.Club.name", "Staff")
    await answered(await slash(h, gm, "gm refresh", combatant="Willow"))
    text = await refused(await slash(h, player, "act", action="stow", detail="Club"))
    assert "Willow holds no 'Club'" in text


async def test_a_weapon_made_two_handed_by_refresh_is_not_a_dead_end(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, gm, player = scripted_bot, discord_harness, table.moderator, table.player
    await willow_and_a_thug(h, table, begin=False)
    assert "Updated" in await edit(h, table, "weapons.Club.hands", "2")
    await answered(await slash(h, gm, "gm refresh", combatant="Willow"))
    await ok(await slash(h, gm, "encounter begin"))  # Willow (Agility 12) before the Thug
    assert await current_name(bot, h) == "Willow"
    attack = await refused(await slash(h, player, "attack", target="Thug 1", with_="Club"))
    assert "draw it first" in attack
    drawn = await slash(h, player, "act", action="draw", detail="Club")
    await drawn.response()
    text = str(drawn.response_data.get("content"))
    assert "already holds the Club" not in text, text


async def test_a_thirty_first_item_is_refused_in_words(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    sheet = json.loads(WILLOW.read_text())
    sheet["items"] = [{"name": f"Thing {n}", "description": "d" * 300} for n in range(30)]
    file = h.make_attachment("willow.json", json.dumps(sheet).encode())
    await answered(await slash(h, player, "character import", file=file))
    text = await edit(h, table, "items.Thing 31", '{"description": "one more"}')
    assert "was not changed" in text
    assert "at most 30 items" in text
    assert "tuple" not in text and "after validation" not in text, text


async def test_first_aid_needs_the_patient_within_reach_as_an_item_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await ok(
        await slash(h, gm, "gm place distance", a="Willow", b="General Bearington", meters=20.0)
    )
    await ok(await slash(h, gm, "gm hp", combatant="General Bearington", health="-6"))
    await pass_turns_until(bot, h, table, "Willow")
    text = await refused(
        await slash(h, player, "act", action="first-aid", target="General Bearington")
    )
    assert "20 m away" in text
