"""Reminders (issue 17) through Discord on the injected clock: the GM's reminder points
(``/gm settings reminders:``), each at most once per window; quiet hours per member in their
own time zone (``/me settings``) — a reminder inside them waits until they end and never comes
after the deadline; reaction windows are reminded too, and the GM when the fight waits on them.
"""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.client import CombatBot
from bot.services.member_settings import MemberSettings
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    ok,
    pass_turns_until,
    refused,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.e2e.test_member_data import click, delete_prompt, export_of
from tests.e2e.test_reaction_expiry import waiting_for_willow
from tests.e2e.test_turn_deadlines import (
    DEADLINE,
    HOUR,
    reminders,
    twelve_hour_fight,
)
from tests.harness.server import DiscordHarness


async def test_reminder_points_each_fire_once_per_turn(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await twelve_hour_fight(bot, h, table)
    await ok(await slash(h, table.moderator, "gm settings", reminders="90%, 50%"))
    shown = await slash(h, table.moderator, "gm settings")
    await shown.response()
    assert "- reminders: at 50%, 90% of the window" in shown.response_data["content"]
    await pass_turns_until(bot, h, table, "Willow")
    clock.advance(DEADLINE * 0.5 - 1)
    assert await bot.send_reminders() == []
    clock.advance(1)
    [first] = await bot.send_reminders()
    assert first.member_id == table.player.id and not first.gm
    clock.advance(HOUR)
    assert await bot.send_reminders() == []
    clock.advance(DEADLINE * 0.4 - HOUR)  # 90% of the window
    [second] = await bot.send_reminders()
    assert second.member_id == table.player.id
    clock.advance(60)
    assert await bot.send_reminders() == []
    await h.wait_for(lambda: len(reminders(h)) == 2)
    assert all(m.content.startswith(f"<@{table.player.id}> ⏳ Reminder:") for m in reminders(h))


async def test_reminder_points_as_time_left_before_the_deadline(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await twelve_hour_fight(bot, h, table)
    await ok(await slash(h, table.moderator, "gm settings", reminders="1h,6h"))
    await pass_turns_until(bot, h, table, "Willow")
    clock.advance(6 * HOUR - 1)
    assert await bot.send_reminders() == []
    clock.advance(1)  # 6h left
    assert len(await bot.send_reminders()) == 1
    clock.advance(5 * HOUR - 1)
    assert await bot.send_reminders() == []
    clock.advance(1)  # 1h left
    assert len(await bot.send_reminders()) == 1
    for bad, words in (("150%", "1% to 99%"), ("soon", "is not a reminder point")):
        text = await refused(await slash(h, table.moderator, "gm settings", reminders=bad))
        assert words in text, text
    await ok(await slash(h, table.moderator, "gm settings", reminders="off"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.settings.reminders == "off"


async def test_a_reminder_in_quiet_hours_waits_until_they_end(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Half of Willow's 12-hour turn falls inside her player's quiet hours (set in Berlin
    time, from half an hour before it to two hours after): the reminder waits until they
    end, then comes once."""
    bot, h = clocked_bot, discord_harness
    settings = await slash(
        h, table.player, "me settings", timezone="Europe/Berlin", quiet_hours="18:00-21:00"
    )
    await settings.response()
    assert settings.ephemeral
    assert "Your time zone: **Europe/Berlin**" in settings.response_data["content"]
    assert "Quiet hours: **18:00-21:00**" in settings.response_data["content"]
    await twelve_hour_fight(bot, h, table)
    await pass_turns_until(bot, h, table, "Willow")
    # Quiet hours around the turn's half-way point, in Berlin time.
    half = clock() + timedelta(seconds=DEADLINE / 2)
    local_half = half.astimezone(ZoneInfo("Europe/Berlin"))
    quiet_start = (local_half - timedelta(minutes=30)).strftime("%H:%M")
    quiet_end = (local_half + timedelta(hours=2)).strftime("%H:%M")
    await (
        await slash(h, table.player, "me settings", quiet_hours=f"{quiet_start}-{quiet_end}")
    ).response()
    clock.set(half)
    assert await bot.send_reminders() == []  # inside the quiet hours: it waits
    clock.advance(2 * HOUR - 120)
    assert await bot.send_reminders() == []
    clock.advance(120)  # the quiet hours are over
    [reminder] = await bot.send_reminders()
    assert reminder.member_id == table.player.id
    clock.advance(60)
    assert await bot.send_reminders() == []


async def test_a_reminder_whose_quiet_hours_outlast_the_deadline_never_comes(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await twelve_hour_fight(bot, h, table)
    await pass_turns_until(bot, h, table, "Willow")
    start = clock()
    quiet_from = (start + timedelta(hours=5)).strftime("%H:%M")
    quiet_to = (start + timedelta(hours=13)).strftime("%H:%M")  # past the deadline
    await (
        await slash(h, table.player, "me settings", quiet_hours=f"{quiet_from}-{quiet_to}")
    ).response()
    for _ in range(12):
        clock.advance(HOUR - 1)
        assert await bot.send_reminders() == []
        clock.advance(1)
    assert len(await bot.fire_turn_deadlines()) == 1  # the deadline passed; nobody was pinged
    assert [m for m in reminders(h) if "Willow" in m.content] == []


async def test_a_reaction_window_is_reminded_and_the_gm_when_it_waits_on_them(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await waiting_for_willow(bot, h, table)
    clock.advance(150 - 1)  # half of the 5-minute window
    assert await bot.send_reminders() == []
    clock.advance(1)
    [reminder] = await bot.send_reminders()
    assert reminder.kind == "reaction" and reminder.member_id == table.player.id
    await h.wait_for(lambda: len(reminders(h)) == 1)
    text = reminders(h)[0].content
    assert text.startswith(f"<@{table.player.id}> ⏳ Reminder: **Thug 1 attacks Willow")
    assert "waits for your decision" in text
    clock.advance(60)
    assert await bot.send_reminders() == []

    # The fight waits on the GM: an NPC's reaction when NPCs react.
    gm = table.moderator
    await ok(await slash(h, gm, "gm resolve"))
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    attack = live.rules.attack_names(live.state.find("Willow"))[0]
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_=attack))
    clock.advance(150)
    [nudge] = await bot.send_reminders()
    assert nudge.gm and nudge.member_id == gm.id
    await h.wait_for(lambda: len(reminders(h)) == 2)
    assert reminders(h)[1].content.startswith(f"<@{gm.id}> ⏳ The fight waits on you:")


async def test_me_settings_refusals_export_and_delete(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    text = await refused(await slash(h, player, "me settings", timezone="Mars/Olympus"))
    assert "`Mars/Olympus` is not a time zone" in text
    text = await refused(await slash(h, player, "me settings", quiet_hours="25:00-08:00"))
    assert "from `00:00` to `23:59`" in text
    text = await refused(await slash(h, player, "me settings", quiet_hours="late"))
    assert "`22:00-08:00`" in text
    assert (await export_of(h, player))["member_settings"] is None
    await (
        await slash(
            h, player, "me settings", timezone="America/New_York", quiet_hours="23:00-07:30"
        )
    ).response()
    exported = (await export_of(h, player))["member_settings"]
    assert exported["timezone"] == "America/New_York"
    assert (exported["quiet_start"], exported["quiet_end"]) == (23 * 60, 7 * 60 + 30)
    prompt = await delete_prompt(h, player)
    assert "your time zone and quiet hours" in prompt.content
    await click(h, player, prompt, "Confirm")
    assert (await export_of(h, player))["member_settings"] is None


async def dock_nine(h: DiscordHarness, table: Table) -> None:
    """Uune at Dock nine: Mira Quell (the player's) and Tobin Ash (the other player's) against
    a Dock Thug; not begun."""
    gm, player, other = table.moderator, table.player, table.other_player
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, player, "character import", example="mira"))
    await answered(await slash(h, other, "character import", example="tobin"))
    await ok(await slash(h, player, "encounter join", character="Mira Quell"))
    await ok(await slash(h, other, "encounter join", character="Tobin Ash"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))


async def test_an_approval_that_waits_on_the_gm_reminds_the_gm_too(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Uune: Mira's attack waits for the GM's approval of her resources (Uune SRD,
    "Actions"): every choice is the GM's, so the GM — not Mira's player — is reminded at half
    the window."""
    h = discord_harness
    gm, player = table.moderator, table.player
    await dock_nine(h, table)
    await ok(await slash(h, gm, "encounter begin"))
    detail = "Twin short blades, Street fencing"
    await ok(await slash(h, player, "act", action="attack", target="Dock Thug 1", detail=detail))
    clock.advance(150)
    [reminder] = await clocked_bot.send_reminders()
    assert reminder.kind == "reaction" and reminder.members == (gm.id,) and reminder.gm
    await h.wait_for(lambda: len(reminders(h)) == 1)
    shown = reminders(h)[0].content
    assert shown.startswith(f"<@{gm.id}> ⏳ The fight waits on you: **Mira"), shown
    # the time left when it was sent, not a deadline a pause could move (fix19)
    assert "needs your decision (2 minutes left to decide)." in shown, shown


async def test_after_an_outage_only_one_reminder_covers_the_points_missed(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The bot was down past both points (50% and 90%): one reminder, then none."""
    bot, h = clocked_bot, discord_harness
    await twelve_hour_fight(bot, h, table)
    await ok(await slash(h, table.moderator, "gm settings", reminders="50%,90%"))
    await pass_turns_until(bot, h, table, "Willow")
    clock.advance(DEADLINE * 0.95)
    assert len(await bot.send_reminders()) == 1
    clock.advance(60)
    assert await bot.send_reminders() == []


async def test_a_resumed_reaction_window_is_a_new_window_and_reminded_again(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Willow's player was reminded at half her window; the GM pauses for a day and resumes,
    which gives her a whole window again (``/gm resume``): its half-way point is reminded too
    (before, the point of the old window counted as sent and the new one came unannounced)."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await waiting_for_willow(bot, h, table)
    clock.advance(200)
    [first] = await bot.send_reminders()
    assert first.kind == "reaction" and first.member_id == table.player.id
    await ok(await slash(h, gm, "gm pause"))
    clock.advance(24 * HOUR)
    assert await bot.send_reminders() == []  # nothing while paused
    await ok(await slash(h, gm, "gm resume"))
    clock.advance(150 - 1)
    assert await bot.send_reminders() == []
    clock.advance(1)  # half of the fresh 5-minute window
    [again] = await bot.send_reminders()
    assert again.kind == "reaction" and again.member_id == table.player.id
    assert again.deadline == clock() + timedelta(seconds=150)
    clock.advance(60)
    assert await bot.send_reminders() == []  # once per window
    await h.wait_for(lambda: len(reminders(h)) == 2)


async def test_a_turn_waiting_on_a_reaction_reminds_whoever_the_reaction_waits_on(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Thug 1 attacks Willow as its 12-hour turn begins, and she has a day to react: the turn
    cannot end before she answers, so the GM is not told at 6 hours that "the fight waits on
    you" (before, it was, beside "it is Thug 1's turn (deadline in 6 hours)" for a deadline
    that would not come): Willow's player is reminded of her reaction, at half its day."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await twelve_hour_fight(bot, h, table)
    await ok(await slash(h, gm, "gm settings", reaction_window="1d"))
    prompt = await thug_attacks_willow(bot, h, table)
    await h.wait_for(lambda: h.message(prompt).components != [])
    clock.advance(DEADLINE / 2)
    assert await bot.send_reminders() == []  # the turn waits on Willow, not on the GM
    clock.advance(DEADLINE / 2)
    [reaction] = await bot.send_reminders()  # half the reaction's day
    assert reaction.kind == "reaction" and reaction.members == (table.player.id,)
    assert await bot.fire_turn_deadlines() == []
    await h.wait_for(lambda: len(reminders(h)) == 1)
    assert not [m for m in reminders(h) if m.content.startswith(f"<@{gm.id}>")]


async def test_a_uune_roll_waiting_for_the_gms_approval_does_not_remind_its_roller(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Uune: Mira picks the lock and Tobin helps; the roll waits for the GM's approval (Uune
    SRD, "Actions"). Half of Mira's 12-hour turn passes: Mira's player has acted and is not
    told it is her turn; the GM is reminded of the approval at half its window."""
    h = discord_harness
    gm, player, other = table.moderator, table.player, table.other_player
    await dock_nine(h, table)
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h", reaction_window="1d"))
    await ok(await slash(h, gm, "encounter begin"))
    detail = "pick the lock: Lockpicks"
    await ok(await slash(h, player, "act", action="action", detail=detail, amount=3))
    await ok(await slash(h, other, "act", action="help", detail="Herbalist"))
    clock.advance(DEADLINE / 2)
    assert await clocked_bot.send_reminders() == []
    clock.advance(DEADLINE / 2)
    [approval] = await clocked_bot.send_reminders()
    assert approval.kind == "reaction" and approval.members == (gm.id,) and approval.gm
    await h.wait_for(lambda: len(reminders(h)) == 1)
    assert not any("it is **Mira Quell**'s turn" in m.content for m in reminders(h))


async def test_a_longer_reaction_window_set_while_one_runs_brings_no_early_reminder(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Ten seconds into Willow's 5-minute window the GM sets `reaction_window:12h` for the
    fight: her running window keeps its 5 minutes, and is reminded at half of them — not at
    once (before, the points were placed on the new 12 hours before a deadline 5 minutes
    away, so "half" had long passed)."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await waiting_for_willow(bot, h, table)
    clock.advance(10)
    await ok(await slash(h, gm, "gm settings", reaction_window="12h"))
    assert await bot.send_reminders() == []
    clock.advance(150 - 10 - 1)
    assert await bot.send_reminders() == []
    clock.advance(1)
    [reminder] = await bot.send_reminders()
    assert reminder.kind == "reaction" and reminder.member_id == table.player.id


async def test_a_pause_committed_while_a_reminder_is_worked_out_holds_it_back(
    clocked_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Half of Willow's reaction window passed: the reminder pass reads the fight (not paused),
    and while it asks whom it may mention (their quiet hours) the GM's `/gm pause` commits —
    as it may from another process. Before, the pause was checked before the claim only, so
    the reminder was sent during the pause; the claim checks it now. After `/gm resume` (a
    fresh window) the reminder comes at that window's half."""
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await waiting_for_willow(bot, h, table)
    clock.advance(150)
    settings = bot.services.reminders._settings
    asked = settings.of
    paused: list[bool] = []

    async def pause_meanwhile(guild_id: int, user_id: int) -> MemberSettings:
        if not paused:
            paused.append(True)
            await ok(await slash(h, gm, "gm pause"))
        return await asked(guild_id, user_id)

    monkeypatch.setattr(settings, "of", pause_meanwhile)
    assert await bot.send_reminders() == []
    assert paused
    monkeypatch.undo()
    assert (await bot.services.encounters.live(h.channel.id)).row.paused
    await ok(await slash(h, gm, "gm resume"))
    clock.advance(150)
    [reminder] = await bot.send_reminders()
    assert reminder.kind == "reaction" and reminder.deadline == clock() + timedelta(seconds=150)
    await h.wait_for(lambda: len(reminders(h)) == 1)
