"""/character and /encounter join through the harness, as players see them: the create modal,
attachment import, export files, privacy between members, autocomplete, delete buttons, joining a
fight with a snapshot, and every refusal (ephemeral, nothing changed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from bot.services.actor import Actor
from bot.services.sheet_input import UPLOAD_MAX_BYTES
from tests.e2e.conftest import Table
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "sheets" / "uttas"
WILLOW = (EXAMPLES / "willow.json").read_bytes()
BEAR = (EXAMPLES / "general-bearington.json").read_bytes()


async def answer(record: InteractionRecord) -> tuple[bool, str, StoredMessage | None]:
    """``(ephemeral, visible text, message)`` of the bot's reply, deferred or not."""
    await record.response()
    if record.deferred:
        message = await record.followup(0)
        return message.ephemeral, message.text(), message
    message = record.message
    text = message.text() if message is not None else str(record.response_data.get("content"))
    return record.ephemeral, text, message


async def names(bot: CombatBot, h: DiscordHarness, member: Member) -> list[str]:
    rows = await bot.services.sheets.list_sheets(h.guild.id, Actor(member.id), "character")
    return [row.name for row in rows]


async def import_file(
    h: DiscordHarness, member: Member, data: bytes, filename: str = "sheet.json", **options: Any
) -> tuple[bool, str, StoredMessage | None]:
    attachment = h.make_attachment(filename, data)
    return await answer(
        await h.slash(member, h.channel, "character import", file=attachment, **options)
    )


# --- the new player's path ----------------------------------------------------------------------


async def test_create_show_edit_and_join_through_slash_commands(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    opened = await h.slash(table.player, h.channel, "character create")
    await opened.response()
    modal = opened.modal
    assert modal is not None and modal["custom_id"] == "sheet:create:character:uttas"
    submitted = await h.submit_modal(
        table.player,
        h.channel,
        "sheet:create:character:uttas",
        {
            "name": "Rook",
            "characteristics": "12 10 10 14 10 10 16",
            "speed": "5",
            "health": "12",
            "stamina": "25",
        },
    )
    ephemeral, text, _ = await answer(submitted)
    assert ephemeral
    assert "Created **Rook**" in text
    assert "Agility **12** (2d6)" in text and "Strength **16** (3d6)" in text
    assert "Dodge **23**" in text  # derived: 10 + (12 + 14) // 2, computed, not typed

    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "character show", name="rook")
    )
    assert ephemeral and "Speed **5** actions" in text and "Health **12** max" in text

    ephemeral, text, _ = await answer(
        await h.slash(
            table.player,
            h.channel,
            "character edit",
            name="Rook",
            field="weapons.Spear",
            value='{"kind": "melee", "damage_dice": 2, "range_m": 3}',
        )
    )
    assert ephemeral and "Updated `weapons.Spear`" in text and "**Spear**" in text

    await answer(await h.slash(table.gm, h.channel, "encounter start", name="Ambush"))
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "encounter join", character="ROOK")
    )
    assert not ephemeral
    assert "brings **Rook** into the fight" in text and "Combatants (1)" in text

    # The fight keeps its snapshot: editing the sheet now does not rewrite the encounter.
    await answer(
        await h.slash(
            table.player, h.channel, "character edit", name="Rook", field="agility", value="20"
        )
    )
    fighter = (await bot.services.encounters.live(h.channel.id)).state.find("Rook")
    assert fighter.sheet.agility == 12
    assert fighter.controller_id == table.player.id and not fighter.is_npc

    # ... until the GM refreshes it from the sheet.
    ephemeral, text, _ = await answer(
        await h.slash(table.gm, h.channel, "gm refresh", combatant="Rook")
    )
    assert not ephemeral and "now uses the current **Rook** sheet" in text
    assert (await bot.services.encounters.live(h.channel.id)).state.find("Rook").sheet.agility == 20


async def test_modal_refusals_name_the_field_and_store_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (await h.slash(table.player, h.channel, "character create")).response()
    for values, message in (
        ({"speed": "two"}, '`speed` = `"two"`: should be a whole number'),
        ({"speed": "99"}, '`speed` = `"99"`: input should be less than or equal to 20'),
        ({"characteristics": "1 2 3"}, "give 7 numbers"),
        ({"characteristics": "Luck 12"}, "`Luck` is not one of Agility"),
    ):
        base = {"name": "Rook", "speed": "4", "health": "10", "stamina": "20"}
        record = await h.submit_modal(
            table.player, h.channel, "sheet:create:character:uttas", {**base, **values}
        )
        ephemeral, text, _ = await answer(record)
        assert ephemeral
        assert message in text
    assert await names(bot, h, table.player) == []


