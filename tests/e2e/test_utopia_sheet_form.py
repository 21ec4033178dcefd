"""The Utopia create form (``/character create ruleset:utopia``, ``/npc create``): five boxes
from the ruleset's :class:`~bot.engine.core.contract.SheetForm`, the sheet stored and shown,
and every refusal naming the box or field, storing nothing — through Discord."""

from __future__ import annotations

import json

from bot.client import CombatBot
from bot.engine import get_ruleset
from bot.services.actor import Actor
from tests.e2e.conftest import Table
from tests.e2e.test_characters import answer, names
from tests.harness.server import DiscordHarness

FORM = "sheet:create:character:utopia"
BASE = {
    "name": "Ilka",
    "subtraits": "6 3 2 4 1 1 2 5 1 3 1 1",
    "pools": "14 12 16",
    "ratings": "1 2",
    "size": "Small",
}


async def test_a_utopia_character_is_created_from_the_form(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    opened = await h.slash(table.player, h.channel, "character create", ruleset="utopia")
    await opened.response()
    assert opened.modal is not None and opened.modal["title"] == "New Utopia character"
    boxes = [c["components"][0]["custom_id"] for c in opened.modal["components"]]
    assert boxes == ["name", "subtraits", "pools", "ratings", "size"]
    ephemeral, text, _ = await answer(await h.submit_modal(table.player, h.channel, FORM, BASE))
    assert ephemeral and "Created **Ilka**" in text and "weapons, spells, armor" in text
    sheet = (await bot.services.sheets.list_sheets(h.guild.id, _actor(table), "character"))[0]
    assert sheet.ruleset == "utopia"
    model = get_ruleset("utopia").parse_sheet(sheet.sheet_json)
    assert model.score("agility") == 9 and model.score("awareness") == 5  # type: ignore[attr-defined]
    assert (model.shp, model.dhp, model.stamina) == (14, 12, 16)  # type: ignore[attr-defined]
    assert (model.block_rating, model.dodge_rating, model.size) == (1, 2, "small")  # type: ignore[attr-defined]


async def test_named_scores_and_refusals(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character create", ruleset="utopia")).response()
    for values, message in (
        ({"subtraits": "1 2 3"}, "Subtraits: give 12 numbers in the order Dexterity, Speed"),
        ({"subtraits": "Luck 3"}, "`Luck` is not one of Dexterity"),
        (
            {"subtraits": "Dexterity 60"},
            '`subtraits.dexterity` = `"60"`: input should be less than or equal to 50',
        ),
        ({"pools": "10 10"}, "give 3 numbers in the order Shp, Dhp, Stamina"),
        ({"size": "colossal"}, '`size` = `"colossal"`'),
        ({"ratings": "Block -1"}, '`block_rating` = `"-1"`'),
    ):
        record = await h.submit_modal(table.player, h.channel, FORM, {**BASE, **values})
        ephemeral, text, _ = await answer(record)
        assert ephemeral and message in text, (values, text)
    assert await names(bot, h, table.player) == []
    named = {**BASE, "subtraits": "Dexterity 7, Pow 4", "pools": "Stamina 20"}
    ephemeral, text, _ = await answer(await h.submit_modal(table.player, h.channel, FORM, named))
    assert ephemeral and "Created **Ilka**" in text
    row = (await bot.services.sheets.list_sheets(h.guild.id, _actor(table), "character"))[0]
    model = get_ruleset("utopia").parse_sheet(row.sheet_json)
    assert model.score("dexterity") == 7 and model.score("speed") == 1  # type: ignore[attr-defined]
    assert (model.shp, model.stamina) == (10, 20)  # type: ignore[attr-defined]


async def test_a_utopia_npc_template_form(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    opened = await h.slash(table.moderator, h.channel, "npc create", ruleset="utopia")
    await opened.response()
    assert opened.modal is not None, opened.response_data
    assert opened.modal["title"] == "New Utopia NPC template"
    record = await h.submit_modal(
        table.moderator, h.channel, "sheet:create:npc:utopia", {**BASE, "name": "Reed wolf"}
    )
    ephemeral, text, _ = await answer(record)
    assert ephemeral and "Created **Reed wolf**" in text


def _actor(table: Table) -> Actor:
    return Actor(table.player.id)


async def test_a_utopia_sheet_is_edited_field_by_field(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character import", example="vesna")).response()
    fields = await h.autocomplete(
        table.player,
        h.channel,
        "character edit",
        focused="field",
        value="subtraits.d",
        name="Vesna",
    )
    assert "subtraits.dexterity" in [c["value"] for c in fields]
    ephemeral, text, _ = await answer(
        await h.slash(
            table.player,
            h.channel,
            "character edit",
            name="Vesna",
            field="subtraits.dexterity",
            value="9",
        )
    )
    assert ephemeral and "Updated `subtraits.dexterity` of **Vesna**" in text
    ephemeral, text, _ = await answer(
        await h.slash(
            table.player, h.channel, "character edit", name="Vesna", field="size", value="vast"
        )
    )
    assert ephemeral and "**Vesna** was not changed" in text and "`size`" in text


async def test_a_utopia_sheet_exports_and_comes_back_edited(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/character export`` gives the Utopia sheet as JSON; edited and imported with
    ``replace: True`` it comes back as Utopia, checked by the Utopia sheet model."""
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character import", example="brannoc")).response()
    ephemeral, _, message = await answer(
        await h.slash(table.player, h.channel, "character export", name="Brannoc")
    )
    assert ephemeral and message is not None
    data = message.attachment("brannoc.json").json()
    assert data["system"] == "utopia" and data["subtraits"]["power"] == 7
    data["subtraits"]["power"] = 8
    upload = h.make_attachment("brannoc.json", json.dumps(data).encode())
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "character import", file=upload, replace=True)
    )
    assert ephemeral and "Replaced **Brannoc**" in text
    row = (await bot.services.sheets.list_sheets(h.guild.id, _actor(table), "character"))[0]
    assert get_ruleset("utopia").parse_sheet(row.sheet_json).score("power") == 8  # type: ignore[attr-defined]
    data["subtraits"]["power"] = 99
    upload = h.make_attachment("brannoc.json", json.dumps(data).encode())
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "character import", file=upload, replace=True)
    )
    assert ephemeral and "`subtraits.power`" in text and "less than or equal to 50" in text
