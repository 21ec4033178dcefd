"""A rehearsal of the fight before it happens (issue 18, ``/rehearse``): ruleset-neutral.

:func:`rehearse` plays a copy of an encounter from its current state ``fights`` times with the
pure engine (``Ruleset.apply``, a seeded :class:`~bot.engine.core.dice.RandomRoller`), every
combatant driven by a simple policy its ruleset supplies through the contract's
:meth:`RehearseHooks.rehearsal` hook, and counts who won. The stored encounter is never
touched: the state given is only read (``apply`` never mutates its input).

A :class:`RehearsalPolicy` names the commands a side would take now, best first; the loop
applies the first the rules accept (a refused one costs nothing: ``apply`` changes nothing when
it raises). A fight ends when the engine ends it (one side left standing, or none); one that ends
with nobody standing, one still running after ``max_rounds`` rounds (counted from the round it
was rehearsed from), and one stuck (no command accepted) count as draws.

The figures: each side's win probability with a 95 % Wilson score interval
(:func:`wilson_interval`; Wilson 1927, "Probable inference, the law of succession, and
statistical inference"), the mean number of rounds, and each player character's chance to be
out of the fight at its end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict, Field

from bot import names
from bot.engine.core.commands import CommandBase
from bot.engine.core.dice import RandomRoller
from bot.engine.core.state import AnyState
from bot.errors import DomainError, InvalidInput, RulesetNotImplemented

FIGHTS_MAX = 10_000
"""The most fights one rehearsal plays (``/rehearse fights:``)."""
ROUNDS_MAX = 50
"""A fight still running after this many rounds is a draw."""
STEPS_PER_ROUND_MAX = 400
"""Commands one fight may apply per round before it counts as stuck (a draw)."""
REHEARSAL_NOW = datetime(2000, 1, 1, tzinfo=UTC)
"""The clock every rehearsed command sees: fixed, so a seed replays the same fights."""
Z95 = 1.959963984540054
"""The standard normal quantile of 97.5 %: a two-sided 95 % interval."""


class RehearsalPolicy(Protocol):
    """How one ruleset's combatants play a rehearsed fight (documented in
    ``docs/rehearse.md``)."""

    def candidates(self, state: Any) -> Iterable[CommandBase]:
        """The commands to try now, best first (lazily: one is built only when the one before
        it was refused): answers to the pending decision, or the turn holder's action; the
        last should be one the rules always accept when anything is (ending the turn, no
        reaction). Nothing accepted with a decision waiting: the loop lets it lapse."""
        ...

    def is_down(self, combatant: Any) -> bool:
        """Whether ``combatant`` is out of the fight (UTTAS: Dead, Unconscious, Surrendered)."""
        ...


class TurnPolicy:
    """The shape every ruleset's policy shares (a :class:`RehearsalPolicy`): the name checked
    against :attr:`policies`, :meth:`candidates` answering the pending decision
    (:meth:`_answer`) or playing the turn holder's turn (:meth:`_turn`), and :meth:`is_down`
    reading the ruleset's out-of-the-fight conditions :attr:`out`. Raises :class:`InvalidInput`
    for a policy name the ruleset lacks."""

    system: ClassVar[str]
    """The ruleset's title, for the refusal (``UTTAS``)."""
    policies: ClassVar[tuple[str, ...]]
    """The policy names the ruleset offers, the default first."""
    out: ClassVar[Iterable[str]]
    """The conditions that put a combatant out of the fight (the ruleset's ``OUT``)."""

    def __init__(self, name: str) -> None:
        if name not in self.policies:
            raise InvalidInput(
                f"{self.system} has no rehearsal policy {names.escaped(repr(name[:40]))}: "
                + ", ".join(self.policies)
                + "."
            )
        self.name = name

    def is_down(self, combatant: Any) -> bool:
        """Whether ``combatant`` has one of :attr:`out`."""
        return any(combatant.has(x) for x in self.out)

    def candidates(self, state: Any) -> Iterator[CommandBase]:
        """:meth:`RehearsalPolicy.candidates`: the answers to ``state.pending``, else the turn
        holder's commands (none between turns)."""
        pending = state.pending
        if pending is not None:
            return iter(self._answer(state, pending))
        if state.turn is None:
            return iter(())
        return iter(self._turn(state, state.get(state.turn)))

    def _answer(self, state: Any, pending: Any) -> Iterable[CommandBase]:
        """The answers to try for ``pending``, best first."""
        raise NotImplementedError

    def _turn(self, state: Any, combatant: Any) -> Iterable[CommandBase]:
        """The turn holder's commands to try, best first (the last: ending the turn)."""
        raise NotImplementedError


