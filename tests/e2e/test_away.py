"""Away players (issue 17) through Discord: ``/away [until] [delegate]`` and ``/back``.

While Willow's player is away, the member they named (or the GM) acts and reacts for Willow —
through the one permission check every command and button goes through — and the results say
"<@delegate> (for <@player>, away)"; turn pings, reaction pings and reminders go to the
delegate; the tracker shows who is away. The mark ends with ``/back`` or by itself at
``until`` (the services' injected clock)."""

from __future__ import annotations

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.e2e.test_member_data import click, delete_prompt, stored_anywhere
from tests.harness.models import Member
from tests.harness.server import DiscordHarness

HOUR = 3600


def for_away(by: Member, away: Member) -> str:
    return f"<@{by.id}> (for <@{away.id}>, away)"


async def test_a_delegate_acts_for_an_away_player_and_the_result_says_so(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h = clocked_bot, discord_harness
    player, delegate = table.player, table.other_player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    refusal = await refused(await slash(h, delegate, "endturn", as_="Willow"))
    assert "You do not control **Willow**" in refusal
    said = await ok(await slash(h, player, "away", delegate=delegate))
    text = said.response_data["content"]
    assert f"<@{player.id}> is away until they say `/back`" in text
    assert f"<@{delegate.id}> acts and reacts for their combatants" in text
    # Without `as`: it is Willow's turn, and the delegate stands in for her player.
    ended = await ok(await slash(h, delegate, "endturn"))
    assert for_away(delegate, player) in ended.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.name != "Willow"
    # Someone else still may not; the delegate cannot act for the GM's Thugs either.
    assert "You do not control" in await refused(
        await slash(h, table.bystander, "endturn", as_="Willow")
    )
    assert "You do not control **Thug 1**" in await refused(
        await slash(h, delegate, "endturn", as_="Thug 1")
    )
    said = await ok(await slash(h, player, "back"))
    assert "is back" in said.response_data["content"]
    await pass_turns_until(bot, h, table, "Willow")
    assert "You do not control **Willow**" in await refused(
        await slash(h, delegate, "endturn", as_="Willow")
    )
    assert "not marked away" in await refused(await slash(h, player, "back"))


async def test_the_gm_acts_for_an_away_player_without_a_delegate(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, gm, player = clocked_bot, discord_harness, table.moderator, table.player
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, player, "away", until="2d"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Willow")
    # The turn ping for Willow went to the GM, saying for whom.
    pings = [m for m in h.messages_in(h.channel) if "it is **Willow**'s turn" in m.content]
    assert pings and pings[-1].content.startswith(f"<@{gm.id}> (for <@{player.id}>, away)")
    ended = await ok(await slash(h, gm, "endturn"))
    assert for_away(gm, player) in ended.message.text()


async def test_a_delegate_presses_the_reaction_button_and_is_the_one_pinged(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away", delegate=delegate))
    prompt = await thug_attacks_willow(bot, h, table)
    await h.wait_for(lambda: f"<@{delegate.id}>" in h.message(prompt).content)
    # The delegate is asked, and the prompt says for whom (the player is named, not pinged).
    assert h.message(prompt).content.startswith(for_away(delegate, player) + " ")
    labels = [c.get("label", "") for row in h.message(prompt).components for c in row["components"]]
    refusal = await refused(await slash(h, table.bystander, "dodge"))
    assert "who is not yours to move" in refusal
    click = await press(h, delegate, prompt, labels[-1])
    await h.wait_for(lambda: h.message(prompt).components == [])
    assert click.response_type == 7  # the prompt itself becomes the outcome
    outcome = h.message(prompt).text()
    assert "settled with a button" in outcome
    assert for_away(delegate, player) in outcome, outcome


async def test_away_ends_by_itself_at_until(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    said = await ok(await slash(h, player, "away", until="1d", delegate=delegate))
    assert "is away until <t:" in said.response_data["content"]
    await pass_turns_until(bot, h, table, "Willow")
    clock.advance(24 * HOUR)
    assert "You do not control **Willow**" in await refused(
        await slash(h, delegate, "endturn", as_="Willow")
    )
    assert "not marked away" in await refused(await slash(h, player, "back"))


async def test_refusals_and_a_delegate_cannot_delegate_further(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    robot = h.add_member(h.guild, "DiceBot")
    robot.user.bot = True
    assert "is a bot" in await refused(await slash(h, player, "away", delegate=robot))
    assert "yourself" in await refused(await slash(h, player, "away", delegate=player))
    for bad, why in (
        ("soon", "is not a duration"),
        ("91d", "between 1 minute"),
        ("off", "Say how long"),
        ("2020-01-01", "already passed"),
        ("2026-13-40", "is not a date"),
    ):
        assert why in await refused(await slash(h, player, "away", until=bad)), bad
    # Nothing was half-applied: the player is not away.
    assert "not marked away" in await refused(await slash(h, player, "back"))
    # The delegate goes away naming the bystander: Willow does not pass on to them.
    await ok(await slash(h, player, "away", delegate=delegate))
    await ok(await slash(h, delegate, "away", delegate=table.bystander))
    assert "away too" in await refused(await slash(h, table.gm, "away", delegate=delegate))
    await pass_turns_until(bot, h, table, "Willow")
    assert "You do not control **Willow**" in await refused(
        await slash(h, table.bystander, "endturn", as_="Willow")
    )
    assert "You do not control **Willow**" in await refused(
        await slash(h, delegate, "endturn", as_="Willow")
    )
    # Willow's next turn ping goes to the GM, who stands in now.
    await ok(await slash(h, table.moderator, "endturn", as_="Willow"))
    await pass_turns_until(bot, h, table, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    pings = [m for m in h.messages_in(h.channel) if "it is **Willow**'s turn" in m.content]
    assert pings[-1].content.startswith(f"<@{live.row.gm_id}> (for <@{player.id}>, away)")


async def test_the_tracker_shows_who_is_away_and_the_export_has_it(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, delegate = discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away", until="3d", delegate=delegate))
    away = f"💤 Away: <@{player.id}> (<@{delegate.id}> stands in)"
    status = await answered(await slash(h, player, "encounter status"))
    assert away in (status.message.text() if status.message else str(status.response_data))

    def tracker_says() -> bool:
        live = [m for m in h.messages_in(h.channel) if m.embeds and "Round" in m.text()]
        return any(away in m.text() for m in live)

    await h.wait_for(tracker_says)
    for member, key in ((player, True), (delegate, False)):
        record = await slash(h, member, "me export")
        await answered(record)
        message = record.message if not record.deferred else await record.followup(0)
        document = message.attachments[0].json()
        [mark] = document["away"]
        assert mark["you_are_away"] is key and mark["you_stand_in"] is (not key)
        assert mark["delegate_id"] == str(delegate.id)


async def test_the_reminder_goes_to_the_delegate(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, table.moderator, "gm settings", turn_deadline="12h"))
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "away", delegate=delegate))
    clock.advance(6 * HOUR)
    [reminder] = await bot.send_reminders()
    assert reminder.member_id == delegate.id and reminder.for_away == player.id
    await h.wait_for(lambda: any("⏳" in m.content for m in h.messages_in(h.channel)))
    [shown] = [m for m in h.messages_in(h.channel) if "⏳" in m.content]
    assert shown.content.startswith(f"{for_away(delegate, player)} ⏳ Reminder:")
    assert "it is **Willow**'s turn" in shown.content


async def test_a_reaction_reminder_to_the_delegate_says_whom_they_stand_in_for(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """Thug 1 attacks Willow while her player is away: the reminder at half the window goes to
    the delegate and says for whom, as a turn's reminder does (before, it read as if the
    attack were on the delegate's own character); without a delegate, the GM's says so too."""
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    gm = table.moderator
    await ok(await slash(h, player, "away", delegate=delegate))
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    clock.advance(150)  # half the 5-minute window
    [reminder] = await bot.send_reminders()
    assert reminder.kind == "reaction" and reminder.members == (delegate.id,)
    assert reminder.for_away == player.id
    await h.wait_for(lambda: any("⏳" in m.content for m in h.messages_in(h.channel)))
    [shown] = [m for m in h.messages_in(h.channel) if "⏳" in m.content]
    assert shown.content.startswith(f"{for_away(delegate, player)} ⏳ Reminder: **Thug 1"), (
        shown.content
    )
    # The delegate goes away too: the GM stands in, and a fresh window's reminder says so.
    await ok(await slash(h, gm, "gm resolve"))
    await ok(await slash(h, delegate, "away"))
    await pass_turns_until(bot, h, table, "Thug 2")
    await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    clock.advance(150)
    [nudge] = await bot.send_reminders()
    assert nudge.members == (gm.id,) and nudge.for_away == player.id
    await h.wait_for(lambda: len([m for m in h.messages_in(h.channel) if "⏳" in m.content]) == 2)
    said = [m for m in h.messages_in(h.channel) if "⏳" in m.content][-1].content
    assert said.startswith(f"{for_away(gm, player)} ⏳ The fight waits on you: **Thug 2"), said


async def test_going_away_while_a_reaction_waits_asks_the_delegate(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The attack already waits on Willow's player when they go away: its prompt is
    re-addressed to the delegate, who is pinged; after /back it asks the player again."""
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await h.wait_for(lambda: f"<@{player.id}>" in h.message(prompt).content)
    await ok(await slash(h, player, "away", delegate=delegate))
    await h.wait_for(lambda: f"<@{delegate.id}>" in h.message(prompt).content)
    assert h.message(prompt).content.startswith(for_away(delegate, player) + " ")
    await ok(await slash(h, player, "back"))
    await h.wait_for(lambda: h.message(prompt).content.startswith(f"<@{player.id}> "))
    assert f"<@{delegate.id}>" not in h.message(prompt).content
    assert "away)" not in h.message(prompt).content


async def test_me_delete_erases_the_mark_and_a_named_delegate(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The delegate erases their data: the player stays away, the GM stands in. Then the
    player erases theirs: no away mark names either of them any more."""
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away", delegate=delegate))
    await click(h, delegate, await delete_prompt(h, delegate), "Confirm")
    assert await stored_anywhere(bot, str(delegate.id)) == []
    live = await bot.services.encounters.live(h.channel.id)
    assert live.away[player.id].delegate_id is None  # the GM stands in now
    assert "You do not control **Willow**" in await refused(
        await slash(h, delegate, "endturn", as_="Willow")
    )
    await click(h, player, await delete_prompt(h, player), "Confirm")
    live = await bot.services.encounters.live(h.channel.id)
    assert live.away == {}


async def test_a_delegate_reacts_with_a_typed_dodge(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away", delegate=delegate))
    await thug_attacks_willow(bot, h, table)
    dodged = await ok(await slash(h, delegate, "dodge"))
    assert for_away(delegate, player) in dodged.message.text()
    assert "Willow" in dodged.message.text()
