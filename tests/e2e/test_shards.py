"""Sharding (issue 16): bots that each run some of ``SHARD_COUNT`` shards (``SHARD_IDS``), against
one harness server, each answering commands in exactly the servers its shards own
(``(guild_id >> 22) % shard_count``), with slash commands synced by the shard-0 process only.

Each bot has its own SQLite file: several processes on one SQLite file lock each other out.
Sharded processes sharing one PostgreSQL database: tests/e2e/test_postgres_processes.py."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import discord

from bot.__main__ import build
from bot.client import CombatBot, ShardedCombatBot
from bot.services.actor import Actor
from tests.e2e.combat_helpers import ok
from tests.e2e.conftest import BotProcess, bot_settings
from tests.harness.gateway import GatewaySession, guild_shard
from tests.harness.models import Channel, Guild, InteractionRecord, Member
from tests.harness.server import DiscordHarness

ROOT = Path(__file__).resolve().parents[2]
WILLOW = (ROOT / "data" / "sheets" / "uttas" / "willow.json").read_bytes()
COMMAND_SYNC = r"^/applications/\d+/commands$"
PLAIN = discord.Permissions(send_messages=True, view_channel=True)


@contextlib.asynccontextmanager
async def shard_bot(
    h: DiscordHarness, database: Path, shard_ids: tuple[int, ...], shard_count: int = 2
) -> AsyncIterator[CombatBot]:
    """The real bot from the composition root, running ``shard_ids`` of ``shard_count``."""
    settings = bot_settings(h, database, shard_count=shard_count, shard_ids=shard_ids)
    client = await build(settings, guild_ready_timeout=0.05, expiry_interval=0.2)
    try:
        async with h.run_client(client):
            yield client
    finally:
        await client.db.close()


def server_on(h: DiscordHarness, shard: int, name: str) -> tuple[Guild, Channel, Member]:
    guild = h.add_guild(name, shard=(shard, 2))
    channel = h.add_channel(guild, "combat")
    return guild, channel, h.add_member(guild, f"player on shard {shard}", permissions=PLAIN)


async def import_willow(h: DiscordHarness, member: Member, channel: Channel) -> InteractionRecord:
    attachment = h.make_attachment("willow.json", WILLOW)
    record = await h.slash(member, channel, "character import", file=attachment)
    await record.response()
    if record.deferred:
        await record.followup(0)
    return record


def interactions_to(session: GatewaySession) -> set[int | None]:
    """The guilds whose interactions were sent over ``session``."""
    return {guild for event, guild in session.sent if event == "INTERACTION_CREATE"}


def reply_text(record: InteractionRecord) -> str:
    message = record.followups[0] if record.deferred else record.message
    return message.text() if message is not None else str(record.response_data.get("content"))


async def test_two_shard_bots_each_serve_their_own_servers(
    discord_patched: DiscordHarness, tmp_path: Path
) -> None:
    h = discord_patched
    g0, c0, p0 = server_on(h, 0, "Shard zero table")
    g1, c1, p1 = server_on(h, 1, "Shard one table")
    # The shard-1 bot starts first: it does not sync the slash commands.
    async with shard_bot(h, tmp_path / "shard1.sqlite3", (1,)) as second:
        assert isinstance(second, ShardedCombatBot)
        assert not h.requests_to("PUT", COMMAND_SYNC)
        async with shard_bot(h, tmp_path / "shard0.sqlite3", (0,)) as first:
            assert len(h.requests_to("PUT", COMMAND_SYNC)) == 1  # by the shard-0 bot only
            assert g0.id in {g.id for g in first.guilds} and first.get_guild(g1.id) is None
            assert g1.id in {g.id for g in second.guilds} and second.get_guild(g0.id) is None

            for member, channel in ((p0, c0), (p1, c1)):
                record = await import_willow(h, member, channel)
                assert "Imported **Willow**" in reply_text(record)
                rolled = await ok(await h.slash(member, channel, "roll", {"dice": "1d20"}))
                assert rolled.message is not None and rolled.message.channel_id == channel.id

            # Each command reached the one bot whose shard owns its server, and only that one
            # stored the sheet (each has its own database).
            sessions = {s.shard: s for s in h.live_sessions()}
            for shard, guild in ((0, g0), (1, g1)):
                routed = {
                    g for event, g in sessions[(shard, 2)].sent if event == "INTERACTION_CREATE"
                }
                assert routed == {guild.id}
            for bot, mine, player, theirs, other in (
                (first, g0, p0, g1, p1),
                (second, g1, p1, g0, p0),
            ):
                sheets = bot.services.sheets
                mine_rows = await sheets.list_sheets(mine.id, Actor(player.id), "character")
                other_rows = await sheets.list_sheets(theirs.id, Actor(other.id), "character")
                assert [row.name for row in mine_rows] == ["Willow"]
                assert other_rows == []

        # The shard-0 bot is gone: its servers get nothing; the shard-1 bot keeps serving.
        assert not h.sessions_for(g0.id)
        rolled = await ok(await h.slash(p1, c1, "roll", {"dice": "2d6"}))
        assert rolled.message is not None


async def test_shard_count_alone_runs_every_shard_in_one_process(
    discord_patched: DiscordHarness, tmp_path: Path
) -> None:
    """SHARD_COUNT=2 without SHARD_IDS: one process runs both shards (two connections), answers
    in servers of both, and syncs the commands."""
    h = discord_patched
    servers = [server_on(h, shard, f"Table {shard}") for shard in (0, 1)]
    settings = bot_settings(h, tmp_path / "bot.sqlite3", shard_count=2)
    client = await build(settings, guild_ready_timeout=0.05, expiry_interval=0.2)

    async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s between two IDENTIFYs (Discord's rate limit, which the harness
        does not enforce)."""

    client.before_identify_hook = identify_at_once  # type: ignore[method-assign]
    try:
        async with h.run_client(client):
            assert {s.shard for s in h.live_sessions()} == {(0, 2), (1, 2)}
            assert len(h.requests_to("PUT", COMMAND_SYNC)) == 1
            for guild, channel, member in servers:
                assert client.get_guild(guild.id) is not None
                rolled = await ok(await h.slash(member, channel, "roll", {"dice": "1d20"}))
                assert rolled.message is not None and rolled.message.channel_id == channel.id
    finally:
        await client.db.close()


