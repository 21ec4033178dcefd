"""A decision's prompt stays right whatever happens around it (QA round 2 of issue 9): a
decision settled before its prompt is even noted leaves no live buttons; a re-render racing a
click never brings buttons back; a retirement or post Discord refused is done once access
returns; the prompt follows pauses, joins and revivals, and pings whoever is newly asked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord

from bot.client import CombatBot
from bot.ui.prompt_messages import GONE
from bot.ui.prompt_recovery import recover
from tests.e2e.combat_helpers import (
    answered,
    button,
    ok,
    pass_turns_until,
    press,
    refused,
    run_out_windows,
    set_up_fight,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.server import DiscordHarness

VIEW = discord.Permissions(view_channel=True).value
SEND = discord.Permissions(send_messages=True).value
PAST = "UPDATE decisions SET deadline = '2000-01-01T00:00:00+00:00' WHERE status = 'open'"


async def test_a_decision_undone_before_its_prompt_is_noted_leaves_no_live_buttons(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Thug 1")
    service = bot.services.encounters
    note = service.set_prompt_message

    async def undo_first(*args: int) -> bool:
        # The GM's /gm undo lands between the attack's answer and the noting of its prompt.
        await ok(await slash(h, gm, "gm undo"))
        return await note(*args)

    service.set_prompt_message = undo_first  # type: ignore[method-assign]
    attack = await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    await h.wait_for(lambda: h.message(attack.message).components == [])
    assert GONE in h.message(attack.message).content
    assert h.message(attack.message).embeds == attack.message.embeds  # the attack stays shown
    live = await service.live(h.channel.id)
    assert live.state.pending is None and live.row.prompt_message_id is None


async def test_a_rerender_racing_a_click_never_brings_the_buttons_back(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await answered(
        await slash(h, table.other_player, "character import", example="willow", name="Wren")
    )
    prompt = await thug_attacks_willow(bot, h, table)
    pid = await prompt_recorded(bot, h)
    lock = bot.prompts.editing(pid)
    await lock.acquire()
    try:
        # Wren joins (the prompt must now offer her "take the hit") while Willow clicks Evade:
        # the re-render is queued first, the click's settle commits, its edit queues second.
        await ok(await slash(h, table.other_player, "encounter join", character="Wren"))
        await h.wait_for(lambda: len(lock._waiters or ()) == 1)
        click = await h.click(
            table.player,
            h.message(prompt),
            next(c for c in h.message(prompt).custom_ids() if c.endswith(":evade")),
        )
        await h.wait_for(lambda: len(lock._waiters or ()) == 2)
        edits = len(h.requests_to("PATCH", rf"/channels/{h.channel.id}/messages/{pid}$"))
    finally:
        lock.release()
    await click.response()
    await h.wait_for(lambda: "settled with a button" in h.message(pid).content)
    await asyncio.sleep(0)  # let the queued edits run to the end
    await h.wait_for(lambda: not lock.locked())
    assert h.message(pid).components == []
    assert "settled with a button" in h.message(pid).content
    assert (await bot.services.encounters.live(h.channel.id)).state.pending is None
    # The re-render, first in line, saw under the lock that the click had settled it: it made
    # no edit (the click's own edit goes through its interaction).
    assert len(h.requests_to("PATCH", rf"/channels/{h.channel.id}/messages/{pid}$")) == edits


async def test_a_retirement_refused_without_view_channel_is_done_when_access_returns(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    pid = await prompt_recorded(bot, h)
    bot.prompts.refused_messages.first = 0.2  # 30 s in play
    h.deny_bot(h.channel, VIEW)
    async with bot.db.transaction() as conn:
        await conn.execute(PAST)
    await h.wait_for(lambda: pid in bot.prompts.refused_messages, timeout=10)
    assert (await bot.services.encounters.live(h.channel.id)).state.pending is None
    assert h.message(pid).components != []  # Discord refused the edit
    h.deny_bot(h.channel, 0)
    await h.wait_for(lambda: h.message(pid).components == [], timeout=10)
    assert "the reaction window ran out" in h.message(pid).content


async def test_the_next_hit_of_a_flurry_gets_its_prompt_once_the_bot_may_post(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Claws", hits=3))
    await prompt_recorded(bot, h)
    service = bot.services.encounters
    first = (await service.live(h.channel.id)).row.pending_version
    bot.prompts.grace = 0.2  # 10 s in play
    bot.prompts.refused_posts.first = 0.2  # 30 s in play
    h.deny_bot(h.channel, SEND)
    async with bot.db.transaction() as conn:
        await conn.execute(PAST)

    async def second_hit() -> bool:
        live = await service.live(h.channel.id)
        return live.row.pending_version not in (None, first)

    for _ in range(500):
        if await second_hit():
            break
        await asyncio.sleep(0.02)
    await h.wait_for(lambda: h.channel.id in bot.prompts.refused_posts, timeout=10)
    assert (await service.live(h.channel.id)).row.prompt_message_id is None
    h.deny_bot(h.channel, 0)
    for _ in range(500):
        live = await service.live(h.channel.id)
        if live.row.prompt_message_id is not None:
            break
        await asyncio.sleep(0.02)
    assert live.row.prompt_message_id is not None, "the second hit never got a prompt"
    posted = h.message(live.row.prompt_message_id)
    assert any(
        c.startswith(f"rxg:{live.id}:{live.row.pending_version}.") for c in posted.custom_ids()
    )
    assert "attacks **Thug 1** with **Claws**" in posted.content


async def test_the_prompt_follows_a_pause_and_a_resume(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    pid = await prompt_recorded(bot, h)
    assert "Decide by" in h.message(pid).content
    await ok(await slash(h, gm, "gm pause"))
    await h.wait_for(lambda: "the window waits for `/gm resume`" in h.message(pid).content)
    assert "Decide by" not in h.message(pid).content
    assert h.message(pid).components != []
    await ok(await slash(h, gm, "gm resume"))
    await h.wait_for(lambda: "Decide by" in h.message(pid).content)


async def test_a_member_newly_asked_is_pinged_by_a_new_message(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, other = discord_harness, table.moderator, table.other_player
    await set_up_fight(h, table)
    await answered(await slash(h, other, "character import", example="willow", name="Wren"))
    await ok(await slash(h, other, "encounter join", character="Wren"))
    await ok(await slash(h, gm, "gm remove", combatant="General Bearington"))
    await ok(await slash(h, gm, "gm hp", combatant="Wren", stamina="0"))  # out: cannot help
    await thug_attacks_willow(bot, h, table)
    pid = await prompt_recorded(bot, h)
    assert f"<@{other.id}>" not in h.message(pid).content
    await ok(await slash(h, gm, "gm hp", combatant="Wren", stamina="20"))  # back on her feet
    await h.wait_for(lambda: "**Wren** may take the hit" in h.message(pid).content)
    assert f"<@{other.id}>" in h.message(pid).content
    await h.wait_for(lambda: "you now have a choice" in h.last_message(h.channel).content)
    ping = h.last_message(h.channel)
    assert ping.content.startswith(f"<@{other.id}> you now have a choice to make: **Thug 1**")
    assert f"/{h.channel.id}/{pid}" in ping.content  # a link to the prompt
    (sent,) = [
        r.json
        for r in h.requests_to("POST", rf"/channels/{h.channel.id}/messages$")
        if "you now have a choice" in (r.json.get("content") or "")
    ]
    assert [str(u) for u in sent["allowed_mentions"]["users"]] == [str(other.id)]
    # Willow's player, asked from the start, is not pinged again.
    assert f"<@{table.player.id}>" not in ping.content
    await press(h, other, h.message(pid), "Take the hit")
    assert (await bot.services.encounters.live(h.channel.id)).state.pending is None


async def test_two_allies_who_may_take_the_hit_each_get_their_own_button(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, other = discord_harness, table.other_player
    await set_up_fight(h, table)
    await answered(await slash(h, other, "character import", example="willow", name="Wren"))
    await ok(await slash(h, other, "encounter join", character="Wren"))
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    labels = [c["label"] for row in h.message(prompt).components for c in row["components"]]
    assert "General Bearington: Take the hit for Willow (1 action)" in labels
    assert "Wren: Take the hit for Willow (1 action)" in labels
    # The bear's player may not press Wren's button; Wren's may.
    wren = button(h.message(prompt), "Wren: Take the hit")["custom_id"]
    assert "Only **Wren**'s controller or the GM" in await refused(
        await h.click(table.player, h.message(prompt), wren)
    )
    await press(h, other, h.message(prompt), "Wren: Take the hit")
    assert "Wren throws themselves in front of Willow!" in h.message(prompt).text()


def _live_prompts(h: DiscordHarness) -> list[str]:
    return [
        m.content[:60]
        for m in h.messages_in(h.channel)
        if any(c.startswith(("rx:", "rxg:")) for c in m.custom_ids())
    ]


async def _revive_wren_setup(h: DiscordHarness, table: Table) -> None:
    """Willow is attacked while Wren (the other player's) is out: only Willow is asked."""
    gm, other = table.moderator, table.other_player
    await set_up_fight(h, table)
    await answered(await slash(h, other, "character import", example="willow", name="Wren"))
    await ok(await slash(h, other, "encounter join", character="Wren"))
    await ok(await slash(h, gm, "gm remove", combatant="General Bearington"))
    await ok(await slash(h, gm, "gm hp", combatant="Wren", stamina="0"))


def _pinged(h: DiscordHarness, member_id: int) -> bool:
    return any(
        "you now have a choice" in m.content and f"<@{member_id}>" in m.content
        for m in h.messages_in(h.channel)
    )


async def test_a_member_newly_asked_after_a_restart_is_pinged(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Who was asked is the decision's row's, not the process's: after a restart, Wren's
    player is still pinged when she is newly asked, and Willow's is not pinged again."""
    h, gm, other = discord_patched, table.moderator, table.other_player
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        await _revive_wren_setup(h, table)
        await thug_attacks_willow(first, h, table)
        pid = await prompt_recorded(first, h)
    async for _second in _running_bot(h, database, None):
        await ok(await slash(h, gm, "gm hp", combatant="Wren", stamina="20"))
        await h.wait_for(lambda: "**Wren** may take the hit" in h.message(pid).content)
        await h.wait_for(lambda: _pinged(h, other.id))
        assert not _pinged(h, table.player.id)


async def test_a_refused_ping_is_sent_once_the_bot_may_post(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The bot may edit its prompt but not post (Send Messages denied): the prompt asks Wren,
    and the ping that tells her player is sent as soon as the bot may post again."""
    h, gm, other = discord_harness, table.moderator, table.other_player
    bot.prompts.refused_channels.first = 0.2  # 30 s in play
    await _revive_wren_setup(h, table)
    await thug_attacks_willow(bot, h, table)
    pid = await prompt_recorded(bot, h)
    h.deny_bot(h.channel, SEND)
    await ok(await slash(h, gm, "gm hp", combatant="Wren", stamina="20"))
    await h.wait_for(lambda: "**Wren** may take the hit" in h.message(pid).content)
    await h.wait_for(lambda: h.channel.id in bot.prompts.refused_channels)
    assert not _pinged(h, other.id)
    h.deny_bot(h.channel, 0)
    await h.wait_for(lambda: _pinged(h, other.id), timeout=10)


async def test_a_slow_prompt_and_one_another_process_recovered_never_both_keep_live_buttons(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Hit 2's prompt is held up (a rate limit) for longer than a process sharing the database
    waits before it takes the prompt for lost; that process posts one for it, then the slow one
    lands too: it says it is a copy and has no buttons, and once hit 2 is settled no prompt
    keeps buttons."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Claws", hits=2))
    first = await prompt_recorded(bot, h)
    await work_done()
    hold = h.hold_next("POST", r"^/webhooks/")
    prompt = h.message(first)
    chooser = await h.click(gm, prompt, button(prompt, "GM: choose")["custom_id"])
    await chooser.response()
    await h.click(gm, chooser.message, button(chooser.message, "Take it")["custom_id"])
    await h.wait_for(lambda: hold.request is not None, what="hit 2's prompt")
    [unprompted] = await bot.services.encounters.unprompted()
    await recover(bot, unprompted)  # as the other process's keeper does, its grace over
    hold.release()
    await h.wait_for(
        lambda: any(
            "A copy of this decision's prompt" in m.content for m in h.messages_in(h.channel)
        ),
        timeout=10,
    )
    assert len(_live_prompts(h)) == 1
    await ok(await slash(h, gm, "gm resolve"))  # hit 2 settled
    await h.wait_for(lambda: _live_prompts(h) == [])


async def test_a_prompt_this_process_is_still_posting_is_not_recovered_beside_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Thug's attack is committed and its answer, with Willow's reaction prompt, is on its
    way — Discord slow to take it (a rate limit, a loaded host): the decision has no prompt
    noted yet. The keeper's pass, its grace over, posts no second prompt for it: this process
    knows that post is under way. The prompt is posted once, with its buttons. (The grace
    alone decided: an answer slower than 10 s — held in CI while another process started on
    a loaded machine — had a copy of its prompt posted beside it.)"""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Thug 1")
    await work_done()
    seen = len(h.messages_in(h.channel))
    hold = h.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$")
    attack = await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel")
    await h.wait_for(lambda: hold.request is not None, what="the answer to /attack")
    await bot.prompts.retry(grace=0)  # a pass with no grace left
    assert h.messages_in(h.channel)[seen:] == [], "the keeper posted the prompt under way"
    hold.release()
    await ok(attack)
    assert button(attack.message, "Evade"), attack.message.text()
    await work_done()
    assert _live_prompts(h) == [attack.message.content[:60]]
    assert not [m for m in h.messages_in(h.channel) if "A copy" in m.content]


async def test_a_refused_retirement_is_done_after_a_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The window runs out while the bot may not see the channel, so its prompt cannot lose its
    buttons; the bot restarts, access comes back: the prompt is retired, saying what happened."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        first.prompts.refused_messages.first = 0.2
        await set_up_fight(h, table)
        await thug_attacks_willow(first, h, table)
        pid = await prompt_recorded(first, h)
        h.deny_bot(h.channel, VIEW)
        await run_out_windows(first)
        keeper = first.prompts
        await h.wait_for(lambda: pid in keeper.refused_messages, timeout=10)  # noqa: B023
    h.deny_bot(h.channel, 0)
    async for _second in _running_bot(h, database, None):
        await h.wait_for(lambda: h.message(pid).components == [], timeout=10)
        assert "the reaction window ran out" in h.message(pid).content


async def test_a_lost_prompt_recovered_while_a_new_decision_opens_leaves_the_new_one_live(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The Thug's attack is stored but its prompt is never noted (a crash or a failed write in
    between); the background loop reads the fight's open decisions and looks for the prompt in
    the channel's history, and Discord answers that read late. Meanwhile the GM undoes the
    attack and attacks again: a new decision, its prompt posted and noted. The history then
    holds the new prompt too; recovery took every prompt of the fight whose decision it had not
    read as open for one settled while the bot was away, and retired it — the live decision's
    buttons were gone, "no longer pending". Now a prompt of a decision opened after the read
    is left alone; the lost prompt of the undone attack is retired."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    encounters = bot.services.encounters
    noting = encounters.set_prompt_message

    async def lost(*args: object, **kwargs: object) -> str:
        encounters.set_prompt_message = noting  # once: the next prompt is noted again
        return "recorded"

    encounters.set_prompt_message = lost
    lost_prompt = await thug_attacks_willow(bot, h, table)
    assert button(lost_prompt, "Evade")
    assert (await encounters.live(h.channel.id)).row.prompt_message_id is None
    await work_done()
    hold = h.hold_next("GET", rf"^/channels/{h.channel.id}/messages$")
    bot.prompts.grace = 0.2  # 10 s in play
    await h.wait_for(lambda: hold.request is not None, what="the recovery's history read")

    await ok(await slash(h, gm, "gm undo"))
    again = await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    assert await prompt_recorded(bot, h) == again.message.id
    hold.release()
    await h.wait_for(lambda: h.message(lost_prompt).components == [], what="the lost one retired")
    await work_done()
    assert button(h.message(again.message), "Evade"), h.message(again.message).text()
    assert "no longer pending" not in h.message(again.message).content
    assert await prompt_recorded(bot, h) == again.message.id
