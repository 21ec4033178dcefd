"""Rebuilding an encounter's state at any version from its log (issue 15: the log keeps what
happened, not a copy of every state).

A log row (:class:`~bot.store.encounter_log.LogEntry`) either keeps a full snapshot of the state
it left (``state``: every ``snapshot_every`` versions, when a fight ends, and for changes that
cannot be replayed — start, end, undo, redo, a refresh from a sheet, a member's erasure; and
the state a row left when an erasure's scrub would make it replay differently,
:mod:`bot.services.member_sources`) or
none. A row without one is replayed over the state before it from its result
(:mod:`bot.services.event_log`): the engine ``commands`` applied in order with the dice it rolled
(``dice``, in a :class:`~bot.engine.ScriptedRoller`: nothing is re-rolled) at the engine clock it
ran at (``at``), then what began in it dated with its issue mark (``marker``,
:func:`~bot.services.issue_marks.stamp`). The result is the exact state the change committed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.engine import AnyState, Ruleset, ScriptedRoller
from bot.errors import DomainError, RulesVersionUnknown
from bot.services.issue_marks import stamp
from bot.store.encounter_log import LogEntry

AT = "at"
"""Result key: the engine clock a change ran at (ISO 8601), present when it can be replayed."""
MARKER = "marker"
"""Result key: the issue mark the change dated what began in it with."""


class ReplayFailed(RuntimeError):
    """A log row could not be replayed (a log this version did not write, or one changed by
    hand): a bug or a damaged database, never a member's mistake."""


UNREADABLE: tuple[type[Exception], ...] = (ReplayFailed, DomainError, ValueError)
"""What reading an encounter raises when its state cannot be rebuilt (issue 15: a stored state
behind its row is replayed): a log that does not replay, rules a newer bot froze or a refusal
the replay ran into, a row without its state text. A pass over many encounters (recovery of
unprompted decisions, reminders) logs such an encounter and leaves it out, so it hides no other
channel's; the encounter's own commands say why."""


def log_unreadable(logger: logging.Logger, encounter_id: int, error: Exception) -> None:
    """Log that a pass left encounter ``encounter_id`` out because reading it raised ``error``
    (one of :data:`UNREADABLE`): a fight a newer bot saved (rules it froze that this version
    does not know) as a warning saying so, without a traceback — nothing is wrong here and
    nothing this version does will change it; any other with its traceback (a damaged log, a
    bug)."""
    if isinstance(error, RulesVersionUnknown):
        logger.warning("encounter %s is left out: %s", encounter_id, error)
    else:
        logger.error("encounter %s: its state could not be rebuilt", encounter_id, exc_info=error)


def replayable(result: dict[str, Any]) -> bool:
    """Whether a change whose result is ``result`` can be replayed (it says when it ran)."""
    return AT in result


def replay(rules: Ruleset[Any], before: AnyState, entry: LogEntry) -> AnyState:
    """The state ``entry`` left, from the state before it (``before``, at ``entry.version - 1``):
    its commands applied again with its recorded dice, then its issue mark. Raises
    :class:`ReplayFailed` when the row carries no replay (no ``at``) or its dice do not fit."""
    found = json.loads(entry.result)
    if not isinstance(found, dict) or AT not in found:
        raise ReplayFailed(f"log entry {entry.version} keeps neither a snapshot nor a replay")
    state = before
    commands = found.get("commands") or []
    if commands:
        dice = ScriptedRoller(found.get("dice") or [])
        now = datetime.fromisoformat(found[AT])
        for data in commands:
            state = rules.apply(state, rules.parse_command(data), dice, now).state
        if dice.remaining:
            raise ReplayFailed(f"log entry {entry.version} left {dice.remaining} dice unused")
    marker = found.get(MARKER)
    return stamp(before, state, int(marker)) if marker is not None else state


def forward(
    rules: Ruleset[Any], state: AnyState, version: int, entries: Sequence[LogEntry], upto: int
) -> AnyState:
    """The state at ``upto`` from ``state`` at ``version`` and the log entries of every version
    between (:func:`bot.store.encounter_log.changes_after`): each replayed, or taken whole when
    it keeps a snapshot. Raises :class:`ReplayFailed` when a version is missing."""
    if [e.version for e in entries] != list(range(version + 1, upto + 1)):
        raise ReplayFailed(f"the log does not hold every version from {version + 1} to {upto}")
    for entry in entries:
        state = (
            replay(rules, state, entry) if entry.state is None else rules.load_state(entry.state)
        )
    return state


def rebuild(rules: Ruleset[Any], entries: Sequence[LogEntry]) -> AnyState:
    """The state after the last of ``entries`` (:func:`bot.store.encounter_log.history`: a row
    with a snapshot, then the rows after it, oldest first). Raises :class:`ReplayFailed` when
    ``entries`` is empty or does not start with a snapshot."""
    if not entries or entries[0].state is None:
        raise ReplayFailed("no snapshot to start from")
    state: AnyState = rules.load_state(entries[0].state)
    for entry in entries[1:]:
        state = (
            replay(rules, state, entry) if entry.state is None else rules.load_state(entry.state)
        )
    return state
