"""The issue mark a change dates a new turn with (:class:`bot.services.issue_marks.IssueMarks`):
never late, so a command created after the change is never refused as meant for the turn
before ("That turn already ended"); only a little early.

Found in CI: the estimate rounded this host's clock to whole milliseconds (up to 1 ms late),
and it marked a millisecond's first snowflake itself, so the GM's ``/attack`` typed the
millisecond the bot committed their ``/gm next`` was refused."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from bot.services.issue_marks import DISCORD_EPOCH_MS, IssueMarks

START_MS = DISCORD_EPOCH_MS + 10**12  # real time (Unix ms) the scenario starts at


class Snowflakes:
    """Ids as Discord (and the test harness) make them: the creation millisecond in the high
    bits, a counter from 0 in the low ones, strictly increasing."""

    def __init__(self) -> None:
        self.last_ms, self.n = -1, 0

    def at(self, real_ms: float) -> int:
        ms = math.floor(real_ms) - DISCORD_EPOCH_MS
        self.n = self.n + 1 if ms == self.last_ms else 0
        self.last_ms = ms
        return (ms << 22) | self.n


@given(
    host_offset_s=st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    seen=st.lists(
        st.tuples(
            st.floats(min_value=0.0, max_value=50.0),  # ms since the previous one was created
            st.floats(min_value=0.0, max_value=30.0),  # its delivery delay, ms
        ),
        min_size=1,
        max_size=8,
    ),
    commit_after_ms=st.floats(min_value=0.0, max_value=5.0),
    typed_after_ms=st.floats(min_value=0.0, max_value=2.0),
)
def test_a_command_created_after_a_change_is_after_its_mark(
    host_offset_s: float,
    seen: list[tuple[float, float]],
    commit_after_ms: float,
    typed_after_ms: float,
) -> None:
    """Interactions are created (on Discord's clock) and delivered after a delay; the host's
    monotonic clock is offset by any amount. A change committed after the last delivery is
    dated by :meth:`IssueMarks.now_mark`; an interaction created then or later is after that
    mark, and the mark is at most the fastest delivery (plus 2 ms of rounding) early."""
    now = [0.0]
    marks = IssueMarks()
    marks._monotonic = lambda: now[0] / 1000 + host_offset_s
    ids = Snowflakes()
    created, last_arrival, delays = float(START_MS), float(START_MS), []
    for gap, delay in seen:
        created += gap
        issued = ids.at(created)
        now[0] = max(created + delay, last_arrival)  # delivered in order
        last_arrival = now[0]
        delays.append(now[0] - created)
        marks.observe(issued, arrived=True)
    now[0] += commit_after_ms
    committed_at = now[0]
    mark = marks.now_mark()
    typed = ids.at(committed_at + typed_after_ms)
    assert typed > mark
    fastest = min(delays)
    assert ((mark + 1) >> 22) + DISCORD_EPOCH_MS >= committed_at - fastest - 2


def test_a_process_alone_dates_nothing_before_an_interaction() -> None:
    """With no interaction seen and no shared clock, nothing is dated (mark 0)."""
    assert IssueMarks().now_mark() == 0


def test_a_shared_clock_dates_before_its_millisecond() -> None:
    """Before any interaction, the services' clock (``wall``) dates the change: just before
    its millisecond, so an interaction created in that millisecond is after it."""
    wall_s = (START_MS + 0.75) / 1000
    mark = IssueMarks(wall=lambda: wall_s).now_mark()
    first_of_the_ms = (math.floor(wall_s * 1000) - DISCORD_EPOCH_MS) << 22
    assert mark == first_of_the_ms - 1
