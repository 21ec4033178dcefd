"""A turn nobody was told of, after a stop (fix20b, found by attack19b): the bot commits a change
before it posts the result and the next turn's ping, so a bot killed in between left the new
turn unannounced — its holder never pinged, its ping never offering its buttons. Started again,
the bot posts the ping of each running turn no posted result showed (whoever holds it
mentioned: the player, the GM for an NPC, the stand-in of an away player; in every system), and
a plain restart posts nothing. Turn pings whose buttons a stop (or Discord) left on come off at
start-up, as decision prompts' do."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.client as client_module
from bot.client import CombatBot
from bot.services.combat import CombatResult
from bot.services.turn_pings import TurnPings
from bot.ui import combat_flow
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    answered,
    button,
    current_name,
    ok,
    one_on_one,
    pass_turns_until,
    set_up_fight,
    slash,
    work_done,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import Member, StoredMessage
from tests.harness.server import DiscordHarness


def stop_after_commit(monkeypatch: pytest.MonkeyPatch, h: DiscordHarness) -> list[CombatResult]:
    """From now on every command's result is committed and then nothing more happens — as if
    the bot were killed between its commit and its post (the member saw "This interaction
    failed": the harness does not count that against the test, however long it runs on).
    Returns the results so committed."""
    committed: list[CombatResult] = []

    async def killed(interaction: Any, result: CombatResult) -> None:
        for record in h.interactions:
            if record.id == interaction.id:
                record.unanswered_reported = True
        committed.append(result)

    original = combat_flow.respond
    for module in list(sys.modules.values()):
        if getattr(module, "respond", None) is original:
            monkeypatch.setattr(module, "respond", killed)
    return committed


async def lost(h: DiscordHarness, committed: list[CombatResult], member: Any, command: str) -> None:
    """``command`` is committed, then the bot "stops" before posting anything."""
    before = len(committed)
    record = await slash(h, member, command)
    try:
        await h.wait_for(lambda: len(committed) > before, what=f"/{command} committed")
    except TimeoutError:
        raise AssertionError(record.response_data) from None


def pings_of(h: DiscordHarness, name: str, after: int) -> list[StoredMessage]:
    """The messages posted after the ``after`` first that say it is ``name``'s turn."""
    said = re.compile(
        rf"it is \*\*{re.escape(name)}\*\*'s turn|Round \d+: \*\*{re.escape(name)}\*\*"
    )
    return [m for m in h.messages_in(h.channel)[after:] if said.search(m.content)]


def mentioned(h: DiscordHarness, message: StoredMessage) -> list[int]:
    """The members the post of ``message`` allowed to be pinged."""
    [post] = [
        r
        for r in h.requests_to("POST", rf"/channels/{h.channel.id}/messages$")
        if r.status == 200 and r.json.get("content") == message.content
    ]
    allowed: dict[str, list[int]] = post.json.get("allowed_mentions") or {}
    return [int(u) for u in allowed.get("users") or []]


async def restarted(h: DiscordHarness, database: Path) -> AsyncIterator[CombatBot]:
    """The bot started again on ``database``, once its start-up pass has run."""
    async for bot in _running_bot(h, database, None):
        await h.wait_for(lambda: bot.prompts._looked_after_start, what="the start-up pass")  # noqa: B023
        yield bot


async def next_until_before(bot: CombatBot, h: DiscordHarness, gm: Member, name: str) -> None:
    """``/gm next`` as ``gm`` until the turn just before ``name``'s runs."""
    for _ in range(10):
        live = await bot.services.encounters.live(h.channel.id)
        order = live.state.order
        assert live.state.turn is not None
        following = order[(order.index(live.state.turn) + 1) % len(order)]
        if live.state.get(following).name == name:
            return
        await ok(await slash(h, gm, "gm next"))
    raise AssertionError(f"never reached the turn before {name}'s")


async def test_a_turn_lost_by_a_stop_is_pinged_at_start_up_once(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each time, a turn's end is committed and the bot stops before posting: started again,
    it pings whoever holds the new turn — the player for a PC, the GM for an NPC — with the
    turn's buttons, which come off when that turn ends; a plain restart posts nothing more."""
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    async for _bot in _running_bot(h, database, None):
        await set_up_fight(h, table, thugs=1)
    held: set[str] = set()
    for _ in range(3):  # Willow, General Bearington and Thug 1, in their order
        async for bot in _running_bot(h, database, None):
            with monkeypatch.context() as patch:
                committed = stop_after_commit(patch, h)
                await lost(h, committed, gm, "gm next")
            name = await current_name(bot, h)
        seen = len(h.messages_in(h.channel))
        async for bot in restarted(h, database):
            [ping] = pings_of(h, name, seen)
            live = await bot.services.encounters.live(h.channel.id)
            assert live.state.current is not None
            who = gm.id if live.state.current.controller_id is None else table.player.id
            assert ping.content.startswith(f"<@{who}> it is **{name}**'s turn"), ping.content
            assert [who] == mentioned(h, ping)
            assert button(ping, "End turn")
            assert all(f":{live.state.turn_seq}:" in cid for cid in ping.custom_ids())
            assert len(h.messages_in(h.channel)) == seen + 1  # nothing else
            held.add(name)
        async for _bot in restarted(h, database):  # a plain restart: nothing new
            assert len(h.messages_in(h.channel)) == seen + 1
    assert held == {"Willow", "General Bearington", "Thug 1"}

    # The recovered ping is like any other: its turn's end takes its buttons off.
    async for _bot in _running_bot(h, database, None):
        await ok(await slash(h, gm, "gm next"))
        await h.wait_for(lambda: h.message(ping).components == [])


async def test_a_plain_restart_posts_no_ping(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Every turn shown as it began: a restart in the middle of a fight posts nothing."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None):
        await set_up_fight(h, table)
        await pass_turns_until(bot, h, table, "Willow")
        await ok(await slash(h, table.moderator, "gm pause"))
    seen = len(h.messages_in(h.channel))
    async for _bot in restarted(h, database):
        await ok(await slash(h, table.moderator, "gm resume"))
        assert not pings_of(h, "Willow", seen)


async def test_an_away_players_lost_turn_pings_the_stand_in(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, gm, player, delegate = discord_patched, table.moderator, table.player, table.other_player
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None):
        await set_up_fight(h, table)
        await ok(await slash(h, player, "away", delegate=delegate))
        await next_until_before(bot, h, gm, "Willow")
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, gm, "gm next")
        assert await current_name(bot, h) == "Willow"
    seen = len(h.messages_in(h.channel))
    async for _bot in restarted(h, database):
        [ping] = pings_of(h, "Willow", seen)
        assert ping.content.startswith(f"<@{delegate.id}> (for <@{player.id}>, away) it is")
        assert [delegate.id] == mentioned(h, ping)


@pytest.mark.parametrize("system", ["utopia", "untitled", "uune"])
async def test_a_lost_turn_is_pinged_in_every_system(
    discord_patched: DiscordHarness,
    table: Table,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    system: str,
) -> None:
    """Each system's own order (Utopia's actions one at a time included) is pinged as its
    commands would have."""
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None):
        await one_on_one(h, table, system, name="Lost turn")
        before = await current_name(bot, h)
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, gm, "gm next")
        name = await current_name(bot, h)
        result = committed[-1]
        shown = combat_flow.turn_announcement(result)
    assert name != before or system == "utopia", (before, name)
    seen = len(h.messages_in(h.channel))
    async for _bot in restarted(h, database):
        posted = h.messages_in(h.channel)[seen:]
        assert len(posted) == 1, [m.content for m in posted]
        # what /gm next itself would have said of the turn (its deadline aside: none here)
        assert posted[0].content == shown.splitlines()[-1], (posted[0].content, shown)
        pc = ONE_ON_ONE[system][0]
        who = table.player.id if name == pc else gm.id
        assert posted[0].content.startswith(f"<@{who}>")


