"""When Discord refuses, someone hears about it: the bot checks its channel permissions before a
fight starts, tells the GM when they disappear mid-fight (and keeps the state right), one
channel's failure never holds up another's, and a tracker whose edit failed shows the final
state once Discord answers again."""

from __future__ import annotations

import asyncio
import types
from typing import Any

import discord
import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

SEND = discord.Permissions(send_messages=True).value
EMBED = discord.Permissions(embed_links=True).value
SEND_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value


def _at(encounter: Any) -> str:
    """The tracker's footer mark of ``encounter`` at its version ("encounter 3 v6"); a bare
    "v6" is also in "UTTAS · rules v6", the rules version the tracker shows."""
    return f"encounter {encounter.id} v{encounter.version}"


async def test_start_and_begin_refuse_where_the_bot_cannot_post(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    h.deny_bot(h.channel, SEND | EMBED)
    text = await refused(await slash(h, table.gm, "encounter start", name="Nope"))
    assert "missing **Send Messages** and **Embed Links**" in text
    assert "Server Settings → Roles" in text
    with pytest.raises(Exception, match="no encounter"):
        await bot.services.encounters.live(h.channel.id)

    h.deny_bot(h.channel, 0)
    await set_up_fight(h, table, begin=False)
    h.deny_bot(h.channel, SEND)
    text = await refused(await slash(h, table.moderator, "encounter begin"))
    assert text.startswith("I can't begin the fight in this channel: I'm missing **Send Messages**")
    assert (await bot.services.encounters.live(h.channel.id)).state.phase == "setup"


async def test_in_a_thread_it_is_send_messages_in_threads(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    thread = h.add_channel(h.guild, "skirmish", type=11, parent=h.channel)
    h.deny_bot(thread, SEND_IN_THREADS)
    record = await h.slash(table.gm, thread, "encounter start", {"name": "Thread fight"})
    await record.response()
    assert record.ephemeral
    assert "**Send Messages in Threads**" in record.response_data["content"]
    h.deny_bot(thread, SEND)  # plain Send Messages does not matter in a thread
    record = await h.slash(table.gm, thread, "encounter start", {"name": "Thread fight"})
    await record.response()
    assert not record.ephemeral, record.response_data


async def test_permissions_lost_mid_fight_are_told_to_the_gm_and_nothing_is_lost(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    h.deny_bot(h.channel, SEND)
    # The player's command is answered (interaction replies need no channel permission) and
    # stored; the tracker's repost at the next round, the pings… cannot be posted.
    reply = await ok(await slash(h, table.player, "endturn", as_="Willow"))
    assert reply.message is not None
    assert (await bot.services.encounters.live(h.channel.id)).version == live.version + 1
    # The GM's next command says what is missing.
    gm = await ok(await slash(h, table.moderator, "endturn"))
    await h.wait_for(lambda: any("missing **Send Messages**" in m.text() for m in gm.followups))
    [warning] = [m for m in gm.followups if "missing **Send Messages**" in m.text()]
    assert warning.ephemeral and "nothing is lost" in warning.text()
    # Any of the GM's commands there says so, not only combat ones; a player is not told.
    status = await slash(h, table.moderator, "encounter status")
    await status.response()
    await h.wait_for(lambda: any("missing **Send" in m.text() for m in status.followups))
    player = await slash(h, table.player, "encounter status")
    await player.response()
    assert not any("missing" in m.text() for m in player.followups)


async def test_an_expiry_in_a_forbidden_channel_does_not_hold_up_another(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    other = h.add_channel(h.guild, "second-fight")
    first_channel = h.channel
    # A character fights in one encounter at a time: the other player brings their own Willow.
    for channel, player in ((first_channel, table.player), (other, table.other_player)):
        h.channel = channel
        await set_up_fight(h, table, player=player)
        await thug_attacks_willow(bot, h, table)
    h.channel = first_channel
    first_prompt = (await bot.services.encounters.live(first_channel.id)).row.prompt_message_id
    bot.trackers.blocked.first = 0.2  # try the refused channel again soon (30 s in play)
    h.deny_bot(first_channel, SEND)
    async with bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE decisions SET deadline = '2000-01-01T00:00:00+00:00' WHERE status = 'open'"
        )
    await h.wait_for(
        lambda: any("Reaction window over" in m.text() for m in h.messages_in(other)), timeout=10
    )
    for channel in (first_channel, other):
        assert (await bot.services.encounters.live(channel.id)).state.pending is None
    # The prompt in the refused channel loses its buttons all the same (an edit is allowed).
    assert first_prompt is not None
    await h.wait_for(lambda: h.message(first_prompt).components == [])
    # Once the bot may post again, its tracker catches up without anyone acting there.
    h.deny_bot(first_channel, 0)
    live = await bot.services.encounters.live(first_channel.id)
    await h.wait_for(
        lambda: any(_at(live) in m.text() for m in h.messages_in(first_channel)),
        timeout=10,
    )
    # The GM of the first fight is told at their next command.
    status = await ok(await slash(h, table.moderator, "endturn"))
    notices = [m.text() for m in status.followups]
    await h.wait_for(lambda: any("could not post" in m.text() for m in status.followups))
    assert any("the post “Reaction window over”" in m.text() for m in status.followups), notices


async def test_a_tracker_edit_that_failed_is_retried_until_it_shows_the_final_state(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    tracker_id = None
    for _ in range(200):
        tracker_id = (await bot.services.encounters.live(h.channel.id)).row.tracker_message_id
        if tracker_id is not None:
            break
        await asyncio.sleep(0.01)
    assert tracker_id is not None

    async def no_wait(_: float, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0)

    # discord.py's own retries of a 500 sleep 1 + 2n seconds; skip the waiting, not the retries.
    monkeypatch.setattr(
        discord.http, "asyncio", types.SimpleNamespace(**{**vars(asyncio), "sleep": no_wait})
    )
    h.fail_next("PATCH", rf"/channels/\d+/messages/{tracker_id}$", status=500, times=5)
    await ok(await slash(h, table.moderator, "endturn"))
    final = await bot.services.encounters.live(h.channel.id)
    current = final.state.current
    assert current is not None
    await h.wait_for(
        lambda: f"Turn: **{current.name}**" in h.message(tracker_id).text(), timeout=10
    )
    assert _at(final) in h.message(tracker_id).text()


async def test_a_tracker_the_bot_could_not_see_catches_up_when_access_returns(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    bot.trackers.blocked.first = 0.2  # 30 s in play
    h.deny_bot(h.channel, discord.Permissions(view_channel=True).value)
    await ok(await slash(h, table.moderator, "endturn"))  # answered; the tracker edit is refused
    live = await bot.services.encounters.live(h.channel.id)
    await h.wait_for(lambda: h.channel.id in bot.trackers.blocked)
    assert not any(_at(live) in m.text() for m in h.messages_in(h.channel))
    h.deny_bot(h.channel, 0)
    await h.wait_for(
        lambda: any(_at(live) in m.text() for m in h.messages_in(h.channel)), timeout=10
    )