class RehearseHooks:
    """The contract's rehearsal hook: a ruleset that can rehearse overrides :meth:`rehearsal`
    and lists its policies in :attr:`rehearsal_policies`; the rest say it is planned."""

    title: ClassVar[str]
    rehearsal_policies: ClassVar[tuple[str, ...]] = ()
    """The policy names :meth:`rehearsal` accepts, the default first (empty: planned)."""

    def rehearsal(self, policy: str) -> RehearsalPolicy:
        """The policy called ``policy`` (one of :attr:`rehearsal_policies`). Raises
        :class:`RulesetNotImplemented` where the system's rehearsal is planned (this
        default) and :class:`InvalidInput` for an unknown policy."""
        raise RulesetNotImplemented(
            f"Rehearsing a fight in {self.title} is planned: the bot has no policy to play "
            "its combatants yet (UTTAS, Untitled and Utopia have one)."
        )


class SideOdds(BaseModel):
    """One side's share of the fights won, with its 95 % Wilson interval (0..1)."""

    model_config = ConfigDict(frozen=True)

    side: str
    wins: int = Field(ge=0)
    chance: float
    low: float
    high: float


class DownOdds(BaseModel):
    """How often a player character was out of the fight when it ended (0..1)."""

    model_config = ConfigDict(frozen=True)

    combatant: str
    name: str
    downs: int = Field(ge=0)
    chance: float
    low: float
    high: float