async def test_a_lost_turn_of_a_paused_fight_is_pinged(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None):
        await set_up_fight(h, table)
        await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
        await ok(await slash(h, gm, "gm pause"))
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, gm, "gm next")
        name = await current_name(bot, h)
    seen = len(h.messages_in(h.channel))
    async for _bot in restarted(h, database):
        [ping] = pings_of(h, name, seen)
        assert "Turn deadline" not in ping.content  # stands still: said at /gm resume
        assert len(h.messages_in(h.channel)) == seen + 1
        resumed = await ok(await slash(h, gm, "gm resume"))
        assert "turn deadline" in resumed.message.text().lower()


async def test_a_lost_turn_waiting_on_a_decision_is_pinged_without_buttons(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thug 1's turn begins and its attack on Willow opens her reaction — both committed, both
    lost: started again, the bot pings the GM for Thug 1's turn (no turn buttons while the
    decision waits) and posts Willow's prompt (the decisions' own recovery), once each."""
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None):
        await set_up_fight(h, table)
        await next_until_before(bot, h, gm, "Thug 1")
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, gm, "gm next")
            assert await current_name(bot, h) == "Thug 1"
            before = len(committed)
            record = await slash(h, gm, "attack", target="Willow", with_="Cudgel")
            try:
                await h.wait_for(lambda: len(committed) > before)  # noqa: B023
            except TimeoutError:
                raise AssertionError(record.response_data) from None
        assert (await bot.services.encounters.live(h.channel.id)).state.decisions
    seen = len(h.messages_in(h.channel))
    async for _bot in restarted(h, database):
        await h.wait_for(lambda: len(h.messages_in(h.channel)) >= seen + 2)
        posted = h.messages_in(h.channel)[seen:]
        [ping] = pings_of(h, "Thug 1", seen)
        assert ping.content.startswith(f"<@{gm.id}> it is **Thug 1**'s turn")
        assert ping.custom_ids() == []
        prompts = [m for m in posted if m is not ping]
        assert len(prompts) == 1 and f"<@{table.player.id}>" in prompts[0].content
    async for _bot in restarted(h, database):
        assert len(h.messages_in(h.channel)) == seen + 2


async def test_a_failed_post_of_a_passed_deadline_is_pinged_at_start_up(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """A turn deadline passes while Discord refuses the post: the turn moved on, announced to
    nobody; the next start pings its holder."""
    from tests.clock import ManualClock

    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        await set_up_fight(h, table)
        await pass_turns_until(bot, h, table, "Willow")
        await ok(await slash(h, table.moderator, "gm settings", turn_deadline="12h"))
        clock.advance(13 * 3600)
        await work_done()
        seen = len(h.messages_in(h.channel))
        h.fail_next("POST", r"/channels/\d+/messages$", status=400, code=50035)
        [lapse] = await bot.fire_turn_deadlines()
        assert lapse.name == "Willow"
        name = await current_name(bot, h)
        await work_done()
        assert len(h.messages_in(h.channel)) == seen  # the turn moved on, announced to nobody
    async for _bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: pings_of(h, name, seen))
        [ping] = pings_of(h, name, seen)
        assert "Turn deadline:" in ping.content and button(ping, "End turn")


async def test_buttons_a_stop_left_on_a_finished_turns_ping_come_off_at_start_up(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Discord refuses to take the buttons off Willow's ping when her turn ends, and the bot
    stops before any other change: started again, it takes them off by itself."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, expiry_interval=None):
        await set_up_fight(h, table)
        await pass_turns_until(bot, h, table, "Willow")
        ping = [m for m in h.messages_in(h.channel) if "it is **Willow**'s turn" in m.content][-1]
        h.fail_next("PATCH", rf"/messages/{ping.id}$", status=400, code=50035, times=100)
        await answered(await slash(h, table.player, "endturn"))
        await h.wait_for(
            lambda: [
                r
                for r in h.requests_to("PATCH", rf"/messages/{ping.id}$")  # noqa: B023
                if r.status == 400
            ]
        )
        assert await current_name(bot, h) != "Willow"
    assert h.message(ping).components != []
    for failure in h._failures:  # Discord lets the bot edit again
        failure["times"] = 0
    async for _bot in restarted(h, database):
        await h.wait_for(lambda: h.message(ping).components == [])


async def test_a_result_showing_the_turn_noted_last_writes_nothing_more(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Noting the turn a result showed is a transaction: it is made when the turn shown is not
    the one this process noted last, not after every result (a move within a turn notes
    nothing; the turn's end notes the next)."""
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    # The turn's start is noted once its result is posted, after the answer came.
    await h.wait_for(
        lambda: (bot.turn_pings._noted.get(live.id) or (None,))[0] == live.state.turn_seq,
        what="Willow's turn noted shown",
    )
    writes: list[int] = []
    original = TurnPings.announced

    async def counted(self: TurnPings, encounter: Any) -> None:
        writes.append(encounter.state.turn_seq)
        await original(self, encounter)

    monkeypatch.setattr(TurnPings, "announced", counted)
    await ok(await slash(h, table.player, "stance", name="Mobile"))
    await ok(await slash(h, table.player, "move", meters=2))
    assert writes == []
    await ok(await slash(h, table.player, "endturn"))
    live = await bot.services.encounters.live(h.channel.id)
    await h.wait_for(lambda: writes, what="the next turn noted shown")
    assert writes == [live.state.turn_seq]


