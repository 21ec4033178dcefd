"""What the log tells an operator about a ``python -m bot`` process (README, "Running it"): at
start, the database it runs on (the SQLite file as an absolute path — a relative DATABASE_PATH
is read from the working folder — or the PostgreSQL URL without its password) and its migration
number, also when nothing was left to apply, and which shards it runs; on SIGTERM, that it
stops, and that it has stopped with the database closed. The start said nothing of the
database unless a migration was applied, and a stop logged nothing at all.

The process runs two shards, and the SIGTERM comes while the second one waits its turn to
identify (5 s after the first): such a stop left the process running, discord.py retrying
that shard's connection every 5 s forever (bot/client.py, ShardedCombatBot)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.store.db import bundled_migrations
from tests.e2e.conftest import BotProcess
from tests.harness.server import DiscordHarness

NEWEST = max(m.version for m in bundled_migrations())


async def test_start_and_stop_say_what_an_operator_needs(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    h = discord_harness
    database = tmp_path / "bot.sqlite3"
    for start in ("first", "again"):  # the second start has no migration left to apply
        process = BotProcess(h, tmp_path, {"SHARD_COUNT": "2"})
        process.log = tmp_path / f"{start}.log"
        try:
            await process.start()
            assert await process.terminate() == 0
        finally:
            process.stop()
        out = process.output()
        assert re.search(
            rf"INFO bot: database: SQLite {re.escape(str(database))}, at migration "
            rf"{NEWEST:04d}\n",
            out,
        ), out
        assert "INFO bot: shards: 0-1 of 2 (this process runs every shard)" in out, out
        assert re.search(r"INFO bot: stopping \(SIGTERM\)", out), out
        assert f"INFO bot: stopped; the database {database} is closed" in out, out
        assert "Traceback" not in out
