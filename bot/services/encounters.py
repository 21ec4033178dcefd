"""The encounter use cases: start, look at, change and end a channel's encounter.

Every change follows one path (:meth:`EncounterService.change`): take the channel's lock → the
live row (the one this process wrote last in the channel, kept in memory, or else read from
committed data) → compute the new state and serialise it (the engine and JSON run outside the
database's writer lock, so other channels' writes go on meanwhile — issue 15) → open a
transaction → ``UPDATE … WHERE version = ?`` (checking too that what changes without a version
is as read) and the log row in one trip to the database thread → ``COMMIT``; a row that moved
meanwhile matches nothing, and the change is read and computed again (at most
:data:`STALE_RETRIES` times, then :class:`~bot.errors.ConcurrentUpdate` and nothing written). A
change that reads the database first (``prepare``: undo, a join, a handover) runs entirely inside
the transaction. Only then does the caller get a result to show, so a reply never announces
something that was not stored. Two commands of one channel in one process queue on the lock. The
lock is this process's own: with several processes on one database (PostgreSQL) nothing queues a
channel's commands across them before they are computed; the database's locks (on PostgreSQL
the channel's own lock for a change that writes only its channel, the one writer lock for one
that checks or writes across channels — :meth:`_only`, :mod:`bot.store.pg`) and the version
check make each commit build on the version before it (a command computed from
a stale row is computed again; a refusal worked out from the row this process kept is worked out
again from the database), so none is lost, applied to a stale copy or refused on one, and their
order is the order they commit in. At most one live encounter per channel is guaranteed by a partial
unique index.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from time import monotonic
from typing import Any

import orjson
from pydantic import ValidationError

from bot import names
from bot.engine import AnyState, DiceRoller, RandomRoller, Ruleset, ScriptedRoller, get_ruleset
from bot.engine.core.contract import decision_window_s
from bot.errors import (
    ConcurrentUpdate,
    Conflict,
    DomainError,
    InvalidInput,
    NoEncounter,
    NotAllowed,
    NotFound,
    RulesVersionUnknown,
)
from bot.services import campaign_records, prompts, replay
from bot.services.actor import Actor
from bot.services.away import away_marks
from bot.services.encounter import Encounter as Encounter  # the services hand it around
from bot.services.encounter import UnreadEncounter, playing_rules, read_state
from bot.services.gm_checks import ensure_gm, ensure_row_gm
from bot.services.issue_marks import Began, IssueMarks, stamp
from bot.services.prompt_bookkeeping import PromptBookkeeping
from bot.services.roster import RosterMixin
from bot.services.start_policy import ensure_may_start
from bot.services.state_text import state_text
from bot.store import campaign, guild_settings, turn_timers
from bot.store import decisions as decision_rows
from bot.store import encounters as repo
from bot.store import prompts as prompt_repo
from bot.store.base import Store, StoreConnection
from bot.store.decisions import Opening
from bot.store.encounters import NOT_UNDOABLE, EncounterRow, LogEntry

log = logging.getLogger(__name__)

NAME_MAX = 100
SNAPSHOT_EVERY = 50  # the log keeps a full state every this many versions (issue 15)
STALE_RETRIES = 5  # a change computed from a row that moved on is computed again this often
STATE_CACHE_SIZE = 128  # parsed states of the most recently used encounters
STATE_IDLE_S = 900.0  # a parsed state unused this long (monotonic seconds) is let go
LEGACY_RULES_VERSION = 1  # what encounters started before rules were frozen play by
NO_ENCOUNTER = "There is no encounter in this channel. Start one with `/encounter start`."
UNREAD_RETIRED = "The encounter ended before this was decided."
"""What a waiting decision's prompt says once its encounter, a newer bot's, ended unread."""
PAUSED = "The GM has paused the encounter. Wait for `/gm resume`."


def utc_now() -> datetime:
    return datetime.now(UTC)


class EncounterService(RosterMixin, PromptBookkeeping):
    """Async use cases over the encounters table. Dependencies come in through the constructor:
    the database, a clock (``() -> aware datetime``), a seed source (``() -> int``) for each new
    encounter's dice, optionally a roller factory replacing the seeded dice (tests), how often
    the log keeps a full state snapshot (``snapshot_every`` versions; :mod:`bot.services.replay`)
    and ``check_replay`` (tests: every change not snapshotted is replayed at once and must give
    the state committed, and the state's text rebuilt from kept parts
    (:mod:`bot.services.state_text`) must be ``model_dump_json``'s, else
    :class:`~bot.services.replay.ReplayFailed`)."""

    def __init__(
        self,
        db: Store,
        *,
        clock: Callable[[], datetime] = utc_now,
        seeds: Callable[[], int] | None = None,
        rollers: Callable[[Encounter], DiceRoller] | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        check_replay: bool = False,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self._snapshot_every = snapshot_every
        self._check_replay = check_replay
        self._db = db
        self._clock = clock
        self._seeds = seeds or (lambda: random.SystemRandom().randrange(2**63))
        self._rollers = rollers
        self._locks: dict[int, asyncio.Lock] = {}
        # encounter id → (version, its parsed state, when last used: monotonic seconds), least
        # recently used first; bounded (STATE_CACHE_SIZE) and let go when idle (STATE_IDLE_S).
        self._states: OrderedDict[int, tuple[int, AnyState, float]] = OrderedDict()
        self._monotonic = monotonic
        # channel → (the live row this process last wrote there, when: monotonic seconds),
        # least recently used first; bounded like the parsed states (STATE_CACHE_SIZE).
        self._live_rows: OrderedDict[int, tuple[EncounterRow, float]] = OrderedDict()
        # encounter id → the version at which this process knows its redo history is empty (it
        # wrote that version itself, clearing the history or building on a version it knew
        # empty): a new command built on that version need not clear it. Only at that version:
        # another process may have written since (an undo there makes something redoable).
        # Undo and redo make it unknown again.
        self._no_redo: dict[int, int] = {}
        self._channels: dict[int, int] = {}  # encounter id → its channel (never changes)
        self._dice_again: dict[int, list[int]] = {}  # encounter id → dice a step rolls again
        # Discord's clock, as issue marks (one command, one effect); where other processes
        # share the database, the service's clock (the database server's as bot.__main__
        # builds it, unless a test injects one) until an interaction tells it (IssueMarks).
        self._marks = IssueMarks(self._wall if db.shared_by_processes else None)
        # encounter id → when its turn and open decisions began, by the commits made here
        # (issue marks later than those stored; see Began), least recently used first; bounded
        # like the parsed states (STATE_CACHE_SIZE).
        self._began: OrderedDict[int, Began] = OrderedDict()

    def now(self) -> datetime:
        """The service's clock (injected; UTC)."""
        return self._clock()

    def _wall(self) -> float:
        """The service's clock in Unix seconds (:class:`IssueMarks`' ``wall``)."""
        return self._clock().timestamp()

    @property
    def db(self) -> Store:
        """The database (for the timers that read and close their own rows)."""
        return self._db

    def observe(self, issued: int | None, *, arrived: bool = False) -> None:
        """Note that a member issued something at ``issued`` (an interaction's snowflake id;
        ``arrived``: reaching the bot just now) — see :meth:`IssueMarks.observe`."""
        self._marks.observe(issued, arrived=arrived)

    @property
    def horizon(self) -> int:
        """The latest issue mark (interaction snowflake) this process has seen."""
        return self._marks.horizon

    @staticmethod
    async def _records_follow(
        conn: StoreConnection, current: Encounter, new_state: AnyState, command: str, now: datetime
    ) -> None:
        """Decision A, for every change: characters that leave the encounter take their
        campaign record with them, as they were just before leaving; characters that come (a
        join, or an undo or redo bringing one back) must not be fighting elsewhere, and one that
        comes back by undo or redo must find its record as it left it — else the change is
        refused (:class:`Conflict`), so no record is ever overwritten with an older state."""
        gone, came = _movers(current.state, new_state)
        if gone:
            await campaign_records.write_back(conn, current.rules, current.row.guild_id, gone, now)
        for c in came:
            await campaign_records.require_free(
                conn, current, c, came_back=command in ("undo", "redo")
            )

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def _load(self, conn: StoreConnection, row: EncounterRow) -> Encounter:
        """The row with its state parsed — or taken from the cache when this exact version was
        parsed or produced here before (a version's state never changes, and states are never
        mutated: the engine returns new ones); else :func:`state_of`. Raises
        :class:`~bot.services.replay.ReplayFailed` when the log cannot rebuild it."""
        began = self._began.get(row.id) or Began()
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._remember(row, cached[1])
            return Encounter(row=row, state=cached[1], began=began)
        state = await state_of(conn, row)
        self._remember(row, state)
        return Encounter(row=row, state=state, began=began)

    async def _with_away(self, conn: StoreConnection, encounter: Encounter) -> Encounter:
        """``encounter`` with the members of its server away now (``/away``), which decide
        who may act and who is pinged for a combatant (:mod:`bot.services.acting`)."""
        marks = await away_marks(self._db).active(conn, encounter.row.guild_id, self._clock())
        if not marks:
            return encounter
        return dataclasses.replace(encounter, away={m.user_id: m for m in marks})

    def _remember(self, row: EncounterRow, state: AnyState) -> None:
        """Keep ``row``'s parsed state as the most recently used; let go of the least recently
        used beyond :data:`STATE_CACHE_SIZE` and of any unused for :data:`STATE_IDLE_S`."""
        now = self._monotonic()
        self._states[row.id] = (row.version, state, now)
        self._states.move_to_end(row.id)
        while len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)
        while self._states:
            oldest = next(iter(self._states.values()))
            if now - oldest[2] < STATE_IDLE_S:
                break
            self._states.popitem(last=False)

    def _keep_row(self, channel_id: int, saved: EncounterRow, write: _Write) -> None:
        """Keep the row a change just wrote as the channel's live row (issue 15: the next
        command there need not read it), when its write can be checked against it: live, its
        open decisions as written (``seen``; :func:`bot.store.encounters.save` reads them back
        when they changed) and no ``finish`` that may have written more. The versioned UPDATE
        checks it; a mismatch drops it and reads again. A write outside this path (a prompt
        or tracker message noted) drops it too (:meth:`_forget_row`).

        Never on a database other processes write too (PostgreSQL,
        :attr:`bot.store.base.Store.shared_by_processes`): there another process's expiry loop
        may have moved the channel on before a command arrives, and a re-read after the kept
        row's version check failed could not tell that from a change committed after the
        command arrived (which :meth:`_change_outside` refuses the command for); each command
        reads the row instead (one more read, not inside the writer lock)."""
        shared = self._db.shared_by_processes
        if shared or saved.status != "live" or saved.seen is None or write.finish is not None:
            self._live_rows.pop(channel_id, None)
            return
        self._channels[saved.id] = channel_id
        self._live_rows[channel_id] = (saved, self._monotonic())
        self._live_rows.move_to_end(channel_id)
        while len(self._live_rows) > STATE_CACHE_SIZE:
            self._live_rows.popitem(last=False)

    def _forget_row(self, encounter_id: int) -> None:
        """Drop the kept live row of ``encounter_id``'s channel: something its next versioned
        UPDATE checks (the tracker message, an open decision's prompt or members asked) was
        written outside :meth:`change`, so the next command reads the row instead of being
        refused by the check and computed twice."""
        channel = self._channels.get(encounter_id)
        if channel is not None:
            self._live_rows.pop(channel, None)

    def _kept_row(self, channel_id: int) -> EncounterRow | None:
        """The channel's kept live row, unless it was unused for :data:`STATE_IDLE_S` or its
        parsed state is no longer kept (the row is kept without its state text)."""
        kept = self._live_rows.pop(channel_id, None)
        if kept is None or self._monotonic() - kept[1] >= STATE_IDLE_S:
            return None
        row = kept[0]
        state = self._states.get(row.id)
        if row.state_json is None and (state is None or state[0] != row.version):
            return None
        return row

    @property
    def cached_encounters(self) -> int:
        """How many parsed states are kept in memory now (bounded, idle ones let go)."""
        return len(self._states)

    async def start(
        self, *, guild_id: int, channel_id: int, actor: Actor, ruleset: str, name: str | None
    ) -> Encounter:
        """Start a live encounter in ``channel_id`` with ``actor`` as its GM.

        Raises :class:`InvalidInput` for an unknown ruleset or a bad name,
        :class:`RulesetNotImplemented` for a planned ruleset that cannot run yet,
        :class:`Conflict` when the channel already has a live encounter, and
        :class:`NotAllowed` when the server's start policy or cap refuses ``actor``
        (:func:`~bot.services.start_policy.ensure_may_start`, checked in this transaction).
        """
        rules: Ruleset[Any] = get_ruleset(ruleset)
        title = _clean_name(name)
        state = rules.new_encounter(name=title, seed=self._seeds())
        async with self._lock(channel_id), self._db.transaction() as conn:
            existing = await repo.live_in_channel(conn, channel_id)
            if existing is not None:
                raise _already_running(existing)
            await ensure_may_start(conn, guild_id, actor)
            # Decision A: in-game time goes on from the server's campaign clock.
            state.game_time_s = await campaign.clock(conn, guild_id)
            state_json = state.model_dump_json()
            now = self._clock()
            overrides = await guild_settings.rules_overrides(conn, guild_id)
            frozen = get_ruleset(rules.key, overrides).frozen()  # for its whole life
            row = await repo.insert(
                conn,
                guild_id=guild_id,
                channel_id=channel_id,
                name=title,
                ruleset=rules.key,
                started_by=actor.user_id,
                state_json=state_json,
                now=now,
                rules_overrides=overrides,
                rules=frozen,
                running_turn=state.running_turn,
            )
            await repo.append_log(
                conn,
                encounter_id=row.id,
                version=row.version,
                actor_id=actor.user_id,
                command="start",
                options=json.dumps({"ruleset": rules.key, "name": title}),
                result="{}",
                state=state_json,
                now=now,
            )
        log.info("encounter %s started in channel %s", row.id, channel_id)
        return Encounter(row=row, state=state)

    async def live(self, channel_id: int) -> Encounter:
        """The channel's live encounter. Raises :class:`NotFound` when there is none."""
        return await self._live(channel_id, None)

    async def _live(self, channel_id: int, gm: tuple[Actor, str] | None) -> Encounter:
        """The channel's live encounter; with ``gm`` (an actor and what they want to do),
        refused (:func:`ensure_row_gm`) unless that actor is its GM — asked of its row before
        its fight is read."""
        async with self._db.read() as conn:
            row = await repo.live_in_channel(conn, channel_id)
            if row is None:
                raise NoEncounter(NO_ENCOUNTER)
            if gm is not None:
                ensure_row_gm(row, *gm)
            return await self._with_away(conn, await self._load(conn, row))

    async def last_ended(self, channel_id: int) -> Encounter | None:
        """The channel's encounter that ended last (as it ended), None when none has."""
        async with self._db.read() as conn:
            row = await repo.last_ended_in_channel(conn, channel_id)
            if row is None:
                return None
            return await self._with_away(conn, await self._load(conn, row))

    async def live_row(self, channel_id: int) -> EncounterRow:
        """The channel's live encounter's row, its fight not read. Raises :class:`NoEncounter`
        when there is none."""
        async with self._db.read() as conn:
            row = await repo.live_in_channel(conn, channel_id)
        if row is None:
            raise NoEncounter(NO_ENCOUNTER)
        return row

    async def live_ruleset(self, channel_id: int) -> str | None:
        """The ruleset key of the channel's live encounter (``"utopia"``), None when the
        channel has none; reads the row only, not the fight."""
        async with self._db.read() as conn:
            row = await repo.live_in_channel(conn, channel_id)
        return None if row is None else row.ruleset

    async def channel_of(self, encounter_id: int) -> int:
        """The channel an encounter belongs to (a fixed fact, remembered after the first read).
        Raises :class:`NotFound`."""
        channel = self._channels.get(encounter_id)
        if channel is None:
            channel = self._channels[encounter_id] = (await self.get(encounter_id)).row.channel_id
        return channel

    async def get(self, encounter_id: int) -> Encounter:
        """Any encounter by id (live or archived). Raises :class:`NotFound`."""
        async with self._db.read() as conn:
            row = await repo.by_id(conn, encounter_id)
            if row is None:
                raise NoEncounter("That encounter no longer exists.")
            return await self._with_away(conn, await self._load(conn, row))

    async def require_gm(self, channel_id: int, actor: Actor, action: str) -> Encounter:
        """The channel's live encounter if ``actor`` is its GM; else :class:`NotAllowed` naming
        ``action`` (e.g. "end the encounter"). Who may is asked of the encounter's row before its
        fight is read: a member who is not its GM is told so, not why the fight cannot be read
        here (:class:`~bot.errors.RulesVersionUnknown`: a newer bot's — what to do about that
        is its GM's to hear; ``cogs.gm.groups.gm_first`` asks this before every ``/gm``
        command)."""
        return await self._live(channel_id, (actor, action))

    async def end(self, encounter_id: int, actor: Actor) -> Encounter:
        """Archive a live encounter (kept in the database, no longer live). GM only.

        Raises :class:`NotFound` if it does not exist, :class:`Conflict` if it already ended,
        :class:`NotAllowed` if ``actor`` is not its GM.
        """
        encounter = await self.get(encounter_id)
        async with self._lock(encounter.row.channel_id), self._db.transaction() as conn:
            current = await self._live_by_id(conn, encounter_id)
            ended = await self._archive(conn, current, actor)
        return ended

    async def open_end(
        self, channel_id: int, actor: Actor
    ) -> tuple[Encounter | UnreadEncounter, int]:
        """Ask the GM before ending the channel's encounter: records an open prompt and returns
        the encounter and the prompt's id (its buttons carry it). GM only. An encounter whose
        fight this bot cannot read (a newer bot froze its rules) is returned as an
        :class:`UnreadEncounter`: it can be ended all the same (:meth:`confirm_end`)."""
        try:
            encounter: Encounter | UnreadEncounter = await self.require_gm(
                channel_id, actor, "end the encounter"
            )
        except RulesVersionUnknown as error:
            encounter = UnreadEncounter(row=await self.live_row(channel_id), reason=str(error))
            ensure_gm(encounter, actor, "end the encounter")
        async with self._db.transaction() as conn:
            prompt_id = await prompt_repo.open_prompt(
                conn,
                kind="encounter.end",
                target_id=encounter.id,
                guild_id=encounter.row.guild_id,
                channel_id=channel_id,
                opened_by=actor.user_id,
                now=self._clock(),
            )
        return encounter, prompt_id

    async def confirm_end(self, prompt_id: int, actor: Actor) -> Encounter | UnreadEncounter:
        """Confirm an end prompt: answer it and archive its encounter in one transaction (GM
        only, checked now). Raises :class:`Conflict` when the encounter already ended or the
        prompt was already answered (after Cancel, nothing ends); a refusal leaves it open.
        An encounter whose fight this bot cannot read (a newer bot froze its rules) is archived
        without reading it (:meth:`_archive_unread`) and returned as an
        :class:`UnreadEncounter`."""
        channel_id = await self._prompt_channel(prompt_id)
        async with self._lock(channel_id), self._db.transaction() as conn:
            prompt = await prompts.require_prompt(conn, prompt_id, "encounter.end")
            current = await self._live_or_unread(conn, prompt.target_id)
            prompts.require_open(prompt)
            ensure_gm(current, actor, "end the encounter")
            await prompts.settle(conn, prompt, "confirmed", self._clock())
            if isinstance(current, UnreadEncounter):
                return await self._archive_unread(conn, current, actor)
            ended = await self._archive(conn, current, actor)
        return ended

    async def cancel_end(self, prompt_id: int, actor: Actor) -> Encounter | UnreadEncounter:
        """Cancel an end prompt (its opener or a GM): after this its Confirm ends nothing.
        Raises :class:`Conflict` when the encounter already ended (it does not keep running)."""
        channel_id = await self._prompt_channel(prompt_id)
        async with self._lock(channel_id), self._db.transaction() as conn:
            prompt = await prompts.require_prompt(conn, prompt_id, "encounter.end")
            current = await self._live_or_unread(conn, prompt.target_id)
            prompts.require_open(prompt)
            if actor.user_id != prompt.opened_by:
                ensure_gm(current, actor, "answer this prompt")
            await prompts.settle(conn, prompt, "cancelled", self._clock())
        return current

    async def _prompt_channel(self, prompt_id: int) -> int:
        """The channel of an end prompt (whose lock a change takes); NotFound when it is gone."""
        async with self._db.read() as conn:
            prompt = await prompts.require_prompt(conn, prompt_id, "encounter.end")
        if prompt.channel_id is None:  # end prompts always record their channel
            raise NotFound(prompts.PROMPT_GONE)
        return prompt.channel_id

    async def _live_by_id(self, conn: StoreConnection, encounter_id: int) -> Encounter:
        """Encounter ``encounter_id`` if it is live; NotFound or Conflict (already ended)."""
        row = await repo.by_id(conn, encounter_id)
        if row is None:
            raise NotFound("That encounter no longer exists.")
        if row.status != "live":
            raise _already_ended()
        return await self._load(conn, row)

    async def _live_or_unread(
        self, conn: StoreConnection, encounter_id: int
    ) -> Encounter | UnreadEncounter:
        """Encounter ``encounter_id`` if it is live (:meth:`_live_by_id`) — as an
        :class:`UnreadEncounter`, its row alone, when its fight is a newer bot's."""
        try:
            return await self._live_by_id(conn, encounter_id)
        except RulesVersionUnknown as error:
            row = await repo.by_id(conn, encounter_id)
            assert row is not None  # _live_by_id read it live in this transaction
            return UnreadEncounter(row=row, reason=str(error))

    async def _archive(self, conn: StoreConnection, current: Encounter, actor: Actor) -> Encounter:
        """Archive ``current`` (GM only) and log it, inside the caller's transaction."""
        ensure_gm(current, actor, "end the encounter")
        row = current.row
        now = self._clock()
        # The channel's next command reads what is live there now, not the ended fight's row.
        self._live_rows.pop(row.channel_id, None)
        # Decision A: its characters' records and the campaign clock move on with it.
        await campaign_records.write_back(
            conn, current.rules, row.guild_id, current.state.combatants, now
        )
        await campaign.advance_clock(conn, row.guild_id, current.state.game_time_s, now)
        # The row keeps the state it ends with (the export and a member's erasure read it).
        saved = await repo.save(
            conn, row, now=now, status="archived", state_json=current.state_json
        )
        await repo.append_log(
            conn,
            encounter_id=row.id,
            version=saved.version,
            actor_id=actor.user_id,
            command="end",
            options="{}",
            result="{}",
            state=current.state_json,  # the state as it ends (the row keeps its column)
            now=now,
        )
        log.info("encounter %s ended by %s", row.id, actor.user_id)
        return Encounter(row=saved, state=current.state)

    async def _archive_unread(
        self, conn: StoreConnection, current: UnreadEncounter, actor: Actor
    ) -> UnreadEncounter:
        """Archive ``current``, whose fight this bot cannot read (a newer bot's), without
        reading it, inside the caller's transaction: the row and its stored state stay as that
        bot wrote them (only its status, version and end time change), its open decisions
        close, and its log gets an ``end`` row that replays as no change — so the newer bot,
        run again, reads the archived fight as it left it; its decisions' prompts lose their
        buttons (:data:`UNREAD_RETIRED`). What needs the fight is not done:
        no summary, and its characters' campaign records and the campaign clock stay where
        they were (the reply says so)."""
        ensure_gm(current, actor, "end the encounter")
        row = current.row
        now = self._clock()
        self._live_rows.pop(row.channel_id, None)
        self._states.pop(row.id, None)
        saved = await repo.save(conn, row, now=now, status="archived")  # decisions close
        # Their prompts lose their buttons, saying why, on the prompt keeper's next pass (the
        # words an ended fight's prompts get, without the decision's own noun: unread).
        for _, closed in await decision_rows.to_retire(conn):
            if closed.encounter_id == row.id and closed.prompt_message_id is not None:
                await decision_rows.retire_later(
                    conn, closed.prompt_message_id, UNREAD_RETIRED, None
                )
        await repo.append_log(
            conn,
            encounter_id=row.id,
            version=saved.version,
            actor_id=actor.user_id,
            command="end",
            options="{}",
            result=json.dumps({replay.AT: now.isoformat()}),  # replays as no change
            state=None,
            now=now,
        )
        log.info("encounter %s ended by %s unread (a newer bot's)", row.id, actor.user_id)
        return UnreadEncounter(row=saved, reason=current.reason)

    async def freeze_rules(self) -> int:
        """Freeze the rules of live encounters started before rules were frozen (migration
        0013) as what they played by: rules version 1 (``LEGACY_RULES_VERSION``) with the
        shipped tables and their server changes. Run at start-up, before any command; safe to
        run again. Returns how many were frozen. An encounter whose ruleset can no longer be
        configured is left as it is and logged (its commands then say why)."""
        frozen = 0
        async with self._db.transaction() as conn:
            for row in await repo.unfrozen(conn):
                try:
                    rules = get_ruleset(row.ruleset, row.rules_overrides)
                    data = json.loads(rules.frozen())
                except DomainError as error:
                    log.warning("encounter %s: rules not frozen: %s", row.id, error)
                    continue
                data["version"] = LEGACY_RULES_VERSION
                text = json.dumps(data, separators=(",", ":"))
                frozen += await repo.freeze_rules(conn, row.id, text)
        if frozen:
            log.info("froze the rules of %d encounter(s) started before rules versions", frozen)
        return frozen

    async def change(
        self,
        channel_id: int,
        actor: Actor,
        command: str,
        options: dict[str, Any],
        step: Callable[[Encounter], tuple[AnyState, dict[str, Any]]],
        *,
        prepare: Callable[[StoreConnection, Encounter], Awaitable[None]] | None = None,
        finish: Callable[[StoreConnection, EncounterRow], Awaitable[None]] | None = None,
        gm_id: int | None = None,
        paused: bool | None = None,
    ) -> tuple[Encounter, dict[str, Any]]:
        """Apply ``step`` to the channel's live encounter and commit the state it returns.

        ``step`` gets the current :class:`Encounter` and returns ``(new_state, result)``; it must
        not mutate what it was given and may raise a :class:`DomainError`, in which case nothing
        is written. The change is logged under ``command`` with ``options`` and ``result``.
        Returns the stored encounter and ``result``.

        While the encounter is paused only its GM's commands are applied (others are refused
        with :data:`PAUSED`). A command that is not bookkeeping (see
        :data:`~bot.store.encounters.NOT_UNDOABLE`) clears the redo history. Inside the same
        transaction, ``prepare`` may read the database before ``step`` runs (undo reads the
        log), ``finish`` may write after the new version is logged; ``gm_id`` and ``paused``
        change those columns with the new version.
        """
        self.observe(actor.issued)
        async with self._lock(channel_id):
            write = _Write(actor, command, options, finish, gm_id, paused)
            if prepare is None:
                saved, done = await self._change_outside(channel_id, step, write)
            else:
                async with self._db.transaction() as conn:
                    row = await repo.live_in_channel(conn, channel_id)
                    current = await self._with_away(conn, await self._ready(conn, row, actor))
                    await prepare(conn, current)
                    done = self._compute(current, step)
                    saved = await self._commit(conn, done, write)
        self._remember(saved, done.state)
        began = self._note_began(saved.id, done.current, done.state)
        changed = Encounter(row=saved, state=done.state, away=done.current.away, began=began)
        self._keep_row(channel_id, changed.row, write)  # held without its state text
        if command not in ("undo", "redo") and (done.cleared or done.redo_known):
            self._no_redo[saved.id] = saved.version
        else:  # something may be redoable again, or another process's write came between
            self._no_redo.pop(saved.id, None)
        return changed, done.result

    def _note_began(self, encounter_id: int, current: Encounter, new_state: AnyState) -> Began:
        """Just after a change from ``current`` to ``new_state`` committed: what began in it
        began no earlier than Discord's time now (:meth:`IssueMarks.now_mark`), later than the
        mark its state stores, which was taken before the commit. A command that reached the
        bot in between was issued before anyone could see what began, and is dated against
        this (:meth:`Encounter.turn_mark`, :meth:`Encounter.decision_mark`)."""
        began = current.began.after(current.state, new_state, self._marks.now_mark())
        self._began[encounter_id] = began
        self._began.move_to_end(encounter_id)
        while len(self._began) > STATE_CACHE_SIZE:
            self._began.popitem(last=False)
        return began

    async def _ready(
        self, conn: StoreConnection, row: EncounterRow | None, actor: Actor
    ) -> Encounter:
        """The live row parsed, if ``actor`` may change it now: :class:`NotFound` when there is
        none, refused when a newer bot froze its rules or (for all but its GM) it is paused."""
        if row is None:
            raise NoEncounter(NO_ENCOUNTER)
        current = await self._load(conn, row)
        current.playing_rules()  # rules a newer bot froze: refused before anything runs
        if row.paused and not current.is_gm(actor):
            raise NotAllowed(PAUSED)
        return current

    def _compute(
        self,
        current: Encounter,
        step: Callable[[Encounter], tuple[AnyState, dict[str, Any]]],
        dice: list[int] | None = None,
    ) -> _Computed:
        """Run ``step`` on ``current`` and serialise what it gives (engine and JSON: no database
        and, on the usual path, outside the database's writer lock). ``dice``: the dice a run of
        the same step on the same state rolled (:meth:`roller` hands them out again)."""
        if dice is not None:
            self._dice_again[current.id] = dice
        try:
            new_state, result = step(current)
        except ValidationError as error:  # a command built from a member's options
            raise InvalidInput(_option_problem(error)) from None
        finally:
            self._dice_again.pop(current.id, None)
        # A turn or decision that begins here — undo and redo bring one back too — is
        # dated now, so a command sent for what stood before is refused.
        now = self._clock()
        new_state, logged = self._stamped(current, new_state, result, now)
        result_json = _dumps(logged)
        version = current.version + 1
        snapshot = self._snapshot(current, new_state, version, logged)
        # The live row's state is rewritten only with a snapshot, or when who is in the fight
        # or who plays them changed (the store's searches read the stored state); else the log
        # row is the change (issue 15: no state text made, none written).
        rewrites = snapshot or _roster(current.state) != _roster(new_state)
        state_json = None
        if rewrites or self._check_replay:
            state_json = state_text(new_state)  # model_dump_json's text, unchanged parts kept
        if self._check_replay:
            assert state_json is not None
            if state_json != new_state.model_dump_json():
                raise replay.ReplayFailed("the state's text rebuilt from its parts differs")
            if not snapshot:
                self._replays_exactly(current, version, result_json, state_json)
        return _Computed(
            current, new_state, result, now, state_json, result_json, snapshot, rewrites
        )

    async def _change_outside(
        self,
        channel_id: int,
        step: Callable[[Encounter], tuple[AnyState, dict[str, Any]]],
        write: _Write,
    ) -> tuple[EncounterRow, _Computed]:
        """The usual path of :meth:`change` (issue 15): read the live row from committed data,
        run the engine and serialise outside the writer lock, then in the transaction (for the
        channel alone when :meth:`_only` says so: issue 16) write
        with ``UPDATE … WHERE version = ?`` — whose condition also checks that the columns kept
        without a version are as read — and the log row, in one trip. A row that moved on
        meanwhile (another process, a write outside this path, a prompt message noted) is read
        again and ``step`` re-run, up to :data:`STALE_RETRIES` times; at the same version with
        the dice it rolled the first time (nothing is rolled twice). A refusal (``step`` or the
        row's checks raising :class:`DomainError`) worked out from the kept row is worked out
        again from the row read from the database: nothing is written, so no version check
        would notice that another process had moved the fight on (a turn it ended, a pause it
        lifted)."""
        rolled: tuple[int, int, list[int] | None] | None = None
        first: Encounter | None = None
        for _ in range(STALE_RETRIES):
            async with self._db.read() as reader:
                row = self._kept_row(channel_id)  # the row this process wrote last, if kept
                kept = row is not None
                if row is None:
                    row = await repo.live_in_channel(reader, channel_id)
                try:
                    current = await self._with_away(
                        reader, await self._ready(reader, row, write.actor)
                    )
                except DomainError:
                    if kept:  # another process may have moved it on: judge the row as it is
                        continue
                    raise
            if first is None:
                first = current
            elif first.id == current.id and write.actor.issued is not None:
                # Read again: whatever began since the first read began after this command
                # arrived, so it was meant for what stood before and is refused by it, not
                # applied to a turn or decision its member never saw (issue 9 §3).
                began = current.began.after(first.state, current.state, write.actor.issued)
                current = dataclasses.replace(current, began=began)
            again = rolled[2] if rolled and rolled[:2] == (current.id, current.version) else None
            try:
                done = self._compute(current, step, again)
            except DomainError:
                if kept:  # a refusal is never worked out from a kept row: read it, run again
                    # The kept row may be another process's writes behind (PostgreSQL): what the
                    # database shows beyond it may have begun before this command arrived, so
                    # it is not the read that dates what began since.
                    first = None
                    continue
                raise
            rolled = (current.id, current.version, done.result.get("dice"))
            try:
                return await self._write(channel_id, done, write), done
            except ConcurrentUpdate:
                self._live_rows.pop(channel_id, None)
                continue  # the savepoint is rolled back; read again
        raise ConcurrentUpdate(
            "The encounter changed while your command was being applied; please try again."
        )

    async def _write(self, channel_id: int, done: _Computed, write: _Write) -> EncounterRow:
        """Commit ``done`` (:meth:`_commit`): as a single-trip unit (issue 15: queued with the
        other channels' units, one trip and one COMMIT for them all; no writer lock held while
        the trip runs) when it writes only this channel and is one trip — no campaign record,
        no ``finish``, no turn deadline to follow — else in a transaction of its own."""
        only = self._only(channel_id, done, write)
        if only is not None and turn_timers.untouched(done.current.state, done.state):
            return await self._commit(self._db.single_trip(channel=only), done, write)
        async with self._db.transaction(channel=only) as conn:
            return await self._commit(conn, done, write)

    @staticmethod
    def _only(channel_id: int, done: _Computed, write: _Write) -> int | None:
        """``channel_id`` when :meth:`_commit` of ``done`` writes only that channel's encounter
        (its row, log, redo history, decisions, turn timers) and reads nothing of another
        channel, so the store may let other channels' writes run meanwhile
        (:meth:`bot.store.base.Store.transaction`); else ``None`` (the one writer lock): a
        ``finish`` (it may write anything), or a character coming or going (its campaign record
        is written or checked, and whether it fights in another channel)."""
        if write.finish is not None:
            return None
        gone, came = _movers(done.current.state, done.state)
        if gone or came:
            return None
        return channel_id

    async def _commit(self, conn: StoreConnection, done: _Computed, write: _Write) -> EncounterRow:
        """Inside the change's transaction: campaign records, the versioned UPDATE with the log
        row and the redo history (one trip), the decisions, the turn timers and ``finish``."""
        current, new_state, now, command = done.current, done.state, done.now, write.command
        await self._records_follow(conn, current, new_state, command, now)
        version = current.version + 1
        then = [
            repo.log_statement(
                encounter_id=current.id,
                version=version,
                actor_id=write.actor.user_id,
                command=command,
                options=_dumps(write.options),
                result=done.result_json,
                state=done.text() if done.snapshot else None,
                now=done.now,
            )
        ]
        done.redo_known = self._no_redo.get(current.id) == current.version
        done.cleared = command not in NOT_UNDOABLE and not done.redo_known
        if done.cleared:
            then.append(repo.clear_redo_statement(current.id, version))
        saved = await repo.save(
            conn,
            current.row,
            now=now,
            # ``finish`` reads the state of the row it gets (and may write more of it).
            state_json=done.text() if done.rewrites or write.finish is not None else None,
            pending=_openings(current, new_state, now),
            gm_id=write.gm_id,
            paused=write.paused,
            then=then,
            # Held without it beside the parsed state (held()); ``finish`` may read it.
            return_state_text=write.finish is not None,
            running_turn=new_state.running_turn,
        )
        await turn_timers.follow(
            conn,
            saved.id,
            current.state,
            new_state,
            saved.version,
            now,
            fresh=command in ("undo", "redo"),
            # The turn's clock stands still while the fight is paused or a decision waits.
            stopped=saved.paused or bool(new_state.decisions),
        )
        if write.finish is not None:
            await write.finish(conn, saved)
        return saved

    def _stamped(
        self, current: Encounter, new_state: AnyState, result: dict[str, Any], now: datetime
    ) -> tuple[AnyState, dict[str, Any]]:
        """``new_state`` with what began in the change dated now (:class:`IssueMarks`), and the
        result as logged: with the issue mark used (``marker``) when it dated anything, and
        replayable as nothing (``at``) when the change left the state as it was."""
        logged = dict(result)
        if new_state is current.state:
            logged[replay.AT] = now.isoformat()
        floor = self._marks.floor(current.state, new_state)
        stamped = stamp(current.state, new_state, floor)
        if stamped is not new_state:
            logged[replay.MARKER] = floor
        return stamped, logged

    def _snapshot(
        self, current: Encounter, new_state: AnyState, version: int, logged: dict[str, Any]
    ) -> bool:
        """Whether the log row of ``version`` keeps a full snapshot (:mod:`bot.services.replay`):
        every ``snapshot_every`` versions, when the fight ends, and whenever the change cannot be
        replayed from its result (start, undo, redo, a refresh, an erasure…)."""
        if not replay.replayable(logged) or version % self._snapshot_every == 0:
            return True
        return new_state.phase == "finished" and current.state.phase != "finished"

    @staticmethod
    def _replays_exactly(current: Encounter, version: int, result: str, state_json: str) -> None:
        """Check mode (tests): replaying the change gives exactly the state committed, else
        :class:`~bot.services.replay.ReplayFailed`."""
        entry = LogEntry(
            encounter_id=current.id,
            version=version,
            actor_id=0,
            command="check",
            options="{}",
            result=result,
            created_at=utc_now(),
        )
        again = replay.replay(current.rules, current.state, entry).model_dump_json()
        if again != state_json:
            raise replay.ReplayFailed(f"version {version} does not replay exactly")

    async def state_at(self, conn: StoreConnection, current: Encounter, version: int) -> AnyState:
        """The state ``current``'s encounter had at ``version`` (its nearest snapshot with the
        changes after it replayed, :mod:`bot.services.replay`). Raises
        :class:`~bot.services.replay.ReplayFailed` when the log cannot rebuild it."""
        if version == current.version:
            return current.state
        entries = await repo.history(conn, current.id, version)
        return replay.rebuild(current.rules, entries)

    # --- combatants from sheets (issue 4) -------------------------------------------------

    def roller(self, encounter: Encounter) -> DiceRoller:
        """Dice for one change: by default reproducible from the encounter's seed and version
        (the same commands with the same seed roll the same dice); ``rollers`` overrides it."""
        again = self._dice_again.get(encounter.id)
        if again is not None:
            return ScriptedRoller(again)
        if self._rollers is not None:
            return self._rollers(encounter)
        return _SeededDice(f"{encounter.state.seed}:{encounter.version}")


