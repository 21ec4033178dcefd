"""Pacing with two processes on one PostgreSQL database (docs/pacing.md; issue 16 and 17):
two bots built by the composition root (``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``), both
connected to the harness, on one database and one injected clock, a day boundary crossed.
After each move of the clock both processes' background passes run at once (the real pass,
:meth:`bot.client.CombatBot.expire_due`: reminders, turn deadlines, reaction windows), then
once more: a reminder held back by quiet hours, a turn deadline, a reminder to a stand-in for
an away player, one to that player once back, and the deadline after them each come exactly
once, in the fight's channel, in
the words docs/pacing.md gives, whichever process serves the channel.

(A process that has seen no interaction dates the turn its pass began by the services' clock —
in production the database server's, close to Discord's; here the test's, which starts days
before the harness's: such a turn is dated early, and a command sent for it is not refused.)"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.__main__ import build
from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    ok,
    pass_turns_until,
    set_up_fight,
    slash,
    work_done,
)
from tests.e2e.conftest import Table, bot_settings
from tests.harness.gateway import guild_shard
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

pytestmark = [pytest.mark.e2e, pytest.mark.async_timeout(120), pytest.mark.timeout(200)]

HOUR = 3600
START = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
"""Day 1, 20:00 UTC (21:00 in Berlin): Willow's turn begins; her reminder falls at 02:00 UTC of
day 2, inside her player's quiet hours (22:00-08:00 Berlin time, 21:00-07:00 UTC)."""


@contextlib.asynccontextmanager
async def pg_shard_bot(
    h: DiscordHarness, tmp_path: Path, pg_url: str, shard: int, clock: ManualClock
) -> AsyncIterator[CombatBot]:
    """A bot from the composition root running shard ``shard`` of 2 on the PostgreSQL
    database, on ``clock``, its background loop left to the test (:func:`passes`)."""
    settings = bot_settings(
        h,
        tmp_path / f"unused{shard}.sqlite3",
        shard_count=2,
        shard_ids=(shard,),
        database_url=SecretStr(pg_url),
    )
    client = await build(
        settings,
        guild_ready_timeout=0.05,
        seeds=lambda: 20261129,
        expiry_interval=None,
        clock=clock,
    )
    try:
        async with h.run_client(client):
            yield client
    finally:
        client.services.rehearsal.close()
        await client.db.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def both(
    discord_patched: DiscordHarness, tmp_path: Path, pg_url: str, clock: ManualClock
) -> AsyncIterator[tuple[CombatBot, CombatBot]]:
    h = discord_patched
    async with (
        pg_shard_bot(h, tmp_path, pg_url, 0, clock) as first,
        pg_shard_bot(h, tmp_path, pg_url, 1, clock) as second,
    ):
        yield first, second


async def passes(bots: tuple[CombatBot, CombatBot], *, first: CombatBot | None = None) -> None:
    """Both processes' background passes at once, then once more each: whatever the first
    round fired, the second must find done. ``first``: that process's pass runs alone first
    (it finds what is due before the other)."""
    if first is not None:
        await first.expire_due()
        await work_done()
    for _ in range(2):
        await asyncio.gather(*(bot.expire_due() for bot in bots))
        await work_done()


def reminders(h: DiscordHarness) -> list[StoredMessage]:
    """The reminders posted (not a command's reply that lists what waits, as `/back`'s)."""
    return [m for m in posted(h, "⏳") if m.interaction is None]


def serving(h: DiscordHarness, bots: tuple[CombatBot, CombatBot]) -> tuple[CombatBot, CombatBot]:
    """The process whose shard serves the test server, and the other one."""
    shard = guild_shard(h.guild.id, 2) if h.guild is not None else 0
    return (bots[0], bots[1]) if shard == 0 else (bots[1], bots[0])


