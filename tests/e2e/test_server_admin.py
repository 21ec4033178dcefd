"""Who may start encounters, the cap on live encounters per member, and ``/server`` (issue 9
§8: a bystander started encounters in ten channels and blocked a real GM in each)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
import pytest

from bot.client import DYNAMIC_ITEMS, CombatBot
from bot.errors import NotFound
from tests.e2e.combat_helpers import answered, button, ok, refused
from tests.e2e.conftest import Table
from tests.harness.models import Channel, InteractionRecord, Member
from tests.harness.server import DiscordHarness

PLAIN = discord.Permissions(send_messages=True, view_channel=True)
SERVER_GMS = "Manage Server, Manage Channels or the server's GM role"


@pytest.fixture
def admin(discord_harness: DiscordHarness) -> Member:
    h = discord_harness
    return h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))


def channels(h: DiscordHarness, count: int) -> list[Channel]:
    return [h.add_channel(h.guild, f"scene-{n}") for n in range(1, count + 1)]


async def start(
    h: DiscordHarness, member: Member, channel: Channel, name: str = "Fight"
) -> InteractionRecord:
    record = await h.slash(member, channel, "encounter start", name=name)
    await record.response()
    return record


async def live_channels(bot: CombatBot, h: DiscordHarness) -> list[int]:
    """The channels holding a live encounter, as the store has them."""
    found = []
    for channel in h.guild.channels:
        try:
            await bot.services.encounters.live(channel.id)
        except NotFound:
            continue
        found.append(channel.id)
    return found


async def server(
    h: DiscordHarness, member: Member, command: str, **options: Any
) -> InteractionRecord:
    record = await h.slash(member, h.channel, f"server {command}", options)
    await record.response()
    return record


async def test_by_default_a_bystander_runs_three_encounters_at_most(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    scenes = channels(h, 10)
    for scene in scenes[:3]:
        await ok(await start(h, table.bystander, scene))
    for scene in scenes[3:]:
        text = await refused(await start(h, table.bystander, scene))
        assert text == (
            f"You already run 3 live encounters (<#{scenes[0].id}>, <#{scenes[1].id}>, "
            f"<#{scenes[2].id}>); end one with `/encounter end` first (the cap is set with "
            "`/server settings`)."
        )
    assert await live_channels(bot, h) == [s.id for s in scenes[:3]]
    # The real GM finds the other channels free.
    await ok(await start(h, table.gm, scenes[3]))
    # Ending one frees a place under the cap.
    prompt = await h.slash(table.bystander, scenes[0], "encounter end")
    await prompt.response()
    await (
        await h.click(
            table.bystander, prompt.message, button(prompt.message, "Confirm")["custom_id"]
        )
    ).response()
    await ok(await start(h, table.bystander, scenes[4]))


async def test_only_gms_may_start_when_the_server_says_so(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    h = discord_harness
    saved = await server(h, admin, "settings", who_can_start="gms")
    assert saved.ephemeral
    assert "**Who may start encounters:** server GMs" in saved.response_data["content"]
    scenes = channels(h, 10)
    for scene in scenes:
        text = await refused(await start(h, table.bystander, scene))
        assert text == (
            f"Only server GMs ({SERVER_GMS}) may start encounters on this server. "
            "Ask one of them to start it here."
        )
    assert await live_channels(bot, h) == []
    # A server GM (Manage Channels) still may, and is not capped either.
    for scene in scenes[:5]:
        await ok(await start(h, table.moderator, scene))
    assert await live_channels(bot, h) == [s.id for s in scenes[:5]]


async def test_the_starter_role_may_start_too(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    h = discord_harness
    starters = h.add_role(h.guild, "Storytellers")
    teller = h.add_member(h.guild, "Teller", permissions=PLAIN, roles=[starters])
    gm_role = h.add_role(h.guild, "GMs")
    role_gm = h.add_member(h.guild, "Role GM", permissions=PLAIN, roles=[gm_role])
    await answered(await server(h, admin, "settings", who_can_start="gms", starter_role=starters))
    await ok(await h.slash(admin, h.channel, "gm seat role", role=gm_role))
    scenes = channels(h, 4)
    await ok(await start(h, teller, scenes[0]))
    await ok(await start(h, role_gm, scenes[1]))  # the GM role makes a server GM
    text = await refused(await start(h, table.bystander, scenes[2]))
    assert text.startswith(
        f"Only server GMs (Manage Server, Manage Channels or <@&{gm_role.id}>) and members "
        f"with <@&{starters.id}> may start encounters"
    )
    shown = await server(h, admin, "settings")
    assert f"**Starter role:** <@&{starters.id}>" in shown.response_data["content"]
    cleared = await server(h, admin, "settings", clear_starter_role=True)
    assert "**Starter role:** none" in cleared.response_data["content"]
    assert "Only server GMs" in await refused(await start(h, teller, scenes[3]))
    assert await live_channels(bot, h) == [scenes[0].id, scenes[1].id]


async def test_the_cap_holds_for_two_starts_at_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    h = discord_harness
    await answered(await server(h, admin, "settings", max_encounters=1))
    scenes = channels(h, 2)
    first, second = await asyncio.gather(
        h.slash(table.bystander, scenes[0], "encounter start", name="A"),
        h.slash(table.bystander, scenes[1], "encounter start", name="B"),
    )
    await first.response()
    await second.response()
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    assert len(await live_channels(bot, h)) == 1


async def test_no_cap(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    h = discord_harness
    saved = await server(h, admin, "settings", max_encounters=0)
    assert "no cap" in saved.response_data["content"]
    for scene in channels(h, 5):
        await ok(await start(h, table.bystander, scene))


async def test_server_end_ends_an_encounter_in_another_channel(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    (scene,) = channels(h, 1)
    await ok(await start(h, table.bystander, scene, name="Squatter"))
    prompt = await server(h, table.moderator, "end", channel=scene)
    assert prompt.ephemeral
    assert f"End **Squatter** in <#{scene.id}>?" in prompt.response_data["content"]
    cancel = await h.click(
        table.moderator, prompt.message, prompt.message.component(label="Cancel")["custom_id"]
    )
    await cancel.response()
    assert "keeps running" in h.message(prompt.message).content
    assert await live_channels(bot, h) == [scene.id]

    prompt = await server(h, table.moderator, "end", channel=scene)
    # Someone else cannot answer the server GM's prompt.
    confirm_id = button(prompt.message, "Confirm")["custom_id"]
    assert "Only the GM" in await refused(await h.click(table.player, prompt.message, confirm_id))
    assert await live_channels(bot, h) == [scene.id]
    confirm = await h.click(table.moderator, prompt.message, confirm_id)
    await confirm.response()
    await h.wait_for(lambda: not h.message(prompt.message).components)
    assert h.message(prompt.message).content == (
        f"**Squatter** in <#{scene.id}> has ended; its summary is posted there."
    )

    def summaries() -> list[Any]:
        return [m for m in h.messages_in(scene) if "Encounter ended" in m.text()]

    await h.wait_for(summaries)
    (summary,) = summaries()
    assert summary.embeds[0]["title"] == "Encounter ended: Squatter"
    assert f"ended by <@{table.moderator.id}>" in summary.embeds[0]["description"]
    assert await live_channels(bot, h) == []
    await ok(await start(h, table.gm, scene))


async def test_server_end_where_the_bot_cannot_post_says_so_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The prompt tells the truth about the summary: never "posted there" and then "could not
    post" (QA of issue 9 §8)."""
    h = discord_harness
    (scene,) = channels(h, 1)
    await ok(await start(h, table.bystander, scene, name="Squatter"))
    h.deny_bot(scene, discord.Permissions(send_messages=True))
    prompt = await server(h, table.moderator, "end", channel=scene)
    confirm = await h.click(
        table.moderator, prompt.message, button(prompt.message, "Confirm")["custom_id"]
    )
    await confirm.response()
    await h.wait_for(lambda: not h.message(prompt.message).components)
    assert h.message(prompt.message).content == (
        f"**Squatter** in <#{scene.id}> has ended, but the bot could not post its summary "
        "there: check its permissions in that channel (View Channel, Send Messages, Embed "
        "Links)."
    )
    shown = [v.get("content") or "" for v in h.message(prompt.message).versions]
    assert not any("posted there" in text for text in shown), shown
    assert confirm.followups == []  # one answer, not a second one contradicting it
    assert [m for m in h.messages_in(scene) if "Encounter ended" in m.text()] == []
    assert await live_channels(bot, h) == []


