"""Reaction windows through Discord, in this process, on the services' injected clock: a test
moves a :class:`ManualClock` past a deadline and runs an expiry pass (``bot.expire_due()``), so
nothing waits for real time. A window that has not run out stays; one that has is expired
exactly once — whether two passes or a pass and a player's click race for it — and the channel
shows it: a "Reaction window over" result, and the prompt edited to say the window ran out,
without its buttons. A paused fight's window does not run out; a window that ran out while the
bot was down is expired by the background loop as soon as it is back.
(tests/e2e/test_restart_combat.py keeps one smoke test of the last through ``python -m bot``.)"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.client import CombatBot
from bot.services.encounters import Encounter
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    button,
    ok,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness
from tests.races import watch_channel_lock

WINDOW = 300  # seconds: the default reaction window
TITLE = "Thug 1 attacks Willow with Cudgel"
RAN_OUT = "the reaction window ran out: resolved with no reaction"


async def waiting_for_willow(
    bot: CombatBot, h: DiscordHarness, table: Table, *, set_up: bool = True
) -> tuple[StoredMessage, Encounter]:
    """The worked example's fight (``set_up``: start it first); Thug 1 attacks Willow, whose
    player is asked to react. Returns the prompt (with its buttons) and the encounter as it
    waits."""
    if set_up:
        await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    waiting = await bot.services.encounters.live(h.channel.id)
    assert waiting.state.pending is not None
    button(h.message(prompt), "Evade")
    return h.message(prompt), waiting


def window_over(h: DiscordHarness) -> list[StoredMessage]:
    """The results the bot posted for windows that ran out."""
    return [m for m in h.messages_in(h.channel) if "Reaction window over" in m.text()]


def standing_said(message: StoredMessage) -> int:
    """How many times ``message`` says "standing reaction": its text line, and its embeds'
    titles, descriptions and footers."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts.append(embed.get("footer", {}).get("text", ""))
    return sum(len(re.findall("standing reaction", part, re.IGNORECASE)) for part in parts)


async def commands(bot: CombatBot, encounter: Encounter) -> list[str]:
    return [entry.command for entry in await bot.services.encounters.log(encounter.id)]


def assert_expired_once(h: DiscordHarness, prompt: StoredMessage) -> None:
    """The channel shows one expiry: one result posted, and the prompt says the window ran out
    and has no buttons left."""
    [notice] = window_over(h)
    assert "Willow does not react." in notice.text(), notice.text()
    assert notice.embeds[0]["footer"]["text"] == f"{RAN_OUT[0].upper()}{RAN_OUT[1:]}."
    retired = h.message(prompt)
    assert retired.components == []
    assert retired.content == f"{TITLE} — {RAN_OUT}."
    assert retired.embeds[0]["title"] == TITLE


