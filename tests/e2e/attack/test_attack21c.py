"""attack21c: the server admin's side, attacked — /server, /tables and the GM role by an
admin (Manage Server), a moderator (Manage Channels), a GM by role and a plain member."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot.client import CombatBot
from bot.store import guild_settings
from tests.clock import ManualClock
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash, work_done
from tests.e2e.conftest import Table
from tests.e2e.registered import filled, slash_commands
from tests.e2e.test_fix21 import role_gm_sets_willows_standing_reaction
from tests.harness.models import Member
from tests.harness.server import DiscordHarness

PLAIN = discord.Permissions(send_messages=True, view_channel=True)
BLOCK = "reactions.block.dodge_bonus"


@pytest.fixture
def admin(discord_harness: DiscordHarness) -> Member:
    h = discord_harness
    return h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))


async def settings_row(bot: CombatBot, guild_id: int) -> dict[str, Any] | None:
    """The server's row of ``guild_settings`` as the database has it."""
    async with bot.db.read() as conn:
        row = await conn.fetch_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return dict(row) if row else None


async def test_everyone_cannot_be_the_gm_role(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    """@everyone as the GM role would make every member a server GM: /server, the rule
    tables, every hidden NPC number, departed members' data. Refused as the starter role is."""
    h = discord_harness
    everyone = next(r for r in h.guild.roles if r.id == h.guild.id)
    text = await refused(await slash(h, admin, "gm seat role", role=everyone))
    assert text.startswith("@everyone cannot be the GM role"), text
    row = await settings_row(bot, h.guild.id)
    assert row is None or row["gm_role_id"] is None
    text = await refused(await slash(h, table.bystander, "tables set", entry=BLOCK, value="9"))
    assert "Only a GM of this server" in text


async def test_an_everyone_gm_role_stored_before_the_refusal_makes_nobody_a_gm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    """The class: every read of the server's role settings (the server-wide checks, the
    encounter row's GM role, the start policy's starter role) takes @everyone as no role."""
    h = discord_harness
    async with bot.db.transaction() as conn:
        await guild_settings.set_gm_role(conn, h.guild.id, h.guild.id, datetime.now(UTC))
        await conn.execute(
            "UPDATE guild_settings SET start_policy = 'gms', starter_role_id = ?"
            " WHERE guild_id = ?",
            (h.guild.id, h.guild.id),
        )
    await ok(await slash(h, table.moderator, "encounter start", name="Moderated"))
    text = await refused(await slash(h, table.bystander, "tables set", entry=BLOCK, value="9"))
    assert "Only a GM of this server" in text
    assert "Only server GMs" in await refused(await slash(h, table.bystander, "server encounters"))
    assert "GM" in await refused(await slash(h, table.bystander, "gm pause"))
    # Nor may everyone start encounters by the @everyone starter role.
    scene = h.add_channel(h.guild, "scene")
    text = await refused(await h.slash(table.bystander, scene, "encounter start", name="Mine"))
    assert text.startswith("Only server GMs (Manage Server, Manage Channels or the server's GM")
    shown = await slash(h, admin, "server settings")
    await shown.response()
    assert "**Starter role:** none" in shown.response_data["content"]


@pytest.mark.parametrize(
    ("command", "options", "refusal"),
    [
        ("tables set", {"entry": "reactions..block", "value": "9"}, "Only a GM of this server"),
        ("tables set", {"entry": "x" * 120, "value": "{"}, "Only a GM of this server"),
        ("server member-export", {"user_id": "not a user"}, "Only server GMs"),
        ("server member-delete", {"user_id": "0"}, "Only server GMs"),
    ],
)
async def test_a_plain_member_is_refused_as_such_before_the_options_are_read(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    command: str,
    options: dict[str, Any],
    refusal: str,
) -> None:
    """A member who may not use a command is told so, not what is wrong with an option they
    may not give (the class of ``cogs/gm/groups.py::gm_first``)."""
    h = discord_harness
    text = await refused(await slash(h, table.bystander, command, **options))
    assert text.startswith(refusal), text
    assert await settings_row(bot, h.guild.id) is None


SERVER_GM_COMMANDS = (
    "server ",
    "tables set",
    "tables reset",
    "npc ",
    "campaign rest",
    "campaign heal",
    "campaign end-of",
    "campaign reset",
    "gm seat role",
)
"""The commands README "Commands" gives to server GMs (or Manage Server) alone."""


async def test_every_server_gm_command_refuses_a_plain_member_by_who_they_are(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The class guard: every server-GM command (and any added under those names), used by a
    plain member with every free-text option absurd, is refused privately as not a server GM
    ("Only …"), never about an option, and nothing is stored."""
    h = discord_harness
    wrong: list[str] = []
    swept = 0
    for name, options in slash_commands(h):
        if not name.startswith(SERVER_GM_COMMANDS):
            continue
        swept += 1
        values = filled(h, table, options)
        for option in options:
            if option["type"] == 3 and not option.get("choices"):
                values[option["name"]] = ".. not ` valid"
        record = await h.slash(table.bystander, h.channel, name, values)
        await record.response()
        if record.deferred:
            await record.followup(0)
            text = record.followups[0].get("content") or ""
            private = bool(record.followups[0].get("flags", 0) & 64)
        else:
            text = record.response_data.get("content") or ""
            private = record.ephemeral
        if not (private and text.startswith("Only ")):
            wrong.append(f"/{name}: {text[:120]}")
    assert swept >= 15, swept
    assert not wrong, "\n".join(wrong)
    assert await settings_row(bot, h.guild.id) is None
    async with bot.db.read() as conn:
        assert await conn.fetch_one("SELECT 1 FROM sheets") is None


async def test_a_fight_waits_while_the_bot_is_not_in_the_server(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The bot removed from the server: nobody can see its fights or press their buttons, so
    their turn deadlines and reaction windows must not run on and play the fight for them
    (they did: every turn lapsed in turn while the bot was away). Its live encounters pause
    (what the server keeps stays: sheets, templates, tables, settings, fights); added back,
    the GM is told and resumes with ``/gm resume``."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm settings", turn_deadline="1h"))
    await answered(await slash(h, gm, "tables set", entry=BLOCK, value="4"))
    before = await bot.services.encounters.live(h.channel.id)
    await work_done()

    await h.remove_bot(h.guild)
    await h.wait_for(lambda: bot.get_guild(h.guild.id) is None)
    await work_done()
    for _ in range(5):
        clock.advance(2 * 3600)
        assert await bot.fire_turn_deadlines() == []
        assert await bot.expire_due() == []
    during = await bot.services.encounters.live(h.channel.id)
    assert during.row.paused
    assert during.state.turn_seq == before.state.turn_seq

    await h.add_bot_back(h.guild)
    await h.wait_for(lambda: bot.get_guild(h.guild.id) is not None)
    assert await bot.services.tables.overrides(h.guild.id) == {
        "uttas": {"reactions": {"block": {"dodge_bonus": 4}}}
    }
    shown = await slash(h, gm, "encounter status")
    await shown.response()
    notice = await shown.followup(0)
    assert notice.ephemeral
    assert notice.content == "📬 " + (
        f"The bot was removed from this server, so **Firewood** in <#{h.channel.id}> was "
        "paused: nobody could see it or press its buttons, and no turn deadline or reaction "
        "window ran out meanwhile. Nothing is lost; `/gm resume` there resumes it."
    )
    await ok(await slash(h, gm, "gm resume"))
    after = await bot.services.encounters.live(h.channel.id)
    assert not after.row.paused and after.state.turn_seq == before.state.turn_seq


async def test_a_server_unavailable_in_an_outage_is_not_a_removal(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """GUILD_DELETE with ``unavailable`` (a Discord outage) pauses nothing: the bot was not
    removed, and the server comes back by itself."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await work_done()
    await h.dispatch("GUILD_DELETE", {"id": str(h.guild.id), "unavailable": True})
    await h.wait_for(
        lambda: bot.get_guild(h.guild.id) is None or bot.get_guild(h.guild.id).unavailable
    )
    await h.dispatch("GUILD_CREATE", h.guild.payload())
    await h.wait_for(lambda: (g := bot.get_guild(h.guild.id)) is not None and not g.unavailable)
    await work_done()
    assert not (await bot.services.encounters.live(h.channel.id)).row.paused


async def test_a_gm_or_starter_role_deleted_on_discord_is_no_role_any_more(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    """Deleting the GM role (or the starter role) on Discord clears it as ``/gm seat role``
    with no role would: the settings, the refusals and a fight stop naming a role that is gone
    (they showed ``<@&id>``), and a standing reaction a GM by that role set ends with it."""
    h = discord_harness
    gm_role = h.add_role(h.guild, "GMs")
    starters = h.add_role(h.guild, "Storytellers")
    keeper = h.add_role(h.guild, "Keepers")
    role_gm = h.add_member(h.guild, "Role GM", permissions=PLAIN, roles=[gm_role])
    await ok(await slash(h, admin, "gm seat role", role=gm_role))
    await answered(
        await slash(h, admin, "server settings", who_can_start="gms", starter_role=starters)
    )
    await ok(await slash(h, role_gm, "encounter start", name="Vault"))
    await h.delete_role(h.guild, keeper)  # another role: nothing changes
    await h.wait_for(lambda: bot.get_guild(h.guild.id).get_role(keeper.id) is None)
    await work_done()
    row = await settings_row(bot, h.guild.id)
    assert row is not None and (row["gm_role_id"], row["starter_role_id"]) == (
        gm_role.id,
        starters.id,
    )

    await h.delete_role(h.guild, gm_role)
    await h.delete_role(h.guild, starters)
    await h.wait_for(lambda: bot.get_guild(h.guild.id).get_role(starters.id) is None)

    await work_done()  # the listener's task (bot.client.IN_FLIGHT)
    row = await settings_row(bot, h.guild.id)
    assert row is not None and (row["gm_role_id"], row["starter_role_id"]) == (None, None)
    shown = await slash(h, admin, "server settings")
    await shown.response()
    text = shown.response_data["content"]
    assert f"<@&{gm_role.id}>" not in text and f"<@&{starters.id}>" not in text, text
    assert "**Starter role:** none" in text
    assert (await bot.services.encounters.live(h.channel.id)).row.gm_role_id is None
    # The policy stays as it was: only server GMs now, the former role GM no longer one.
    scene = h.add_channel(h.guild, "scene")
    text = await refused(await h.slash(role_gm, scene, "encounter start", name="Mine"))
    assert text.startswith("Only server GMs (Manage Server, Manage Channels or the server's GM")


async def test_each_admin_kind_may_do_what_the_readme_says(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    """README "Commands": the admin (Manage Server) changes the start settings and the GM
    role; a moderator (Manage Channels) and a GM by role are server GMs — the tables, the
    live encounters — but may not change who may be one; refused privately, nothing stored."""
    h = discord_harness
    gm_role = h.add_role(h.guild, "GMs")
    role_gm = h.add_member(h.guild, "Role GM", permissions=PLAIN, roles=[gm_role])
    await ok(await slash(h, admin, "gm seat role", role=gm_role))
    before = await settings_row(bot, h.guild.id)
    for member in (table.moderator, role_gm):
        text = await refused(await slash(h, member, "gm seat role"))
        assert text == "Only a member with Manage Server can choose the GM role."
        text = await refused(await slash(h, member, "server settings", max_encounters=0))
        assert text.startswith("Only a member with Manage Server can change"), text
        shown = await slash(h, member, "server settings")
        await shown.response()
        assert shown.ephemeral and "3 at once" in shown.response_data["content"]
        listed = await slash(h, member, "server encounters")
        await listed.response()
        assert listed.ephemeral
    assert await settings_row(bot, h.guild.id) == before
    for n, member in enumerate((admin, table.moderator, role_gm), start=1):
        done = await slash(h, member, "tables set", entry=BLOCK, value=str(n))
        await done.response()
        assert done.ephemeral and "is now" in done.response_data["content"]
    assert await bot.services.tables.overrides(h.guild.id) == {
        "uttas": {"reactions": {"block": {"dodge_bonus": 3}}}
    }
    text = await refused(await slash(h, table.bystander, "tables reset"))
    assert text.startswith("Only a GM of this server")
    assert await bot.services.tables.overrides(h.guild.id) != {}
    shown = await slash(h, table.bystander, "tables show", entry=BLOCK)
    await shown.response()
    assert shown.ephemeral and "```json\n3\n```" in shown.response_data["content"]


async def test_fights_running_when_the_settings_tighten_keep_their_gm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    """The start policy tightened and the cap lowered below what a member runs: their live
    encounters go on under them (README: the settings apply to the next start or hand-over);
    they cannot start another, nor be handed one."""
    h = discord_harness
    scenes = [h.add_channel(h.guild, f"scene-{n}") for n in range(1, 5)]
    for scene in scenes[:3]:
        await ok(await h.slash(table.bystander, scene, "encounter start", name=scene.name))
    await answered(await slash(h, admin, "server settings", who_can_start="gms", max_encounters=1))
    # Still their fights: a GM command works in each.
    for scene in scenes[:3]:
        await ok(await h.slash(table.bystander, scene, "gm pause"))
    text = await refused(await h.slash(table.bystander, scenes[3], "encounter start"))
    assert text.startswith("Only server GMs")
    await answered(await slash(h, admin, "server settings", who_can_start="everyone"))
    text = await refused(await h.slash(table.bystander, scenes[3], "encounter start"))
    assert text.startswith("You already run 3 live encounters"), text
    await ok(await h.slash(table.moderator, scenes[3], "encounter start", name="Mod's"))
    text = await refused(
        await h.slash(table.moderator, scenes[3], "gm seat transfer", member=table.bystander)
    )
    assert "already runs 3 live encounters" in text, text
    live = await bot.services.encounters.live(scenes[3].id)
    assert live.row.gm_id == table.moderator.id


async def test_a_standing_reaction_set_by_a_gm_by_role_ends_when_the_role_is_deleted(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """README: a standing reaction a GM by the server's GM role set ends when that role is
    changed — or deleted on Discord (it kept applying: the deleted role's id stayed the
    server's GM role)."""
    bot, h = clocked_bot, discord_harness
    _admin, gms, _role_gm = await role_gm_sets_willows_standing_reaction(bot, h, table)
    await h.delete_role(h.guild, gms)
    await h.wait_for(lambda: bot.get_guild(h.guild.id).get_role(gms.id) is None)
    await work_done()
    listed = await answered(await slash(h, table.gm, "me reactions", combatant="Willow"))
    assert "— does not apply now" in str(listed.response_data["content"]), listed.response_data


async def test_a_table_entry_named_as_another_way_of_writing_a_name_changes_that_entry(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/tables set entry:stances.aggressive.dodge_bonus`` was accepted ("is now 2") as a new
    stance ``aggressive`` beside ``Aggressive``, which fights find first by name: the change
    never applied. Entries are names (README "Names": case, invisible characters and
    lookalike letters aside): it changes Aggressive; a new name is stored in normal form."""
    h, gm = discord_harness, table.moderator
    done = await slash(h, gm, "tables set", entry="stances.aggressive.dodge_bonus", value="2")
    await done.response()
    assert done.response_data["content"].startswith(
        "UTTAS: `stances.Aggressive.dodge_bonus` is now"
    ), done.response_data
    # A Cyrillic А, and a fullwidth new stance.
    await answered(
        await slash(h, gm, "tables set", entry="stances.\u0410ggressive.armor_bonus", value="1")
    )
    await answered(
        await slash(h, gm, "tables set", entry="stances.Ｗｉｌｄ.dodge_bonus", value="1")
    )
    assert await bot.services.tables.overrides(h.guild.id) == {
        "uttas": {
            "stances": {
                "Aggressive": {"dodge_bonus": 2, "armor_bonus": 1},
                "Wild": {"dodge_bonus": 1},
            }
        }
    }
    shown = await slash(h, table.player, "tables show", entry="stances.AGGRESSIVE.dodge_bonus")
    await shown.response()
    assert "```json\n2\n```" in shown.response_data["content"], shown.response_data
    await ok(await slash(h, gm, "encounter start", name="Stances"))
    rules = (await bot.services.encounters.live(h.channel.id)).rules
    found = rules.tables.stance("aggressive")  # type: ignore[attr-defined]
    assert found is not None and (found[1].dodge_bonus, found[1].armor_bonus) == (2, 1)
    assert [s for s in rules.tables.stances if s.casefold() == "aggressive"] == ["Aggressive"]  # type: ignore[attr-defined]


async def test_mid_fight_the_tables_and_the_gm_role_change(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, admin: Member
) -> None:
    """A table changed mid-fight: the fight keeps the tables it froze, through an undo (which
    replays the log). The GM role changed mid-fight: its former holder is no GM of the fight
    any more, refused privately, and nothing changes."""
    h = discord_harness
    gms = h.add_role(h.guild, "GMs")
    role_gm = h.add_member(h.guild, "Role GM", permissions=PLAIN, roles=[gms])
    await ok(await slash(h, admin, "gm seat role", role=gms))
    await set_up_fight(h, table, thugs=1)
    await answered(await slash(h, role_gm, "tables set", entry=BLOCK, value="9"))
    await answered(await slash(h, role_gm, "tables set", entry="range.board", value="feet"))
    await answered(await slash(h, role_gm, "gm undo"))
    await answered(await slash(h, role_gm, "gm redo"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.rules.tables.reactions["block"].dodge_bonus == 3  # type: ignore[attr-defined]
    assert live.rules.tables.range.board == "meters"  # type: ignore[attr-defined]
    await ok(await slash(h, admin, "gm seat role", role=h.add_role(h.guild, "New GMs")))
    text = await refused(await slash(h, role_gm, "gm pause"))
    assert text.startswith("Only the GM can use `/gm pause`"), text
    after = await bot.services.encounters.live(h.channel.id)
    assert (after.version, after.row.paused) == (live.version, False)


async def test_a_stance_the_server_named_with_markdown_shows_as_typed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """README "Names": names are shown exactly as typed — a stance a server's tables add too
    (the refusal's list of known stances showed ``**Bold**`` in bold)."""
    h, gm = discord_harness, table.moderator
    await answered(
        await slash(h, gm, "tables set", entry="stances.**Bold**.dodge_bonus", value="1")
    )
    await set_up_fight(h, table, thugs=1)
    live = await bot.services.encounters.live(h.channel.id)
    first = live.state.current.name  # type: ignore[union-attr]
    member = table.player if first in ("Willow", "General Bearington") else gm
    text = await refused(await slash(h, member, "stance", name="Nowhere", as_=first))
    assert "\\*\\*Bold\\*\\*" in text, text


async def test_a_table_value_with_backticks_stays_inside_its_code_block(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A text value with a code fence in it (a stance's description) ended the reply's
    ```json block early, and the rest showed as Markdown — to anyone's ``/tables show``."""
    h, gm = discord_harness, table.moderator
    entry = "stances.Aggressive.description"
    done = await slash(h, gm, "tables set", entry=entry, value="Hit hard ``` **loud** ``` end")
    await done.response()
    shown = await slash(h, table.player, "tables show", entry=entry)
    await shown.response()
    everything = await slash(h, table.player, "tables show")
    await everything.response()
    for reply in (done, shown, everything):
        text = reply.response_data["content"]
        assert text.count("```") == 2, text
        assert "**loud**" in text  # inside the block, as typed


async def test_manage_channels_in_one_channel_is_no_server_gm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A member granted Manage Channels in one channel only (their own overwrite, e.g. a
    group's room) is a GM of that channel's encounter — but no server GM: the server-wide
    commands (``/server``, ``/tables set``, ``/npc``, another member's data) read the
    permissions their roles give in the server, not the channel's they typed in (they read
    the channel's, so that member could end fights in channels they cannot see and erase a
    departed member's data)."""
    h = discord_harness
    room_owner = h.add_member(h.guild, "Room owner", permissions=PLAIN)
    h.allow_member(h.channel, room_owner, discord.Permissions(manage_channels=True))
    await ok(await slash(h, table.gm, "encounter start", name="In the room"))
    await ok(await slash(h, room_owner, "gm pause"))  # a GM of this channel's encounter
    elsewhere = h.add_channel(h.guild, "elsewhere")
    await ok(await h.slash(table.gm, elsewhere, "encounter start", name="Elsewhere"))
    assert "Only server GMs" in await refused(await slash(h, room_owner, "server encounters"))
    assert "Only server GMs" in await refused(
        await slash(h, room_owner, "server end", channel=elsewhere)
    )
    assert "Only a GM of this server" in await refused(
        await slash(h, room_owner, "tables set", entry=BLOCK, value="9")
    )
    assert "Only a GM of this server" in await refused(
        await slash(h, room_owner, "npc import", example="thug")
    )
    assert await settings_row(bot, h.guild.id) is None
    assert not (await bot.services.encounters.live(elsewhere.id)).row.paused