async def _lost_then_refused(
    h: DiscordHarness, table: Table, database: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, int]:
    """A fight whose `/gm next` was committed and never posted (the bot stopped), and a
    refusal waiting for the next message the bot posts — the recovered ping at the next
    start. Returns the name of the turn's holder and how many messages the channel had."""
    async for bot in _running_bot(h, database, None):
        await set_up_fight(h, table, thugs=1)
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, table.moderator, "gm next")
        name = await current_name(bot, h)
        await work_done()
    h.fail_next("POST", r"/channels/\d+/messages$", status=400, code=50035)
    return name, len(h.messages_in(h.channel))


def refused_pings(h: DiscordHarness, name: str) -> list[Any]:
    """The posts of ``name``'s turn ping that Discord refused."""
    return [
        r
        for r in h.requests_to("POST", rf"/channels/{h.channel.id}/messages$")
        if r.status >= 400 and f"**{name}**'s turn" in str(r.json.get("content"))
    ]


async def test_a_lost_turns_ping_discord_refused_at_start_up_is_posted_by_a_later_pass(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start-up post of a lost turn's ping met a refusal from Discord (a 5xx, a 429 past
    the retries): it was tried again only at the next start, so the holder of a turn lost by a
    stop could wait for a restart to be told. The background loop's later passes now post it
    — once: the passes after it post nothing more."""
    import bot.ui.turn_pings as keeper

    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    name, seen = await _lost_then_refused(h, table, database, monkeypatch)
    monkeypatch.setattr(keeper, "OWED_FIRST", 0.2)
    async for bot in restarted(h, database):
        await h.wait_for(lambda: refused_pings(h, name), what="the refused start-up post")
        await h.wait_for(lambda: pings_of(h, name, seen), what="the ping, posted again")
        await h.wait_for(lambda: not bot.turn_pings.owed_pings.waits, what="nothing owed")  # noqa: B023
        await bot.turn_pings.retry()  # a later pass: nothing more
        [ping] = pings_of(h, name, seen)
        assert button(ping, "End turn"), ping.components
        assert len(h.messages_in(h.channel)) == seen + 1


async def test_a_refused_lost_ping_is_not_posted_once_a_command_moved_the_turn_on(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lost turn's ping refused at start-up, then a command moves the turn on and posts its
    own result: the loop's later pass posts nothing for the turn that is over (never twice,
    never a ping for a turn gone)."""
    h, gm = discord_patched, table.moderator
    database = tmp_path / "bot.sqlite3"
    name, seen = await _lost_then_refused(h, table, database, monkeypatch)
    async for bot in restarted(h, database):
        await h.wait_for(lambda: refused_pings(h, name), what="the refused start-up post")
        owed = bot.turn_pings.owed_pings
        await h.wait_for(lambda: bool(owed.waits), what="the ping owed")  # noqa: B023
        await ok(await slash(h, gm, "gm next"))
        await work_done()
        after = len(h.messages_in(h.channel))
        for key, (_, wait) in list(owed.waits.items()):
            owed.waits[key] = (0.0, wait)  # its wait is over
        await bot.turn_pings.retry()
        assert not owed.waits
        assert not pings_of(h, name, seen), [m.content for m in h.messages_in(h.channel)[seen:]]
        assert len(h.messages_in(h.channel)) == after


