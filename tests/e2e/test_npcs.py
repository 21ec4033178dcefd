"""/npc and /gm add-npc through the harness: templates are the GMs' alone, are added to fights in
numbered batches, and the fight keeps its own snapshot."""

from __future__ import annotations

import json
from pathlib import Path

import discord

from bot.client import CombatBot
from bot.services.actor import Actor
from tests.e2e.conftest import Table
from tests.e2e.test_characters import answer
from tests.harness.server import DiscordHarness

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uttas"
THUG = (EXAMPLES / "thug.json").read_bytes()


async def templates(bot: CombatBot, h: DiscordHarness, table: Table) -> list[str]:
    rows = await bot.services.sheets.list_sheets(
        h.guild.id, Actor(table.moderator.id, manages_channel=True), "npc"
    )
    return [row.name for row in rows]


async def combatants(bot: CombatBot, h: DiscordHarness) -> list[str]:
    return [c.name for c in (await bot.services.encounters.live(h.channel.id)).state.combatants]


async def test_players_cannot_see_or_change_npc_templates(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await answer(await h.slash(table.moderator, h.channel, "npc import", example="thug"))
    assert await templates(bot, h, table) == ["Thug"]
    thug_file = h.make_attachment("thug.json", THUG)
    for command, options in (
        ("npc create", {}),
        ("npc import", {"file": thug_file, "name": "Bandit"}),
        ("npc import", {"example": "thug", "replace": True}),
        ("npc export", {"name": "Thug"}),
        ("npc list", {}),
        ("npc show", {"name": "Thug"}),
        ("npc delete", {"name": "Thug"}),
    ):
        record = await h.slash(table.player, h.channel, command, **options)
        ephemeral, text, _ = await answer(record)
        assert ephemeral, command
        assert "Only a GM" in text, command
        assert record.modal is None
    for command in ("npc show", "npc export", "npc delete"):
        choices = await h.autocomplete(table.player, h.channel, command, focused="name", value="")
        assert choices == []
    # Even the delete button of a template refuses a player at click time.
    _, _, prompt = await answer(
        await h.slash(table.moderator, h.channel, "npc delete", name="Thug")
    )
    assert prompt is not None
    click = await h.click(
        table.player, prompt, prompt.component(label="Confirm: delete it")["custom_id"]
    )
    ephemeral, text, _ = await answer(click)
    assert ephemeral and "Only a GM" in text
    assert await templates(bot, h, table) == ["Thug"]


async def test_gm_manages_templates(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    gm = table.moderator
    opened = await h.slash(gm, h.channel, "npc create")
    await opened.response()
    assert opened.modal is not None and opened.modal["title"] == "New UTTAS NPC template"
    ephemeral, text, _ = await answer(
        await h.submit_modal(
            gm,
            h.channel,
            "sheet:create:npc:uttas",
            {"name": "Bandit", "speed": "4", "health": "8", "stamina": "15"},
        )
    )
    assert ephemeral and "Created **Bandit**" in text

    attachment = h.make_attachment("thug.json", THUG)
    ephemeral, text, _ = await answer(await h.slash(gm, h.channel, "npc import", file=attachment))
    assert ephemeral and "Imported **Thug**" in text

    ephemeral, text, _ = await answer(await h.slash(gm, h.channel, "npc list"))
    assert ephemeral and "NPC templates (2/200)" in text and "**Bandit**" in text
    ephemeral, text, _ = await answer(await h.slash(gm, h.channel, "npc show", name="thug"))
    assert ephemeral and "NPC template · UTTAS" in text and "Agility **10**" in text
    _, _, message = await answer(await h.slash(gm, h.channel, "npc export", name="THUG"))
    assert message is not None
    assert message.attachment("thug.json").json()["name"] == "Thug"
    choices = await h.autocomplete(gm, h.channel, "npc show", focused="name", value="")
    assert [c["value"] for c in choices] == ["Bandit", "Thug"]

    # Names are unique per server, whichever GM made them.
    other_gm = h.add_member(h.guild, "Second GM", permissions=0x10)  # Manage Channels
    ephemeral, text, _ = await answer(
        await h.slash(other_gm, h.channel, "npc import", example="thug")
    )
    assert ephemeral and "This server already has an NPC template called **Thug**" in text

    _, _, prompt = await answer(await h.slash(other_gm, h.channel, "npc delete", name="Bandit"))
    assert prompt is not None
    click = await h.click(
        other_gm, prompt, prompt.component(label="Confirm: delete it")["custom_id"]
    )
    await click.response()
    assert "Deleted **Bandit**." in h.message(prompt).content
    assert await templates(bot, h, table) == ["Thug"]


async def test_npc_name_must_leave_room_for_numbers(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    long_name = json.dumps({"name": "T" * 73}).encode()
    attachment = h.make_attachment("long.json", long_name)
    ephemeral, text, _ = await answer(
        await h.slash(table.moderator, h.channel, "npc import", file=attachment)
    )
    assert ephemeral and "NPC template names are at most 72 characters" in text
    assert await templates(bot, h, table) == []


async def test_gm_adds_numbered_npcs_in_batches(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    sheets = bot.services.sheets
    moderator = Actor(table.moderator.id, manages_channel=True)
    await sheets.import_file(h.guild.id, moderator, "npc", THUG)
    for name in ("Daniel", "Dan"):
        await sheets.import_file(h.guild.id, moderator, "npc", json.dumps({"name": name}).encode())

    # The encounter's starter is its GM even without server permissions.
    await answer(await h.slash(table.gm, h.channel, "encounter start", name="Firewood"))
    choices = await h.autocomplete(table.gm, h.channel, "gm add-npc", focused="template", value="")
    assert [c["value"] for c in choices] == ["Dan", "Daniel", "Thug"]
    assert (
        await h.autocomplete(table.player, h.channel, "gm add-npc", focused="template", value="")
        == []
    )

    ephemeral, text, _ = await answer(
        await h.slash(table.gm, h.channel, "gm add-npc", template="thug", count=3)
    )
    assert not ephemeral
    assert "Added **Thug 1**, **Thug 2**, **Thug 3**." in text and "Combatants (3)" in text
    ephemeral, text, _ = await answer(
        await h.slash(table.gm, h.channel, "gm add-npc", template="Thug", count=2)
    )
    assert "Added **Thug 4**, **Thug 5**." in text

    # Exact names: "Dan" is numbered on its own although "Daniel 1" is there.
    await answer(await h.slash(table.gm, h.channel, "gm add-npc", template="Daniel"))
    await answer(await h.slash(table.gm, h.channel, "gm add-npc", template="Dan"))
    assert await combatants(bot, h) == [
        *(f"Thug {n}" for n in range(1, 6)),
        "Daniel 1",
        "Dan 1",
    ]

    # Refusals: a player, an unknown template, a prefix of a name.
    for member, template, message in (
        (table.player, "Thug", "Only the GM can use `/gm add-npc`"),
        (table.gm, "Ogre", "no NPC template called **Ogre**"),
        (table.gm, "Thu", "no NPC template called **Thu**"),
    ):
        ephemeral, text, _ = await answer(
            await h.slash(member, h.channel, "gm add-npc", template=template)
        )
        assert ephemeral and message in text
    assert len(await combatants(bot, h)) == 7

    state = (await bot.services.encounters.live(h.channel.id)).state
    thug = state.find("Thug 1")
    assert thug.is_npc and thug.side == "foes" and thug.sheet.name == "Thug"


async def test_template_changes_reach_a_fight_only_when_refreshed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    gm = table.moderator
    await answer(await h.slash(gm, h.channel, "npc import", example="thug"))
    await answer(await h.slash(gm, h.channel, "encounter start"))
    await answer(await h.slash(gm, h.channel, "gm add-npc", template="Thug", count=2))

    tougher = json.loads(THUG) | {"health": 40}
    attachment = h.make_attachment("thug.json", json.dumps(tougher).encode())
    ephemeral, text, _ = await answer(
        await h.slash(gm, h.channel, "npc import", file=attachment, replace=True)
    )
    assert "Replaced **Thug**" in text
    state = (await bot.services.encounters.live(h.channel.id)).state
    assert state.find("Thug 1").sheet.health == json.loads(THUG)["health"]

    choices = await h.autocomplete(gm, h.channel, "gm refresh", focused="combatant", value="2")
    assert choices == [{"name": "Thug 2", "value": "Thug 2"}]
    ephemeral, text, _ = await answer(
        await h.slash(gm, h.channel, "gm refresh", combatant="thug 2")
    )
    assert not ephemeral and "**Thug 2** now uses the current **Thug** sheet" in text
    state = (await bot.services.encounters.live(h.channel.id)).state
    assert state.find("Thug 2").sheet.health == 40
    assert state.find("Thug 1").sheet.health == json.loads(THUG)["health"]
    # Current Health is kept (not healed by a refresh).
    assert state.find("Thug 2").health == json.loads(THUG)["health"]


async def test_the_servers_gm_role_manages_npc_templates(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A member with the server's GM role (no Manage permissions) runs /npc like a moderator;
    without the role the same member is refused."""
    h = discord_harness
    admin = h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))
    role = h.add_role(h.guild, "Game Masters")
    plain = discord.Permissions(send_messages=True, view_channel=True)
    gm = h.add_member(h.guild, "Role GM", permissions=plain, roles=[role])
    refused_text = await h.slash(gm, h.channel, "npc import", example="thug")
    await refused_text.response()
    assert (
        refused_text.ephemeral
        and "Only a GM of this server" in refused_text.response_data["content"]
    )
    await (await h.slash(admin, h.channel, "gm seat role", {"role": role})).response()
    _, text, _ = await answer(await h.slash(gm, h.channel, "npc import", example="thug"))
    assert "Thug" in text and "imported" in text.lower()
    _, text, _ = await answer(await h.slash(gm, h.channel, "npc list"))
    assert "Thug" in text
