"""The reaction-expiry loop in several processes on one database (issue 16, "Correct across
processes"), on SQLite and on a real PostgreSQL: each "process" is a bot built by the
composition root (:func:`bot.__main__.build`) with a database object of its own on the same
database, and runs the loop's real pass (:meth:`bot.client.CombatBot.expire_due`) — only the
announcement in Discord is replaced by a recorder. A due reaction window is claimed by one
process (:mod:`bot.store.expiry`), expired once and announced once; a claim whose process died
is taken again after the lease; a failed expiry lets its claim go. A reminder point both loops
find due is sent once; a turn shown again after the other process showed a later one is noted
again (a start-up would ping it once more). (Two ``python -m bot`` processes against the
Discord harness are the e2e suite's to test, issue 16.)"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot import client as client_module
from bot.__main__ import build
from bot.client import CombatBot
from bot.errors import Conflict
from bot.services.combat import CombatResult
from bot.services.encounters import Encounter
from bot.settings import Settings
from bot.store import expiry
from bot.store.pg import PgDatabase
from tests.clock import ManualClock
from tests.services.test_expiry import CHANNEL, GM, PLAYER, WINDOW, thug_attacks_willow


@dataclass
class Process:
    """One bot process: its bot, what its expiry loop announced and which expiries it tried."""

    name: str
    bot: CombatBot
    announced: list[CombatResult] = field(default_factory=list)
    tried: list[tuple[int, int]] = field(default_factory=list)

    @property
    def encounters(self) -> Any:
        return self.bot.services.encounters

    @property
    def combat(self) -> Any:
        return self.bot.services.combat

    async def live(self) -> Encounter:
        encounter: Encounter = await self.encounters.live(CHANNEL)
        return encounter


@dataclass
class Cluster:
    """Two processes on one database, on one clock the test moves."""

    clock: ManualClock
    first: Process
    second: Process

    async def passes(self) -> list[list[CombatResult]]:
        """One expiry pass of each process, run at the same time."""
        return list(await asyncio.gather(self.first.bot.expire_due(), self.second.bot.expire_due()))

    async def decision_rows(self) -> list[dict[str, Any]]:
        async with self.first.bot.db.read() as conn:
            rows = await conn.fetch_all(
                "SELECT id, status, claim FROM decisions WHERE kind = 'reaction' ORDER BY id"
            )
        return [dict(row) for row in rows]

    async def logged(self, command: str) -> int:
        async with self.second.bot.db.read() as conn:
            rows = await conn.fetch_all(
                "SELECT version FROM encounter_log WHERE command = ?", (command,)
            )
        return len(rows)


@pytest.fixture(params=["sqlite", "postgres"])
async def cluster(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Cluster]:
    """Two bots built as ``python -m bot`` builds them, each with its own connection(s) to one
    SQLite file or one PostgreSQL database, not connected to Discord; no background loop runs
    (the test runs the passes), and each pass's announcements are recorded per process."""
    values: dict[str, Any] = {
        "discord_token": SecretStr("not-used"),
        "database_path": tmp_path / "bot.sqlite3",
        "check_replay": True,
    }
    if request.param == "postgres":
        values["database_url"] = SecretStr(request.getfixturevalue("pg_url"))
    settings = Settings.model_validate(values)
    clock = ManualClock()
    processes: list[Process] = []
    try:
        for name in ("first", "second"):
            bot = await build(settings, seeds=lambda: 7, expiry_interval=None, clock=clock)
            processes.append(Process(name, bot))
            assert isinstance(bot.db, PgDatabase) == (request.param == "postgres")
        by_bot = {id(p.bot): p for p in processes}

        async def recorded(client: Any, result: CombatResult, *_: Any) -> None:
            by_bot[id(client)].announced.append(result)

        monkeypatch.setattr(client_module, "announce", recorded)
        for process in processes:
            expire = process.combat.expire

            async def tried(encounter_id: int, version: int, p: Process = process, e: Any = expire):
                p.tried.append((encounter_id, version))
                return await e(encounter_id, version)

            monkeypatch.setattr(process.combat, "expire", tried)
        yield Cluster(clock, processes[0], processes[1])
    finally:
        for process in processes:
            process.bot.services.rehearsal.close()
            await process.bot.db.close()


