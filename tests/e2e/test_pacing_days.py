"""Issue 17's "done when": a fight with a 12-hour turn deadline, played through the harness
across simulated days on the services' injected clock (no real waiting) — reminders, an away
delegation acting, a recap, and a deadline that passes while the bot is down — each a test.

:func:`player_sees` is what a member sees of the channel (its public messages and the
ephemeral replies to them), and :func:`show` prints it: run
``pytest tests/e2e/test_pacing_days.py -s`` to read each story as Willow's player saw it.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import current_name, ok, pass_turns_until, set_up_fight, slash
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import Member, StoredMessage
from tests.harness.server import DiscordHarness

HOUR = 3600
DEADLINE = 12 * HOUR


FIGHT_BEGINS = "The fight begins!"


def player_sees(h: DiscordHarness, member: Member, *, since: str = FIGHT_BEGINS) -> list[str]:
    """What ``member`` sees in the fight's channel, oldest first, from the first message that
    contains ``since`` (default: the fight's start; "" for everything): each public message (its
    content, then each embed's title, description and fields, as it reads now) and each
    ephemeral reply to one of their own commands (marked "(only you)")."""
    seen: list[str] = []
    messages = h.messages_in(h.channel, include_ephemeral=True)
    start = next((i for i, m in enumerate(messages) if since in m.text()), 0)
    for message in messages[start:]:
        if message.ephemeral and not _theirs(message, member):
            continue
        text = message.text().strip()
        if text:
            seen.append(("(only you) " if message.ephemeral else "") + text)
    return seen


def _theirs(message: StoredMessage, member: Member) -> bool:
    record = message.interaction
    return record is not None and record.member.id == member.id


def show(h: DiscordHarness, member: Member, story: str) -> list[str]:
    """Print :func:`player_sees` under a heading (``-s`` shows it); returns the lines."""
    seen = player_sees(h, member)
    print(f"\n===== {story}: what {member.user.username} sees =====")
    for line in seen:
        print(line.replace("\n", "\n    "))
        print("-----")
    return seen


def reminders_to(h: DiscordHarness, member: Member) -> list[str]:
    return [
        m.content
        for m in h.messages_in(h.channel)
        if m.content.startswith(f"<@{member.id}>") and "⏳" in m.content
    ]


async def twelve_hours(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    """The worked example's fight with a 12-hour turn deadline, begun on day 1 at the clock's
    start; Willow's turn comes first."""
    await set_up_fight(h, table)
    await ok(await slash(h, table.moderator, "gm settings", turn_deadline="12h"))


async def test_two_days_of_reminders_and_deadlines(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Nobody acts for two and a half days: each of five turns gets its reminder at 6 hours —
    Willow's and General Bearington's to their player, the Thugs' to the GM — and ends at 12
    hours, once each; the fight moves on by itself."""
    bot, h, player, gm = clocked_bot, discord_harness, table.player, table.moderator
    await twelve_hours(bot, h, table)
    order: list[str] = []
    for _ in range(5):
        name = await current_name(bot, h)
        order.append(name)
        clock.advance(DEADLINE / 2)
        [reminder] = await bot.send_reminders()
        assert reminder.name == name
        assert reminder.member_id == (
            player.id if name in ("Willow", "General Bearington") else gm.id
        )
        clock.advance(DEADLINE / 2)
        [lapse] = await bot.fire_turn_deadlines()
        assert lapse.name == name and lapse.action == "end_turn"
        assert await bot.fire_turn_deadlines() == []
    assert order == ["Willow", "General Bearington", "Thug 1", "Thug 2", "Thug 3"]
    await h.wait_for(lambda: len(reminders_to(h, player)) == 2)
    assert len(reminders_to(h, gm)) == 3
    seen = show(h, player, "Two days, nobody acting")
    assert any("⏳ Reminder: it is **Willow**'s turn" in line for line in seen)
    assert sum("Turn deadline passed" in line for line in seen) == 5
    assert await current_name(bot, h) == "Willow"  # round 2, 60 hours in


async def test_an_away_delegation_acts_and_ends_by_itself(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Day 1: Willow's player goes away for two days and names Bear's player. Willow's
    reminder goes to the delegate, who attacks for Willow ("(for …, away)"). Day 3: the
    away mark has ended by itself; Willow's next reminder goes to her player again."""
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await twelve_hours(bot, h, table)
    began = clock()
    await ok(await slash(h, player, "away", until="2d", delegate=delegate))
    clock.advance(DEADLINE / 2)
    [reminder] = await bot.send_reminders()
    assert reminder.member_id == delegate.id and reminder.for_away == player.id
    attacked = await ok(await slash(h, delegate, "attack", target="Thug 1", with_="Club"))
    assert f"<@{delegate.id}> (for <@{player.id}>, away)" in attacked.message.text()
    # The rest of the round passes at its deadlines (General Bearington's too: nobody acts).
    while await current_name(bot, h) != "Willow":
        clock.advance(DEADLINE)
        await bot.fire_turn_deadlines()
    assert clock() - began > timedelta(days=2)  # day 3 now: the away mark has ended
    clock.advance(DEADLINE / 2)
    [reminder] = await bot.send_reminders()
    assert reminder.member_id == player.id and reminder.for_away is None
    seen = show(h, player, "Away for two days")
    assert any(f"<@{player.id}> is away until" in line for line in seen)
    assert any(f"<@{player.id}> ⏳ Reminder: it is **Willow**'s turn" in line for line in seen)


async def test_a_recap_after_a_day_and_a_half(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Willow's player ends both their turns on day 1, then is gone for a day and a half: the
    Thugs' turns end at their deadlines but Thug 1 attacks Willow first, and the reaction
    window runs out. Back, the player's recap lists the three turns, the attack (with the
    Thug's numbers hidden as the channel hid them) and that it is Willow's turn again, with its
    deadline."""
    bot, h, player, gm = clocked_bot, discord_harness, table.player, table.moderator
    await twelve_hours(bot, h, table)
    await ok(await slash(h, player, "endturn"))
    clock.advance(2 * HOUR)
    await ok(await slash(h, player, "endturn"))  # General Bearington's: the last action
    clock.advance(3 * HOUR)
    await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    clock.advance(HOUR)
    assert len(await bot.expire_due()) == 1  # the 5-minute reaction window ran out
    while await current_name(bot, h) != "Willow":
        clock.advance(DEADLINE)
        await bot.fire_turn_deadlines()
    record = await slash(h, player, "encounter recap")
    await record.response()
    assert record.ephemeral
    [embed] = record.response_data["embeds"]
    text = embed["description"]
    assert "**Turns taken (3)**\nRound 1: Thug 1, Thug 2, Thug 3" in text
    assert "**Thug 1** → **Willow** with Cudgel" in text
    assert "Thug 1's Accuracy bonus (hidden)" in text
    due = f"<t:{int((clock() + timedelta(seconds=DEADLINE)).timestamp())}:R>"
    now = (
        f"Round 2: it is **Willow**'s turn (deadline {due}).\n⏳ Waiting on you: **Willow**'s turn."
    )
    assert now in text, text
    show(h, player, "Back after a day and a half")


async def recap_now(h: DiscordHarness, member: Member) -> str:
    """The member's ``/encounter recap``'s text (private)."""
    record = await slash(h, member, "encounter recap")
    await record.response()
    assert record.ephemeral
    [embed] = record.response_data["embeds"]
    text: str = embed["description"]
    return text


async def test_an_away_players_recap_says_who_acts_for_them_and_what_waits(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Willow's player is away and Bear's player stands in: Willow's turn waits on the
    stand-in. The away player's recap read "Nothing waits on you." and named nobody; it says
    who acts for them and what waits on that member for them — then, the delegate gone, on
    the GM; back, on the player again."""
    bot, h, player, other = clocked_bot, discord_harness, table.player, table.other_player
    await twelve_hours(bot, h, table)
    assert await current_name(bot, h) == "Willow"
    await ok(await slash(h, player, "away", until="2d", delegate=other))
    text = await recap_now(h, player)
    assert f"You are away: <@{other.id}> acts for you (`/back` to take over)." in text, text
    assert f"⏳ Waiting on <@{other.id}> for you: **Willow**'s turn." in text, text
    assert "Nothing waits on you" not in text, text
    await ok(await slash(h, player, "away", until="2d"))  # no delegate now: the GM stands in
    text = await recap_now(h, player)
    assert "You are away: the GM acts for you" in text and "Waiting on the GM for you" in text
    await ok(await slash(h, player, "back"))
    text = await recap_now(h, player)
    assert "⏳ Waiting on you: **Willow**'s turn." in text and "away" not in text, text


async def test_a_deadline_that_passes_during_a_restart_fires_once(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Willow's turn starts on day 1; the bot is down from hour 5 to hour 30. Back, the loop
    ends Willow's turn once (no reminder after the deadline, no cascade through General
    Bearington's turn), and his turn gets a whole 12 hours — reminded at 6."""
    h, clock, player = discord_patched, ManualClock(), table.player
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        await twelve_hours(bot, h, table)
        await pass_turns_until(bot, h, table, "Willow")
        clock.advance(5 * HOUR)
        assert await bot.send_reminders() == []
    clock.advance(25 * HOUR)  # while no bot runs
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=0.05):
        await h.wait_for(
            lambda: any("Turn deadline passed" in m.text() for m in h.messages_in(h.channel))
        )
        assert await current_name(bot, h) == "General Bearington"
        assert await bot.fire_turn_deadlines() == []
        assert reminders_to(h, player) == []  # Willow's reminder point passed unseen
        clock.advance(DEADLINE / 2)
        await h.wait_for(lambda: len(reminders_to(h, player)) == 1)
        assert "it is **General Bearington**'s turn" in reminders_to(h, player)[0]
    seen = show(h, player, "A restart across the deadline")
    assert sum("Turn deadline passed" in line for line in seen) == 1
