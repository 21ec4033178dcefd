"""Two ``python -m bot`` processes on one PostgreSQL database (issue 16, "Tests through the real
path"): SHARD_COUNT=2, one process with SHARD_IDS=0 and one with SHARD_IDS=1, against one harness
server, as the README and the Procfile run them.

- Each process answers the commands of the servers its shard owns — a fight in each, with an
  attack and a reaction button — and both write the one database.
- The expiry loop is not bound to shards: every process expires every due decision and fires
  every passed turn deadline of the database (:meth:`bot.client.CombatBot.expire_due`). The test
  makes both processes race for one: it holds the writers' advisory lock
  (:data:`bot.store.pg.WRITER_LOCK`), makes a reaction window run out (then a turn deadline
  pass) by moving its deadline into the past, waits until a connection of *each* process waits
  on that lock — both found the same decision due and are about to settle it — and lets go. The
  channel then shows exactly one result, and the process that lost logs that another pass or
  process got there first.
- SIGKILL one process mid-fight: the other keeps serving its server; the killed one, started
  again, continues its fight where it was, and its old reaction button still works; stopped
  with SIGTERM right after a click, it finishes what the click set going first.
- One process starts while the other's answer to a command it committed is on its way (the
  harness holds it: :meth:`tests.harness.server.DiscordHarness.hold_next`): the start-up leaves
  the decision's prompt and the turn's ping to that answer (each is posted once); a process
  killed between its commit and its answer has its lost turn pinged when it starts again.
- One process's tracker edit (then a prompt's) is answered late while the other's expiry loop
  posts the tracker of a new round in that channel (retires the prompt): one tracker stays,
  showing the fight as it stands (the prompt stays retired).
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import discord
import pytest
import pytest_asyncio

from bot.store.decisions import ts
from bot.store.pg import WRITER_LOCK
from bot.ui.turn_pings import SHOWN_WITHIN
from tests.e2e.combat_helpers import answered, button, ok, press
from tests.e2e.conftest import BotProcess
from tests.harness.gateway import guild_shard
from tests.harness.models import (
    Channel,
    Guild,
    InteractionRecord,
    Member,
    RecordedRequest,
    StoredMessage,
)
from tests.harness.server import DiscordHarness

PLAIN = discord.Permissions(send_messages=True, view_channel=True)
GM = discord.Permissions(manage_channels=True)
RACE_LOST = "another pass or process"
"""What the process that loses an expiry race logs (bot.client, bot.services.turn_deadlines)."""
PROMPT_LEFT = "a decision has no prompt noted; its post may be under way"
"""What a start-up logs of a decision with no prompt noted (bot.ui.prompt_messages)."""
TURN_LEFT = "its post may be under way in another process"
"""What a start-up logs of a turn left unshown only just now (bot.ui.turn_pings)."""
SHOWN_MEANWHILE = "was shown meanwhile"
"""What it logs when it looks again and a post showed the turn (bot.ui.turn_pings)."""

# Two subprocesses start (and one restarts) per test: ~15-30 s on a busy 2-core machine, past
# the suite's 60 s backstop (pyproject's `timeout`) only when it is very busy; give them room.
pytestmark = [pytest.mark.e2e, pytest.mark.async_timeout(150), pytest.mark.timeout(240)]


@dataclass
class Server:
    """A test server whose guild id puts it on ``shard`` (of 2), with its fight channel, a GM
    (Manage Channels) and Willow's player."""

    shard: int
    guild: Guild
    channel: Channel
    gm: Member
    player: Member


def server_on(h: DiscordHarness, shard: int) -> Server:
    guild = h.add_guild(f"Table on shard {shard}", shard=(shard, 2))
    assert guild_shard(guild.id, 2) == shard
    return Server(
        shard=shard,
        guild=guild,
        channel=h.add_channel(guild, "combat"),
        gm=h.add_member(guild, f"GM {shard}", permissions=GM),
        player=h.add_member(guild, f"Willow's player {shard}", permissions=PLAIN),
    )


async def run(
    h: DiscordHarness, server: Server, member: Member, command: str, **options: Any
) -> InteractionRecord:
    """A slash command in ``server``'s channel; ``with_`` stands for the option ``with``."""
    renamed = {name.rstrip("_"): value for name, value in options.items()}
    return await h.slash(member, server.channel, command, renamed)


async def whose_turn(h: DiscordHarness, server: Server) -> str:
    status = await run(h, server, server.gm, "encounter status")
    await status.response()
    text = status.message.text()
    return text.split("Turn: **", 1)[1].split("**", 1)[0]