async def _killed_between_claim_and_post(
    h: DiscordHarness, table: Table, database: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, int]:
    """A fight whose `/gm next` was committed and never posted (the bot stopped), then a start
    whose recovery claimed the turn's ping and was killed before posting it (the post hangs
    until the bot stops: no release, as a kill leaves none). Returns the name of the turn's
    holder and how many messages the channel had."""
    from bot.ui.turn_pings import TurnPingKeeper

    async for bot in _running_bot(h, database, None, clock=clock):
        await set_up_fight(h, table, thugs=1)
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, table.moderator, "gm next")
        name = await current_name(bot, h)
        await work_done()
    seen = len(h.messages_in(h.channel))
    claimed: list[int] = []

    async def hangs(self: TurnPingKeeper, encounter: Any, sent: list[int]) -> None:
        claimed.append(encounter.state.turn_seq)
        await asyncio.Event().wait()  # killed here: after the claim, before the post

    async def killed(self: TurnPingKeeper, encounter: Any, claim: str) -> None:
        """A kill gives nothing back (a shutdown does: test_a_shutdown_…_leaves_the_ping_owed)."""

    with monkeypatch.context() as patch:
        patch.setattr(TurnPingKeeper, "_post_running", hangs)
        patch.setattr(TurnPingKeeper, "_give_back", killed)
        patch.setattr(client_module, "SHUTDOWN_GRACE", 0.1)
        async for _bot in _running_bot(h, database, None, clock=clock):
            await h.wait_for(lambda: claimed, what="the lost turn's ping claimed")
    assert not pings_of(h, name, seen)
    return name, seen


