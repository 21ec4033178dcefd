"""Timestamps as the store writes them: fixed-width ISO 8601 text in UTC, so text order is time
order."""

from __future__ import annotations

from datetime import UTC, datetime

_last: tuple[datetime, str] | None = None


def utc_text(moment: datetime) -> str:
    """``moment`` as stored text (UTC, microseconds). The text of the moment written last is
    kept: a command writes the same ``now`` in its log row, its versioned UPDATE and its
    decisions (issue 15, "CPU diet"); datetimes never change, so the same object has the same
    text."""
    global _last
    last = _last
    if last is not None and last[0] is moment:
        return last[1]
    text = moment.astimezone(UTC).isoformat(timespec="microseconds")
    _last = (moment, text)
    return text