async def test_python_m_bot_processes_with_their_own_shard_ids(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    """Two ``python -m bot`` processes, as the Procfile runs them, with SHARD_COUNT=2 and
    SHARD_IDS=0 / SHARD_IDS=1 and each its own DATABASE_PATH."""
    h = discord_harness
    servers = [server_on(h, shard, f"Table {shard}") for shard in (0, 1)]
    assert h.guild is not None
    processes = []
    try:
        for shard in (1, 0):
            workdir = tmp_path / f"shard{shard}"
            workdir.mkdir()
            process = BotProcess(h, workdir, {"SHARD_COUNT": "2", "SHARD_IDS": str(shard)})
            processes.append(process)
            await process.start()
        assert len(h.requests_to("PUT", COMMAND_SYNC)) == 1
        await h.wait_for(
            lambda: {s.shard for s in h.live_sessions()} == {(0, 2), (1, 2)}, what="both shards"
        )
        for shard, (guild, channel, member) in enumerate(servers):
            assert guild_shard(guild.id, 2) == shard
            record = await import_willow(h, member, channel)
            assert "Imported **Willow**" in reply_text(record)
        sessions = {s.shard: s for s in h.live_sessions()}
        for shard, (guild, _, _) in enumerate(servers):
            assert interactions_to(sessions[(shard, 2)]) == {guild.id}
        second, first = processes
        # Logs, read while they run: which shards each runs, and who synced the commands.
        await h.wait_for(lambda: "shards 1 of 2" in second.output(), 10, what="shard 1 ready")
        await h.wait_for(lambda: "shards 0 of 2" in first.output(), 10, what="shard 0 ready")
        assert "synced by the process that runs shard 0" in second.output()
        assert "slash commands globally" in first.output()
    finally:
        for process in processes:
            process.stop()
