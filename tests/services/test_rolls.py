"""Free-form dice expressions through d20, with limits checked before anything is rolled."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import InvalidInput
from bot.services.rolls import DICE_MAX, SIDES_MAX, check, roll


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("999999d999999", "999,999 dice"),
        ("1d99999999", "at most 1000 sides"),
        ("60d6+60d6", "120 dice"),
        ("(((", "not a dice expression"),
        ("", "Give a dice expression"),
        ("1d20" * 100, "limit is 200"),
        ("1/0", "divide by zero"),
        ("100d6e1", "more than 100 dice"),
    ],
)
def test_refusals(expression: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        roll(expression)


def test_roll_keeps_every_die_in_the_text() -> None:
    result = roll("4d6kh3+2")
    assert result.text.startswith("4d6kh3 (")
    assert result.text.count(",") == 3
    assert 5 <= result.total <= 20


@given(st.integers(1, DICE_MAX), st.integers(1, SIDES_MAX), st.integers(-50, 50))
def test_totals_are_in_range(count: int, sides: int, bonus: int) -> None:
    result = roll(f"{count}d{sides}{bonus:+d}")
    assert count + bonus <= result.total <= count * sides + bonus


@given(st.text(max_size=60))
def test_any_text_either_rolls_or_is_refused_cleanly(text: str) -> None:
    try:
        check(text)
    except InvalidInput as error:
        assert str(error)