class RehearsalReport(BaseModel):
    """What a rehearsal found: ``fights`` played (fewer than ``asked`` when the time bound
    stopped it, ``timed_out``), the wins per side, the ``draws`` (nobody left standing,
    still running after ``max_rounds``, or stuck), the mean rounds over all fights played,
    each player character's chance to go down, the ``policy`` and ``seed``, and the seconds
    it took."""

    model_config = ConfigDict(frozen=True)

    asked: int
    fights: int
    policy: str
    seed: int
    max_rounds: int
    sides: tuple[SideOdds, ...]
    draws: int
    mean_rounds: float
    downs: tuple[DownOdds, ...]
    timed_out: bool = False
    seconds: float = 0.0


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n`` trials (default 95 %): the
    binomial interval that stays inside 0..1 and behaves at 0 and ``n`` successes. Raises
    :class:`InvalidInput` for ``n`` < 1 or ``successes`` outside 0..n."""
    if n < 1 or not 0 <= successes <= n:
        raise InvalidInput(
            f"A Wilson interval needs 0 ≤ successes ≤ n and n ≥ 1 ({successes}/{n})."
        )
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends: no
    high = 1.0 if successes == n else min(1.0, centre + half)  # rounding past 0 or 1
    return low, high


CHUNK = 100
"""Fights per chunk: chunk ``i`` rolls with ``random.Random(f"{seed}:{i}")``, so the chunks
may run in any order or in parallel (processes) and a seed still gives the same figures."""


@dataclass
class Tally:
    """What some fights came to (:func:`play_chunk`), summed by :meth:`add`: ``wins`` per side,
    ``draws``, total ``rounds``, ``downs`` per player character id, ``fights`` played, and
    ``timed_out`` when the time bound stopped them."""

    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    rounds: int = 0
    downs: dict[str, int] = field(default_factory=dict)
    fights: int = 0
    timed_out: bool = False

    def add(self, other: Tally) -> None:
        for side, k in other.wins.items():
            self.wins[side] = self.wins.get(side, 0) + k
        for cid, k in other.downs.items():
            self.downs[cid] = self.downs.get(cid, 0) + k
        self.draws += other.draws
        self.rounds += other.rounds
        self.fights += other.fights
        self.timed_out = self.timed_out or other.timed_out


def _play_one(
    rules: Any, start: AnyState, policy: RehearsalPolicy, roller: RandomRoller, max_rounds: int
) -> tuple[str | None, int, AnyState]:
    """One fight from ``start`` to its end (or the round cap): the winner (None: a draw), the
    rounds it lasted and the final state. The rounds are counted from where ``start`` stands
    (its round is the first, :func:`rounds_played`), so ``max_rounds`` caps the rounds
    played, whatever round the stored fight has reached. When the policy has nothing the rules
    accept, a waiting decision is settled as if nobody chose (``Ruleset.lapse``); with none
    waiting the fight is stuck and counts as a draw."""
    state = start
    steps_cap = STEPS_PER_ROUND_MAX * max_rounds
    steps = 0
    apply = rules.apply
    last = start.round + max_rounds - 1
    while state.phase == "active" and state.round <= last and steps < steps_cap:
        steps += 1
        for command in policy.candidates(state):
            try:
                state = apply(state, command, roller, REHEARSAL_NOW).state
            except DomainError:
                continue
            break
        else:
            try:  # a decision the policy has no answer for: as if nobody chose
                state = apply(state, rules.lapse(state), roller, REHEARSAL_NOW).state
            except DomainError:  # stuck: nothing the policy tried was allowed
                return None, rounds_played(start, state), state
    if state.phase == "finished":
        return state.winner, rounds_played(start, state), state
    return None, min(rounds_played(start, state), max_rounds), state


def rounds_played(start: AnyState, end: AnyState) -> int:
    """The rounds a rehearsed fight took from ``start`` to ``end``, ``start``'s round counting
    as the first: a fight rehearsed from round 1 that ends in round 3 took 3, one rehearsed
    from round 51 that ends in round 53 took 3 as well."""
    return end.round - start.round + 1


def check_request(rules: Any, state: AnyState, fights: int, policy: str | None) -> str:
    """The policy name a rehearsal of ``fights`` fights of ``state`` plays by (None: the
    ruleset's default). Raises :class:`InvalidInput` for a fight count outside 1..
    :data:`FIGHTS_MAX`, a fight that is not running, or an unknown policy, and
    :class:`RulesetNotImplemented` for a system whose rehearsal is planned."""
    if not 1 <= fights <= FIGHTS_MAX:
        raise InvalidInput(f"Rehearse between 1 and {FIGHTS_MAX:,} fights, not {fights:,}.")
    names = rules.rehearsal_policies
    chosen = policy or (names[0] if names else "")
    rules.rehearsal(chosen)  # refuses an unknown policy or a system without one
    if state.phase != "active":
        raise InvalidInput(
            "There is no running fight to rehearse: add the combatants and `/encounter begin` "
            "first (a finished fight has nothing left to play)."
        )
    return chosen


def chunks(fights: int) -> list[tuple[int, int]]:
    """``(index, fights)`` of each :data:`CHUNK` of a rehearsal of ``fights`` fights."""
    return [(i, min(CHUNK, fights - start)) for i, start in enumerate(range(0, fights, CHUNK))]


def play_chunk(
    rules: Any,
    state: AnyState,
    *,
    policy: str,
    seed: int,
    index: int,
    fights: int,
    max_rounds: int = ROUNDS_MAX,
    deadline: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Tally:
    """Chunk ``index`` of a rehearsal: ``fights`` fights of ``state`` with ``policy``, dice from
    ``random.Random(f"{seed}:{index}")``; with a ``clock`` (seconds, monotonic: the engine reads
    no clock itself) it stops once ``clock()`` passes ``deadline`` (chunk 0 plays at least
    one fight, so a rehearsal always has one). Never changes ``state``."""
    play = rules.rehearsal(policy)
    start = _prepared(state)
    roller = RandomRoller(random.Random(f"{seed}:{index}"))
    tally = Tally()
    pcs = [c.id for c in start.combatants if not c.is_npc]
    for _ in range(fights):
        first = index == 0 and not tally.fights  # a rehearsal plays at least one fight
        if clock is not None and deadline is not None and not first and clock() > deadline:
            tally.timed_out = True
            break
        winner, rounds, end = _play_one(rules, start, play, roller, max_rounds)
        tally.fights += 1
        tally.rounds += rounds
        if winner is None:
            tally.draws += 1
        else:
            tally.wins[winner] = tally.wins.get(winner, 0) + 1
        for cid in pcs:
            if play.is_down(end.get(cid)):
                tally.downs[cid] = tally.downs.get(cid, 0) + 1
    return tally


def rehearse(
    rules: Any,
    state: AnyState,
    *,
    fights: int = 1_000,
    policy: str | None = None,
    seed: int = 0,
    max_rounds: int = ROUNDS_MAX,
    time_limit_s: float | None = None,
    clock: Callable[[], float] | None = None,
) -> RehearsalReport:
    """Play ``state`` (a running fight of ``rules``' system) ``fights`` times in this process,
    chunk after chunk (:func:`play_chunk`; the service runs the chunks in worker processes,
    with the same figures), and report (:func:`report`). With a ``clock``, stop once
    ``time_limit_s`` seconds have passed. Never changes ``state``. Raises as
    :func:`check_request`."""
    chosen = check_request(rules, state, fights, policy)
    began = clock() if clock is not None else 0.0
    deadline = None if time_limit_s is None else began + time_limit_s
    total = Tally()
    for index, n in chunks(fights):
        if total.timed_out:
            break
        part = play_chunk(
            rules,
            state,
            policy=chosen,
            seed=seed,
            index=index,
            fights=n,
            max_rounds=max_rounds,
            deadline=deadline,
            clock=clock,
        )
        total.add(part)
    took = clock() - began if clock is not None else 0.0
    return report(
        state, total, asked=fights, policy=chosen, seed=seed, max_rounds=max_rounds, seconds=took
    )


def _prepared(state: AnyState) -> AnyState:
    """The state a rehearsal starts from: a deep copy in which NPCs react (the policy answers
    for both sides) and the fight ends when one side is left standing."""
    copy = state.model_copy(deep=True)
    settings = copy.settings.model_copy(update={"npcs_react": True, "auto_end": True})
    return copy.model_copy(update={"settings": settings})


def report(
    state: AnyState,
    tally: Tally,
    *,
    asked: int,
    policy: str,
    seed: int,
    max_rounds: int = ROUNDS_MAX,
    seconds: float = 0.0,
) -> RehearsalReport:
    """The figures of ``tally`` (at least one fight) for the combatants of ``state``."""
    n = tally.fights
    sides: list[SideOdds] = []
    for side in dict.fromkeys(c.side for c in state.combatants):
        wins = tally.wins.get(side, 0)
        low, high = wilson_interval(wins, n)
        sides.append(SideOdds(side=side, wins=wins, chance=wins / n, low=low, high=high))
    downs: list[DownOdds] = []
    for c in state.combatants:
        if c.is_npc:
            continue
        k = tally.downs.get(c.id, 0)
        low, high = wilson_interval(k, n)
        downs.append(
            DownOdds(combatant=c.id, name=c.name, downs=k, chance=k / n, low=low, high=high)
        )
    return RehearsalReport(
        asked=asked,
        fights=n,
        policy=policy,
        seed=seed,
        max_rounds=max_rounds,
        sides=tuple(sides),
        draws=tally.draws,
        mean_rounds=tally.rounds / n,
        downs=tuple(downs),
        timed_out=tally.timed_out,
        seconds=round(seconds, 3),
    )
