"""One command, one effect (issue 9 §3) when two turn commands race: `/endturn` and `/gm next`
sent together end ONE turn, whatever the timing of the write path (issue 15).

A change dates the turn it begins with the latest issue mark it has seen while it is computed;
its commit comes later. These tests put the second command exactly in that window — it reaches
the bot while the first commits (as the gateway can deliver it), or another process ends the turn
between this process's read and its write — and check it is refused as meant for the turn that
ended, instead of ending the next one too. Before the fix the second command ended a second turn
in both cases (the e2e test ``test_endturn_and_gm_next_together_end_one_turn`` caught it only
when the timing happened to fall in the window)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from bot import __main__ as main_module
from bot.__main__ import build
from bot.engine.core.commands import Begin, EndTurn, NextTurn
from bot.engine.uttas.commands import AddCombatant
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounter import Encounter
from bot.services.encounters import EncounterService, utc_now
from bot.settings import Settings
from bot.store.db import Connection, Database
from bot.store.pg import PgDatabase

CHANNEL = 10
SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uttas"


def moderator(issued: int | None = None) -> Actor:
    return Actor(user_id=1, manages_channel=True, issued=issued)


class Interleaved(Database):
    """A database that runs ``before_write`` (once) as the next writer begins its transaction:
    after that change was computed, before it is committed."""

    before_write: Callable[[], Awaitable[None]] | None = None

    async def _hook(self) -> None:
        hook, self.before_write = self.before_write, None
        if hook is not None:
            await hook()

    @asynccontextmanager
    async def transaction(self, *, channel: int | None = None) -> AsyncIterator[Connection]:
        await self._hook()
        async with super().transaction(channel=channel) as conn:
            yield conn

    async def _submit(
        self, statements: Sequence[tuple[str, Sequence[Any]]], query: str | None, params: Any
    ) -> tuple[list[int], list[Any] | None]:
        """A single-trip unit (the usual write of a turn command) is hooked the same way."""
        await self._hook()
        return await super()._submit(statements, query, params)


@pytest.fixture
async def interleaved(tmp_path: Path) -> AsyncIterator[Interleaved]:
    db = await Interleaved.open(tmp_path / "bot.sqlite3")
    await db.migrate()
    yield db
    await db.close()


async def fight(db: Database) -> tuple[EncounterService, CombatService]:
    """A begun UTTAS fight in CHANNEL: Willow and three Thugs (no issue marks so far)."""
    encounters = EncounterService(db, seeds=lambda: 7)
    combat = CombatService(encounters, clock=utc_now)
    await encounters.start(
        guild_id=1, channel_id=CHANNEL, actor=moderator(), ruleset="uttas", name="Race"
    )
    hero = UttasSheet.model_validate(json.loads((SHEETS / "willow.json").read_text()))
    thug = UttasSheet.model_validate(json.loads((SHEETS / "thug.json").read_text()))
    roster = [("Willow", hero, 2, False)] + [(f"Thug {i}", thug, None, True) for i in (1, 2, 3)]
    for name, sheet, controller, npc in roster:
        add = AddCombatant(name=name, sheet=sheet, controller_id=controller, is_npc=npc)
        await combat.gm_command(CHANNEL, moderator(), "add", {}, lambda _e, c=add: c, action="add")
    await combat.gm_command(CHANNEL, moderator(), "begin", {}, lambda _e: Begin(), action="begin")
    return encounters, combat


async def end_turn(combat: CombatService, issued: int) -> object:
    return await combat.act(
        CHANNEL, moderator(issued), None, "endturn", {}, lambda _c, me: EndTurn(actor=me.id)
    )


async def gm_next(combat: CombatService, issued: int) -> object:
    return await combat.gm_command(
        CHANNEL, moderator(issued), "next", {}, lambda _e: NextTurn(), action="move the fight on"
    )


async def test_a_gm_next_that_arrives_while_an_endturn_commits_is_refused(
    interleaved: Interleaved,
) -> None:
    encounters, combat = await fight(interleaved)
    before = await encounters.live(CHANNEL)
    holder = before.state.turn

    async def gm_next_arrives() -> None:  # the gateway delivers it while /endturn commits
        encounters.observe(1001)

    interleaved.before_write = gm_next_arrives
    await end_turn(combat, issued=1000)
    after = await encounters.live(CHANNEL)
    assert after.version == before.version + 1 and after.state.turn != holder
    with pytest.raises(Conflict, match="That turn already ended: it is now"):
        await gm_next(combat, issued=1001)
    still = await encounters.live(CHANNEL)
    assert (still.version, still.state.turn) == (after.version, after.state.turn)
    # One issued after the commit (the member saw the new turn) moves it on as usual.
    await gm_next(combat, issued=encounters.horizon + 1)
    moved = await encounters.live(CHANNEL)
    assert moved.version == after.version + 1 and moved.state.turn != after.state.turn


async def test_a_gm_next_read_again_after_another_process_ended_the_turn_is_refused(
    interleaved: Interleaved,
) -> None:
    """The write path reads again and re-runs a command whose row moved on (here another
    process, with its own issue marks, ends the turn between this one's read and write): the
    re-run is aimed at the turn it was sent for, which is over — refused, not applied to the
    next turn."""
    encounters, combat = await fight(interleaved)
    await gm_next(combat, issued=500)  # this process's row is kept in memory from here
    before = await encounters.live(CHANNEL)
    other_combat = CombatService(EncounterService(interleaved, seeds=lambda: 7), clock=utc_now)

    async def other_process_ends_the_turn() -> None:
        await gm_next(other_combat, issued=900)

    interleaved.before_write = other_process_ends_the_turn
    with pytest.raises(Conflict, match="That turn already ended: it is now"):
        await gm_next(combat, issued=1000)
    after = await encounters.live(CHANNEL)
    assert after.version == before.version + 1  # the other process's turn end only
    assert after.state.turn_seq == before.state.turn_seq + 1


DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake(at: datetime) -> int:
    """The issue mark of an interaction created at ``at`` (Discord's clock)."""
    return (int(at.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22


def issued_now(after: int = 0) -> int:
    """An interaction's issue mark made now, later than ``after`` and than anything dated
    before this call (a millisecond later): on a shared database what began is dated by the
    clock (real marks, unlike the small numbers the tests above use on SQLite)."""
    floor = max(after, snowflake(utc_now()))
    while (mark := snowflake(utc_now())) <= floor:
        pass  # the clock moves on within a millisecond
    return mark


async def test_on_a_shared_database_a_command_sent_after_another_process_moved_on_applies(
    pg_url: str,
) -> None:
    """On PostgreSQL another process (its expiry loop, say) may move a channel on before a
    command arrives here; the member saw that and sent the command for the new turn. The command
    is applied to that turn — not refused as "already ended" because this process still held the
    row it wrote last (it keeps none on a database other processes write:
    ``Store.shared_by_processes``)."""
    here, there = await PgDatabase.open(pg_url), await PgDatabase.open(pg_url)
    try:
        await here.migrate()
        _, combat = await fight(here)
        await gm_next(combat, issued=issued_now())  # this process wrote the row last
        others = EncounterService(there, seeds=lambda: 7)
        # the other moves on
        await gm_next(CombatService(others, clock=utc_now), issued=issued_now())
        seen = await others.live(CHANNEL)  # what the channel shows when the member sends it
        await gm_next(combat, issued=issued_now())
        after = await others.live(CHANNEL)
        assert (after.version, after.state.turn_seq) == (seen.version + 1, seen.state.turn_seq + 1)
    finally:
        await here.close()
        await there.close()


async def test_a_turn_another_process_began_knowing_no_interaction_is_dated_by_the_clock(
    pg_url: str,
) -> None:
    """Another process's expiry loop ends a turn (a passed deadline: the bot's own change, no
    issue mark) in a channel this process serves, having seen no interaction itself (its own
    servers quiet, or it has just started). A member's command sent before that — for the
    turn that ended — and delivered here after it is refused, not applied to the next turn.
    (That process dated the new turn with the mark stored for the turn before — "no
    interaction can have been issued since, the bot was down" holds for one process alone —
    so the command, issued later than that, ended the next turn too.)"""
    here, there = await PgDatabase.open(pg_url), await PgDatabase.open(pg_url)
    try:
        await here.migrate()
        encounters, combat = await fight(here)
        await gm_next(combat, issued=issued_now())
        running = await encounters.live(CHANNEL)
        sent = issued_now(running.turn_mark())  # the member ends the turn they see
        elsewhere = EncounterService(there, seeds=lambda: 7)  # has seen no interaction
        issued_now(sent)  # the deadline passes a moment later
        await gm_next(CombatService(elsewhere, clock=utc_now), issued=None)
        before = await encounters.live(CHANNEL)
        assert before.state.turn_seq == running.state.turn_seq + 1
        with pytest.raises(Conflict, match="That turn already ended: it is now"):
            await gm_next(combat, issued=sent)
        after = await encounters.live(CHANNEL)
        assert (after.version, after.state.turn_seq) == (before.version, before.state.turn_seq)
        # A command sent once the new turn showed moves it on as usual.
        await gm_next(combat, issued=issued_now(before.turn_mark()))
        moved = await encounters.live(CHANNEL)
        assert moved.state.turn_seq == before.state.turn_seq + 1
    finally:
        await here.close()
        await there.close()


def shared_settings(pg_url: str, tmp_path: Path) -> Settings:
    """The settings of a second process on the PostgreSQL database at ``pg_url``."""
    return Settings.model_validate(
        {
            "discord_token": SecretStr("not-used"),
            "database_path": tmp_path / "unused.sqlite3",
            "database_url": SecretStr(pg_url),
        }
    )


async def turn_begun_there(
    here: Database, there: Any
) -> tuple[EncounterService, CombatService, Encounter]:
    """A fight on ``here`` whose turn the GM moves on (a command sent now, by Discord's clock),
    then ``there`` (another process, having seen no interaction) ends it from its loop, as a
    passed deadline does. Returns this process's services and the encounter as the new turn
    began."""
    encounters, combat = await fight(here)
    await gm_next(combat, issued=issued_now())
    running = await encounters.live(CHANNEL)
    await gm_next(there.services.combat, issued=None)  # its loop: a passed deadline
    began = await encounters.live(CHANNEL)
    assert began.state.turn_seq == running.state.turn_seq + 1
    return encounters, combat, began


async def test_a_turn_begun_by_a_process_whose_host_clock_runs_ahead_takes_the_commands_sent_for_it(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's expiry loop ends a turn in a channel this process serves, having seen
    no interaction itself — and its host's clock runs 5 minutes ahead of Discord's and of this
    host's. It dated the new turn by that clock, 5 minutes in the future, so every command a
    member sent for the new turn in those minutes was refused here as meant for the turn
    before ("That turn already ended"). Processes on one PostgreSQL database read one clock, the
    server's (:class:`bot.store.server_clock.ServerClock`), whatever their host's says — and
    every service of such a process is built on it (the class: deadlines, claims' leases and
    the age of a change are all compared with times another process wrote)."""
    here = await PgDatabase.open(pg_url)
    settings = shared_settings(pg_url, tmp_path)
    ahead = timedelta(minutes=5)
    monkeypatch.setattr(main_module, "utc_now", lambda: utc_now() + ahead)
    there = await build(settings, seeds=lambda: 7, expiry_interval=None)  # has seen nothing
    try:
        encounters, combat, began = await turn_begun_there(here, there)
        # The member sees the new turn and ends it: sent now, by Discord's clock.
        await gm_next(combat, issued=issued_now())
        moved = await encounters.live(CHANNEL)
        assert moved.state.turn_seq == began.state.turn_seq + 1

        # Every service of that process reads the server's clock, not its host's.
        server = await here.server_time()
        for name, service in vars(there.services).items():
            clock = getattr(service, "_clock", None)
            if clock is not None and callable(clock) and isinstance(clock(), datetime):
                assert abs(clock() - server) < timedelta(seconds=30), name
    finally:
        there.services.rehearsal.close()
        await there.db.close()
        await here.close()


async def test_a_turn_begun_after_a_slow_reading_of_the_server_clock_takes_commands_sent_for_it(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, the other process's loop dates the turn it begins by the database server's
    clock — which it read at start-up in a round trip that took half a second, all of it
    before the server read its clock (a loaded host: the pool slow to give a connection, the
    query slow to go out). Taking the middle of the round trip as the moment of the reading
    put that process's clock a quarter of a second ahead of the server's, so the new turn was
    dated in the future and the member's command for it, sent at once, was refused ("That
    turn already ended"). The reading is taken as made at the end of the round trip, the
    latest it can have been made: the clock is never ahead of the server's."""
    here = await PgDatabase.open(pg_url)
    settings = shared_settings(pg_url, tmp_path)
    read = PgDatabase.server_time

    async def slow_request(db: PgDatabase) -> datetime:
        await asyncio.sleep(0.5)
        return await read(db)

    monkeypatch.setattr(PgDatabase, "server_time", slow_request)
    there = await build(settings, seeds=lambda: 7, expiry_interval=None)  # has seen nothing
    try:
        encounters, combat, began = await turn_begun_there(here, there)
        await gm_next(combat, issued=issued_now())  # sent at once, by Discord's clock
        moved = await encounters.live(CHANNEL)
        assert moved.state.turn_seq == began.state.turn_seq + 1
    finally:
        there.services.rehearsal.close()
        await there.db.close()
        await here.close()
