"""attack21c: the server admin's side, attacked — /server, /tables and the GM role by an
admin (Manage Server), a moderator (Manage Channels), a GM by role and a plain member."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot.client import CombatBot
from bot.store import guild_settings
from tests.e2e.combat_helpers import ok, refused, slash
from tests.e2e.conftest import Table
from tests.e2e.registered import filled, slash_commands
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
