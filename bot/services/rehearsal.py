"""``/rehearse`` (issue 18): the GM plays the channel's fight many times before it happens.

:meth:`RehearsalService.prepare` checks everything cheap in the bot's process (the GM, a
running fight, the fight count, the policy, a rehearsal already running on the server) so a
refusal is immediate; :meth:`RehearsalService.run` plays the fights off the event loop, in
worker processes (a :class:`~concurrent.futures.ProcessPoolExecutor`, started on first use), in
chunks of :data:`~bot.engine.core.rehearse.CHUNK` fights whose dice depend only on the seed and
the chunk's number — so a seed gives the same figures however the chunks are spread.

At most one rehearsal runs per server; the next ones wait their turn in a queue (at most
:data:`QUEUE_MAX` waiting per server; one more is refused with how long the queue may take),
and the GM is told they are queued and behind how many. A rehearsal takes its place when it is
checked (:meth:`RehearsalService.prepare`), before anything is awaited, so rehearsals asked at
once are counted, refused and run in the order they were asked. Each rehearsal stops at
``time_limit_s`` (default 60 s) and reports the fights played by then. The stored encounter is
only read: the workers get a JSON copy of its state.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bot.engine import get_ruleset
from bot.engine.core.contract import Ruleset
from bot.engine.core.rehearse import (
    ROUNDS_MAX,
    RehearsalReport,
    Tally,
    check_request,
    chunks,
    play_chunk,
    report,
)
from bot.errors import Conflict, DomainError
from bot.services.actor import Actor
from bot.services.encounters import Encounter, EncounterService
from bot.services.gm_checks import ensure_gm

log = logging.getLogger(__name__)

TIME_LIMIT_S = 60.0
"""The longest one rehearsal runs (seconds); it then reports the fights played so far."""
QUEUE_MAX = 3
"""Rehearsals that may wait behind the running one on a server (each waits at most
``time_limit_s`` per rehearsal ahead: well within an interaction's 15 minutes)."""
SEED_MAX = 2**31 - 1


class RehearsalFailed(DomainError):
    """The worker processes stopped mid-rehearsal (killed, out of memory), or the bot is
    stopping: nothing was changed and the next rehearsal starts fresh ones."""


STOPPING = (
    "The bot is stopping (a restart or an update), so this rehearsal stopped before it "
    "finished (nothing was changed): ask for it again once the bot is back."
)
"""What the GM of a rehearsal running or queued when the bot stops reads."""


@lru_cache(maxsize=8)
def _rules(key: str, frozen: str) -> Ruleset[Any]:
    return get_ruleset(key, frozen=frozen)


def play_in_worker(
    key: str,
    frozen: str,
    state_json: str,
    policy: str,
    seed: int,
    index: int,
    fights: int,
    max_rounds: int,
    deadline: float,
) -> Tally:
    """One chunk in a worker process: the ruleset from its frozen rules, the state from its
    JSON, then :func:`~bot.engine.core.rehearse.play_chunk` with the host's monotonic clock
    (system-wide, so ``deadline`` means the same in every process)."""
    rules = _rules(key, frozen)
    state = rules.load_state(state_json)
    return play_chunk(
        rules,
        state,
        policy=policy,
        seed=seed,
        index=index,
        fights=fights,
        max_rounds=max_rounds,
        deadline=deadline,
        clock=time.monotonic,
    )


@dataclass(eq=False)
class _Place:
    """A rehearsal's place in its server's queue: ``turn`` is set when it may run."""

    turn: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class RehearsalJob:
    """A rehearsal checked and ready to run: the encounter as read, the fights, policy and seed,
    the server it counts against, its place in that server's queue (taken when it was checked)
    and how many rehearsals were ahead of it then (``ahead``: running and queued)."""

    encounter: Encounter
    guild_id: int
    fights: int
    policy: str
    seed: int
    place: _Place = field(default_factory=_Place, repr=False)
    ahead: int = 0


def default_executor() -> Executor:
    """Worker processes, one per core (at most 2), started with ``spawn`` (no copy of the bot's
    threads and connections)."""
    workers = max(1, min(2, os.cpu_count() or 1))
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


class RehearsalService:
    """Runs rehearsals. ``executor``: where the chunks run (default: :func:`default_executor`,
    made on first use); ``clock``: monotonic seconds for the time bound; ``seeds``: a seed for
    a rehearsal given none."""

    def __init__(
        self,
        encounters: EncounterService,
        *,
        executor: Callable[[], Executor] = default_executor,
        time_limit_s: float = TIME_LIMIT_S,
        clock: Callable[[], float] = time.monotonic,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self._encounters = encounters
        self._make_executor = executor
        self._executor: Executor | None = None
        self.time_limit_s = time_limit_s
        self._clock = clock
        self._seeds = seeds or (lambda: random.SystemRandom().randrange(SEED_MAX))
        self._running: dict[int, float] = {}  # server id → when its rehearsal started
        self._queues: dict[int, list[_Place]] = {}  # server id → its rehearsals, in order
        self._stopping = asyncio.Event()  # set by close(): every rehearsal stops, saying so

    async def prepare(
        self,
        channel_id: int,
        guild_id: int,
        actor: Actor,
        *,
        fights: int,
        policy: str | None,
        seed: int | None,
    ) -> RehearsalJob:
        """A rehearsal of the channel's running fight, checked, with its place in the server's
        queue taken at once (``job.ahead`` says behind how many it waits): a rehearsal asked
        while an earlier one is still being answered counts that one, and the queue's bound
        holds however quickly they come. Give the place back with :meth:`run` (or
        :meth:`leave`, when it will not run). Raises :class:`~bot.errors.NotFound` (no
        encounter), :class:`~bot.errors.NotAllowed` (not its GM),
        :class:`~bot.errors.InvalidInput` (no running fight, fights out of 1..10,000, an unknown
        policy), :class:`~bot.errors.RulesetNotImplemented` (a system whose rehearsal is
        planned), :class:`~bot.errors.RulesVersionUnknown` (rules a newer bot froze) and
        :class:`Conflict` (:data:`QUEUE_MAX` already wait on this server)."""
        encounter = await self._encounters.live(channel_id)
        ensure_gm(encounter, actor, "rehearse the fight")
        # The rules the fight plays by, as it froze them: a newer bot's (a version this one
        # does not know) are refused, not stood in for by this version's (Encounter.rules).
        rules = encounter.playing_rules()
        chosen = check_request(rules, encounter.state, fights, policy)
        chosen_seed = self._seeds() if seed is None else seed
        # No await from here to the place taken: the check and the place are one step.
        self._refuse_if_full(guild_id)
        queue = self._queues.setdefault(guild_id, [])
        job = RehearsalJob(
            encounter=encounter,
            guild_id=guild_id,
            fights=fights,
            policy=chosen,
            seed=chosen_seed,
            ahead=len(queue),
        )
        queue.append(job.place)
        if len(queue) == 1:
            job.place.turn.set()
        return job

    def ahead(self, guild_id: int) -> int:
        """How many rehearsals a new one on the server would wait behind (running, and
        queued: asked and not finished)."""
        return len(self._queues.get(guild_id, ()))

    def _refuse_if_full(self, guild_id: int) -> None:
        waiting = self.ahead(guild_id) - 1  # behind the first, which runs
        if waiting < QUEUE_MAX:
            return
        started = self._running.get(guild_id, self._clock())
        left = max(1, round(self.time_limit_s - (self._clock() - started)))
        most = left + round(self.time_limit_s) * waiting
        raise Conflict(
            f"{QUEUE_MAX} rehearsals already wait on this server behind the one running (one "
            f"at a time): try again when they have finished, in at most {most} s."
        )

    def leave(self, job: RehearsalJob) -> None:
        """Give ``job``'s place in the queue back (it finished, or will not run): the next one
        may start. Giving it back twice changes nothing."""
        queue = self._queues.get(job.guild_id)
        if queue is None or job.place not in queue:
            return
        first = queue[0] is job.place
        queue.remove(job.place)
        if not queue:
            del self._queues[job.guild_id]
        elif first:
            queue[0].turn.set()

    async def run(self, job: RehearsalJob) -> RehearsalReport:
        """Play ``job`` off the event loop and report, after the rehearsals before it on the
        server (one at a time, in the order they were asked: :meth:`prepare` took the place);
        then give its place back. Raises :class:`Conflict` for a job whose place was given
        back."""
        gid = job.guild_id
        try:
            if job.place not in self._queues.get(gid, ()):
                raise Conflict("This rehearsal left the queue: ask for it again.")
            await job.place.turn.wait()
            if self._stopping.is_set():
                raise RehearsalFailed(STOPPING)
            began = self._clock()
            self._running[gid] = began
            try:
                return await self._play(job, began)
            finally:
                del self._running[gid]
        finally:
            self.leave(job)

    async def _play(self, job: RehearsalJob, began: float) -> RehearsalReport:
        rules, state = job.encounter.playing_rules(), job.encounter.state
        try:
            parts = await self._chunks(job, rules, state, began + self.time_limit_s)
        except BrokenExecutor:
            log.exception("rehearsal workers stopped (encounter %s)", job.encounter.id)
            self._drop_executor()  # the next rehearsal starts new workers
            raise RehearsalFailed(
                "The rehearsal's worker processes stopped before it finished (nothing was "
                "changed): try again."
            ) from None
        total = Tally()
        for part in parts:
            total.add(part)
        took = self._clock() - began
        log.info(
            "rehearsal: encounter %s, %s of %s fights in %.1f s",
            job.encounter.id,
            total.fights,
            job.fights,
            took,
        )
        return report(
            state,
            total,
            asked=job.fights,
            policy=job.policy,
            seed=job.seed,
            max_rounds=ROUNDS_MAX,
            seconds=took,
        )

    async def _chunks(
        self, job: RehearsalJob, rules: Ruleset[Any], state: Any, deadline: float
    ) -> list[Tally]:
        """Every chunk of ``job`` on the executor (made on first use), in chunk order."""
        if self._executor is None:
            self._executor = self._make_executor()
        executor = self._executor
        key, frozen, state_json = rules.key, rules.frozen(), state.model_dump_json()
        loop = asyncio.get_running_loop()
        work: asyncio.Future[list[Tally]] = asyncio.gather(
            *(
                loop.run_in_executor(
                    executor,
                    play_in_worker,
                    key,
                    frozen,
                    state_json,
                    job.policy,
                    job.seed,
                    index,
                    n,
                    ROUNDS_MAX,
                    deadline,
                )
                for index, n in chunks(job.fights)
            )
        )
        # The bot stopping (close()) ends the wait at once, so the GM is told (within the
        # grace a stop gives the commands in flight) rather than left "thinking…" for good.
        stop: asyncio.Future[Any] = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait([work, stop], return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if self._stopping.is_set():
            work.cancel()
            work.add_done_callback(lambda done: done.cancelled() or done.exception())
            raise RehearsalFailed(STOPPING)
        return await work

    def close(self) -> None:
        """Stop the worker processes (the bot shuts down): every rehearsal running or queued
        stops at once with :class:`RehearsalFailed` saying so (:data:`STOPPING`; its GM is
        told), and none starts after."""
        self._stopping.set()
        for queue in self._queues.values():
            for place in queue:
                place.turn.set()
        self._drop_executor()

    def _drop_executor(self) -> None:
        """Stop the worker processes; the next rehearsal (if any) starts new ones."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