def posted(h: DiscordHarness, words: str) -> list[StoredMessage]:
    """The bot's messages anywhere that contain ``words``."""
    return [
        m
        for channel in h.channels.values()
        for m in h.messages_in(channel)
        if words in m.content or words in m.text()
    ]


async def test_quiet_hours_deadlines_and_a_stand_in_across_a_day_with_two_processes(
    discord_harness: DiscordHarness,
    table: Table,
    clock: ManualClock,
    both: tuple[CombatBot, CombatBot],
) -> None:
    h, player, delegate, gm = discord_harness, table.player, table.other_player, table.moderator
    bot = both[0]
    settings = await answered(
        await slash(h, player, "me settings", timezone="Europe/Berlin", quiet_hours="22:00-08:00")
    )
    assert "Quiet hours: **22:00-08:00**" in str(settings.response_data)
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h", reminders="50%,2h"))
    assert await current_name(bot, h) == "Willow"
    willow_reminder = f"<@{player.id}> ⏳ Reminder: it is **Willow**'s turn"

    # 02:00 UTC, day 2: Willow's reminder point, 03:00 in Berlin — her player's night; then
    # 06:00, the second point (two hours left), 07:00 in Berlin: still night.
    clock.advance(6 * HOUR)
    await passes(both)
    clock.advance(4 * HOUR)
    await passes(both)
    assert reminders(h) == []
    clock.advance(HOUR)
    # 07:00 UTC: 08:00 in Berlin, the quiet hours are over — one reminder covers both points,
    # an hour left.
    await passes(both)
    [reminder] = reminders(h)
    assert reminder.channel_id == h.channel.id
    assert reminder.content == f"{willow_reminder} (1 hour left on its clock).", reminder.content
    # 08:00 UTC: the deadline passes, once; General Bearington's turn is pinged, once.
    clock.advance(HOUR)
    await passes(both)
    [lapse] = posted(h, "Turn deadline passed")
    assert lapse.channel_id == h.channel.id
    assert "Willow's turn ends" in lapse.text(), lapse.text()
    assert await current_name(bot, h) == "General Bearington"
    assert len(posted(h, "it is **General Bearington**'s turn")) == 1

    # Willow's player goes away for the day; Bear's player stands in. The reminder at 14:00
    # goes to the stand-in (no quiet hours), naming whom they stand in for — once. The process
    # that does not serve the server finds it due first: it had read the server's away marks
    # a moment before the /away (its last pass), and sent the reminder to the away player from
    # the marks it kept (the point then counted as sent: the stand-in was never reminded).
    _, other = serving(h, both)
    await ok(await slash(h, player, "away", until="1d", delegate=delegate))
    clock.advance(6 * HOUR)  # 14:00
    await passes(both, first=other)
    stand_in = posted(h, f"<@{delegate.id}> (for <@{player.id}>, away) ⏳ Reminder")
    assert len(stand_in) == 1, [m.content for m in reminders(h)]
    assert stand_in[0].channel_id == h.channel.id
    assert "it is **General Bearington**'s turn (about 6 hours left on its clock)." in (
        stand_in[0].content
    )
    assert len(reminders(h)) == 2
    # Back at 15:00: the point at 18:00 (two hours left) goes to the player again (19:00 in
    # Berlin), not to the former stand-in — whichever process finds it first.
    await ok(await slash(h, player, "back"))
    clock.advance(4 * HOUR)
    await passes(both, first=other)
    assert len(reminders(h)) == 3, [m.content for m in reminders(h)]
    assert reminders(h)[-1].content == (
        f"<@{player.id}> ⏳ Reminder: it is **General Bearington**'s turn (2 hours left on its"
        " clock)."
    )
    # 20:00 UTC, day 2: that deadline passes too, once; Thug 1's turn is the GM's.
    clock.advance(2 * HOUR)
    await passes(both)
    lapses = posted(h, "Turn deadline passed")
    assert len(lapses) == 2 and "General Bearington's turn ends" in lapses[1].text()
    assert await current_name(bot, h) == "Thug 1"
    assert len(reminders(h)) == 3