class _SeededDice:
    """The dice of one change: exactly those of ``RandomRoller(random.Random(seed))`` — the
    same values for the same encounter seed and version, which seeded fights and replays rely
    on — but the generator is made only when a die is first rolled (seeding ``random`` from a
    string hashes it; most commands that roll nothing — end of turn, a stance, a move — skip
    that, issue 15's CPU diet)."""

    __slots__ = ("_dice", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._dice: RandomRoller | None = None

    def roll(self, count: int, sides: int) -> list[int]:
        """Roll ``count`` dice of ``sides`` sides (:meth:`RandomRoller.roll`: its limits)."""
        if self._dice is None:
            self._dice = RandomRoller(random.Random(self._seed))
        return self._dice.roll(count, sides)


@dataclass(slots=True)
class _Computed:
    """A change computed from ``current`` (the row it read): the new state, the step's result,
    the clock, both JSON texts (the state's when made: :meth:`text`), whether the log row keeps
    a snapshot and whether the row's state is rewritten, and (once written)
    whether the redo history was known to be empty at ``current``'s version and whether it was
    cleared."""

    current: Encounter
    state: AnyState
    result: dict[str, Any]
    now: datetime
    state_json: str | None
    result_json: str
    snapshot: bool
    rewrites: bool
    """Whether the live row's state is rewritten (a snapshot, or who is in the fight or who plays
    them changed); else the row keeps the state it stored and the log row is the change."""
    redo_known: bool = False
    cleared: bool = False

    def text(self) -> str:
        """The new state's JSON text (:func:`~bot.services.state_text.state_text`), made once."""
        if self.state_json is None:
            self.state_json = state_text(self.state)
        return self.state_json


@dataclass(frozen=True, slots=True)
class _Write:
    """What :meth:`EncounterService.change` writes besides the state: who, the command and its
    options (logged), ``finish``, and the GM seat and pause columns."""

    actor: Actor
    command: str
    options: dict[str, Any]
    finish: Callable[[StoreConnection, EncounterRow], Awaitable[None]] | None
    gm_id: int | None
    paused: bool | None


def _has_characters(state: AnyState) -> bool:
    """Whether a combatant of ``state`` carries a campaign character's record (a plain loop:
    every command asks twice, and ``any`` over a generator costs several times more)."""
    for c in state.combatants:  # noqa: SIM110
        if c.character_id is not None:
            return True
    return False


async def state_of(conn: StoreConnection, row: EncounterRow) -> AnyState:
    """The state at ``row.version``, parsed from the row (no cache): its stored state, and when
    that is older (:attr:`~bot.store.encounters.EncounterRow.state_version`) the log's changes
    since replayed over it with their recorded dice (:func:`bot.services.replay.forward`; one
    read). Raises :class:`~bot.services.replay.ReplayFailed` when the log cannot rebuild it,
    :class:`~bot.errors.RulesVersionUnknown` when it is behind and plays by rules a newer bot
    froze, or a newer bot's state does not parse here (:func:`read_state`), ``ValueError`` for
    a row held without its state text."""
    if row.status != "live":
        try:
            return await _state_of(conn, row)
        except RulesVersionUnknown:
            # Its advice (run the newer bot to go on, or end it here unread) is for a live
            # fight: this one has ended (unread, here, or under the newer bot).
            title = get_ruleset(row.ruleset).title
            raise RulesVersionUnknown(
                f"This encounter was saved by a newer version of the bot ({title} rules version "
                f"{row.rules_version}), and this version cannot read its fight. It has ended; "
                "the newer version shows it (its recap and log)."
            ) from None
    return await _state_of(conn, row)


async def _state_of(conn: StoreConnection, row: EncounterRow) -> AnyState:
    parse = get_ruleset(row.ruleset).load_state
    state: AnyState = read_state(row, row.stored_state_text)
    if row.state_version is None:
        return state
    # The rules it plays by replay it; rules a newer bot froze cannot (its changes since would
    # be replayed by this version's rules: refused, or a different state shown and ended with):
    # RulesVersionUnknown says so.
    rules = playing_rules(row)
    changes = await repo.changes_after(conn, row.id, row.state_version, row.version)
    replayed = replay.forward(rules, state, row.state_version, changes, row.version)
    # Held as the state parsed from its text (compact, sheets shared: issue 15, "Memory"); the
    # engine's own objects of the replay took 16.2 MiB per 1,000 fresh encounters against 12.7
    # (docs/performance.md, "The live row's state only with the snapshots").
    return parse(replayed.model_dump_json())  # type: ignore[no-any-return]


def _roster(state: AnyState) -> tuple[tuple[str, str, int | None, int | None], ...]:
    """Who is in the fight and who plays them: each combatant's id, name, controlling member and
    campaign character. When it changes the live row's state is rewritten, so what the store
    finds in the stored state (a member's id, a character fighting) is never behind (issue 15;
    :func:`bot.store.encounters.live_with_character`, :mod:`bot.store.member_data`)."""
    return tuple((c.id, c.name, c.controller_id, c.character_id) for c in state.combatants)


def _movers(before: AnyState, after: AnyState) -> tuple[list[Any], list[Any]]:
    """The combatants with a campaign character that a change from ``before`` to ``after``
    takes out of the encounter (``gone``, as they were) and brings in (``came``)."""
    if not (_has_characters(before) or _has_characters(after)):
        return [], []  # the common case: no character with a record here
    staying = {c.id for c in after.combatants}
    was_here = {c.id for c in before.combatants}
    gone = [c for c in before.combatants if c.character_id is not None and c.id not in staying]
    came = [c for c in after.combatants if c.character_id is not None and c.id not in was_here]
    return gone, came


def _openings(current: Encounter, new_state: AnyState, now: datetime) -> list[Opening]:
    """The decisions open after a change, for the decisions table: one that was open before,
    unchanged, keeps the version it opened at and its deadline; a new one (or one an undo or
    redo brought back) opens at this version with its window from now (its own ``window_s`` or
    the encounter's reaction window)."""
    openings: list[Opening] = []
    for decision in new_state.decisions:
        row = current.row.open_decision(decision.id)
        if row is not None and current.state.decision(decision.id) == decision:
            openings.append(Opening(decision.id, row.opened_version, row.deadline))
            continue
        window = timedelta(seconds=decision_window_s(new_state, decision))
        openings.append(Opening(decision.id, current.version + 1, now + window))
    return openings


_DUMPS_LIKE_JSON = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def _dumps(value: Any) -> str:
    """``value`` (a command's options or result: JSON data) as compact JSON text, with
    ``orjson`` (issue 15's CPU diet: the log's texts are written on every command). It parses
    back to what ``json.dumps(value, default=str)`` gave before — keys as text, anything else
    not JSON (a date, a dataclass) as its ``str`` — only the spacing and the escaping of
    non-ASCII characters differ. Raises ``TypeError`` for what neither can write."""
    return orjson.dumps(value, default=str, option=_DUMPS_LIKE_JSON).decode()


def _option_problem(error: ValidationError) -> str:
    """One line naming the option a member got wrong, e.g. "`stance`: at least 1 character"."""
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "option"
    message = str(first["msg"]).replace("String should have", "it needs")
    message = message.removeprefix("Value error, ")  # a name rule's own words (bot.names)
    if first["type"] == "string_too_short":
        message = "it cannot be empty (spaces alone do not count)"
    return f"{names.code(where)}: {message}."


def _clean_name(name: str | None) -> str:
    """The encounter's name in its normal form (:mod:`bot.names`); "Encounter" when none was
    given. Raises :class:`InvalidInput` for control characters, a name made only of invisible
    characters, or one over :data:`NAME_MAX` characters."""
    if name is None or not name.strip():
        return "Encounter"
    return names.require(name, what="the encounter name", max_length=NAME_MAX)


def _already_running(row: EncounterRow) -> Conflict:
    return Conflict(
        f"**{names.escaped(row.name)}** is already running in this channel. "
        "End it with `/encounter end` before starting another."
    )


def _already_ended() -> Conflict:
    return Conflict("That encounter has already ended.")