def confirmations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the turns whose recovered ping was posted and noted shown (its claim
    confirmed), as each is."""
    done: list[int] = []
    original = TurnPings.confirm

    async def noted(self: TurnPings, encounter: Any, claim: str) -> None:
        await original(self, encounter, claim)
        done.append(encounter.state.turn_seq)

    monkeypatch.setattr(TurnPings, "confirm", noted)
    return done


async def test_a_start_killed_between_claiming_a_lost_turn_and_posting_it_owes_it_again(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start-up claims a lost turn's ping (so two processes never both post it) and is killed
    before posting it: the claim noted the turn shown, so no later start pinged it — the
    holder was never told. The claim is a lease now: once it lapsed, the next start posts the
    ping, once; a plain restart after it posts nothing more."""
    from bot.services.turn_pings import LEASE
    from tests.clock import ManualClock

    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    name, seen = await _killed_between_claim_and_post(h, table, database, clock, monkeypatch)
    confirmed = confirmations(monkeypatch)
    clock.advance(LEASE.total_seconds() + 1)
    async for _bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: confirmed, what="the lost turn's ping posted and noted")
        [ping] = pings_of(h, name, seen)
        assert button(ping, "End turn"), ping.components
        assert len(h.messages_in(h.channel)) == seen + 1
    clock.advance(10 * LEASE.total_seconds())
    async for bot in _running_bot(h, database, None, clock=clock):  # nothing owed any more
        await h.wait_for(lambda: bot.prompts._looked_after_start, what="the start-up pass")  # noqa: B023
        await bot.turn_pings.retry()
        await work_done()
        assert len(h.messages_in(h.channel)) == seen + 1
    assert len(confirmed) == 1


