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