async def test_a_window_runs_out_at_its_deadline_on_the_injected_clock(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    opened = clock()
    prompt, waiting = await waiting_for_willow(bot, h, table)
    deadline = waiting.row.pending_deadline
    assert deadline is not None and (deadline - opened).total_seconds() == WINDOW
    assert f"Decide by <t:{int(deadline.timestamp())}:R>" in prompt.content

    clock.advance(WINDOW - 0.001)
    assert await bot.expire_due() == []
    still = await bot.services.encounters.live(h.channel.id)
    assert still.version == waiting.version and still.state.pending is not None
    assert h.message(prompt).components == prompt.components
    assert window_over(h) == []

    clock.advance(0.001)  # exactly the deadline
    [result] = await bot.expire_due()
    assert result.expired and result.encounter.state.pending is None
    assert_expired_once(h, prompt)


async def test_a_second_pass_after_an_expiry_changes_nothing(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    prompt, waiting = await waiting_for_willow(bot, h, table)
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    posted = len(h.messages_in(h.channel))
    clock.advance(WINDOW)
    assert await bot.expire_due() == []
    assert len(h.messages_in(h.channel)) == posted
    assert_expired_once(h, prompt)
    assert (await commands(bot, waiting)).count("expire") == 1
    assert (await bot.services.encounters.live(h.channel.id)).version == result.encounter.version


async def test_two_expiry_passes_racing_expire_the_window_once(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Two passes at once (two loops, or a loop that overran its interval): the first to claim
    the window (bot/store/expiry.py) expires it; the other finds it claimed and ends with
    nothing — without waiting for the first to commit, and without trying it."""
    bot, h = clocked_bot, discord_harness
    prompt, waiting = await waiting_for_willow(bot, h, table)
    clock.advance(WINDOW)
    lock = watch_channel_lock(bot.services.encounters, h.channel.id)
    async with lock:
        passes = [asyncio.create_task(bot.expire_due()) for _ in range(2)]
        await lock.wait_queued(1)  # one pass waits for the channel to expire the window …
        done, _ = await asyncio.wait(passes, timeout=5, return_when=asyncio.FIRST_COMPLETED)
        assert [task.result() for task in done] == [[]]  # … the other is over, empty-handed
        assert lock.queued == 1
    expired = await asyncio.gather(*passes)
    assert sorted(len(results) for results in expired) == [0, 1]
    assert_expired_once(h, prompt)
    assert (await commands(bot, waiting)).count("expire") == 1
    assert (await bot.services.encounters.live(h.channel.id)).version == waiting.version + 1


async def test_an_expiry_that_reaches_the_fight_before_a_click_wins(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The window has run out and Willow's player clicks Evade as the pass expires it: the
    expiry queued first applies; the click is refused ("no longer pending")."""
    bot, h = clocked_bot, discord_harness
    prompt, waiting = await waiting_for_willow(bot, h, table)
    clock.advance(WINDOW)
    lock = watch_channel_lock(bot.services.encounters, h.channel.id)
    async with lock:
        expiry = asyncio.create_task(bot.expire_due())
        await lock.wait_queued(1)
        click = await h.click(table.player, prompt, button(prompt, "Evade")["custom_id"])
        await lock.wait_queued(2)
    [result] = await expiry
    assert result.expired
    await click.response()
    assert click.ephemeral and "no longer pending" in click.response_data["content"]
    assert_expired_once(h, prompt)
    log = await commands(bot, waiting)
    assert log.count("expire") == 1 and "react" not in log


async def test_a_click_that_reaches_the_fight_before_the_expiry_wins(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The same race the other way round: the click queued first applies (Willow evades); the
    pass that read the window due finds it settled, posts nothing and changes nothing."""
    bot, h = clocked_bot, discord_harness
    prompt, waiting = await waiting_for_willow(bot, h, table)
    clock.advance(WINDOW)
    lock = watch_channel_lock(bot.services.encounters, h.channel.id)
    async with lock:
        click = await h.click(table.player, prompt, button(prompt, "Evade")["custom_id"])
        await lock.wait_queued(1)
        expiry = asyncio.create_task(bot.expire_due())
        await lock.wait_queued(2)
    assert await expiry == []
    await click.response()
    assert click.response_type == 7 and not click.ephemeral, click.response_data
    assert "Willow reacts: Evade" in h.message(prompt).text()
    assert h.message(prompt).components == []
    assert window_over(h) == []
    log = await commands(bot, waiting)
    assert log.count("react") == 1 and "expire" not in log


async def test_a_paused_fights_window_does_not_run_out(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Paused with the window nearly over, the fight waits however long the pause lasts (the
    prompt says so and keeps its buttons); resumed, Willow has a whole window again."""
    bot, h = clocked_bot, discord_harness
    gm = table.moderator
    prompt, waiting = await waiting_for_willow(bot, h, table)
    clock.advance(WINDOW - 1)
    await ok(await slash(h, gm, "gm pause"))
    await h.wait_for(lambda: "paused the fight" in h.message(prompt).content)
    clock.advance(100 * WINDOW)
    assert await bot.expire_due() == []
    paused = await bot.services.encounters.live(h.channel.id)
    assert paused.state.pending is not None
    assert paused.row.pending_version == waiting.row.pending_version
    assert window_over(h) == []
    button(h.message(prompt), "Evade")

    await ok(await slash(h, gm, "gm resume"))
    resumed = await bot.services.encounters.live(h.channel.id)
    deadline = resumed.row.pending_deadline
    assert deadline is not None and (deadline - clock()).total_seconds() == WINDOW
    await h.wait_for(
        lambda: f"Decide by <t:{int(deadline.timestamp())}:R>" in h.message(prompt).content
    )
    clock.advance(WINDOW - 1)
    assert await bot.expire_due() == []
    clock.advance(1)
    [result] = await bot.expire_due()
    assert result.expired
    assert_expired_once(h, prompt)


async def test_a_window_that_ran_out_while_the_bot_was_down_expires_when_it_is_back(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The bot stops while Willow's window runs; it runs out before the bot is back. The
    background loop's first pass (on the same injected clock) expires it and retires the
    prompt the bot posted before the restart. The in-process twin of
    tests/e2e/test_restart_combat.py's subprocess smoke test, which waits out a real window."""
    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        prompt, _ = await waiting_for_willow(bot, h, table)
    clock.advance(WINDOW + 60)  # while no bot runs
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=0.05):
        await h.wait_for(lambda: h.message(prompt).components == [])
        assert_expired_once(h, prompt)
        live = await bot.services.encounters.live(h.channel.id)
        assert live.state.pending is None