async def fight_to_thug_turn(
    h: DiscordHarness, server: Server, *, started: bool = False, **settings: str
) -> None:
    """Start a fight (a Thug and Willow) with ``settings`` (``/gm settings`` options), begin it
    and pass turns until it is the Thug's (``started``: the fight runs; only pass turns)."""
    if not started:
        await ok(await run(h, server, server.gm, "encounter start", name=f"Shard {server.shard}"))
        await answered(await run(h, server, server.gm, "npc import", example="thug"))
        await ok(await run(h, server, server.gm, "gm add-npc", template="Thug", count=1))
        await answered(await run(h, server, server.player, "character import", example="willow"))
        await ok(await run(h, server, server.player, "encounter join", character="Willow"))
        if settings:
            await ok(await run(h, server, server.gm, "gm settings", **settings))
        await ok(await run(h, server, server.gm, "encounter begin"))
    for _ in range(4):
        if await whose_turn(h, server) == "Thug 1":
            return
        await ok(await run(h, server, server.gm, "endturn"))
    raise AssertionError("never reached Thug 1's turn")


async def thug_attacks_willow(h: DiscordHarness, server: Server) -> StoredMessage:
    """The Thug attacks Willow: the prompt asking Willow's player for a reaction."""
    attack = await ok(await run(h, server, server.gm, "attack", target="Willow", with_="Cudgel"))
    assert button(attack.message, "Evade")
    return attack.message


def interactions_by_shard(h: DiscordHarness) -> dict[int, set[int | None]]:
    """For each live shard session: the guilds whose interactions it was sent."""
    routed: dict[int, set[int | None]] = {}
    for session in h.live_sessions():
        assert session.shard is not None
        routed.setdefault(session.shard[0], set()).update(
            guild for event, guild in session.sent if event == "INTERACTION_CREATE"
        )
    return routed


async def until(check: Callable[[], Awaitable[Any]], what: str, within: float = 30.0) -> Any:
    """Poll ``check`` (a database read) until it returns something truthy, for at most
    ``within`` seconds; return it."""
    deadline = time.monotonic() + within
    while True:
        result = await check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {within}s waiting for {what}")
        await asyncio.sleep(0.05)


