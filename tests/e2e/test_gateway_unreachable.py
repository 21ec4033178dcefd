"""A gateway that cannot be reached after the login (``DISCORD_GATEWAY_URL`` wrong, or Discord's
gateway down while its API answers). discord.py tries again with its backoff and logged each
try with a traceback (``Attempting a reconnect in 1.23s`` and ~30 lines of aiohttp's
``ClientConnectorError``; sharded, ``Failed to connect for shard_id: 0. Retrying...`` every
5 s). Each try is one line now, the reason in it (:mod:`bot.reconnect_log`). Unsharded, the
first connection's retry ended the process on discord.py's own ``AttributeError`` (its issue
#10520) with another traceback: one line naming DISCORD_GATEWAY_URL now, exit 1 (like an
unreachable Discord at the login). Sharded, discord.py retries for as long as it takes, and
the process still stops on SIGTERM."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.conftest import BotProcess
from tests.harness.server import DiscordHarness

CLOSED = "ws://127.0.0.1:9/gateway"
"""Port 9 (discard) on this host: nothing listens, each connection is refused at once."""


def tries_said_in_one_line(out: str, retrying: str, count: int) -> None:
    assert "Traceback" not in out, out
    tries = [line for line in out.splitlines() if retrying in line]
    assert len(tries) >= count, out
    for line in tries:
        assert "ClientConnectorError" in line and "127.0.0.1:9" in line, line


async def test_an_unreachable_gateway_unsharded_is_one_line_and_exit_1(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    process = BotProcess(discord_harness, tmp_path, {"DISCORD_GATEWAY_URL": CLOSED})
    try:
        process.spawn()
        assert process.proc is not None
        await asyncio.to_thread(process.proc.wait, 60)  # discord.py's backoff, then it gives up
    finally:
        process.stop()
    out = process.output()
    assert process.proc.returncode == 1, out
    tries_said_in_one_line(out, "Attempting a reconnect in ", 1)
    last = out.strip().splitlines()[-1]
    assert last.startswith("Cannot reach Discord's gateway at ws://127.0.0.1:9/gateway"), out
    assert "DISCORD_GATEWAY_URL" in last and "ClientConnectorError" in last, last


@pytest.mark.async_timeout(90)
@pytest.mark.timeout(120)
async def test_an_unreachable_gateway_sharded_is_one_line_per_try(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    retrying = "Failed to connect for shard_id"
    env = {"DISCORD_GATEWAY_URL": CLOSED, "SHARD_COUNT": "2"}
    process = BotProcess(discord_harness, tmp_path, env)
    try:
        process.spawn()
        while process.output().count(retrying) < 2:  # every 5 s (discord.py's)
            assert process.proc is not None and process.proc.poll() is None, process.output()
            await asyncio.sleep(0.1)
        status = await process.terminate()
    finally:
        process.stop()
    out = process.output()
    assert status == 0, out
    tries_said_in_one_line(out, retrying, 2)
