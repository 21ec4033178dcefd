"""The turn cycle through Discord: two commands for one turn end it once, a GM tool that takes
the turn holder out passes the turn on, and a fight that ends by itself shows who won and
refuses turn commands until the GM closes it."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

import bot.__main__ as bot_main
from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    current_name,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.server import DiscordHarness


async def order_names(bot: CombatBot, h: DiscordHarness) -> list[str]:
    live = await bot.services.encounters.live(h.channel.id)
    return [live.state.get(cid).name for cid in live.state.order]


async def test_endturn_and_gm_next_together_end_one_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's player's `/endturn` and the GM's `/gm next`, sent together: Willow's turn ends
    once, the next in order gets their turn, and the later command is refused naming whose turn
    it is now — in every one of several trials."""
    h = discord_harness
    await set_up_fight(h, table, thugs=3)
    order = await order_names(bot, h)
    for _trial in range(4):
        await pass_turns_until(bot, h, table, "Willow")
        live = await bot.services.encounters.live(h.channel.id)
        version = live.version
        nxt = order[(order.index("Willow") + 1) % len(order)]
        first = await slash(h, table.player, "endturn")
        second = await slash(h, table.moderator, "gm next")
        await first.response()
        await second.response()
        answers = sorted([first, second], key=lambda r: r.ephemeral)
        assert not answers[0].ephemeral, answers[0].response_data
        text = answers[1].response_data.get("content", "")
        assert answers[1].ephemeral
        assert text == f"That turn already ended: it is now {nxt}'s.", text
        assert await current_name(bot, h) == nxt
        assert (await bot.services.encounters.live(h.channel.id)).version == version + 1


async def test_two_gm_next_at_once_move_one_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=2)
    order = await order_names(bot, h)
    before = await current_name(bot, h)
    one = await slash(h, table.moderator, "gm next")
    two = await slash(h, table.gm, "gm next")  # not a GM here: refused for that reason
    three = await slash(h, table.moderator, "gm next")
    for record in (one, two, three):
        await record.response()
    assert not one.ephemeral
    assert two.ephemeral and "Only the GM" in two.response_data["content"]
    assert three.ephemeral and "That turn already ended" in three.response_data["content"]
    assert await current_name(bot, h) == order[(order.index(before) + 1) % len(order)]


async def test_gm_killing_the_turn_holder_passes_the_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=3)
    await pass_turns_until(bot, h, table, "Thug 1")
    reply = await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="0"))
    assert await current_name(bot, h) != "Thug 1"
    assert "turn passes on" in h.message(reply.message).text()
    # Knocking out the turn holder does the same.
    holder = await current_name(bot, h)
    await ok(await slash(h, table.moderator, "gm hp", combatant=holder, stamina="0"))
    assert await current_name(bot, h) != holder


async def test_a_fight_that_ends_by_itself_stays_over_until_the_gm_closes_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    last = await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="0"))
    assert "The fight is over" in h.message(last.message).text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.phase == "finished" and live.state.winner == "party"

    def tracker_text() -> str:
        trackers = [m for m in h.messages_in(h.channel) if "player view" in m.text()]
        return trackers[-1].text() if trackers else ""

    await h.wait_for(lambda: "**party** won" in tracker_text())
    assert "/encounter end" in tracker_text()
    status = await slash(h, table.player, "encounter status")
    await status.response()
    assert "**party** won" in str(status.response_data)
    over = "The fight is over (party won). The GM closes it with `/encounter end`."
    assert await refused(await slash(h, table.player, "attack", target="Thug 1", with_="Staff"))
    attack = await slash(h, table.player, "endturn")
    assert await refused(attack) == over
    begin = await slash(h, table.moderator, "encounter begin")
    text = await refused(begin)
    assert text.startswith(over)
    # Nobody was pinged by any of that.
    for record in (attack, begin):
        assert "<@" not in (record.response_data.get("content") or "").replace("/encounter end", "")
    assert (await bot.services.encounters.live(h.channel.id)).version == live.version
    # The GM closes it: the summary says who won and how each ended up (an NPC by its looks).
    end = await slash(h, table.moderator, "encounter end")
    await end.response()
    confirm = next(c for c in end.message.custom_ids() if ":yes:" in c)
    click = await h.click(table.moderator, end.message, confirm)
    summary = await click.followup(0)
    text = summary.text()
    assert "The **party** side won." in text
    assert "**Thug 1** (NPC) · foes · Dead · Prone" in text
    assert "**Willow** · party · Health 16/16" in text


