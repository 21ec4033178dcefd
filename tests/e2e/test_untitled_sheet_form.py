"""Untitled sheets through Discord (issue 13, "`/character` and `/npc` support"): the create
form (``/character create ruleset:untitled``, ``/npc create``; the boxes are
``bot/engine/untitled/form.py`` read through ``Ruleset.sheet_form()``), every refusal naming
the box or field and storing nothing, ``/character edit`` field by field, and an export that
comes back edited with ``replace: True``, checked by the Untitled sheet model."""

from __future__ import annotations

import json

from bot.client import CombatBot
from bot.engine import get_ruleset
from bot.services.actor import Actor
from tests.e2e.conftest import Table
from tests.e2e.test_characters import answer, names
from tests.harness.server import DiscordHarness

FORM = "sheet:create:character:untitled"
BASE = {"name": "Tamsin", "vitals": "24 8", "defense": "4 2", "armor_skills": "Light 3"}


def _actor(table: Table) -> Actor:
    return Actor(table.player.id)


async def _sheet(bot: CombatBot, h: DiscordHarness, table: Table) -> object:
    row = (await bot.services.sheets.list_sheets(h.guild.id, _actor(table), "character"))[0]
    assert row.ruleset == "untitled"
    return get_ruleset("untitled").parse_sheet(row.sheet_json)


async def test_an_untitled_character_is_created_from_the_form(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    opened = await h.slash(table.player, h.channel, "character create", ruleset="untitled")
    await opened.response()
    assert opened.modal is not None and opened.modal["title"] == "New Untitled character"
    boxes = [c["components"][0]["custom_id"] for c in opened.modal["components"]]
    assert boxes == ["name", "vitals", "defense", "armor_skills"]
    ephemeral, text, _ = await answer(await h.submit_modal(table.player, h.channel, FORM, BASE))
    assert ephemeral and "Created **Tamsin**" in text and "weapon skills, combat forms" in text
    model = await _sheet(bot, h, table)
    assert (model.health, model.speed_m) == (24, 8)  # type: ignore[attr-defined]
    assert (model.combat_defense, model.parry) == (4, 2)  # type: ignore[attr-defined]
    assert model.armor_skills.light == 3 and model.armor_skills.heavy is None  # type: ignore[attr-defined]


async def test_refusals_name_the_box_and_store_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (
        await h.slash(table.player, h.channel, "character create", ruleset="untitled")
    ).response()
    for values, message in (
        ({"vitals": "20 9 4"}, "give 2 numbers"),
        ({"defense": "Combat 31"}, "`combat_defense`"),
        ({"armor_skills": "Mithril 3"}, "`Mithril` is not one of"),
    ):
        record = await h.submit_modal(table.player, h.channel, FORM, {**BASE, **values})
        ephemeral, text, _ = await answer(record)
        assert ephemeral and message in text, (values, text)
    assert await names(bot, h, table.player) == []


async def test_an_untitled_npc_template_form(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    opened = await h.slash(table.moderator, h.channel, "npc create", ruleset="untitled")
    await opened.response()
    assert opened.modal is not None and opened.modal["title"] == "New Untitled NPC template"
    record = await h.submit_modal(
        table.moderator, h.channel, "sheet:create:npc:untitled", {**BASE, "name": "Marsh troll"}
    )
    ephemeral, text, _ = await answer(record)
    assert ephemeral and "Created **Marsh troll**" in text


async def test_an_untitled_sheet_is_edited_and_exported_and_comes_back(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character import", example="brask")).response()
    fields = await h.autocomplete(
        table.player, h.channel, "character edit", focused="field", value="combat", name="Brask"
    )
    assert "combat_defense" in [c["value"] for c in fields]
    ephemeral, text, _ = await answer(
        await h.slash(
            table.player,
            h.channel,
            "character edit",
            name="Brask",
            field="combat_defense",
            value="7",
        )
    )
    assert ephemeral and "Updated `combat_defense` of **Brask**" in text
    ephemeral, text, _ = await answer(
        await h.slash(
            table.player, h.channel, "character edit", name="Brask", field="parry", value="31"
        )
    )
    assert ephemeral and "**Brask** was not changed" in text and "`parry`" in text
    assert (await _sheet(bot, h, table)).combat_defense == 7  # type: ignore[attr-defined]

    ephemeral, _, message = await answer(
        await h.slash(table.player, h.channel, "character export", name="Brask")
    )
    assert ephemeral and message is not None
    data = message.attachment("brask.json").json()
    assert data["system"] == "untitled" and data["shield"]["name"] == "Oak heater shield"
    data["health"] = 34
    upload = h.make_attachment("brask.json", json.dumps(data).encode())
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "character import", file=upload, replace=True)
    )
    assert ephemeral and "Replaced **Brask**" in text
    assert (await _sheet(bot, h, table)).health == 34  # type: ignore[attr-defined]
    data["weapon_skills"][0]["level"] = 40
    upload = h.make_attachment("brask.json", json.dumps(data).encode())
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "character import", file=upload, replace=True)
    )
    assert ephemeral and "`weapon_skills[Swords].level` = `40`" in text
    assert "less than or equal to 30" in text
