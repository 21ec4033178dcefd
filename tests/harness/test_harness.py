"""Self-tests of the Discord harness: an unmodified discord.py bot, run in-process, driven
through every feature the harness offers, plus proof that validation really rejects bad bodies."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.harness.models import FLAG_EPHEMERAL, CommandNotRegistered, HarnessError
from tests.harness.schema import validate
from tests.harness.server import DiscordHarness

# ---------------------------------------------------------------------------------------------
# the bot under test
# ---------------------------------------------------------------------------------------------


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", style=discord.ButtonStyle.primary, custom_id=f"counter:{n}"
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        self.n += 1
        self.item.label = f"Count {self.n}"
        self.item.custom_id = f"counter:{self.n}"
        await interaction.response.edit_message(
            content=f"clicked by {interaction.user.name}", view=self.view
        )


class NoteModal(discord.ui.Modal, title="Add a note"):
    subject: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Subject", custom_id="subject")
    body: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Body", custom_id="body", style=discord.TextStyle.paragraph, required=False
    )

    def __init__(self) -> None:
        super().__init__(custom_id="note-modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted {self.subject.value}: {self.body.value}")


class RenameModal(discord.ui.Modal, title="Rename"):
    new_name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    def __init__(self) -> None:
        super().__init__(custom_id="rename-modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"renamed to {self.new_name.value}")


class MenuView(discord.ui.View):
    """A plain (non-dynamic) view: discord.py routes it by the message id it learned from the
    callback response, so this also proves the harness returns the created message."""

    @discord.ui.select(
        custom_id="menu:pick",
        options=[
            discord.SelectOption(label="Attack", value="attack"),
            discord.SelectOption(label="Defend", value="defend"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)

    @discord.ui.button(label="Rename", custom_id="menu:rename")
    async def rename(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_modal(RenameModal())


CHARACTERS = ["Wilhelm", "Willow", "Wilbur", "Ada", "Bram"]


def make_bot(guild_id: int, events: dict[str, Any]) -> commands.Bot:
    intents = discord.Intents.default()
    bot = commands.Bot(
        command_prefix="!", intents=intents, guild_ready_timeout=0.05, help_command=None
    )
    guild = discord.Object(id=guild_id)

    encounter = app_commands.Group(name="encounter", description="Run an encounter")

    @encounter.command(name="start", description="Start an encounter")
    @app_commands.choices(
        ruleset=[
            app_commands.Choice(name="UTTAS", value="uttas"),
            app_commands.Choice(name="Utopia", value="utopia"),
        ]
    )
    async def start(
        interaction: discord.Interaction,
        ruleset: str,
        name: str,
        size: int = 3,
        hard: bool = False,
        ratio: float = 1.0,
        gm: discord.Member | None = None,
        role: discord.Role | None = None,
        where: discord.TextChannel | None = None,
    ) -> None:
        events["start"] = dict(
            ruleset=ruleset,
            name=name,
            size=size,
            hard=hard,
            ratio=ratio,
            gm=gm,
            role=role,
            where=where,
            perms=interaction.permissions,
            guild_perms=interaction.user.guild_permissions,
        )
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(0))
        embed = discord.Embed(title=f"Encounter: {name}", description=f"ruleset {ruleset}")
        await interaction.response.send_message(embed=embed, view=view)

    @encounter.command(name="export", description="Export as JSON (deferred + followup file)")
    async def export(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        data = json.dumps({"combatants": ["Ada", "Bram"]}).encode()
        await interaction.followup.send(
            "here it is", file=discord.File(io.BytesIO(data), "export.json")
        )
        await interaction.followup.send("and a second followup", ephemeral=True)

    @encounter.command(name="import", description="Import a JSON file")
    async def import_(interaction: discord.Interaction, file: discord.Attachment) -> None:
        raw = await file.read()
        await interaction.response.send_message(f"imported {len(json.loads(raw))} entries")

    bot.tree.add_command(encounter, guild=guild)

    character = app_commands.Group(name="character", description="Characters")

    @character.command(name="show", description="Show a character (ephemeral)")
    async def show(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"sheet of {name}", ephemeral=True)

    @show.autocomplete("name")
    async def show_auto(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CHARACTERS if c.startswith(current)]

    bot.tree.add_command(character, guild=guild)

    @bot.tree.command(name="note", description="Open a modal", guild=guild)
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NoteModal())

    @bot.tree.command(
        name="menu", description="A view with a select and a modal button", guild=guild
    )
    async def menu(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("menu", view=MenuView(timeout=30))

    @bot.tree.command(name="announce", description="Channel message + edit", guild=guild)
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("announcing…", ephemeral=True)
        msg = await interaction.channel.send(text)  # type: ignore[union-attr]
        events["announced"] = msg
        await interaction.edit_original_response(content="announced")

    @bot.tree.command(name="slow", description="Answers too late", guild=guild)
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(events.get("slow_delay", 0.3))
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            events["slow_error"] = exc

    @bot.tree.command(name="twice", description="Acknowledges twice", guild=guild)
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        # Bypass discord.py's own guard to send a second initial response.
        adapter = discord.webhook.async_.async_context.get()
        params = discord.webhook.async_.interaction_response_params(4, {"content": "two"})
        try:
            await adapter.create_interaction_response(
                interaction.id, interaction.token, session=interaction._session, params=params
            )
        except discord.HTTPException as exc:
            events["twice_error"] = exc

    @bot.tree.command(name="huge", description="Sends embeds over 6000 characters", guild=guild)
    async def huge(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="big")
        for i in range(7):
            embed.add_field(name=f"f{i}", value="x" * 1000)
        try:
            await interaction.response.send_message(embed=embed)
        except discord.HTTPException as exc:
            events["huge_error"] = exc

    async def setup_hook() -> None:
        bot.add_dynamic_items(CounterButton)
        await bot.tree.sync(guild=guild)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest_asyncio.fixture
async def bot_env(
    discord_harness: DiscordHarness,
) -> AsyncIterator[tuple[DiscordHarness, dict[str, Any]]]:
    events: dict[str, Any] = {}
    assert discord_harness.guild is not None
    bot = make_bot(discord_harness.guild.id, events)
    async with discord_harness.run_client(bot, ready_timeout=5):
        events["bot"] = bot
        yield discord_harness, events


# ---------------------------------------------------------------------------------------------
# end-to-end through a real discord.py bot
# ---------------------------------------------------------------------------------------------


async def test_bot_connects_and_registers_commands(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    bot = events["bot"]
    assert bot.is_ready()
    assert bot.user.id == harness.application_id
    names = sorted(c["name"] for c in harness.registered_commands(harness.guild))
    assert names == ["announce", "character", "encounter", "huge", "menu", "note", "slow", "twice"]
    startup = [f"{r.method} {r.path}" for r in harness.requests]
    assert "GET /users/@me" in startup and "GET /oauth2/applications/@me" in startup
    assert all(r.response is None or r.status < 400 for r in harness.requests)
    assert bot.get_guild(harness.guild.id).get_channel(harness.channel.id) is not None


async def test_slash_with_typed_options_and_button_click(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    guild, channel = harness.guild, harness.channel
    gm_role = harness.add_role(guild, "GM", permissions=discord.Permissions(manage_messages=True))
    alice = harness.add_member(guild, "alice", roles=[gm_role])
    bob = harness.add_member(guild, "bob", permissions=discord.Permissions(manage_guild=True))

    rec = await harness.slash(
        alice,
        channel,
        "encounter start",
        ruleset="uttas",
        name="Ambush",
        size=4,
        hard=True,
        ratio=1.5,
        gm=bob,
        role=gm_role,
        where=channel,
    )
    body = await rec.response()
    assert body["type"] == 4 and not rec.ephemeral and not rec.deferred
    got = events["start"]
    assert (got["ruleset"], got["name"], got["size"], got["hard"], got["ratio"]) == (
        "uttas",
        "Ambush",
        4,
        True,
        1.5,
    )
    assert got["gm"].id == bob.id and isinstance(got["gm"], discord.Member)
    assert got["role"].id == gm_role.id and got["where"].id == channel.id
    # Both the interaction's permissions and the cached roles agree (no sleep needed: queued
    # GUILD_ROLE_CREATE events are delivered before the INTERACTION_CREATE).
    assert got["perms"].manage_messages and got["guild_perms"].manage_messages
    assert not got["perms"].manage_guild

    msg = rec.message
    assert msg is not None and msg.embeds[0]["title"] == "Encounter: Ambush"
    assert msg.custom_ids() == ["counter:0"]
    assert harness.messages_in(channel) == [msg]

    click = await harness.click(bob, msg, "counter:0")
    assert (await click.response())["type"] == 7
    latest = harness.message(msg)
    assert latest.custom_ids() == ["counter:1"] and latest.content == "clicked by bob"
    assert len(latest.versions) == 2
    # The old custom_id is gone from the latest version: Discord would not let a user click it.
    with pytest.raises(HarnessError):
        await harness.click(bob, msg, "counter:0")
    assert bob.permissions & discord.Permissions(manage_guild=True).value
    click2 = await harness.click(alice, msg, "counter:1")
    await click2.response()
    assert harness.message(msg).custom_ids() == ["counter:2"]

    # The REST view of the message agrees with the store.
    async with aiohttp.ClientSession() as s:
        url = f"{harness.api_base}/channels/{channel.id}/messages/{msg.id}"
        async with s.get(url, headers={"Authorization": f"Bot {harness.token}"}) as r:
            assert r.headers["Content-Type"] == "application/json"
            assert (await r.json())["components"][0]["components"][0]["custom_id"] == "counter:2"


async def test_view_select_and_modal_from_a_button(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "mona")
    rec = await harness.slash(member, harness.channel, "menu")
    await rec.response()
    menu = rec.message
    assert menu is not None and menu.custom_ids() == ["menu:pick", "menu:rename"]
    with pytest.raises(HarnessError, match="not an option"):
        await harness.select(member, menu, "menu:pick", ["flee"])
    pick = await harness.select(member, menu, "menu:pick", ["defend"])
    await pick.response()
    assert pick.ephemeral and pick.message is not None and pick.message.content == "picked defend"
    opened = await harness.click(member, menu, "menu:rename")
    assert (await opened.response())["type"] == 9
    sub = await harness.submit_modal(member, harness.channel, "rename-modal", {"name": "Skirmish"})
    assert (await sub.response())["type"] == 7  # allowed: the modal came from a message component
    assert sub.payload["message"]["id"] == str(menu.id)
    assert harness.message(menu).content == "renamed to Skirmish"


async def test_gateway_resume_keeps_the_bot_working(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    first = harness.live_sessions()[0]
    await harness.reconnect_gateway(resume=True)
    await harness.wait_for(lambda: any(s is not first for s in harness.live_sessions()))
    resumed = harness.live_sessions()[-1]
    assert resumed.session_id == first.session_id
    assert any(p.get("op") == 6 for p in resumed.received)  # RESUME, not a new IDENTIFY
    member = harness.add_member(harness.guild, "nina")
    rec = await harness.slash(member, harness.channel, "character show", name="Bram")
    assert (await rec.response())["type"] == 4


async def test_unanswered_interaction_is_a_violation(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    harness.response_deadline = 0.05
    events["slow_delay"] = 0.0  # answers "immediately", but we drop the bot's task first
    member = harness.add_member(harness.guild, "otto")
    bot = events["bot"]
    bot.tree.remove_command(
        "slow", guild=discord.Object(harness.guild.id)
    )  # bot forgets the handler
    rec = await harness.slash(member, harness.channel, "slow")
    await asyncio.sleep(0.1)
    assert harness.check_unanswered() == [rec]
    assert "never acknowledged" in harness.pop_violations()[0].message


async def test_unregistered_command_option_or_missing_required_fail_fast(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "carol")
    with pytest.raises(CommandNotRegistered):
        await harness.slash(member, harness.channel, "encounter stop")
    with pytest.raises(CommandNotRegistered):
        await harness.slash(member, harness.channel, "nosuch")
    with pytest.raises(CommandNotRegistered):
        await harness.slash(
            member, harness.channel, "encounter start", ruleset="uttas", name="x", colour="red"
        )
    with pytest.raises(HarnessError, match="missing required"):
        await harness.slash(member, harness.channel, "encounter start", ruleset="uttas")
    with pytest.raises(HarnessError, match="choices"):
        await harness.slash(member, harness.channel, "encounter start", ruleset="dnd", name="x")
    with pytest.raises(HarnessError, match="int"):
        await harness.slash(
            member, harness.channel, "encounter start", ruleset="uttas", name="x", size="4"
        )


async def test_autocomplete_returns_bot_choices(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "dave")
    choices = await harness.autocomplete(
        member, harness.channel, "character show", focused="name", value="Wil"
    )
    assert [c["value"] for c in choices] == ["Wilhelm", "Willow", "Wilbur"]
    assert harness.interactions[-1].response_type == 8
    with pytest.raises(HarnessError, match="autocomplete"):
        await harness.autocomplete(
            member, harness.channel, "encounter start", focused="name", value="A"
        )


async def test_ephemeral_reply(bot_env: tuple[DiscordHarness, dict[str, Any]]) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "erin")
    rec = await harness.slash(member, harness.channel, "character show", name="Ada")
    await rec.response()
    assert rec.ephemeral and rec.response_data["flags"] & FLAG_EPHEMERAL
    assert rec.message is not None and rec.message.content == "sheet of Ada"
    assert harness.messages_in(harness.channel) == []  # ephemeral: not what the channel shows
    assert harness.messages_in(harness.channel, include_ephemeral=True) == [rec.message]


async def test_modal_round_trip(bot_env: tuple[DiscordHarness, dict[str, Any]]) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "frank")
    rec = await harness.slash(member, harness.channel, "note")
    await rec.response()
    assert rec.modal is not None and rec.modal["title"] == "Add a note"
    with pytest.raises(HarnessError, match="required"):
        await harness.submit_modal(member, harness.channel, "note-modal", {"body": "x"})
    with pytest.raises(HarnessError, match="no field"):
        await harness.submit_modal(
            member, harness.channel, "note-modal", {"subject": "a", "nope": "b"}
        )
    sub = await harness.submit_modal(
        member, harness.channel, "note-modal", {"subject": "Loot", "body": "3 gold"}
    )
    assert (await sub.response())["type"] == 4
    assert sub.message is not None and sub.message.content == "noted Loot: 3 gold"


async def test_defer_followups_and_file_upload(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "gina")
    rec = await harness.slash(member, harness.channel, "encounter export")
    assert (await rec.response())["type"] == 5
    assert rec.deferred
    first = await rec.followup(0)
    second = await rec.followup(1)
    # The first followup after a thinking defer fills in the loading message.
    assert first is rec.message and first.content == "here it is"
    assert first.attachment("export.json").json() == {"combatants": ["Ada", "Bram"]}
    assert second.ephemeral and second.content == "and a second followup"
    assert [m.content for m in harness.messages_in(harness.channel)] == ["here it is"]
    # Attachments are downloadable from the URL the message carries.
    url = first.payload["attachments"][0]["url"]
    async with aiohttp.ClientSession() as s, s.get(url) as r:
        assert json.loads(await r.read()) == {"combatants": ["Ada", "Bram"]}


async def test_channel_message_and_edit_of_original(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    member = harness.add_member(harness.guild, "hank")
    rec = await harness.slash(member, harness.channel, "announce", text="Round 1!")
    edit = await rec.edit(0)
    assert edit["content"] == "announced"
    assert rec.message is not None and rec.message.content == "announced" and rec.ephemeral
    shown = harness.messages_in(harness.channel)
    assert [m.content for m in shown] == ["Round 1!"]
    assert events["announced"].id == shown[0].id
    # Deleting through discord.py is reflected, and the REST API then says 10008.
    await events["announced"].delete()
    assert harness.messages_in(harness.channel) == []
    # A deleted message is read only when asked for: a test cannot assert on a post that is gone.
    assert harness.is_deleted(shown[0])
    with pytest.raises(HarnessError, match="was deleted"):
        harness.message(shown[0])
    assert harness.message(shown[0], include_deleted=True).content == "Round 1!"
    with pytest.raises(discord.NotFound) as info:
        await events["bot"].get_channel(harness.channel.id).fetch_message(shown[0].id)
    assert info.value.code == 10008


async def test_attachment_option_is_downloadable(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    member = harness.add_member(harness.guild, "ivy")
    upload = harness.make_attachment("party.json", json.dumps([1, 2, 3]))
    rec = await harness.slash(member, harness.channel, "encounter import", file=upload)
    await rec.response()
    assert rec.message is not None and rec.message.content == "imported 3 entries"
    assert (
        rec.payload["data"]["resolved"]["attachments"][str(upload.id)]["filename"] == "party.json"
    )


async def test_late_initial_response_is_10062(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    harness.response_deadline = 0.1
    member = harness.add_member(harness.guild, "jack")
    rec = await harness.slash(member, harness.channel, "slow")
    await harness.wait_for(lambda: "slow_error" in events)
    assert events["slow_error"].code == 10062
    assert not rec.responded and len(rec.rejected) == 1
    (violation,) = harness.pop_violations()
    assert "after" in violation.message and violation.request is rec.rejected[0]


async def test_second_initial_response_is_40060(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    member = harness.add_member(harness.guild, "kim")
    await harness.slash(member, harness.channel, "twice")
    await harness.wait_for(lambda: "twice_error" in events)
    assert events["twice_error"].code == 40060
    assert "second initial response" in harness.pop_violations()[0].message


async def test_invalid_body_is_rejected_and_recorded(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, events = bot_env
    member = harness.add_member(harness.guild, "lee")
    rec = await harness.slash(member, harness.channel, "huge")
    await harness.wait_for(lambda: "huge_error" in events)
    assert events["huge_error"].status == 400 and events["huge_error"].code == 50035
    assert not rec.responded
    violations = harness.pop_violations()
    assert any("6000" in v.message for v in violations)
    assert all(v.request is rec.rejected[0] for v in violations)


@pytest.mark.discord_violations_allowed
async def test_violations_marker_keeps_test_green(discord_harness: DiscordHarness) -> None:
    async with aiohttp.ClientSession() as s:
        url = f"{discord_harness.api_base}/channels/{discord_harness.channel.id}/messages"
        body = {"content": "x" * 2001}
        async with s.post(
            url, json=body, headers={"Authorization": f"Bot {discord_harness.token}"}
        ) as r:
            assert r.status == 400
    assert discord_harness.violations


async def test_unknown_route_is_recorded_404(discord_harness: DiscordHarness) -> None:
    async with aiohttp.ClientSession() as s:
        url = f"{discord_harness.api_base}/stickers/123"
        async with s.get(url, headers={"Authorization": f"Bot {discord_harness.token}"}) as r:
            assert r.status == 404 and r.headers["Content-Type"] == "application/json"
            assert await r.json() == {"message": "404: Not Found", "code": 0}
    assert discord_harness.unknown_requests[-1].path == "/stickers/123"


# ---------------------------------------------------------------------------------------------
# the validator on its own: it must not be a no-op
# ---------------------------------------------------------------------------------------------


def _button(cid: str, style: int = 1, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": style, "label": label, "custom_id": cid}


def _msg(**data: Any) -> tuple[str, str, dict[str, Any]]:
    return "POST", "/interactions/1/tok/callback", {"type": 4, "data": data}


GOOD = {
    "content": "hi",
    "embeds": [
        {"title": "t", "description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1000}]}
    ],
    "components": [{"type": 1, "components": [_button("a"), _button("b", style=4)]}],
}


def test_validator_accepts_a_good_message() -> None:
    assert validate(*_msg(**GOOD)) == []
    assert validate("POST", "/channels/1/messages", GOOD) == []
    assert validate("PATCH", "/webhooks/1/tok/messages/@original", GOOD) == []


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            {"embeds": [{"description": "d" * 4000}, {"description": "e" * 2001}]},
            "across all embeds, limit 6000",
            id="embeds-over-6000",
        ),
        pytest.param({"embeds": [{"title": "x"}] * 11}, "limit 10", id="11-embeds"),
        pytest.param(
            {"components": [{"type": 1, "components": [_button("a"), _button("a")]}]},
            "used twice",
            id="duplicate-custom-id",
        ),
        pytest.param(
            {"components": [{"type": 1, "components": [_button("a", style=9)]}]},
            "style",
            id="invalid-button-style",
        ),
        pytest.param(
            {"components": [{"type": 1, "components": [_button(f"r{i}")]} for i in range(6)]},
            "action rows",
            id="6-action-rows",
        ),
        pytest.param(
            {"components": [{"type": 1, "components": [_button(f"b{i}") for i in range(6)]}]},
            "buttons",
            id="6-buttons-in-a-row",
        ),
        pytest.param(
            {"components": [{"type": 1, "components": [_button("x" * 101)]}]},
            "custom_id",
            id="custom-id-101",
        ),
        pytest.param(
            {"components": [{"type": 1, "components": [_button("a", label="L" * 81)]}]},
            "label",
            id="label-81",
        ),
        pytest.param({"content": "c" * 2001}, "content", id="content-2001"),
        pytest.param({"embeds": [{"title": "t" * 257}]}, "title", id="embed-title-257"),
    ],
)
def test_validator_rejects_bad_message(body: dict[str, Any], expected: str) -> None:
    for method, path, wrapped in (
        _msg(**body),
        ("POST", "/channels/1/messages", body),
        ("POST", "/webhooks/1/tok", body),
    ):
        problems = validate(method, path, wrapped)
        assert any(expected in p for p in problems), (path, problems)


def _text_input(cid: str) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 4, "custom_id": cid, "style": 1, "label": "L"}]}


def test_validator_checks_modals_autocomplete_and_commands() -> None:
    cb = "/interactions/1/tok/callback"
    ok_modal = {
        "type": 9,
        "data": {"custom_id": "m", "title": "T", "components": [_text_input("a")]},
    }
    assert validate("POST", cb, ok_modal) == []
    long_title = {"type": 9, "data": {**ok_modal["data"], "title": "T" * 46}}
    assert any("title" in p for p in validate("POST", cb, long_title))
    six = {
        "type": 9,
        "data": {**ok_modal["data"], "components": [_text_input(f"f{i}") for i in range(6)]},
    }
    assert any("1-5" in p for p in validate("POST", cb, six))
    choices = {
        "type": 8,
        "data": {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]},
    }
    assert any("25" in p for p in validate("POST", cb, choices))
    assert (
        validate("POST", cb, {"type": 8, "data": {"choices": choices["data"]["choices"][:25]}})
        == []
    )
    bad_cmds = [
        {"name": "Encounter", "description": "x", "type": 1},
        {
            "name": "x",
            "description": "x",
            "type": 1,
            "options": [
                {"type": 3, "name": "a", "description": "a"},
                {"type": 3, "name": "b", "description": "b", "required": True},
            ],
        },
    ]
    problems = validate("PUT", "/applications/1/guilds/2/commands", bad_cmds)
    assert any("name" in p for p in problems)
    assert any("required option after an optional" in p for p in problems)
    assert any("not one of" in p or "type" in p for p in validate("POST", cb, {"type": 99}))


SUBPROCESS_BOT = """
import os
import discord, discord.gateway, discord.http, yarl
from discord import app_commands

discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self):
        guild = discord.Object(int(os.environ["GUILD_ID"]))

        @self.tree.command(name="ping", description="pong", guild=guild)
        async def ping(interaction: discord.Interaction):
            await interaction.response.send_message(f"pong from {os.getpid()}")

        await self.tree.sync(guild=guild)


Bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


async def test_bot_in_a_subprocess(discord_harness: DiscordHarness, tmp_path: Any) -> None:
    import os
    import sys

    script = tmp_path / "bot_main.py"
    script.write_text(SUBPROCESS_BOT)
    env = {**os.environ, **discord_harness.env(), "GUILD_ID": str(discord_harness.guild.id)}
    proc = await asyncio.create_subprocess_exec(sys.executable, str(script), env=env)
    try:
        await discord_harness.wait_for(
            lambda: (
                discord_harness.registered_commands(discord_harness.guild)
                and discord_harness.live_sessions()
            ),
            timeout=15,
        )
        member = discord_harness.add_member(discord_harness.guild, "pat")
        rec = await discord_harness.slash(member, discord_harness.channel, "ping")
        await rec.response()
        assert rec.message is not None and rec.message.content == f"pong from {proc.pid}"
    finally:
        proc.terminate()
        await proc.wait()


async def test_injected_429_is_retried_by_discord_py(
    bot_env: tuple[DiscordHarness, dict[str, Any]],
) -> None:
    harness, _ = bot_env
    harness.fail_next("POST", r"^/channels/\d+/messages$", status=429, retry_after=0.01)
    member = harness.add_member(harness.guild, "quinn")
    rec = await harness.slash(member, harness.channel, "announce", text="after a 429")
    await rec.edit(0)
    posts = harness.requests_to("POST", r"^/channels/\d+/messages$")
    assert [r.status for r in posts] == [429, 200]
    assert [m.content for m in harness.messages_in(harness.channel)] == ["after a 429"]


def test_discord_patched_points_discord_py_at_the_harness_and_restores() -> None:
    import discord.gateway
    import discord.http

    before = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    harness = DiscordHarness(port=12345)
    with harness.patch_discord():
        assert discord.http.Route.BASE == "http://127.0.0.1:12345/api/v10"
        assert (
            str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:12345/gateway"
        )
    assert before == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
