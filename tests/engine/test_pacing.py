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


def test_settings_are_described_as_typed_never_as_stored_seconds() -> None:
    """Every ruleset notes a settings change through ``describe_settings`` (issue 17)."""
    from bot.engine.core.commands import ChangeSettings, describe_settings

    cmd = ChangeSettings(
        turn_deadline_s=43_200,
        reaction_window_s=300,
        npcs_react=True,
        turn_deadline_action="default_action",
        reminders="6h,1h",
    )
    assert describe_settings(cmd.model_dump(exclude_none=True)) == (
        "reaction window: 5m, NPCs react: on, turn deadline: 12h, "
        "when a deadline passes: the combatant's default action, reminders: 6h,1h"
    )
    assert describe_settings({"turn_deadline_s": 0, "show_odds": False}) == (
        "turn deadline: off, show odds: off"
    )


def test_a_reaction_window_is_typed_like_a_deadline_or_in_seconds() -> None:
    """``/gm settings reaction_window:`` (issue 17: a days-long fight needs windows of hours)."""
    from bot.engine.core.pacing import parse_reaction_window

    assert parse_reaction_window("12h") == 43_200 and parse_reaction_window("1d") == 86_400
    assert parse_reaction_window("300") == 300 and parse_reaction_window("5s") == 5
    for bad, words in (
        ("4", "between `5s` and 1 day"),
        ("2d", "between `5s` and 1 day"),
        ("off", "always ends"),
        ("soon", "is not a duration"),
        ("9" * 40, "between `5s` and 1 day"),
    ):
        with pytest.raises(InvalidInput, match=words):
            parse_reaction_window(bad)