async def test_server_end_needs_an_encounter_there(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    (scene,) = channels(h, 1)
    text = await refused(await server(h, table.moderator, "end", channel=scene))
    assert text == f"There is no live encounter in <#{scene.id}>."


async def test_server_encounters_lists_them_a_page_at_a_time(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    scenes = channels(h, 17)
    for n, scene in enumerate(scenes, start=1):
        await ok(await start(h, table.moderator, scene, name=f"Fight {n}"))
    first = await server(h, table.moderator, "encounters")
    assert first.ephemeral
    embed = first.response_data["embeds"][0]
    assert embed["title"] == "Live encounters in this server (17)"
    lines = embed["description"].split("\n")
    assert len(lines) == 15
    assert lines[0].startswith(f"<#{scenes[0].id}> · **Fight 1** · GM <@{table.moderator.id}>")
    assert "version 1" in lines[0]
    assert embed["footer"]["text"].startswith("Page 1 of 2 · `/server encounters page:2`")
    second = await server(h, table.moderator, "encounters", page=2)
    assert len(second.response_data["embeds"][0]["description"].split("\n")) == 2
    assert "only 2 pages" in await refused(await server(h, table.moderator, "encounters", page=3))


async def test_a_long_list_stays_within_discord_limits(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    for n, scene in enumerate(channels(h, 15)):
        await ok(await start(h, table.moderator, scene, name=f"{'W' * 95} {n}"))
    listing = await server(h, table.moderator, "encounters")
    description = listing.response_data["embeds"][0]["description"]
    assert len(description) <= 4096  # the harness also checks every limit
    assert description.endswith("more") or len(description.split("\n")) == 15


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("settings", {}),
        ("settings", {"who_can_start": "gms"}),
        ("encounters", {}),
        ("end", "channel"),
        ("member-export", {"user_id": "123456789012345678"}),
        ("member-delete", {"user_id": "123456789012345678"}),
    ],
)
async def test_non_gms_are_refused_every_server_command(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    command: str,
    options: Any,
) -> None:
    h = discord_harness
    await ok(await start(h, table.gm, h.channel, name="Mine"))
    if options == "channel":
        options = {"channel": h.channel}
    text = await refused(await server(h, table.gm, command, **options))
    assert text.startswith(f"Only server GMs ({SERVER_GMS})") or text.startswith(
        "Only a member with Manage Server"
    ), text
    assert await live_channels(bot, h) == [h.channel.id]


async def test_changing_the_settings_needs_manage_server(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    h = discord_harness
    # A moderator (Manage Channels) is a server GM: sees the settings, cannot change them.
    shown = await server(h, table.moderator, "settings")
    assert "**Who may start encounters:** everyone" in shown.response_data["content"]
    assert "3 at once" in shown.response_data["content"]
    text = await refused(await server(h, table.moderator, "settings", who_can_start="gms"))
    assert text.startswith("Only a member with Manage Server can change")
    assert "everyone" in (await server(h, admin, "settings")).response_data["content"]
    # @everyone is not a starter role.
    everyone = next(r for r in h.guild.roles if r.id == h.guild.id)
    text = await refused(await server(h, admin, "settings", starter_role=everyone))
    assert text.startswith("@everyone cannot be the starter role")


@pytest.mark.parametrize(
    "custom_id", ["srv:endp:yes:12", "srv:endp:no:12", "me:delp:yes:12", "me:delp:no:12"]
)
def test_each_new_button_has_one_template(custom_id: str) -> None:
    matching = [
        item.__name__
        for item in DYNAMIC_ITEMS
        if re.fullmatch(item.__discord_ui_compiled_template__, custom_id)
    ]
    assert len(matching) == 1, f"{custom_id} matches {matching}"