async def test_a_reaction_past_midnight_and_a_deadline_that_only_tells_the_gm_with_two_processes(
    discord_harness: DiscordHarness,
    table: Table,
    clock: ManualClock,
    both: tuple[CombatBot, CombatBot],
) -> None:
    """Thug 1 attacks Willow at 20:00 with an 8-hour reaction window: its reminder point at
    midnight falls in her player's night, and the window runs out (04:00, the Thug's attack
    its one action: Willow's turn begins) before the night is over — no reminder, the window
    over once, the standing reaction her stand-in set before she came back not taken. Willow's
    turn's reminder (10:00) and its deadline (16:00), which only tells the
    GM, come once each. Paused, nothing fires for two days, in either process."""
    h, player, gm = discord_harness, table.player, table.moderator
    bot = both[0]
    await answered(
        await slash(h, player, "me settings", timezone="Europe/Berlin", quiet_hours="22:00-08:00")
    )
    await set_up_fight(h, table, thugs=1)
    await ok(
        await slash(
            h,
            gm,
            "gm settings",
            turn_deadline="12h",
            reaction_window="8h",
            deadline_action="notify_gm",
        )
    )
    # While Willow's player was away, Bear's player set her a standing reaction; it ends
    # when the player is back — also for the process that does not serve the server, which
    # read the away marks a moment before the /back (its pass) and expires the window first.
    stand_in = table.other_player
    await ok(await slash(h, player, "away", until="1d", delegate=stand_in))
    rule = await answered(
        await slash(h, stand_in, "me reactions", combatant="Willow", rule="evade, else take it")
    )
    assert rule.ephemeral and "Standing reaction for **Willow**" in str(rule.response_data)
    _, other = serving(h, both)
    await passes(both)
    await ok(await slash(h, player, "back"))
    await pass_turns_until(bot, h, table, "Thug 1")
    attack = await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    assert "Evade" in str(attack.message.components)

    clock.advance(4 * HOUR)  # 00:00 UTC, day 2: the reaction's point, 01:00 in Berlin
    await passes(both)
    assert reminders(h) == []
    clock.advance(4 * HOUR)  # 04:00: the window runs out before the quiet hours end
    await passes(both, first=other)
    [over] = posted(h, "Reaction window over")
    assert over.channel_id == h.channel.id and "Willow does not react." in over.text(), over.text()
    assert reminders(h) == []
    assert await current_name(bot, h) == "Willow"

    clock.advance(6 * HOUR)  # 10:00 (11:00 in Berlin): half of Willow's 12 hours
    await passes(both)
    [reminder] = reminders(h)
    assert reminder.channel_id == h.channel.id
    assert reminder.content == (
        f"<@{player.id}> ⏳ Reminder: it is **Willow**'s turn (about 6 hours left on its clock)."
    ), reminder.content
    clock.advance(6 * HOUR)  # 16:00: the deadline passes; the GM is told, once
    await passes(both)
    [told] = posted(h, "turn deadline passed. The fight waits for you")
    assert told.channel_id == h.channel.id
    assert told.content.startswith(f"<@{gm.id}> ⏰ **Willow**'s turn deadline passed.")
    assert posted(h, "Turn deadline passed") == []
    assert await current_name(bot, h) == "Willow"  # it waits for the GM
    clock.advance(HOUR)
    await passes(both)
    assert len(posted(h, "turn deadline passed. The fight waits for you")) == 1
    assert len(reminders(h)) == 1

    await ok(await slash(h, gm, "gm next"))
    assert await current_name(bot, h) == "General Bearington"
    await ok(await slash(h, gm, "gm pause"))
    await work_done()
    seen = len(h.messages_in(h.channel))
    clock.advance(48 * HOUR)
    await passes(both)
    assert len(h.messages_in(h.channel)) == seen
    assert await current_name(bot, h) == "General Bearington"
