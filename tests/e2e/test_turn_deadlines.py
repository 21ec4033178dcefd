"""Turn deadlines (issue 17) through Discord, on the services' injected clock: the GM sets
``/gm settings turn_deadline:12h``; a test moves a :class:`ManualClock` past the deadline and
runs an expiry pass, so nothing waits for real time. A deadline fires once (the turn ends and
the channel shows it, or the GM is pinged), pauses with ``/gm pause`` and gets its time left
back with ``/gm resume``, and one that passed while the bot was down fires once when it is
back, the next turn's clock starting then."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import discord

from bot.client import CombatBot
from bot.store import turn_timers
from tests.clock import ManualClock
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

HOUR = 3600
DEADLINE = 12 * HOUR


async def deadline_of(bot: CombatBot, encounter_id: int) -> tuple[int, datetime | None] | None:
    """``(turn_seq timed, deadline)`` of the encounter's open turn deadline, if any."""
    async with bot.services.encounters.db.read() as conn:
        timer = await turn_timers.open_timer(conn, encounter_id)
    return (timer.ref, timer.deadline) if timer else None


def passed(h: DiscordHarness) -> list[StoredMessage]:
    """The results the bot posted for turns whose deadline passed."""
    return [m for m in h.messages_in(h.channel) if "Turn deadline passed" in m.text()]


async def twelve_hour_fight(bot: CombatBot, h: DiscordHarness, table: Table) -> int:
    """The worked example's fight with a 12-hour turn deadline; returns the encounter id."""
    await set_up_fight(h, table)
    await ok(await slash(h, table.moderator, "gm settings", turn_deadline="12h"))
    return (await bot.services.encounters.live(h.channel.id)).id


