"""QA attack (round 24): ``/rehearse`` attacked deeper, through Discord. Nothing a rehearsal
does may touch the real fight — its row, its log, its open decision, its pings or its buttons —
and every answer is the GM's alone (ephemeral) and says what happened."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    end_encounter,
    ok,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

SLOW = 120.0  # seconds: worker processes start on first use (2 cores shared)


def stored(path: Path) -> tuple[list[tuple[Any, ...]], ...]:
    """Everything the database holds about the fights: encounters, log, decisions, pings."""
    with sqlite3.connect(path) as raw:
        return tuple(
            raw.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()  # noqa: S608
            for table in ("encounters", "encounter_log", "decisions", "turn_pings")
        )


def channel_shows(h: DiscordHarness) -> list[tuple[int, str, Any, Any]]:
    """The channel's messages as shown: text, embeds and buttons."""
    return [(m.id, m.content, m.embeds, m.components) for m in h.messages_in(h.channel)]


async def report(record: InteractionRecord) -> str:
    """The rehearsal's ephemeral report (after a "thinking…" defer)."""
    await record.response()
    assert record.deferred and record.ephemeral, record.response_data
    reply = await record.followup(len(record.followups), timeout=SLOW)
    assert reply.flags & 64, "the report is ephemeral"
    return reply.content


@pytest.mark.async_timeout(300)
@pytest.mark.timeout(300)
async def test_a_rehearsal_stopped_by_the_bot_stopping_tells_its_gm(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The bot stopped (a restart, an update) while a rehearsal ran and another waited behind
    it: neither GM heard anything — the "thinking…" stayed until Discord gave up on it. Both
    are now told, within the stop's grace, that the rehearsal stopped and to ask again."""
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, path, None):
        await set_up_fight(h, table, thugs=2)
        await work_done()
        running = await h.slash(table.moderator, h.channel, "rehearse", {"fights": 10_000})
        await running.response()
        await h.wait_for(lambda: bot.services.rehearsal._running, timeout=SLOW)  # noqa: B023
        queued = await h.slash(table.moderator, h.channel, "rehearse", {"fights": 10})
        waiting = await queued.followup(0)
        assert waiting.content.startswith("⏳ Queued behind one rehearsal"), waiting.content
        before = stored(path)
    for record, index in ((running, 0), (queued, 1)):
        said = record.followups[index].payload
        assert said.get("flags", 0) & 64, said
        assert said["content"].startswith(
            "The bot is stopping (a restart or an update), so this "
            "rehearsal stopped before it finished"
        ), said
    assert stored(path) == before
