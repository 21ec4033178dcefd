"""The fight in pictures (issue 18), read from the log: the samples a chart draws, for one
audience (:func:`bot.engine.core.chart.chart_data`).

The log's states are read through one function, :func:`logged_states` — the only place that
knows where a state after each version is kept: a snapshot in some log entries, the others
rebuilt by replaying their commands with their recorded dice (:mod:`bot.services.replay`,
issue 15).

Samples (:func:`round_samples`): the state at the start of the first round (the first state of
round 1 or later) and, for every round, the last state of that round (a round still being fought:
its latest). An undo that goes back into an earlier round drops the samples of the rounds it
took back, so the chart follows the fight as it stands.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from bot.engine.core.audience import Audience
from bot.engine.core.chart import ChartData, Sample, chart_data
from bot.engine.core.contract import Ruleset
from bot.errors import DomainError
from bot.services.encounter import Encounter
from bot.services.replay import ReplayFailed, replay
from bot.store.encounter_log import LogEntry


def logged_states(
    entries: Sequence[LogEntry], rules: Ruleset[Any] | None = None
) -> Iterator[tuple[int, str]]:
    """``(version, state JSON)`` after each log entry, oldest first: the one reader of the
    states a log holds (module docstring). An entry without a snapshot is replayed by ``rules``
    over the state before it; without ``rules``, or when the entries before it cannot rebuild
    it (a damaged log), it is left out until the next snapshot."""
    state: Any = None
    for entry in entries:
        if entry.state:
            state = None
            yield entry.version, entry.state
            if rules is not None:
                state = rules.load_state(entry.state)
            continue
        if rules is None or state is None:
            continue
        try:
            state = replay(rules, state, entry)
        except (ReplayFailed, DomainError):
            state = None
            continue
        yield entry.version, state.model_dump_json()


_ROUND = re.compile(r'"round":(-?\d+)')
ROUND_WITHIN = 400
"""How far into a stored state its top-level ``round`` is looked for: the engine's states
dump ``round`` before any nested object (``EncounterState``'s field order), so the first
``"round":`` there is the encounter's own — found without parsing the whole state (a
60-combatant state is about 90 KB, and a long fight logs thousands)."""


def _round_of(state_json: str) -> int:
    """The state's ``round``: read from its opening when it is there, else by parsing it."""
    head = state_json[:ROUND_WITHIN]
    found = _ROUND.search(head)
    if found is not None and "{" not in head[1 : found.start()]:
        return int(found.group(1))
    try:
        value = json.loads(state_json).get("round", 0)
    except (ValueError, AttributeError):
        return 0
    return value if isinstance(value, int) else 0


def round_samples(entries: Sequence[LogEntry], rules: Ruleset[Any], now: Any) -> list[Sample]:
    """The chart's samples of a fight whose log is ``entries`` (oldest first), its states read
    by ``rules``; ``now`` (the encounter's state) when the log holds no state of a round yet, so
    a chart always has a point."""
    start: str | None = None
    ends: dict[int, str] = {}
    for _, state in logged_states(entries, rules):
        r = _round_of(state)
        for later in [k for k in ends if k > r]:
            del ends[later]
        if r < 1:
            start = None
            continue
        if start is None:
            start = state
        ends[r] = state
    if start is None:
        return [Sample("Start", now)]
    samples = [Sample("Start", rules.load_state(start))]
    samples += [Sample(str(r), rules.load_state(ends[r])) for r in sorted(ends)]
    return samples


def chart_for(encounter: Encounter, entries: Sequence[LogEntry], audience: Audience) -> ChartData:
    """The chart of ``encounter``'s fight as ``audience`` may see it (``docs/audiences.md``)."""
    samples = round_samples(entries, encounter.rules, encounter.state)
    return chart_data(encounter.rules, samples, audience, title=encounter.row.name)