class Bots:
    """The two bot processes (SHARD_COUNT=2; ``by_shard[0]`` runs shard 0, ``by_shard[1]``
    shard 1) on one PostgreSQL database, and a connection of the test's own to it."""

    def __init__(self, h: DiscordHarness, tmp_path: Path, url: str) -> None:
        self.h = h
        self.url = url
        self.by_shard: dict[int, BotProcess] = {}
        for shard in (0, 1):
            workdir = tmp_path / f"shard{shard}"
            workdir.mkdir()
            env = {
                "SHARD_COUNT": "2",
                "SHARD_IDS": str(shard),
                # application_name names each process's connections in pg_stat_activity.
                "DATABASE_URL": f"{url}&application_name={self.app(shard)}",
            }
            self.by_shard[shard] = BotProcess(h, workdir, env)
        self.db: asyncpg.Connection | None = None

    @staticmethod
    def app(shard: int) -> str:
        return f"bot-shard{shard}"

    async def start(
        self, *shards: int, at_login: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        """Start the processes of ``shards`` at once (they migrate the empty database
        together, under the migration lock) and wait until each has connected and is ready.
        ``at_login``: run while the process (one shard) is held at its login — imports,
        migrations and its shard claim behind it, 10-30 s on a loaded machine; what it does at
        start-up (its look at lost turns and prompts) still ahead, seconds away."""
        shards = shards or (0, 1)
        outputs = {shard: len(self.by_shard[shard].output()) for shard in shards}
        login = self.h.hold_next("GET", r"^/users/@me$") if at_login is not None else None
        for shard in shards:
            self.by_shard[shard].spawn()
        if at_login is not None and login is not None:
            assert len(shards) == 1, "one process held at its login at a time"
            await self.h.wait_for(lambda: login.request is not None, 60, what="the login")
            await at_login()
            login.release()

        def ready() -> bool:
            for shard in shards:
                process = self.by_shard[shard]
                assert process.proc is not None
                if process.proc.poll() is not None:
                    raise AssertionError(f"shard {shard}'s bot exited:\n{process.output()}")
                if f"shards {shard} of 2" not in process.output()[outputs[shard] :]:
                    return False
            live = {s.shard for s in self.h.live_sessions()}
            return all((shard, 2) in live for shard in shards)

        await self.h.wait_for(ready, 60, what=f"the bots of shards {shards} to be ready")
        if self.db is None:
            self.db = await asyncpg.connect(self.url)

    async def stop(self) -> None:
        """SIGTERM each process still running, serving the harness while they shut down (a
        process finishes the work in flight first, which may still talk to Discord)."""
        for process in self.by_shard.values():
            if process.proc is not None and process.proc.poll() is None:
                await process.terminate()

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()

    def output(self) -> str:
        return "\n".join(
            f"--- shard {shard} ---\n{process.output()}" for shard, process in self.by_shard.items()
        )

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        assert self.db is not None
        return list(await self.db.fetch(sql, *args))

    async def version_in(self, channel: Channel) -> int:
        """The version of the channel's live encounter, as stored."""
        [row] = await self.fetch(
            "SELECT version FROM encounters WHERE channel_id = $1 AND status = 'live'", channel.id
        )
        return int(row["version"])

    async def prompt_noted(self, channel: Channel, message: StoredMessage) -> None:
        """Wait until the bot noted ``message`` as the prompt of the channel's open reaction
        (it does so right after replying)."""

        async def noted() -> bool:
            rows = await self.fetch(
                "SELECT d.prompt_message_id FROM decisions d JOIN encounters e"
                " ON e.id = d.encounter_id WHERE e.channel_id = $1 AND d.status = 'open'"
                " AND d.kind = 'reaction'",
                channel.id,
            )
            return any(row[0] == message.id for row in rows)

        await until(noted, "the prompt's message id to be noted")

    async def pause(self, shard: int) -> None:
        """SIGSTOP the process of ``shard`` at a moment it has no transaction open (else the
        other process would wait behind its locks until it goes on: SIGCONT, the caller's)."""
        proc = self.by_shard[shard].proc
        assert proc is not None

        async def stopped_idle() -> bool:
            proc.send_signal(signal.SIGSTOP)
            [row] = await self.fetch(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE application_name = $1 AND state <> 'idle'",
                self.app(shard),
            )
            if row[0] == 0:
                return True
            proc.send_signal(signal.SIGCONT)
            return False

        await until(stopped_idle, f"shard {shard}'s process to stop between transactions")

    async def waiting_on_writer_lock(self) -> set[str]:
        """The bot processes (application names) with a connection waiting for the writers'
        advisory lock (a bigint key: its high half in ``classid``, its low half in ``objid``)."""
        rows = await self.fetch(
            "SELECT DISTINCT a.application_name FROM pg_locks l"
            " JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND NOT l.granted"
            " AND l.classid::bigint = $1 AND l.objid::bigint = $2 AND l.objsubid = 1",
            WRITER_LOCK >> 32,
            WRITER_LOCK & 0xFFFF_FFFF,
        )
        return {row[0] for row in rows}

    async def quiet(self, *, held: RecordedRequest | None = None) -> None:
        """Wait until neither process is talking to the database or to Discord (three polls
        in a row): what a command set going afterwards (a tracker or prompt noted) is done.
        ``held``: a request the test holds, left out."""
        apps = [self.app(0), self.app(1)]
        streak, seen = 0, -1

        async def still() -> bool:
            nonlocal streak, seen
            [row] = await self.fetch(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE application_name = ANY($1) AND state <> 'idle'",
                apps,
            )
            requests = self.h.requests
            waiting = any(r.status == 0 and r is not held for r in requests)
            busy = row[0] > 0 or len(requests) != seen or waiting
            seen = len(requests)
            streak = 0 if busy else streak + 1
            return streak >= 3

        await until(still, "both processes to be idle")

    async def race(self, channel: Channel, kind: str) -> None:
        """Make both processes race for the channel's open decision of ``kind`` (``reaction``
        or ``turn``): hold the writers' lock, make it due (its deadline a second ago, as
        tests/e2e/combat_helpers.run_out_windows does; the test does not wait out a window),
        wait until a connection of each process waits for the lock — both found it due and
        go to settle it — then let go. Both must be idle first, so that neither waits for the
        lock with some other write."""
        assert self.db is not None
        await self.quiet()
        await self.db.execute("SELECT pg_advisory_lock($1)", WRITER_LOCK)
        try:
            changed = await self.fetch(
                "UPDATE decisions SET deadline = $1 WHERE status = 'open' AND kind = $2"
                " AND encounter_id = (SELECT id FROM encounters"
                " WHERE channel_id = $3 AND status = 'live') RETURNING id",
                ts(datetime.now(UTC) - timedelta(seconds=1)),
                kind,
                channel.id,
            )
            assert len(changed) == 1, f"no open {kind} decision in the channel"
            both = {self.app(0), self.app(1)}

            async def both_waiting() -> bool:
                return await self.waiting_on_writer_lock() == both

            await until(both_waiting, "both processes to wait for the writer lock")
        finally:
            await self.db.execute("SELECT pg_advisory_unlock($1)", WRITER_LOCK)

    async def race_lost(self, times: int) -> None:
        """Wait until the processes have logged ``times`` lost expiry races in all; the loser
        logs it once it found the decision settled, so nothing more comes of its attempt."""

        def lost() -> bool:
            return sum(p.output().count(RACE_LOST) for p in self.by_shard.values()) >= times

        try:
            await self.h.wait_for(lost, 30, what=f"{times} lost race(s) in the logs")
        except TimeoutError as error:
            raise AssertionError(f"{error}\n{self.output()}") from None


@pytest_asyncio.fixture
async def bots(discord_harness: DiscordHarness, tmp_path: Path, pg_url: str) -> AsyncIterator[Bots]:
    pair = Bots(discord_harness, tmp_path, pg_url)
    try:
        yield pair
    finally:
        try:
            await pair.stop()
        finally:
            for process in pair.by_shard.values():
                process.stop()  # SIGKILL any that did not stop


@pytest_asyncio.fixture
async def servers(discord_harness: DiscordHarness, bots: Bots) -> AsyncIterator[list[Server]]:
    """A server on each shard, then both processes started together."""
    pair = [server_on(discord_harness, shard) for shard in (0, 1)]
    await bots.start()
    try:
        yield pair
    finally:
        await bots.close()


async def test_each_process_serves_its_shard_and_a_killed_one_resumes_its_fight(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    h = discord_harness
    first, second = servers
    # The shard-0 process synced the commands (once); both migrated one database.
    assert len(h.requests_to("PUT", r"^/applications/\d+/commands$")) == 1
    assert "synced by the process that runs shard 0" in bots.by_shard[1].output()

    # A fight in each server, up to the Thug's attack on Willow; Willow reacts in the second.
    prompts = {}
    for server in servers:
        await fight_to_thug_turn(h, server)
        prompts[server.shard] = await thug_attacks_willow(h, server)
    click = await press(h, second.player, prompts[1], "Evade")
    assert click.response_type == 7
    assert "Willow reacts: Evade" in h.message(prompts[1]).text()
    assert h.message(prompts[1]).components == []

    # Each command went to the process whose shard owns its server, and only there.
    assert interactions_by_shard(h) == {0: {first.guild.id}, 1: {second.guild.id}}
    # Both fights are rows of the one database.
    rows = await bots.fetch("SELECT channel_id, version FROM encounters WHERE status = 'live'")
    versions = {row["channel_id"]: row["version"] for row in rows}
    assert set(versions) == {first.channel.id, second.channel.id}
    await bots.prompt_noted(first.channel, prompts[0])

    # SIGKILL the shard-0 process mid-fight (Willow's reaction in the first server pending).
    bots.by_shard[0].kill()
    await h.wait_for(lambda: not h.sessions_for(first.guild.id), what="shard 0's session to end")
    # The shard-1 process keeps serving its server.
    status = await run(h, second, second.gm, "encounter status")
    await status.response()
    assert "Shard 1" in status.message.text()
    await ok(await run(h, second, second.gm, "endturn"))

    # Started again, the shard-0 process finds its fight as it was, and the old button works.
    await bots.start(0)
    assert await bots.version_in(first.channel) == versions[first.channel.id]
    status = await run(h, first, first.gm, "encounter status")
    await status.response()
    assert "Turn: **Thug 1**" in status.message.text()
    assert "Waiting on" in status.message.text()
    click = await press(h, first.player, prompts[0], "Evade")
    assert click.response_type == 7
    # The restarted process's new session serves the first server only.
    assert interactions_by_shard(h)[0] == {first.guild.id}
    # Stopped (SIGTERM) right after answering the click, the process still finishes what the
    # click set going before it closes the database: the prompt is noted as retired.
    assert await bots.by_shard[0].terminate() == 0
    assert "Willow reacts: Evade" in h.message(prompts[0]).text()
    assert h.message(prompts[0]).components == []
    assert await bots.version_in(first.channel) == versions[first.channel.id] + 1
    [retired] = await bots.fetch(
        "SELECT prompt_retired FROM decisions WHERE prompt_message_id = $1", prompts[0].id
    )
    assert retired[0] == 1
    assert "Traceback" not in bots.output(), bots.output()


async def test_both_expiry_loops_race_for_one_due_decision_and_one_result_is_posted(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    h = discord_harness
    first, second = servers

    # A reaction window in the first server (served by the shard-0 process) runs out.
    await fight_to_thug_turn(h, first, reaction_window="1m", reminders="off")
    prompt = await thug_attacks_willow(h, first)
    await bots.prompt_noted(first.channel, prompt)

    def results(title: str) -> list[StoredMessage]:
        return [m for m in h.messages_in(first.channel) if title in m.text()]

    await bots.race(first.channel, "reaction")
    await h.wait_for(lambda: results("Reaction window over"), 30, what="the expiry's result")
    await bots.race_lost(1)
    assert len(results("Reaction window over")) == 1, bots.output()
    assert "Willow does not react." in results("Reaction window over")[0].text()
    await h.wait_for(lambda: h.message(prompt).components == [], what="the prompt retired")
    expired = await bots.fetch("SELECT count(*) FROM encounter_log WHERE command = 'expire'")
    assert expired[0][0] == 1
    # The fight goes on in the shard-0 process, whichever process expired the decision (its
    # own last write, kept in memory, is older now: the version check reads the row again).
    after = await bots.version_in(first.channel)
    await ok(await run(h, first, first.gm, "endturn"))
    assert await bots.version_in(first.channel) == after + 1

    # A turn deadline in the second server (served by the shard-1 process) passes.
    await fight_to_thug_turn(h, second, turn_deadline="1m", reminders="off")

    def lapses() -> list[StoredMessage]:
        return [m for m in h.messages_in(second.channel) if "Turn deadline passed" in m.text()]

    await bots.race(second.channel, "turn")
    await h.wait_for(lapses, 30, what="the turn deadline's result")
    await bots.race_lost(2)
    assert len(lapses()) == 1, bots.output()
    assert "Thug 1's turn ends" in lapses()[0].text()
    fired = await bots.fetch("SELECT count(*) FROM encounter_log WHERE command = 'deadline'")
    assert fired[0][0] == 1
    assert "Traceback" not in bots.output(), bots.output()


TURN_PING = re.compile(r"it is \*\*[^*]+\*\*'s turn|Round \d+: \*\*")


def turn_pings(h: DiscordHarness, server: Server) -> list[StoredMessage]:
    """The messages in ``server``'s channel that say whose turn it is."""
    return [m for m in h.messages_in(server.channel) if TURN_PING.search(m.content)]


async def test_a_start_up_leaves_the_turn_another_process_is_posting_to_its_post(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    """The shard-1 process commits an attack (a turn's end) and has not posted it yet (Discord
    has not answered) when the shard-0 process starts: the decision has no prompt (the new turn
    is unshown), but neither is lost — the post is under way. The start-up leaves them to it
    and looks again once that post has had time to be noted: the prompt is posted once, and
    the turn pinged once, by the command's own answer. (A start-up posted the prompt of every
    decision with none noted, and pinged every turn no post showed yet, these too: the prompt
    was posted twice — the command's own answer then said it was a copy and lost its buttons —
    and the turn's holder was pinged twice.) A process killed between its commit and its post
    still has its lost turn pinged when it starts again."""
    h = discord_harness
    second = servers[1]
    await fight_to_thug_turn(h, second)

    # First a decision: the shard-1 process commits the Thug's attack on Willow, and its answer
    # (with the reaction's buttons) is on its way when the shard-0 process starts.
    assert await bots.by_shard[0].terminate() == 0
    await bots.quiet()
    seen = len(h.messages_in(second.channel))
    hold = h.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$")
    attack = await run(h, second, second.gm, "attack", target="Willow", with_="Cudgel")
    await h.wait_for(lambda: hold.request is not None, what="the answer to /attack")
    starting = bots.by_shard[0]
    mark = len(starting.output())
    await bots.start(0)

    def prompts() -> list[StoredMessage]:
        return [m for m in h.messages_in(second.channel)[seen:] if "Evade" in str(m.components)]

    await h.wait_for(
        lambda: prompts() or PROMPT_LEFT in starting.output()[mark:],
        30,
        what="the start-up to look at the decision with no prompt",
    )
    assert prompts() == [], "the start-up posted the decision's prompt too"
    hold.release()
    await ok(attack)
    assert button(attack.message, "Evade"), attack.message.text()
    await bots.prompt_noted(second.channel, attack.message)
    await press(h, second.player, attack.message, "Evade")
    await h.wait_for(lambda: h.message(attack.message).components == [], what="Evade settled")
    assert [m for m in h.messages_in(second.channel)[seen:] if "Evade" in m.text()] == [
        h.message(attack.message)
    ]

    # Then a turn: the shard-1 process commits the Thug's turn's end, and its answer (the next
    # turn's ping) is on its way when the shard-0 process starts.
    assert await bots.by_shard[0].terminate() == 0
    await bots.quiet()
    before = len(turn_pings(h, second))
    version = await bots.version_in(second.channel)

    # The turn's end is committed while the shard-0 process is held at its login: its
    # start-up looks at the turn within the 10 s a post under way is given
    # (bot.ui.turn_pings.SHOWN_WITHIN), not after a whole start on a loaded machine — past
    # that a start-up takes the post for lost and claims the ping itself.
    hold = h.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$")
    answers: list[InteractionRecord] = []

    async def end_the_turn() -> None:
        answers.append(await run(h, second, second.gm, "endturn"))
        await h.wait_for(lambda: hold.request is not None, what="the answer to /endturn")
        assert await bots.version_in(second.channel) == version + 1  # committed, not shown

    mark = len(starting.output())
    await bots.start(0, at_login=end_the_turn)
    [endturn] = answers
    await h.wait_for(
        lambda: len(turn_pings(h, second)) > before or TURN_LEFT in starting.output()[mark:],
        30,
        what="the start-up to look at the unshown turn",
    )
    assert len(turn_pings(h, second)) == before, "the start-up pinged the turn too"

    hold.release()
    await ok(endturn)
    assert TURN_PING.search(endturn.message.content), endturn.message.content
    await h.wait_for(lambda: SHOWN_MEANWHILE in starting.output()[mark:], 30, what="a second look")
    await bots.quiet()
    assert turn_pings(h, second)[before:] == [h.message(endturn.message)]

    # Now the shard-1 process is killed between committing a turn's end and posting it: that
    # turn is lost, and when the process starts again (the other one playing on) it is pinged
    # — once its post, had there been one, would have been noted.
    before = len(turn_pings(h, second))
    hold = h.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$")
    endturn = await run(h, second, second.gm, "endturn")
    await h.wait_for(lambda: hold.request is not None, what="the answer to the second /endturn")
    bots.by_shard[1].kill()
    hold.drop()
    endturn.unanswered_reported = True  # the member saw "This interaction failed": it died
    await bots.start(1)
    await h.wait_for(lambda: len(turn_pings(h, second)) > before, 30, what="the lost turn's ping")
    await bots.quiet()
    [ping] = turn_pings(h, second)[before:]
    assert ping.content.startswith("<@"), ping.content  # whoever holds the turn, mentioned
    # Not before its post, had there been one, would have been noted: 10 s after the change
    # (SHOWN_WITHIN) — a wait logged when the start-up came sooner, none on a loaded machine
    # whose start-up took longer. Snowflakes date both on the harness's clock (the change's
    # time, by the database server's, is read to within a round trip: 0.5 s allowed).
    waited_ms = (ping.id >> 22) - (endturn.id >> 22)
    assert waited_ms >= SHOWN_WITHIN * 1000 - 500, bots.output()
    assert "Traceback" not in bots.output(), bots.output()


def trackers_in(h: DiscordHarness, server: Server) -> list[StoredMessage]:
    """The tracker messages in ``server``'s channel (not deleted)."""
    return [m for m in h.messages_in(server.channel) if "view · encounter" in str(m.embeds)]


def shows_version(message: StoredMessage, version: int) -> bool:
    """Whether the tracker ``message`` shows its encounter at ``version``."""
    return any(
        str(e.get("footer", {}).get("text", "")).endswith(f" v{version}") for e in message.embeds
    )


async def expire_elsewhere(h: DiscordHarness, bots: Bots, server: Server) -> int:
    """The open reaction in ``server`` (shard 0's) runs out and the shard-1 process expires it
    — the shard-0 process is paused meanwhile (:meth:`Bots.pause`), so its loop does not; its
    SIGCONT is the caller's. Returns the version the expiry committed, once its result is
    posted."""
    await bots.pause(0)
    await bots.fetch(
        "UPDATE decisions SET deadline = $1 WHERE status = 'open' AND kind = 'reaction'"
        " RETURNING id",
        ts(datetime.now(UTC) - timedelta(seconds=1)),
    )
    seen = len(h.messages_in(server.channel))
    await h.wait_for(
        lambda: [m for m in h.messages_in(server.channel)[seen:] if "window over" in m.text()],
        30,
        what="the shard-1 process's expiry",
    )
    return await bots.version_in(server.channel)


async def test_late_edits_of_one_process_do_not_undo_what_the_other_showed_since(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    """Each process serialises its own work on a channel's tracker and prompts, but two
    processes may work on them at once: the shard-0 process edits the first server's tracker,
    or a prompt, after a command there, and Discord answers late; meanwhile the shard-1
    process's expiry loop expires the reaction waiting there. The late edit then lands last.

    The tracker: the expiry begins a new round, so the shard-1 process posts the tracker anew
    (it may not pin it) and deletes the old one; the late edit met a deleted tracker and
    posted one more — two trackers, the recorded one still waiting on the reaction. The
    prompt (Willow's player went ``/away``: it asks her stand-in now): the shard-1 process
    retires it, and the late edit gave it its buttons back, "Decide by" a time past, for a
    reaction already over. Now exactly one tracker stays, showing the fight as it stands, and
    the prompt is retired again."""
    h = discord_harness
    first = servers[0]
    await fight_to_thug_turn(h, first, reaction_window="1m", reminders="off")
    prompt = await thug_attacks_willow(h, first)
    await bots.prompt_noted(first.channel, prompt)
    await bots.quiet()
    [row] = await bots.fetch(
        "SELECT tracker_message_id FROM encounters WHERE channel_id = $1 AND status = 'live'",
        first.channel.id,
    )
    tracker = int(row[0])

    # The tracker's edit after /gm settings waits for Discord's answer.
    hold = h.hold_next("PATCH", rf"^/channels/{first.channel.id}/messages/{tracker}$")
    await ok(await run(h, first, first.gm, "gm settings", show_odds=True))
    await h.wait_for(lambda: hold.request is not None, what="the tracker's edit")
    try:
        expired = await expire_elsewhere(h, bots, first)
        await h.wait_for(
            lambda: (
                any(shows_version(m, expired) for m in trackers_in(h, first))
                and h.is_deleted(tracker)
            ),
            30,
            what="the shard-1 process's new tracker, the old one deleted",
        )
    finally:
        bots.by_shard[0].proc.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
    hold.release()
    await bots.quiet()
    [row] = await bots.fetch(
        "SELECT tracker_message_id, version FROM encounters WHERE channel_id = $1"
        " AND status = 'live'",
        first.channel.id,
    )
    shown = trackers_in(h, first)
    assert [m.id for m in shown] == [row["tracker_message_id"]], [m.embeds for m in shown]
    assert shows_version(shown[0], row["version"]), shown[0].embeds

    # The prompt's edit after /away waits for Discord's answer.
    await fight_to_thug_turn(h, first, started=True)
    prompt = await thug_attacks_willow(h, first)
    await bots.prompt_noted(first.channel, prompt)
    await bots.quiet()
    hold = h.hold_next("PATCH", rf"^/channels/{first.channel.id}/messages/{prompt.id}$")
    await ok(await run(h, first, first.player, "away", delegate=first.gm))
    await h.wait_for(lambda: hold.request is not None, what="the prompt's edit")
    try:
        await expire_elsewhere(h, bots, first)
        await h.wait_for(lambda: h.message(prompt).components == [], 30, what="it retired")
    finally:
        bots.by_shard[0].proc.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
    retired = h.message(prompt).content
    hold.release()
    await bots.quiet()
    assert h.message(prompt).components == [], "the expired reaction's buttons came back"
    assert h.message(prompt).content == retired
    assert "Traceback" not in bots.output(), bots.output()


async def test_a_late_reword_of_a_turn_ping_does_not_bring_back_what_the_other_took_off(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    """The shard-0 process rewords the Thug's turn ping after `/gm resume` (the turn's clock
    runs again: "Turn deadline: <t:…:R>") and Discord answers late; meanwhile the shard-1
    process's expiry loop fires that turn's deadline and takes the ping's buttons and deadline
    words off. The late reword then landed last and put the words back — a deadline on a turn
    that is over (the buttons stayed off: a reword edits the text only). Now a reword that
    lands on a ping whose turn is over takes the words off again."""
    h = discord_harness
    first = servers[0]
    await fight_to_thug_turn(h, first, turn_deadline="1h", reminders="off")
    await bots.quiet()
    [row] = await bots.fetch(
        "SELECT p.message_id FROM turn_pings p JOIN encounters e ON e.id = p.encounter_id"
        " WHERE p.channel_id = $1 AND e.running_turn = p.turn_seq",
        first.channel.id,
    )
    ping = int(row[0])
    await ok(await run(h, first, first.gm, "gm pause"))
    await bots.quiet()
    assert "stopped while the GM has paused" in h.message(ping).content

    # The reword after /gm resume waits for Discord's answer.
    hold = h.hold_next("PATCH", rf"^/channels/{first.channel.id}/messages/{ping}$")
    await ok(await run(h, first, first.gm, "gm resume"))
    await h.wait_for(lambda: hold.request is not None, what="the ping's reword")
    assert hold.request is not None
    assert "Turn deadline: <t:" in hold.request.json["content"]
    assert "components" not in hold.request.json  # the text only
    await bots.pause(0)
    try:
        await bots.fetch(
            "UPDATE decisions SET deadline = $1 WHERE status = 'open' AND kind = 'turn'"
            " RETURNING id",
            ts(datetime.now(UTC) - timedelta(seconds=1)),
        )
        await h.wait_for(
            lambda: (
                any("Turn deadline passed" in m.text() for m in h.messages_in(first.channel))
                and h.message(ping).components == []
            ),
            30,
            what="the shard-1 process's deadline, the ping's buttons taken off",
        )
    finally:
        bots.by_shard[0].proc.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
    assert "Turn deadline" not in h.message(ping).content
    hold.release()
    await bots.quiet()
    assert h.message(ping).components == []
    assert "Turn deadline" not in h.message(ping).content, h.message(ping).content
    assert "Traceback" not in bots.output(), bots.output()


async def test_a_lost_turns_ping_posted_while_the_other_process_ends_that_turn_loses_its_buttons(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    """The shard-1 process is killed between committing `/endturn` and answering it: Willow's
    turn is lost. Started again, it posts that turn's ping (buttons and all), and Discord
    answers late; meanwhile the shard-0 process's expiry loop fires Willow's turn deadline and
    takes the buttons off every ping of hers it knows of — not this one, not yet noted. Noted
    after that, it kept End turn and Attack… for a turn that was over until the channel's next
    change. Now a recovered ping noted is checked against the running turn as every ping is
    after a change."""
    h = discord_harness
    second = servers[1]
    await fight_to_thug_turn(h, second, turn_deadline="1h", reminders="off")
    await bots.quiet()
    hold = h.hold_next("POST", r"^/interactions/\d+/[^/]+/callback$")
    endturn = await run(h, second, second.gm, "endturn")
    await h.wait_for(lambda: hold.request is not None, what="the answer to /endturn")
    bots.by_shard[1].kill()
    hold.drop()
    endturn.unanswered_reported = True  # the member saw "This interaction failed": it died

    recovered = h.hold_next("POST", rf"^/channels/{second.channel.id}/messages$")
    await bots.start(1)
    await h.wait_for(lambda: recovered.request is not None, 30, what="the lost turn's ping")
    assert recovered.request is not None
    assert "Willow" in recovered.request.json["content"]
    await bots.pause(1)
    try:
        await bots.fetch(
            "UPDATE decisions SET deadline = $1 WHERE status = 'open' AND kind = 'turn'"
            " RETURNING id",
            ts(datetime.now(UTC) - timedelta(seconds=1)),
        )
        await h.wait_for(
            lambda: any("Turn deadline passed" in m.text() for m in h.messages_in(second.channel)),
            30,
            what="the shard-0 process's deadline",
        )
        await bots.quiet(held=recovered.request)
    finally:
        bots.by_shard[1].proc.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
    recovered.release()
    await bots.quiet()
    ping = h.message(int(recovered.request.response["id"]))
    assert "it is **Willow**'s turn" in ping.content, ping.content
    assert ping.components == [], "the recovered ping kept its buttons for a turn that is over"
    assert "Turn deadline" not in ping.content, ping.content
    assert "Traceback" not in bots.output(), bots.output()


LEFT_WHILE_STOPPED = "encounter(s) of servers it left while stopped"
"""What a process logs once it judged, at READY, the servers it left while stopped (bot.client)."""


async def paused_in(bots: Bots, server: Server) -> bool:
    [row] = await bots.fetch(
        "SELECT paused FROM encounters WHERE channel_id = $1 AND status = 'live'",
        server.channel.id,
    )
    return bool(row["paused"])


async def test_a_server_left_while_its_shard_was_stopped_pauses_when_that_shard_starts(
    discord_harness: DiscordHarness, bots: Bots, servers: list[Server]
) -> None:
    """Both processes stop; the bot is removed from the shard-1 server meanwhile. The shard-0
    process starts first: the shard-1 server is not in its READY — it never is, that server is
    another process's — so it pauses nothing there. The shard-1 process, started, does not
    find it among its servers: that fight pauses (fix24)."""
    h = discord_harness
    for server in servers:
        await ok(await run(h, server, server.gm, "encounter start", name=f"Shard {server.shard}"))
    await bots.stop()
    await h.remove_bot(servers[1].guild)
    first, second = bots.by_shard[0], bots.by_shard[1]
    seen = len(first.output())
    await bots.start(0)
    await h.wait_for(lambda: LEFT_WHILE_STOPPED in first.output()[seen:], 30, what="shard 0")
    assert "paused 0 encounter(s)" in first.output()[seen:], first.output()[seen:]
    assert not await paused_in(bots, servers[0]) and not await paused_in(bots, servers[1])
    seen = len(second.output())
    await bots.start(1)
    await h.wait_for(lambda: LEFT_WHILE_STOPPED in second.output()[seen:], 30, what="shard 1")
    assert "paused 1 encounter(s)" in second.output()[seen:], second.output()[seen:]
    assert await paused_in(bots, servers[1]) and not await paused_in(bots, servers[0])
