"""Issue marks: when a member issued a command, on Discord's clock (issue 9 §3, "one command,
one effect"). Each interaction's snowflake id is its issue mark; a change dates what began in it
— a new turn, a new decision — with Discord's time now, so a command issued before that (even
one delivered a moment later) was meant for what stood before and is refused."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from time import monotonic
from typing import Any

from bot.engine.core.state import AnyState

OFFSETS_KEPT = 64  # recent interactions whose delivery delay estimates Discord's clock
DISCORD_EPOCH_MS = 1_420_070_400_000
"""Discord's epoch (2015-01-01, Unix milliseconds): a snowflake is its milliseconds since it,
shifted left by 22 bits."""


class IssueMarks:
    """The latest issue mark seen by this process and an estimate of Discord's clock.

    ``wall``: where other processes share the database, the services' clock (Unix seconds; on
    PostgreSQL the database server's, :class:`bot.store.server_clock.ServerClock`), the
    estimate of Discord's clock until this process has seen an interaction of its own (see
    :meth:`floor`); ``None`` for a process alone on its database."""

    def __init__(self, wall: Callable[[], float] | None = None) -> None:
        self._wall = wall
        self.horizon = 0  # the latest issue mark (interaction snowflake) seen by this process
        # For each recent interaction: its creation time (Discord's clock, from its snowflake,
        # ms) minus when it reached this process by the monotonic clock (ms) — never the wall
        # clock, which may be off or be stepped. Discord's time now is at least each one's
        # creation time plus the time elapsed since it arrived.
        self._arrivals: deque[float] = deque(maxlen=OFFSETS_KEPT)
        self._monotonic = monotonic

    def observe(self, issued: int | None, *, arrived: bool = False) -> None:
        """Note that a member issued something at ``issued`` (an interaction's snowflake id);
        ``arrived``: it is reaching the bot just now (the gateway's dispatch), so it also
        tells how far Discord's clock is from this host's. Both date the beginning of each
        turn and decision (see :meth:`mark`)."""
        if issued is None:
            return
        if issued > self.horizon:
            self.horizon = issued
        if arrived:
            self._arrivals.append((issued >> 22) - self._monotonic_ms())

    def _monotonic_ms(self) -> float:
        # Unrounded: whole milliseconds here and in the estimate below made it up to 1 ms late.
        return self._monotonic() * 1000

    def _discord_now(self) -> int:
        """Discord's time now as an issue mark: the latest creation-plus-time-since-arrival
        of recent interactions — a little early (by the fastest recent delivery), never late,
        whatever this host's wall clock says. Before any interaction arrived since start:
        the services' clock where other processes share the database (``wall``), else 0.

        The mark is the last one *before* that millisecond: an interaction created in it is
        after the mark, whatever its id's low bits (a snowflake's worker, process and counter
        may all be 0), so a member who saw a turn begin is never refused for "an earlier
        turn" (see :func:`stamp`; found as a rare "That turn already ended" in the tests)."""
        if not self._arrivals:
            if self._wall is None:
                return 0
            ms = math.floor(self._wall() * 1000) - DISCORD_EPOCH_MS
        else:
            ms = math.floor(self._monotonic_ms() + max(self._arrivals))
        return max(0, (ms << 22) - 1)

    def now_mark(self) -> int:
        """Discord's time now as an issue mark, never late: the latest mark seen or the
        estimate of Discord's clock (:meth:`_discord_now`), whichever is later."""
        return max(self.horizon, self._discord_now())

    def mark(self, before: AnyState, after: AnyState) -> AnyState:
        """Date what began in this change: a new turn (``turn_marker``) and each newly open
        decision (its ``marker``) get Discord's time now, so a command issued before that —
        even one Discord delivers a moment later — was meant for what came before and is
        refused (issue 9 §3).

        Discord's time is read from its snowflakes: the latest issue mark seen, and this host's
        clock corrected by how far ahead of it recent interactions were created
        (:meth:`_discord_now`; so a host clock that is off by any amount neither refuses nor
        lets through). Before this process has seen any interaction (a reaction window expiring
        right after a restart), the latest mark stored in the encounter stands in: every
        interaction that can still arrive was issued after it, since none is delivered while
        the bot is down. That holds for a process alone on its database only: where other
        processes share it (PostgreSQL shards), this process's expiry loop changes fights whose
        interactions go to another process, which is up and receiving them — a turn it ends
        there must be dated now, or a command sent for the turn before, delivered over there
        a moment later, would be applied to the new one. Until an interaction of its own tells
        it Discord's clock, such a process dates by the services' clock (``wall``): the
        database server's, which every process sharing it reads — not this host's, which may
        run ahead of Discord's and date the turn in the future (every command sent for it
        refused until the host's clock caught up)."""
        return stamp(before, after, self.floor(before, after))

    def floor(self, before: AnyState, after: AnyState) -> int:
        """The issue mark :meth:`mark` dates what began in this change with (see there); the
        log keeps it so a replay dates the same (:func:`stamp`)."""
        floor = max(self.horizon, self._discord_now(), before.turn_marker, after.turn_marker)
        for decision in before.decisions:
            floor = max(floor, decision.marker)
        return floor


def stamp(before: AnyState, after: AnyState, floor: int) -> AnyState:
    """``after`` with what began since ``before`` dated ``floor``: a new turn (``turn_marker``)
    and each newly open decision (its ``marker``); ``after`` itself when nothing began."""
    update: dict[str, Any] = {}
    if (after.turn_seq, after.turn) != (before.turn_seq, before.turn):
        update["turn_marker"] = floor
    if after.decisions and after.decisions != before.decisions:
        was_open = {d.id: d for d in before.decisions}
        update["decisions"] = [
            d if was_open.get(d.id) == d else d.model_copy(update={"marker": floor})
            for d in after.decisions
        ]
    return after.model_copy(update=update) if update else after


@dataclass(frozen=True, slots=True)
class Began:
    """When what stands in an encounter began, as far as this process knows beyond the marks
    stored in its state (issue 9 §3, "one command, one effect"): the issue mark when the
    change that began turn ``turn_seq`` was committed here (``turn``), and the same for each
    open decision by id (``decisions``).

    The marks a change stores are taken while it is computed, before its commit; a command
    that reaches the bot after that but before the commit — or is found, on a retry, to have
    been in flight when another writer began something — was nevertheless issued before any
    member could see what began, so it is dated against these later marks
    (:meth:`~bot.services.encounter.Encounter.turn_mark`)."""

    turn_seq: int = -1
    turn: int = 0
    decisions: Mapping[int, int] = field(default_factory=dict)

    def after(self, before: AnyState, after: AnyState, mark: int) -> Began:
        """These marks (known for ``after`` or ``before``) moved on by what began between
        ``before`` and ``after`` — a new turn, newly open decisions — which began no earlier
        than ``mark`` (a commit's, or a command's issue mark on a retry); decisions no longer
        open are let go."""
        turn_seq, turn = self.turn_seq, self.turn
        if (after.turn_seq, after.turn) != (before.turn_seq, before.turn):
            turn = max(turn, mark) if turn_seq == after.turn_seq else mark
            turn_seq = after.turn_seq
        was_open = {d.id: d for d in before.decisions}
        decisions = {
            d.id: self.decisions.get(d.id, 0)
            if was_open.get(d.id) == d
            else max(self.decisions.get(d.id, 0), mark)
            for d in after.decisions
        }
        return Began(turn_seq, turn, decisions)
