"""Reminder points (issue 17, "Reminders"; :mod:`bot.engine.core.pacing`): the GM's form and
where each point falls in a window."""

from __future__ import annotations

import pytest

from bot.engine.core.pacing import parse_reminders, remind_before
from bot.errors import InvalidInput


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("50%", "50%"),
        ("90%, 50%", "50%,90%"),
        ("1h,6h", "6h,1h"),
        ("off", "off"),
        ("50%,1h", "50%,1h"),
    ],
)
def test_points_are_normalised(typed: str, kept: str) -> None:
    assert parse_reminders(typed) == kept


@pytest.mark.parametrize("bad", ["", ",", "0%", "100%", "soon", "30s", "31d", "1%,2%,3%,4%,5%,6%"])
def test_points_not_understood_are_refused(bad: str) -> None:
    with pytest.raises(InvalidInput):
        parse_reminders(bad)


def test_points_fall_before_the_deadline_earliest_first() -> None:
    assert remind_before("50%,90%", 43_200) == [21_600, 4_320]
    assert remind_before("6h,1h", 43_200) == [21_600, 3_600]
    assert remind_before("6h", 3_600) == []  # longer than the window: left out
    assert remind_before("off", 43_200) == []
