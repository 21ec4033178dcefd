"""The Uune character create form (``/character create ruleset:uune``; the boxes are
``bot/engine/uune/form.py``): a level-1 character from its name, shticks, bonds, experiences
and items ("Level 1": "place your shtick points, write two bonds and two experiences"), every
refusal naming what is wrong and storing nothing, and the character joining a conflict."""

from __future__ import annotations

from bot.client import CombatBot
from bot.engine import get_ruleset
from bot.engine.uune.sheet import UuneSheet
from bot.services.actor import Actor
from tests.e2e.conftest import Table
from tests.e2e.test_characters import answer, names
from tests.harness.server import DiscordHarness

FORM = "sheet:create:character:uune"
BASE = {
    "name": "Sable Reed",
    "shticks": "Quickblade; Night eyes",
    "bonds": "motivation: find her brother; flaw: trusts no one in uniform",
    "experiences": "Lamplighter: walked every alley at night; Pickpocket",
    "items": "Hooked knife, Lantern, Rope",
}


async def test_a_uune_character_is_created_from_the_form_and_joins(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    opened = await h.slash(table.player, h.channel, "character create", ruleset="uune")
    await opened.response()
    assert opened.modal is not None and opened.modal["title"] == "New Uune character"
    boxes = [c["components"][0]["custom_id"] for c in opened.modal["components"]]
    assert boxes == ["name", "shticks", "bonds", "experiences", "items"]
    ephemeral, text, _ = await answer(await h.submit_modal(table.player, h.channel, FORM, BASE))
    assert ephemeral and "Created **Sable Reed**" in text and "proficiency points" in text
    assert "Level 1 · to place: nothing" in text
    row = (await bot.services.sheets.list_sheets(h.guild.id, Actor(table.player.id), "character"))[
        0
    ]
    sheet = get_ruleset("uune").parse_sheet(row.sheet_json)
    assert isinstance(sheet, UuneSheet)
    assert [(s.name, s.level) for s in sheet.shticks] == [("Quickblade", 1), ("Night eyes", 1)]
    assert [(b.kind, b.text) for b in sheet.bonds] == [
        ("motivation", "find her brother"),
        ("flaw", "trusts no one in uniform"),
    ]
    assert sheet.experiences[0].description == "walked every alley at night"
    assert [i.name for i in sheet.items] == ["Hooked knife", "Lantern", "Rope"]

    # She joins a Uune conflict as she is.
    await (
        await h.slash(
            table.moderator, h.channel, "encounter start", {"name": "Alleys", "ruleset": "uune"}
        )
    ).response()
    joined = await h.slash(table.player, h.channel, "encounter join", {"character": "Sable Reed"})
    await joined.response()
    assert "brings **Sable Reed** into the fight" in joined.message.text()


async def test_uune_form_refusals_name_what_is_wrong_and_store_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character create", ruleset="uune")).response()
    for values, message in (
        ({"shticks": "Quickblade 3"}, "shtick points spent: 3 (at level 1: exactly 2)"),
        ({"bonds": "motivation: find her brother"}, "bonds: 1 (at level 1: exactly 2)"),
        (
            {"bonds": "hope: one day; flaw: pride"},
            "`bonds[0].kind` = `\"hope\"`: input should be 'motivation'",
        ),
        ({"experiences": "Pickpocket"}, "experiences: 1 (at level 1: at least 2)"),
        ({"items": ", ".join(f"Thing {i}" for i in range(11))}, "inventory space (at most 10)"),
    ):
        record = await h.submit_modal(table.player, h.channel, FORM, {**BASE, **values})
        ephemeral, text, _ = await answer(record)
        assert ephemeral and message in text, (values, text)
    assert await names(bot, h, table.player) == []