async def test_two_processes_expire_a_due_window_once(cluster: Cluster) -> None:
    """Both processes' loops pass at once over one window that ran out: one of them claims and
    expires it, the other does not even try; one result is committed, logged and announced."""
    c = cluster
    waiting = await thug_attacks_willow(c.first)
    assert await c.passes() == [[], []]  # not due yet: nothing claimed, nothing tried
    assert [r["claim"] for r in await c.decision_rows()] == [None]

    c.clock.advance(WINDOW)
    results = await c.passes()
    committed = [result for batch in results for result in batch]
    assert len(committed) == 1 and committed[0].expired, results
    winner = c.first if results[0] else c.second
    loser = c.second if winner is c.first else c.first
    assert winner.tried == [(waiting.id, waiting.row.pending_version)]
    assert loser.tried == [] and loser.announced == []
    assert [r.encounter.version for r in winner.announced] == [waiting.version + 1]
    assert await c.logged("expire") == 1
    [row] = await c.decision_rows()
    assert row["status"] == "closed"
    assert row["claim"].endswith(f" {winner.combat.reactions.claimer}")
    for process in (c.first, c.second):  # either process reads the settled fight
        after = await process.live()
        assert after.version == waiting.version + 1 and after.state.pending is None

    assert await c.passes() == [[], []]  # nothing is due any more
    assert await c.logged("expire") == 1 and len(winner.announced) == 1


async def test_a_dead_processes_claim_is_taken_again_after_the_lease(cluster: Cluster) -> None:
    """A process claimed the window and died before expiring it: the others leave it while the
    claim holds, and one of them expires it (once) as soon as the claim has lapsed."""
    c = cluster
    waiting = await thug_attacks_willow(c.first)
    c.clock.advance(WINDOW)
    async with c.first.bot.db.transaction() as conn:
        taken = await expiry.claim_due_reactions(conn, c.clock(), "dead-process")
    assert [(t.encounter_id, t.opened_version) for t in taken] == [
        (waiting.id, waiting.row.pending_version)
    ]

    assert await c.passes() == [[], []]
    c.clock.advance(expiry.LEASE.total_seconds() - 1)
    assert await c.passes() == [[], []]  # the dead process's claim still holds
    assert c.first.tried == c.second.tried == []
    assert (await c.first.live()).state.pending is not None

    c.clock.advance(2)  # past the lease: the claim has lapsed
    results = await c.passes()
    assert sum(len(batch) for batch in results) == 1, results
    assert len(c.first.tried) + len(c.second.tried) == 1
    assert len(c.first.announced) + len(c.second.announced) == 1
    assert await c.logged("expire") == 1
    assert (await c.second.live()).state.pending is None


