"""QA round 11: Utopia attacked through Discord as players and GMs would. Each test here is a
problem found, marked ``xfail(strict=True)`` until the bot is fixed: the test states what a
user should see."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_characters import answer
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

BANDIT = "Bandit archer 1"
FORM = "sheet:create:character:utopia"
BASE = {
    "name": "Ilka",
    "subtraits": "6 3 2 4 1 1 2 5 1 3 1 1",
    "pools": "14 12 16",
    "ratings": "1 2",
    "size": "Small",
}
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "foundry" / "character.json"


async def _utopia_fight(h: DiscordHarness, table: Table, dice: DiceBox) -> None:
    """Vesna (the player's) against one Bandit archer whose defense the GM chooses; Vesna's
    turn first (Speed tests 18 against 4)."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Reed ford", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    await answered(await slash(h, gm, "npc import", example="bandit-archer"))
    await ok(await slash(h, gm, "gm add-npc", template="Bandit archer"))
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    dice.load([6, 6, 5, 1, 2, 1])
    await ok(await slash(h, gm, "encounter begin"))


async def _state(bot: CombatBot, h: DiscordHarness) -> str:
    return (await bot.services.encounters.live(h.channel.id)).state_json


async def _form(h: DiscordHarness, table: Table, **values: str) -> tuple[bool, str]:
    opened = await h.slash(table.player, h.channel, "character create", ruleset="utopia")
    await opened.response()
    record = await h.submit_modal(table.player, h.channel, FORM, {**BASE, **values})
    ephemeral, text, _ = await answer(record)
    return ephemeral, text


async def _upload(h: DiscordHarness, table: Table, data: dict[str, Any]) -> str:
    raw = json.dumps(data).encode()
    record: InteractionRecord = await slash(
        h, table.player, "character import", file=("actor.json", raw)
    )
    await answered(record)
    return (await record.original_message()).content or ""


# ---- UTTAS-only commands in a Utopia fight -------------------------------------------------


async def test_uttas_attack_command_in_a_utopia_fight_is_refused_by_name(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    await _utopia_fight(h, table, dice)
    before = await _state(scripted_bot, h)
    text = await refused(
        await slash(h, table.player, "attack", target=BANDIT, with_="Longbow", range=10.0)
    )
    assert "Something went wrong" not in text
    assert "/act" in text and "Utopia" in text, text
    assert await _state(scripted_bot, h) == before


async def test_dodge_command_on_a_waiting_utopia_defense(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    await _utopia_fight(h, table, dice)
    await ok(await slash(h, table.moderator, "gm settings", npcs_react=False))
    await ok(await slash(h, table.player, "endturn"))
    dice.load([5, 5, 5, 6, 6, 6])
    await ok(
        await slash(
            h,
            table.moderator,
            "act",
            action="attack",
            target="Vesna",
            detail="Crossbow",
            amount=10.0,
        )
    )
    dice.load([12, 1])  # Vesna's Dodge Rating is 2: 2d12 against the 10 after defenses
    record = await slash(h, table.player, "dodge")
    await answered(record)
    text = (await record.original_message()).text()
    assert "`choice`" not in text and "Input should be" not in text, text
    assert "Vesna dodges" in text or "Dodge" in text, text


async def test_one_off_npc_with_uttas_options_in_a_utopia_fight(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    await _utopia_fight(h, table, dice)
    before = await _state(scripted_bot, h)
    text = await refused(
        await slash(h, table.moderator, "gm add-npc", name="Brute", health=50, stamina=60)
    )
    assert "Extra inputs" not in text and "Invalid character sheet" not in text, text
    assert "Utopia" in text, text
    assert await _state(scripted_bot, h) == before


async def test_the_long_rest_the_refusal_points_to_can_be_given(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Camp", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    advice = await refused(await slash(h, gm, "gm time rest", kind="long"))
    assert "`/tables set ruleset:utopia entry:rest.long" in advice
    record = await slash(
        h, gm, "tables set", ruleset="utopia", entry="rest.long", value='["shp", "stamina"]'
    )
    await answered(record)
    text = (await record.original_message()).text()
    assert "UTTAS" not in text and "Extra inputs" not in text, text
    assert '"shp"' in text and "is now" in text
    # The running encounter keeps its tables; one started from now on has the long rest.
    ending = await slash(h, gm, "encounter end")
    await answered(ending)
    assert ending.message is not None
    confirm = ending.message.components[0]["components"][0]["custom_id"]
    await answered(await h.click(gm, ending.message, confirm))
    await ok(await slash(h, gm, "encounter start", name="Camp 2", ruleset="utopia"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    rested = await ok(await slash(h, gm, "gm time rest", kind="long"))
    assert "Vesna" in (await rested.original_message()).text()


# ---- the create form with odd input ----------------------------------------------------------


async def test_form_refuses_a_subtrait_given_twice(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    ephemeral, text = await _form(discord_harness, table, subtraits="Dex 3 Dex 4")
    assert ephemeral and "Created" not in text, text
    assert "Dexterity" in text and "twice" in text, text


async def test_form_refuses_stray_characters_in_numbers(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    ephemeral, text = await _form(discord_harness, table, pools="²10 10 10")
    assert ephemeral and "Created" not in text, text
    assert "²10" in text, text


async def test_form_names_a_decimal_score(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    ephemeral, text = await _form(discord_harness, table, subtraits="6.5 3 2 4 1 1 2 5 1 3 1 1")
    assert ephemeral and "Created" not in text, text
    assert "you gave 13" not in text and "6.5" in text, text


# ---- Foundry exports at the edges -----------------------------------------------------------


async def test_foundry_export_with_ten_thousand_items_says_how_many_are_not_listed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    export = json.loads(FIXTURE.read_text())
    export["items"] = [{"name": f"T{i}", "type": "trinket"} for i in range(10_000)]
    text = await _upload(discord_harness, table, export)
    assert "Imported" in text, text
    [line] = [line for line in text.splitlines() if "trinket" in line]
    assert "more" in line or "10,000" in line or "10000" in line, line


async def test_foundry_weapon_without_a_type_is_listed_in_words(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    export = json.loads(FIXTURE.read_text())
    export["items"] = [{"name": "Odd stick", "type": "gear", "system": {"type": "weapon"}}]
    text = await _upload(discord_harness, table, export)
    [line] = [line for line in text.splitlines() if "Odd stick" in line]
    assert "None" not in line, line


# ---- /gm vital's public line ----------------------------------------------------------------


async def test_gm_vital_names_the_pool_as_the_game_does(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    await _utopia_fight(h, table, dice)
    record = await ok(
        await slash(h, table.moderator, "gm vital", combatant=BANDIT, vital="dhp", amount="-3")
    )
    text = (await record.original_message()).text()
    assert "Dhp" not in text and "DHP" in text, text
