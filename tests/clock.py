"""A clock that moves only when a test moves it, for the services' injected ``clock``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class ManualClock:
    """``clock()`` is an aware UTC datetime that stands still until :meth:`advance` moves it,
    so a test decides when a deadline passes instead of waiting for it."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        """Move the clock ``seconds`` forward (``> 0``); returns the new time."""
        assert seconds > 0, "a clock only moves forward"
        self.now += timedelta(seconds=seconds)
        return self.now

    def set(self, moment: datetime) -> None:
        """Move the clock to ``moment`` (not earlier than now)."""
        assert moment >= self.now, "a clock only moves forward"
        self.now = moment