async def test_a_failed_expiry_lets_its_claim_go_at_once(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The first process claims the window but its expiry fails (here: the database write
    raises): nothing is committed or announced, its claim is let go at once, and the second
    process's next pass — at the same moment, long before the lease — expires it."""
    c = cluster
    waiting = await thug_attacks_willow(c.first)
    c.clock.advance(WINDOW)

    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("the write failed")

    monkeypatch.setattr(c.first.encounters, "change", broken)
    with caplog.at_level(logging.ERROR, logger="bot.client"):
        assert await c.first.bot.expire_due() == []
    assert c.first.tried == [(waiting.id, waiting.row.pending_version)]
    assert "could not expire the decision" in caplog.text
    assert [(r["status"], r["claim"]) for r in await c.decision_rows()] == [("open", None)]
    assert c.first.announced == [] and await c.logged("expire") == 0

    [result] = await c.second.bot.expire_due()  # same clock: no lease had to lapse
    assert result.expired and c.second.announced == [result]
    assert await c.logged("expire") == 1
    [row] = await c.decision_rows()
    assert row["status"] == "closed"
    assert row["claim"].endswith(f" {c.second.combat.reactions.claimer}")


async def test_a_turn_shown_again_after_another_process_showed_a_later_one_is_noted(
    cluster: Cluster,
) -> None:
    """The turn each posted result showed is noted (for the pings a stop loses: at start-up a
    running turn no post showed is pinged), but a process skips the write when it noted that
    turn itself last. Here it noted the Thug's turn; the other process settled the reaction
    and showed Willow's turn (noted there); then an undo here brought the Thug's turn back and
    showed it — the write was skipped, so the database said Willow's turn was shown while the
    Thug's ran, and every later start-up pinged the Thug's turn once more. Noted again."""
    c = cluster
    waiting = await thug_attacks_willow(c.first)
    await c.first.bot.turn_pings.announced(waiting)
    version = waiting.row.pending_version
    assert version is not None
    settled = await c.second.combat.decide(waiting.id, version, PLAYER, "none")
    assert settled.encounter.state.turn_seq == waiting.state.turn_seq + 1
    await c.second.bot.turn_pings.announced(settled.encounter)

    undone, _ = await c.first.bot.services.moderation.undo(CHANNEL, GM)
    assert undone.encounter.state.turn_seq == waiting.state.turn_seq
    await c.first.bot.turn_pings.announced(undone.encounter)
    assert await c.first.bot.turn_pings.owed() == []
    assert await c.second.bot.turn_pings.owed() == []


async def test_both_processes_loops_send_a_reminder_point_once(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half of Willow's reaction window has passed (her reminder point, ``50%``): both
    processes' loops look for due reminders at the same moment; she is reminded once."""
    c = cluster
    posted: list[tuple[str, str]] = []
    names = {id(c.first.bot): "first", id(c.second.bot): "second"}

    async def recorded(client: Any, reminder: Any) -> None:
        posted.append((names[id(client)], reminder.name))

    monkeypatch.setattr(client_module, "post_reminder", recorded)
    await thug_attacks_willow(c.first)
    c.clock.advance(WINDOW * 0.6)
    sent = await asyncio.gather(c.first.bot.send_reminders(), c.second.bot.send_reminders())
    assert sum(len(batch) for batch in sent) == 1, sent
    assert [name for _, name in posted] == ["Thug 1 attacks Willow with Sword"]
    again = await asyncio.gather(c.first.bot.send_reminders(), c.second.bot.send_reminders())
    assert again == [[], []] and len(posted) == 1


async def test_two_presses_of_one_reaction_in_two_processes_decide_once(cluster: Cluster) -> None:
    """Willow's reaction pressed twice at once, each press reaching another process (two
    processes running one shard for a moment, as a deploy may): one decides, the other is
    refused as no longer pending, and one answer is logged."""
    c = cluster
    waiting = await thug_attacks_willow(c.first)
    version = waiting.row.pending_version
    assert version is not None
    results = await asyncio.gather(
        c.first.combat.decide(waiting.id, version, PLAYER, "evade"),
        c.second.combat.decide(waiting.id, version, PLAYER, "none"),
        return_exceptions=True,
    )
    decided = [r for r in results if isinstance(r, CombatResult)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(decided) == 1 and len(refused) == 1, results
    assert "no longer pending" in str(refused[0])
    after = await c.second.live()
    assert after.version == waiting.version + 1 and after.state.pending is None


async def test_a_lost_turns_ping_whose_claim_lapsed_is_posted_by_one_process(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process claimed a lost turn's ping and died before posting it (fix22): while its
    claim holds, neither other process's background loop posts it; once it lapsed, both loops
    pass at once and the ping is posted by exactly one of them, and never again."""
    from bot.services.turn_pings import LEASE
    from bot.store import turn_pings

    c = cluster
    waiting = await thug_attacks_willow(c.first)
    seq = waiting.state.turn_seq
    async with c.first.bot.db.transaction() as conn:
        dead = turn_pings.lease(c.clock() + LEASE, "dead-process")
        assert await turn_pings.claim_announced(conn, waiting.id, None, seq, dead, c.clock())
    posted: dict[str, list[int]] = {"first": [], "second": []}
    for process in (c.first, c.second):

        async def post(encounter: Encounter, sent: list[int], p: Process = process) -> None:
            posted[p.name].append(encounter.state.turn_seq)

        monkeypatch.setattr(process.bot.turn_pings, "_post_running", post)

    async def passes() -> None:
        await asyncio.gather(c.first.bot.turn_pings.retry(), c.second.bot.turn_pings.retry())

    await passes()
    c.clock.advance(LEASE.total_seconds() - 1)
    await passes()
    assert posted == {"first": [], "second": []}  # the dead process's claim still holds
    c.clock.advance(2)
    await passes()
    assert sorted(posted["first"] + posted["second"]) == [seq], posted
    await passes()
    c.clock.advance(10 * LEASE.total_seconds())
    await passes()
    assert sorted(posted["first"] + posted["second"]) == [seq], posted
    async with c.first.bot.db.read() as conn:
        rows = await conn.fetch_all("SELECT turn_seq, claim FROM turn_announced")
    assert [(r["turn_seq"], r["claim"]) for r in rows] == [(seq, None)]


async def test_a_recovered_ping_whose_confirmation_failed_is_confirmed_by_the_next_pass(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first process posts a lost turn's ping but cannot note it posted (the database
    write fails): its next pass notes it, before the claim lapses, so neither process posts it
    again after the lease."""
    from bot.services.turn_pings import LEASE, TurnPings

    c = cluster
    waiting = await thug_attacks_willow(c.first)
    posted: list[str] = []
    for process in (c.first, c.second):

        async def post(encounter: Encounter, sent: list[int], p: Process = process) -> None:
            posted.append(p.name)

        monkeypatch.setattr(process.bot.turn_pings, "_post_running", post)
    original = TurnPings.confirm
    failures = [RuntimeError("the write failed")]

    async def confirm(self: TurnPings, encounter: Encounter, claim: str) -> None:
        if failures:
            raise failures.pop()
        await original(self, encounter, claim)

    monkeypatch.setattr(TurnPings, "confirm", confirm)
    await c.first.bot.turn_pings.recover([(CHANNEL, waiting.state.turn_seq)])
    assert posted == ["first"] and c.first.bot.turn_pings.unconfirmed
    await c.first.bot.turn_pings.retry()
    assert not c.first.bot.turn_pings.unconfirmed
    c.clock.advance(2 * LEASE.total_seconds())
    await asyncio.gather(c.first.bot.turn_pings.retry(), c.second.bot.turn_pings.retry())
    assert posted == ["first"]