async def test_settings_show_the_deadline_and_refuse_a_malformed_one(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await set_up_fight(h, table)
    shown = await slash(h, gm, "gm settings")
    await shown.response()
    # No deadline: said plainly (it read "off (then the turn ends)": what a deadline does)
    content = shown.response_data["content"]
    assert "- turn deadline: none (a turn lasts until it is ended)\n" in content, content
    assert "then the turn ends" not in content, content
    for bad in ("soon", "12x", "5s", "31d", "h"):
        text = await refused(await slash(h, gm, "gm settings", turn_deadline=bad))
        assert "is not a duration" in text or "between 1 minute" in text, text
    assert "between 1 minute" in await refused(
        await slash(h, gm, "gm settings", turn_deadline="31d")
    )
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.settings.turn_deadline_s == 0
    assert await deadline_of(bot, live.id) is None
    changed = await ok(
        await slash(h, gm, "gm settings", turn_deadline="1d6h", deadline_action="notify_gm")
    )
    # the public result says the duration as it was typed, never the stored seconds
    assert changed.message is not None
    said = changed.message.text()
    assert "turn deadline: 1d6h, when a deadline passes: notify the GM" in said, said
    assert "_s:" not in said and "108000" not in said
    shown = await slash(h, gm, "gm settings")
    await shown.response()
    assert "- turn deadline: 1d6h (then the GM is told)" in shown.response_data["content"]
    refusal = await refused(await slash(h, table.player, "gm settings", turn_deadline="1h"))
    assert "GM" in refusal


async def test_a_passed_deadline_ends_the_turn_once_and_the_next_clock_starts(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    encounter_id = await twelve_hour_fight(bot, h, table)
    before = await bot.services.encounters.live(h.channel.id)
    timed = await deadline_of(bot, encounter_id)
    assert timed is not None
    assert timed == (before.state.turn_seq, clock() + timedelta(seconds=DEADLINE))
    clock.advance(DEADLINE - 1)
    assert await bot.fire_turn_deadlines() == []
    clock.advance(1)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "end_turn" and lapse.name == before.state.current.name
    assert await bot.fire_turn_deadlines() == []  # a second pass changes nothing
    after = await bot.services.encounters.live(h.channel.id)
    assert after.state.turn_seq == before.state.turn_seq + 1
    assert await deadline_of(bot, encounter_id) == (
        after.state.turn_seq,
        clock() + timedelta(seconds=DEADLINE),
    )
    await h.wait_for(lambda: len(passed(h)) == 1)
    [shown] = passed(h)
    assert f"{before.state.current.name}'s turn ends" in shown.text()
    # the deadline ended it, not the GM: the log line says so
    assert f"{before.state.current.name}'s turn deadline passed." in shown.text()
    assert "The GM ends" not in shown.text()


async def test_pause_stops_the_deadline_and_resume_gives_back_the_time_left(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    encounter_id = await twelve_hour_fight(bot, h, table)
    clock.advance(4 * HOUR)
    paused = await answered(await slash(h, gm, "gm pause"))
    # the table is told the turn's clock stops too, and when it runs out after the resume
    assert "reaction windows and the turn deadline stop running" in paused.message.text()
    clock.advance(100 * HOUR)
    assert await bot.fire_turn_deadlines() == []
    resumed = await answered(await slash(h, gm, "gm resume"))
    live = await bot.services.encounters.live(h.channel.id)
    due = int((clock() + timedelta(seconds=8 * HOUR)).timestamp())
    assert live.state.current is not None
    said = resumed.message.text()
    assert f"**{live.state.current.name}**'s turn deadline: <t:{due}:R>." in said, said
    assert await deadline_of(bot, encounter_id) == (
        live.state.turn_seq,
        clock() + timedelta(seconds=8 * HOUR),
    )
    clock.advance(8 * HOUR - 1)
    assert await bot.fire_turn_deadlines() == []
    clock.advance(1)
    assert len(await bot.fire_turn_deadlines()) == 1


async def test_notify_only_pings_the_gm_once_and_the_turn_waits(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    encounter_id = await twelve_hour_fight(bot, h, table)
    await ok(await slash(h, gm, "gm settings", deadline_action="notify_gm"))
    before = await bot.services.encounters.live(h.channel.id)
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "notify_gm"
    clock.advance(DEADLINE * 3)
    assert await bot.fire_turn_deadlines() == []
    after = await bot.services.encounters.live(h.channel.id)
    assert after.state.turn_seq == before.state.turn_seq
    assert await deadline_of(bot, encounter_id) is None
    pings = [m for m in h.messages_in(h.channel) if "turn deadline passed" in m.text()]
    assert len(pings) == 1
    assert f"<@{gm.id}>" in pings[0].content
    assert "The fight waits for you" in pings[0].content


async def test_a_deadline_that_passed_while_the_bot_was_down_fires_once_when_it_is_back(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Three days pass while no bot runs: when it is back, the loop ends only the turn that
    was running (nobody is skipped in a cascade), and the next turn has a whole 12 hours from
    then."""
    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        encounter_id = await twelve_hour_fight(bot, h, table)
        before = await bot.services.encounters.live(h.channel.id)
    clock.advance(3 * 24 * HOUR)  # while no bot runs
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=0.05):
        await h.wait_for(lambda: len(passed(h)) == 1)
        after = await bot.services.encounters.live(h.channel.id)
        assert after.state.turn_seq == before.state.turn_seq + 1
        assert await deadline_of(bot, encounter_id) == (
            after.state.turn_seq,
            clock() + timedelta(seconds=DEADLINE),
        )
        assert await bot.fire_turn_deadlines() == []
    assert len(passed(h)) == 1


def reminders(h: DiscordHarness) -> list[StoredMessage]:
    """The reminders the bot posted."""
    return [m for m in h.messages_in(h.channel) if "⏳" in m.content]


async def test_a_reminder_at_half_the_deadline_mentions_whose_turn_it_is_once(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Each turn's reminder comes at half its deadline, once: the player of a character,
    the GM for an NPC ("The fight waits on you"); never after the deadline."""
    bot, h = clocked_bot, discord_harness
    await twelve_hour_fight(bot, h, table)
    for turn in range(3):
        live = await bot.services.encounters.live(h.channel.id)
        current = live.state.current
        assert current is not None
        clock.advance(DEADLINE / 2 - 1)
        assert await bot.send_reminders() == []
        clock.advance(1)
        [reminder] = await bot.send_reminders()
        member = current.controller_id or live.row.gm_id
        assert reminder.member_id == member and reminder.gm == (current.controller_id is None)
        clock.advance(HOUR)
        assert await bot.send_reminders() == []  # at most once per turn
        await h.wait_for(lambda turn=turn: len(reminders(h)) == turn + 1)
        shown = reminders(h)[-1].content
        assert shown.startswith(f"<@{member}> ⏳")
        assert f"it is **{current.name}**'s turn" in shown
        lead = "The fight waits on you" if current.controller_id is None else "Reminder"
        assert lead in shown
        clock.advance(DEADLINE / 2 - HOUR)
        assert len(await bot.fire_turn_deadlines()) == 1
    assert len(reminders(h)) == 3


async def test_undoing_a_turn_the_deadline_ended_gives_it_a_whole_deadline(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    encounter_id = await twelve_hour_fight(bot, h, table)
    before = await bot.services.encounters.live(h.channel.id)
    clock.advance(DEADLINE)
    assert len(await bot.fire_turn_deadlines()) == 1
    clock.advance(HOUR)
    await ok(await slash(h, gm, "gm undo"))
    back = await bot.services.encounters.live(h.channel.id)
    assert back.state.turn_seq == before.state.turn_seq
    assert await deadline_of(bot, encounter_id) == (
        back.state.turn_seq,
        clock() + timedelta(seconds=DEADLINE),
    )


async def test_the_turn_ping_says_when_the_turns_deadline_passes(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """A player pinged for their turn learns its deadline there — not only from a reminder
    halfway through it (before, the ping never said it): when a turn ends by hand, and when
    one ends at its deadline; a fight without deadlines says nothing of one."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await set_up_fight(h, table)
    ended = await ok(await slash(h, gm, "endturn"))
    assert "Turn deadline" not in ended.message.text()
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    clock.advance(HOUR)
    ended = await ok(await slash(h, gm, "endturn"))
    due = int((clock() + timedelta(seconds=DEADLINE)).timestamp())
    assert "'s turn (round 1): " in ended.message.content
    assert ended.message.content.endswith(f"Turn deadline: <t:{due}:R>."), ended.message.content
    clock.advance(DEADLINE)
    [lapse] = await bot.fire_turn_deadlines()
    await h.wait_for(lambda: len(passed(h)) == 1)
    [shown] = passed(h)
    due = int((clock() + timedelta(seconds=DEADLINE)).timestamp())
    assert f"Turn deadline: <t:{due}:R>." in shown.content, shown.content
    assert lapse.result is not None and lapse.result.turn_deadline == clock() + timedelta(
        seconds=DEADLINE
    )


async def test_a_deadline_that_passes_where_the_bot_may_not_post_tells_the_gm(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The bot lost Send Messages in the fight's channel while a turn ran: its reminder and its
    deadline still come (the turn ends), and the GM is told at their next command that the bot
    could not post them — as for a reaction window that runs out there (before, it was only
    logged)."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await twelve_hour_fight(bot, h, table)
    h.deny_bot(h.channel, discord.Permissions(send_messages=True).value)
    clock.advance(DEADLINE / 2)
    assert len(await bot.send_reminders()) == 1 and reminders(h) == []
    clock.advance(DEADLINE / 2)
    [lapse] = await bot.fire_turn_deadlines()
    assert lapse.action == "end_turn" and passed(h) == []
    h.deny_bot(h.channel, 0)
    await answered(await slash(h, gm, "encounter status"))

    def told() -> list[str]:  # the GM's notices, at this command or one still finishing
        shown = h.messages_in(h.channel, include_ephemeral=True)
        return [m.text() for m in shown if m.ephemeral and "could not post" in m.text()]

    both = ("I could not post a passed turn deadline", "I could not post a reminder")
    await h.wait_for(lambda: all(any(w in m for m in told()) for w in both))


async def test_setting_a_deadline_mid_turn_says_when_the_running_turns_passes(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The GM sets `turn_deadline:12h` during Willow's turn, which gives it a whole deadline
    from then: the table is told when it passes (before, only the setting was shown, and the
    turn's deadline first appeared in a reminder hours later)."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await set_up_fight(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None
    changed = await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    due = int((clock() + timedelta(seconds=DEADLINE)).timestamp())
    said = f"**{live.state.current.name}**'s turn deadline: <t:{due}:R>."
    await changed.wait_for(lambda r: any(said in m.text() for m in r.followups))
    [told] = [m for m in changed.followups if said in m.text()]
    assert not told.ephemeral