async def test_a_claim_lapsing_after_the_next_start_is_posted_by_the_background_loop(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started again before the dead start's claim lapsed, the bot leaves the ping (the claim
    may be a live process's, posting it); once the claim lapses, the background loop posts
    it — once."""
    from bot.services.turn_pings import LEASE
    from tests.clock import ManualClock

    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    name, seen = await _killed_between_claim_and_post(h, table, database, clock, monkeypatch)
    confirmed = confirmations(monkeypatch)
    async for bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: bot.prompts._looked_after_start, what="the start-up pass")  # noqa: B023
        await bot.turn_pings.retry()
        assert not pings_of(h, name, seen)  # the claim holds
        clock.advance(LEASE.total_seconds() + 1)
        await h.wait_for(lambda: confirmed, what="the loop's post of the ping, noted")
        await bot.turn_pings.retry()  # a later pass: nothing more
        await work_done()
        [ping] = pings_of(h, name, seen)
        assert button(ping, "End turn"), ping.components
        assert len(h.messages_in(h.channel)) == seen + 1


async def _lost_turn(
    h: DiscordHarness, table: Table, database: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, int]:
    """A fight whose `/gm next` was committed and never posted (the bot stopped): the name of
    the new turn's holder and how many messages the channel had."""
    async for bot in _running_bot(h, database, None, clock=clock):
        await set_up_fight(h, table, thugs=1)
        with monkeypatch.context() as patch:
            committed = stop_after_commit(patch, h)
            await lost(h, committed, table.moderator, "gm next")
        name = await current_name(bot, h)
        await work_done()
    return name, len(h.messages_in(h.channel))


async def test_a_shutdown_during_start_up_recovery_lets_the_ping_post_and_be_noted(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shutdown that came while the start-up recovery posted a lost turn's ping cut it off
    at once (it was not among the work a shutdown lets finish): the post went out unnoted, its
    claim held, and once the claim lapsed the ping was posted a second time. The recovery now
    gets the shutdown's grace: the ping posts and is noted shown — nothing more later."""
    from bot.services.turn_pings import LEASE
    from tests.clock import ManualClock

    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    name, seen = await _lost_turn(h, table, database, clock, monkeypatch)
    hold = h.hold_next("POST", rf"/channels/{h.channel.id}/messages$")
    async for bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: hold.request is not None, what="the recovered ping's post")
        closing = asyncio.create_task(bot.close())
        await h.wait_for(lambda: bot.stopping, what="the shutdown under way")  # noqa: B023
        hold.release()
        await closing
    [ping] = pings_of(h, name, seen)
    assert button(ping, "End turn"), ping.components
    clock.advance(LEASE.total_seconds() + 1)
    async for bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: bot.prompts._looked_after_start, what="the start-up pass")  # noqa: B023
        await bot.turn_pings.retry()
        await work_done()
        assert len(h.messages_in(h.channel)) == seen + 1


async def test_a_shutdown_whose_grace_runs_out_during_recovery_leaves_the_ping_owed(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start-up recovery claimed a lost turn's ping and its post hung past the shutdown's
    grace: cut off, it kept the claim, so the next start — within the claim's lease — left
    the turn unpinged. Cut off now, it gives the claim back: the next start pings it, once."""
    from tests.clock import ManualClock

    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    name, seen = await _lost_turn(h, table, database, clock, monkeypatch)
    monkeypatch.setattr(client_module, "SHUTDOWN_GRACE", 0.2)
    hold = h.hold_next("POST", rf"/channels/{h.channel.id}/messages$")
    async for bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: hold.request is not None, what="the recovered ping's post")
        await bot.close()
    hold.drop()  # it never got through
    assert not pings_of(h, name, seen)
    async for bot in _running_bot(h, database, None, clock=clock):
        await h.wait_for(lambda: pings_of(h, name, seen), what="the ping, owed again")
        await h.wait_for(lambda: bot.prompts._looked_after_start, what="the start-up pass")  # noqa: B023
        await work_done()
        [ping] = pings_of(h, name, seen)
        assert button(ping, "End turn"), ping.components
        assert len(h.messages_in(h.channel)) == seen + 1
