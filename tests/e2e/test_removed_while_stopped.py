"""A bot removed from a server while it was stopped (fix24): the gateway's READY no longer lists
the server, so no GUILD_DELETE ever comes — yet its fights must pause as they do when the bot is
removed while it runs (tests/e2e/attack/test_attack21c.py), or their turn deadlines and reaction
windows run on and play them while nobody can see them. Judged by each process only for the
servers of its own shards: the gateway lists a sharded process only its shards' servers, and
another process's fights are never its to pause."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import discord

from bot.__main__ import build
from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, set_up_fight, slash, work_done
from tests.e2e.conftest import Table, _running_bot, bot_settings
from tests.harness.models import Channel, Guild, Member
from tests.harness.server import DiscordHarness

PLAIN = discord.Permissions(send_messages=True, view_channel=True)
GM = discord.Permissions(manage_channels=True)


def server(h: DiscordHarness, name: str, shard: tuple[int, int] | None) -> tuple[Channel, Member]:
    guild: Guild = h.add_guild(name, shard=shard)
    return h.add_channel(guild, "combat"), h.add_member(guild, f"GM of {name}", permissions=GM)


async def start(h: DiscordHarness, where: tuple[Channel, Member], name: str) -> None:
    channel, gm = where
    await ok(await h.slash(gm, channel, "encounter start", {"name": name}))


async def paused(bot: CombatBot, channel: Channel) -> bool:
    return (await bot.services.encounters.live(channel.id)).row.paused


@contextlib.asynccontextmanager
async def shard_bot(
    h: DiscordHarness, database: Path, shard_ids: tuple[int, ...]
) -> AsyncIterator[CombatBot]:
    settings = bot_settings(h, database, shard_count=2, shard_ids=shard_ids)
    client = await build(settings, guild_ready_timeout=0.05, expiry_interval=0.2)
    try:
        async with h.run_client(client):
            yield client
    finally:
        await client.db.close()


async def test_fights_of_a_server_left_while_stopped_pause_at_start_up(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Removed while stopped: started again, the server's running fight is paused and its GM
    gets the same notice as after a removal while running; another server's fight runs on."""
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    kept = server(h, "Kept", None)
    async for _bot in _running_bot(h, database, None):
        await set_up_fight(h, table, thugs=1)
        await start(h, kept, "Still here")
    await h.remove_bot(h.guild)  # nobody is connected: no GUILD_DELETE reaches the bot
    async for bot in _running_bot(h, database, None):
        await work_done()
        assert await paused(bot, h.channel)
        assert not await paused(bot, kept[0])
    await h.add_bot_back(h.guild)
    async for bot in _running_bot(h, database, None):
        await work_done()
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
        assert not await paused(bot, h.channel)


async def test_a_shard_process_pauses_only_its_own_servers_fights(
    discord_patched: DiscordHarness, tmp_path: Path
) -> None:
    """One database, first unsharded with fights on servers of both shards, then run by a
    process of shard 0 only (as with PostgreSQL, or after resharding): the shard-1 server is
    not in its READY, but it is not its to judge — that fight runs on. A shard-0 server the
    bot left meanwhile pauses."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    left, stays, other = (
        server(h, "Left", (0, 2)),
        server(h, "Stays", (0, 2)),
        server(h, "Other shard", (1, 2)),
    )
    async for _bot in _running_bot(h, database, None):
        for where, name in ((left, "Gone"), (stays, "Here"), (other, "There")):
            await start(h, where, name)
    guild = h.guild_by_id(left[0].guild_id or 0)
    assert guild is not None
    await h.remove_bot(guild)
    async with shard_bot(h, database, (0,)) as bot:
        await work_done()
        assert await paused(bot, left[0])
        assert not await paused(bot, stays[0])
        assert not await paused(bot, other[0])