async def _flurry_on_thug(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    """The bear's three-hit flurry on Thug 1, whose reactions the GM chooses."""
    await ok(await slash(h, table.moderator, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Claws", hits=3))


async def _reactions_logged(bot: CombatBot, h: DiscordHarness) -> int:
    live = await bot.services.encounters.live(h.channel.id)
    entries = await bot.services.encounters.log(live.id)
    return sum(1 for e in entries if e.command in ("react", "resolve"))


async def test_two_typed_reactions_together_decide_one_hit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/block` twice, `/gm resolve` twice, a button and `/block`: sent together for the first
    hit of a flurry, the second one is refused instead of deciding the next hit."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1, begin=False)
    await ok(await slash(h, gm, "encounter begin"))
    await _flurry_on_thug(bot, h, table)
    for pair in (("block", "block"), ("gm resolve", "gm resolve")):
        before = await _reactions_logged(bot, h)
        first = await slash(h, gm, pair[0])
        second = await slash(h, gm, pair[1])
        await first.response()
        await second.response()
        assert not first.ephemeral, first.response_data
        assert second.ephemeral, second.response_data
        text = second.response_data["content"]
        assert "started waiting, so it was meant for something else" in text or "no longer" in text
        assert await _reactions_logged(bot, h) == before + 1
    prompt_id = None
    for _ in range(200):
        prompt_id = (await bot.services.encounters.live(h.channel.id)).row.prompt_message_id
        if prompt_id:
            break
        await asyncio.sleep(0.01)
    assert prompt_id is not None
    prompt = h.message(prompt_id)
    # Thug 1's numbers are hidden: the GM opens its options privately, then clicks one.
    chooser = next(c for c in prompt.custom_ids() if c.startswith("rxg:"))
    opened = await h.click(gm, prompt, chooser)
    await opened.response()
    private = opened.message
    evade = next(c for c in private.custom_ids() if ":evade@" in c)
    before = await _reactions_logged(bot, h)
    # Both arrive before either is applied (the channel is busy, a test's private hold on its
    # lock): the later one is refused.
    encounters = bot.services.encounters
    async with encounters._lock(h.channel.id):
        click = await h.click(gm, private, evade)
        typed = await slash(h, gm, "block")
        await h.wait_for(lambda: encounters.horizon >= typed.id)
    await click.response()
    await typed.response()
    refusals = [r for r in (click, typed) if r.response_type == 4 and r.ephemeral]
    assert len(refusals) == 1, (click.response_data, typed.response_data)  # the later one
    assert await _reactions_logged(bot, h) == before + 1
    final = await bot.services.encounters.live(h.channel.id)
    assert final.state.pending is None  # three hits, three decisions


async def test_a_skewed_host_clock_neither_refuses_nor_double_applies(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turns are dated with Discord's ids alone: with the host's clock 2 s ahead or behind, a
    command sent just after a turn began is accepted and the /endturn + /gm next race still
    ends one turn."""
    h = discord_patched
    for skew in (timedelta(seconds=2), timedelta(seconds=-2)):
        monkeypatch.setattr(bot_main, "utc_now", lambda skew=skew: datetime.now(UTC) + skew)
        h.channel = h.add_channel(h.guild, f"skew{skew.total_seconds():+.0f}")
        async for bot in _running_bot(h, tmp_path / f"skew{skew.days}.sqlite3", None):
            await set_up_fight(h, table, thugs=3)
            await pass_turns_until(bot, h, table, "Willow")
            order = await order_names(bot, h)
            nxt = order[(order.index("Willow") + 1) % len(order)]
            first = await slash(h, table.player, "endturn")
            second = await slash(h, table.moderator, "gm next")
            await first.response()
            await second.response()
            assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
            assert await current_name(bot, h) == nxt
            # Right after that turn began, its holder's GM acts at once: accepted.
            await ok(await slash(h, table.moderator, "endturn"))


async def test_an_expiry_right_after_a_restart_with_the_host_clock_ahead_refuses_nobody(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot comes back with its host's clock a minute ahead of Discord's, and the first
    thing it does is expire a waiting attack (which passes the turn): the next holder's
    command, sent at once, is accepted — no turn is dated by the host's clock."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        await set_up_fight(h, table)
        await pass_turns_until(first, h, table, "Thug 1")
        await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    with sqlite3.connect(database) as raw:
        raw.execute(
            "UPDATE decisions SET deadline = '2000-01-01T00:00:00+00:00' WHERE status = 'open'"
        )
    monkeypatch.setattr(bot_main, "utc_now", lambda: datetime.now(UTC) + timedelta(seconds=60))
    async for second in _running_bot(h, database, None):
        for _ in range(500):
            if (await second.services.encounters.live(h.channel.id)).state.pending is None:
                break
            await asyncio.sleep(0.02)
        live = await second.services.encounters.live(h.channel.id)
        assert live.state.pending is None and live.state.current is not None
        who = table.player if live.state.current.controller_id == table.player.id else None
        await ok(await slash(h, who or table.moderator, "endturn"))


async def test_gm_resolve_sent_with_a_surrender_click_does_not_decide_the_surrender(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow surrenders with the button while the GM's /gm resolve for her reaction is on its
    way: the /gm resolve was meant for the reaction and must not decide the attacker's
    complete-or-stop choice the surrender opened."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    service = bot.services.encounters
    surrender = next(c for c in h.message(prompt).custom_ids() if c.endswith(":surrender"))
    lock = service._lock(h.channel.id)
    async with lock:  # both arrive, the click first, before either is applied
        click = await h.click(table.player, h.message(prompt), surrender)
        await h.wait_for(lambda: service.horizon >= click.id)
        # the click finds its channel (a read) before it queues on the channel's lock
        await h.wait_for(lambda: len(lock._waiters or ()) == 1)
        typed = await slash(h, gm, "gm resolve")
        await h.wait_for(lambda: service.horizon >= typed.id)
        await h.wait_for(lambda: len(lock._waiters or ()) == 2)
    await click.response()
    message = await refused(typed)
    assert "surrendered started waiting, so it was meant for something else" in message
    live = await service.live(h.channel.id)
    assert live.state.pending is not None and live.state.pending.awaiting == "attacker"


def _deliver_next_with(h: DiscordHarness, snowflake: int) -> None:
    """The harness's next interaction carries ``snowflake``: it was created then and Discord
    delivers it now."""

    def once() -> int:
        del h.ids.next  # back to the class's own method
        return snowflake

    h.ids.next = once  # type: ignore[method-assign]


async def _time_passes(ms: int) -> None:
    """Let ``ms`` milliseconds of the wall clock pass: the time a command takes to apply (what
    the test models, not a wait for something to happen)."""
    started = time.time()
    await asyncio.sleep(ms / 1000)
    assert time.time() >= started + ms / 1000


async def test_a_gm_next_created_before_another_was_applied_but_delivered_after_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Two GMs press `/gm next` a moment apart in Willow's turn; the second is created before
    the first is applied, and Discord delivers it just after. It was meant for Willow's turn:
    refused, and the next combatant's turn is not ended too."""
    h = discord_harness
    co_gm = h.add_member(h.guild, "Co-GM", permissions=discord.Permissions(manage_channels=True))
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    order = [live.state.get(cid).name for cid in live.state.order]
    after_willow = order[(order.index("Willow") + 1) % len(order)]
    encounters = bot.services.encounters
    async with encounters._lock(h.channel.id):  # the first /gm next waits for the channel
        first = await slash(h, table.moderator, "gm next")
        await h.wait_for(lambda: encounters.horizon >= first.id)
        second_created = h.ids.next()  # the co-GM presses enter: still Willow's turn
        await _time_passes(30)  # the first takes a moment to apply
    await ok(first)
    assert await current_name(bot, h) == after_willow
    version = (await encounters.live(h.channel.id)).version
    _deliver_next_with(h, second_created)
    second = await slash(h, co_gm, "gm next")
    assert second.id == second_created
    assert await refused(second) == f"That turn already ended: it is now {after_willow}'s."
    assert await current_name(bot, h) == after_willow
    assert (await encounters.live(h.channel.id)).version == version
