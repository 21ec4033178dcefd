"""The turn-deadline duration format (``bot.engine.core.pacing``, issue 17)."""

from __future__ import annotations

import pytest

from bot.engine.core.pacing import format_duration, parse_duration
from bot.errors import InvalidInput


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("12h", 43_200),
        ("1d6h", 108_000),
        ("90m", 5_400),
        ("1h30m", 5_400),
        ("30d", 2_592_000),
        ("1m", 60),
        (" 2D ", 172_800),
        ("off", 0),
        ("0", 0),
    ],
)
def test_a_duration_reads_as_seconds(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["soon", "12", "h", "", "6h1d", "1.5h", "-1h", "12x", "1h1h"])
def test_a_malformed_duration_is_refused_with_the_format(text: str) -> None:
    with pytest.raises(InvalidInput, match="is not a duration"):
        parse_duration(text)


@pytest.mark.parametrize("text", ["59s", "31d", "999d"])
def test_a_duration_outside_a_minute_to_thirty_days_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput, match="between 1 minute"):
        parse_duration(text)


@pytest.mark.parametrize("seconds", [60, 5_400, 43_200, 108_000, 2_592_000, 3_661])
def test_format_is_the_inverse_of_parse(seconds: int) -> None:
    assert parse_duration(format_duration(seconds)) == seconds
    assert format_duration(0) == "off"
