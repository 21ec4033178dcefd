"""Disk full while the bot runs, through the real path (slash command → service → SQLite →
reply): the member is told plainly, nothing changes, the log gets one line, and the same
command works once there is room again.

"Full" is SQLite's SQLITE_FULL made with ``PRAGMA max_page_count`` on the bot's writer
connection (what a full disk returns, without filling one)."""

from __future__ import annotations

import json
import logging

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, slash, version
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

FULL = "The bot's storage is full; nothing was changed. Tell whoever hosts the bot."


async def set_page_cap(bot: CombatBot, pages: int) -> int:
    """Set the writer connection's page cap (SQLite keeps it at least the file's current size);
    return the previous cap."""
    async with bot.db.transaction() as conn:
        row = await conn.fetch_one("PRAGMA max_page_count")
        await conn.execute(f"PRAGMA max_page_count = {int(pages)}")
    assert row is not None
    return int(row[0])


async def combatant_names(bot: CombatBot, h: DiscordHarness) -> set[str]:
    live = await bot.services.encounters.live(h.channel.id)
    return {c.name for c in live.state.combatants}


async def test_a_full_disk_refuses_the_command_plainly_and_recovers(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = discord_harness
    await ok(await slash(h, table.gm, "encounter start", name="Cellar"))
    await ok(await slash(h, table.gm, "gm add-npc", name="Brute", health=50, stamina=60))
    before = await version(bot, h)
    posted = len(h.messages_in(h.channel))

    old_cap = await set_page_cap(bot, 1)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        text = await refused(
            await slash(h, table.gm, "gm add-npc", name="Goblin", health=5, stamina=5)
        )
    assert text == FULL
    assert await version(bot, h) == before
    assert await combatant_names(bot, h) == {"Brute"}
    assert len(h.messages_in(h.channel)) == posted  # nothing announced in the channel
    ours = [r for r in caplog.records if r.name.startswith("bot")]
    assert [(r.name, r.levelno) for r in ours] == [("bot.store.db", logging.WARNING)], ours
    assert ours[0].exc_info is None and "SQLITE_FULL" in ours[0].getMessage()

    # The bot keeps running: reads still work, and the next write once there is room.
    status = await slash(h, table.player, "encounter status")
    await status.response()
    assert "Cellar" in json.dumps(status.response_data)
    await set_page_cap(bot, old_cap)
    await ok(await slash(h, table.gm, "gm add-npc", name="Goblin", health=5, stamina=5))
    assert await version(bot, h) == before + 1
    assert await combatant_names(bot, h) == {"Brute", "Goblin"}