async def test_a_ruleset_without_a_form_points_to_a_json_import(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    record = await h.slash(table.moderator, h.channel, "npc create", ruleset="uune")
    ephemeral, text, _ = await answer(record)
    assert ephemeral and "no creation form for Uune NPC templates; import a JSON sheet" in text
    assert record.modal is None


# --- import and export --------------------------------------------------------------------------


async def test_import_attachment_then_export_is_lossless(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    ephemeral, text, _ = await import_file(h, table.player, WILLOW, "willow.json")
    assert ephemeral and "Imported **Willow**" in text and "Blast" in text

    record = await h.slash(table.player, h.channel, "character export", name="willow")
    ephemeral, text, message = await answer(record)
    assert ephemeral and message is not None
    exported = message.attachment("willow.json")
    assert exported.json() == json.loads(
        (
            await bot.services.sheets.export(
                h.guild.id, Actor(table.player.id), "character", "Willow"
            )
        )[1]
    )
    assert exported.json()["powers"][0]["name"] == "Blast"

    # The exported file comes back unchanged, as a copy or replacing the original.
    ephemeral, text, _ = await import_file(
        h, table.player, exported.data, "willow.json", name="Willow (copy)"
    )
    assert "Imported **Willow (copy)**" in text
    changed = json.loads(exported.data) | {"agility": 15}
    ephemeral, text, _ = await import_file(
        h, table.player, json.dumps(changed).encode(), replace=True
    )
    assert "Replaced **Willow**" in text
    assert await names(bot, h, table.player) == ["Willow", "Willow (copy)"]
    again = await bot.services.sheets.export(
        h.guild.id, Actor(table.player.id), "character", "willow (copy)"
    )
    assert json.loads(again[1]) == exported.json() | {"name": "Willow (copy)"}


async def test_examples_need_no_download(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    choices = await h.autocomplete(
        table.player, h.channel, "character import", focused="example", value="bear"
    )
    assert choices == [{"name": "General Bearington (UTTAS)", "value": "general-bearington"}]
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "character import", example="willow")
    )
    assert ephemeral and "Imported **Willow**" in text
    await answer(await h.slash(table.other_player, h.channel, "character import", example="willow"))
    assert await names(bot, h, table.other_player) == ["Willow"]


@pytest.mark.parametrize(
    ("filename", "data", "message"),
    [
        ("big.json", b" " * (UPLOAD_MAX_BYTES + 1), "an uploaded sheet is at most 524,288 bytes"),
        ("willow.png", WILLOW, "is not a JSON file"),
        ("broken.json", b"{name: Willow", "is not valid JSON"),
        ("list.json", b"[1, 2, 3]", "A sheet is a JSON object"),
        ("deep.json", b'{"name": "W", "x": ' + b"[" * 40 + b"]" * 40 + b"}", "nested more than 16"),
        ("huge.json", b'{"name": "W", "health": 1' + b"0" * 30 + b"}", "absurdly large"),
        ("nan.json", b'{"name": "W", "health": NaN}', "NaN"),
        ("long.json", json.dumps({"name": "W" * 81}).encode(), "at most 80 characters"),
        ("latin1.json", '{"name": "Zoë"}'.encode("latin-1"), "not UTF-8"),
    ],
)
async def test_refused_imports_are_ephemeral_and_change_nothing(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    filename: str,
    data: bytes,
    message: str,
) -> None:
    h = discord_harness
    ephemeral, text, _ = await import_file(h, table.player, data, filename)
    assert ephemeral
    assert message in text
    assert await names(bot, h, table.player) == []


async def test_invalid_sheet_gets_one_message_naming_each_field(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    bad = json.loads(WILLOW) | {"agility": 500, "colour": "green"}
    bad["weapons"][0]["kind"] = "laser"
    ephemeral, text, _ = await import_file(h, table.player, json.dumps(bad).encode())
    assert ephemeral
    assert text.startswith("That sheet was not imported (3 problems):")
    assert "`agility` = `500`: input should be less than or equal to 100" in text
    assert "`colour` is not a known field; allowed: " in text
    assert (
        "`weapons[Club].kind` = `\"laser\"`: input should be 'melee', 'thrown' or 'mechanical'"
        in text
    )
    assert await names(bot, h, table.player) == []


async def test_file_or_example_exactly_one(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    ephemeral, text, _ = await answer(await h.slash(table.player, h.channel, "character import"))
    assert ephemeral and "not neither" in text
    both = await h.slash(
        table.player,
        h.channel,
        "character import",
        file=h.make_attachment("w.json", WILLOW),
        example="willow",
    )
    ephemeral, text, _ = await answer(both)
    assert ephemeral and "not both" in text
    assert await names(bot, h, table.player) == []


async def test_duplicate_names_and_the_sheet_limit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await import_file(h, table.player, WILLOW)
    ephemeral, text, _ = await import_file(h, table.player, json.dumps({"name": "WILLOW"}).encode())
    assert ephemeral and "You already have a character called **Willow**" in text

    sheets = bot.services.sheets
    for index in range(24):
        await sheets.import_file(
            h.guild.id,
            Actor(table.player.id),
            "character",
            json.dumps({"name": f"Hero {index}"}).encode(),
        )
    ephemeral, text, _ = await import_file(
        h, table.player, json.dumps({"name": "One too many"}).encode()
    )
    assert ephemeral and "25 characters in this server, the limit" in text
    assert len(await names(bot, h, table.player)) == 25


# --- privacy -------------------------------------------------------------------------------------


async def test_other_players_see_only_the_public_view_and_change_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await import_file(h, table.player, WILLOW)
    before = await bot.services.sheets.export(
        h.guild.id, Actor(table.player.id), "character", "Willow"
    )

    ephemeral, text, _ = await answer(
        await h.slash(
            table.other_player, h.channel, "character show", name="Willow", member=table.player
        )
    )
    assert ephemeral
    assert "Willow" in text and "Blast" in text and "Steady" in text
    for secret in ("Agility", "Health", "10d6", "Dodge", "Stamina"):
        assert secret not in text
    assert "what a player would see" in text

    # The moderator (a GM) sees the numbers.
    _, text, _ = await answer(
        await h.slash(
            table.moderator, h.channel, "character show", name="Willow", member=table.player
        )
    )
    assert "Agility **12**" in text

    # Commands act on your own sheets only: someone else's name is simply not yours.
    for command, options in (
        ("character export", {"name": "Willow"}),
        ("character edit", {"name": "Willow", "field": "agility", "value": "1"}),
        ("character delete", {"name": "Willow"}),
        ("character show", {"name": "Willow"}),
    ):
        ephemeral, text, _ = await answer(
            await h.slash(table.other_player, h.channel, command, **options)
        )
        assert ephemeral and "You have no character called **Willow**" in text

    ephemeral, text, _ = await answer(
        await h.slash(table.other_player, h.channel, "character list", member=table.player)
    )
    assert ephemeral and "Only a GM" in text
    _, text, _ = await answer(
        await h.slash(table.moderator, h.channel, "character list", member=table.player)
    )
    assert "**Willow**" in text and "Characters (1/25)" in text
    _, text, _ = await answer(await h.slash(table.player, h.channel, "character list"))
    assert "Your characters (1/25)" in text

    after = await bot.services.sheets.export(
        h.guild.id, Actor(table.player.id), "character", "Willow"
    )
    assert after == before


async def test_autocomplete_offers_at_most_25_and_only_your_own(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    sheets = bot.services.sheets
    sheets.characters_per_member = 40
    for index in range(30):
        await sheets.import_file(
            h.guild.id,
            Actor(table.player.id),
            "character",
            json.dumps({"name": f"Hero {index:02}"}).encode(),
        )
    await sheets.import_file(h.guild.id, Actor(table.other_player.id), "character", BEAR)

    for command in ("character show", "character export", "character edit", "character delete"):
        choices = await h.autocomplete(table.player, h.channel, command, focused="name", value="")
        assert len(choices) == 25
        assert all(c["name"].startswith("Hero") for c in choices)
    assert (
        await h.autocomplete(
            table.player, h.channel, "character show", focused="name", value="bear"
        )
        == []
    )
    assert await h.autocomplete(
        table.player, h.channel, "character show", focused="name", value="o 29"
    ) == [{"name": "Hero 29", "value": "Hero 29"}]
    theirs = await h.autocomplete(
        table.other_player, h.channel, "character show", focused="name", value=""
    )
    assert [c["value"] for c in theirs] == ["General Bearington"]

    fields = await h.autocomplete(
        table.other_player,
        h.channel,
        "character edit",
        focused="field",
        value="",
        name="General Bearington",
    )
    assert 0 < len(fields) <= 25
    claws = await h.autocomplete(
        table.other_player,
        h.channel,
        "character edit",
        focused="field",
        value="agi",
        name="General Bearington",
    )
    assert claws[0]["value"] == "agility"
    # Another member's sheet offers no fields.
    assert (
        await h.autocomplete(
            table.player,
            h.channel,
            "character edit",
            focused="field",
            value="",
            name="General Bearington",
        )
        == []
    )

    # Joining offers your own sheets only, and nothing without an encounter.
    assert (
        await h.autocomplete(
            table.other_player, h.channel, "encounter join", focused="character", value=""
        )
        == []
    )
    await answer(await h.slash(table.gm, h.channel, "encounter start"))
    joinable = await h.autocomplete(
        table.player, h.channel, "encounter join", focused="character", value=""
    )
    assert len(joinable) == 25 and all(c["value"].startswith("Hero") for c in joinable)


# --- delete ------------------------------------------------------------------------------------


async def test_delete_asks_and_only_the_owner_can_answer(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await import_file(h, table.player, WILLOW)
    ephemeral, text, prompt = await answer(
        await h.slash(table.player, h.channel, "character delete", name="willow")
    )
    assert ephemeral and prompt is not None and "Delete **Willow**?" in text
    confirm = prompt.component(label="Confirm: delete it")["custom_id"]
    cancel = prompt.component(label="Cancel")["custom_id"]
    assert confirm.startswith("sheet:delp:yes:") and cancel.startswith("sheet:delp:no:")

    for custom_id in (confirm, cancel):
        click = await h.click(table.other_player, prompt, custom_id)
        ephemeral, text, _ = await answer(click)
        assert ephemeral and f"is <@{table.player.id}>'s character; only they can change it" in text
    assert await names(bot, h, table.player) == ["Willow"]

    click = await h.click(table.player, prompt, cancel)
    await click.response()
    assert "Cancelled: **Willow** was not deleted." in h.message(prompt).content
    assert await names(bot, h, table.player) == ["Willow"]

    _, _, prompt = await answer(
        await h.slash(table.player, h.channel, "character delete", name="Willow")
    )
    assert prompt is not None
    click = await h.click(
        table.player, prompt, prompt.component(label="Confirm: delete it")["custom_id"]
    )
    await click.response()
    assert "Deleted **Willow**." in h.message(prompt).content
    assert h.message(prompt).components == []
    assert await names(bot, h, table.player) == []


# --- joining a fight ---------------------------------------------------------------------------


async def test_a_player_joins_with_a_character_and_a_companion(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await import_file(h, table.player, WILLOW)
    await import_file(h, table.player, BEAR)
    await import_file(h, table.other_player, json.dumps({"name": "Willow"}).encode())

    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "encounter join", character="Willow")
    )
    assert ephemeral and "There is no encounter in this channel" in text

    await answer(await h.slash(table.gm, h.channel, "encounter start"))
    for name in ("Willow", "General Bearington"):
        ephemeral, text, _ = await answer(
            await h.slash(table.player, h.channel, "encounter join", character=name)
        )
        assert not ephemeral and f"brings **{name}** into the fight" in text

    # Names are unique within an encounter, whoever owns the sheet; the owner is told theirs
    # is already there (not to bring a copy under another name).
    for member, said in (
        (table.player, "**Willow** is already in this fight: yours."),
        (table.other_player, "There is already a combatant called Willow"),
    ):
        ephemeral, text, _ = await answer(
            await h.slash(member, h.channel, "encounter join", character="willow")
        )
        assert ephemeral and said in text, text
    ephemeral, text, _ = await answer(
        await h.slash(table.bystander, h.channel, "encounter join", character="Willow")
    )
    assert ephemeral and "You have no character called **Willow**" in text

    state = (await bot.services.encounters.live(h.channel.id)).state
    assert [(c.name, c.controller_id) for c in state.combatants] == [
        ("Willow", table.player.id),
        ("General Bearington", table.player.id),
    ]
    # A player cannot refresh combatants; that is the GM's.
    ephemeral, text, _ = await answer(
        await h.slash(table.player, h.channel, "gm refresh", combatant="Willow")
    )
    assert ephemeral and "Only the GM can use `/gm refresh`" in text
