"""Self-tests of the harness gateway's sharding: IDENTIFY with ``[shard_id, shard_count]``, each
connection told about and sent the events of only the guilds its shard owns
(``(guild_id >> 22) % shard_count``), driven by unmodified discord.py ``AutoShardedClient``s."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.harness.gateway import guild_shard
from tests.harness.models import HarnessError, Snowflakes
from tests.harness.server import DiscordHarness


def sharded_client(shard_id: int, shard_count: int, *, syncs: bool) -> discord.AutoShardedClient:
    """A client that runs one shard and answers ``/where`` with the shard that got it."""
    client = discord.AutoShardedClient(
        intents=discord.Intents(guilds=True),
        shard_count=shard_count,
        shard_ids=[shard_id],
        guild_ready_timeout=0.05,
    )
    tree = app_commands.CommandTree(client)

    @tree.command(name="where", description="Which shard answers")
    async def where(interaction: discord.Interaction) -> None:
        assert interaction.guild is not None
        await interaction.response.send_message(
            f"shard {interaction.guild.shard_id} of client {shard_id}"
        )

    async def setup_hook() -> None:
        if syncs:
            await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


@contextlib.asynccontextmanager
async def two_shards(
    harness: DiscordHarness,
) -> AsyncIterator[tuple[discord.AutoShardedClient, discord.AutoShardedClient]]:
    first, second = sharded_client(0, 2, syncs=True), sharded_client(1, 2, syncs=False)
    async with harness.run_client(first), harness.run_client(second):
        yield first, second


def test_ids_on_a_shard_are_increasing_and_owned() -> None:
    ids = Snowflakes()
    made = [ids.next_on_shard(n % 3, 3) for n in range(30)] + [ids.next() for _ in range(3)]
    assert made == sorted(set(made))
    assert [guild_shard(i, 3) for i in made[:30]] == [n % 3 for n in range(30)]


async def test_each_shard_gets_only_its_guilds(discord_harness: DiscordHarness) -> None:
    h = discord_harness
    g0 = h.add_guild("Shard zero", shard=(0, 2))
    g1 = h.add_guild("Shard one", shard=(1, 2))
    c0 = h.add_channel(g0, "zero")
    c1 = h.add_channel(g1, "one")
    assert h.guild is not None
    default_shard = guild_shard(h.guild.id, 2)
    async with two_shards(h) as (first, second):
        expected = {0: {g0.id}, 1: {g1.id}}
        expected[default_shard].add(h.guild.id)
        assert {g.id for g in first.guilds} == expected[0]
        assert {g.id for g in second.guilds} == expected[1]
        sessions = {s.shard: s for s in h.live_sessions()}
        assert set(sessions) == {(0, 2), (1, 2)}
        identify = [p for p in sessions[(1, 2)].received if p.get("op") == 2]
        assert identify[0]["d"]["shard"] == [1, 2]

        for guild, channel, shard in ((g0, c0, 0), (g1, c1, 1)):
            member = h.add_member(guild, f"player {shard}")
            rec = await h.slash(member, channel, "where")
            reply = await rec.response()
            assert reply["data"]["content"] == f"shard {shard} of client {shard}"
        # Each interaction went over its shard's connection only.
        for shard, session in sessions.items():
            routed = [g for event, g in session.sent if event == "INTERACTION_CREATE"]
            assert routed == [(g0.id, g1.id)[shard[0]]]
        # The one that syncs registered the commands once, for both.
        assert len(h.requests_to("PUT", r"/applications/\d+/commands$")) == 1

        # A guild added later reaches only its shard's connection.
        late = h.add_guild("Late", shard=(1, 2))
        await h.wait_for(lambda: second.get_guild(late.id) is not None, what="the late guild")
        assert first.get_guild(late.id) is None


async def test_resumed_shards_keep_their_guilds(discord_harness: DiscordHarness) -> None:
    h = discord_harness
    g0 = h.add_guild("Shard zero", shard=(0, 2))
    g1 = h.add_guild("Shard one", shard=(1, 2))
    channels = {0: h.add_channel(g0, "zero"), 1: h.add_channel(g1, "one")}
    members = {0: h.add_member(g0, "p0"), 1: h.add_member(g1, "p1")}
    async with two_shards(h):
        before = list(h.live_sessions())
        await h.reconnect_gateway(resume=True)
        await h.wait_for(
            lambda: len(h.live_sessions()) == 2 and not set(h.live_sessions()) & set(before),
            what="both shards to resume",
        )
        assert {s.shard for s in h.live_sessions()} == {(0, 2), (1, 2)}
        for shard in (0, 1):
            rec = await h.slash(members[shard], channels[shard], "where")
            reply = await rec.response()
            assert reply["data"]["content"] == f"shard {shard} of client {shard}"


async def test_no_shard_owns_the_guild_fails_fast(discord_harness: DiscordHarness) -> None:
    h = discord_harness
    g1 = h.add_guild("Shard one", shard=(1, 2))
    channel = h.add_channel(g1, "one")
    member = h.add_member(g1, "alone")
    async with h.run_client(sharded_client(0, 2, syncs=True)):
        with pytest.raises(HarnessError, match="no connected bot shard owns the guild"):
            await h.slash(member, channel, "where")


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,1"])
async def test_invalid_shard_is_closed_with_4010(
    discord_harness: DiscordHarness, shard: Any
) -> None:
    h = discord_harness
    async with aiohttp.ClientSession() as session, session.ws_connect(h.gateway_url) as ws:
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == 10
        identify = {"token": h.token, "intents": 1, "properties": {}, "shard": shard}
        await ws.send_str(json.dumps({"op": 2, "d": identify}))
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == 4010
    assert not h.live_sessions()
