"""Free-form dice expressions through d20, as people type them: any letter case, ``d%``, a label
after the expression, and limits checked before anything is rolled."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import InvalidInput
from bot.services.moderation import parse_amount
from bot.services.rolls import DICE_MAX, EXPRESSION_MAX, SIDES_MAX, check, parse, roll


@pytest.mark.parametrize(
    ("typed", "expression", "label", "rendered", "low", "high"),
    [
        ("1d20", "1d20", None, "1d20 (", 1, 20),
        ("1D20", "1D20", None, "1d20 (", 1, 20),
        ("2D6+1D4", "2D6+1D4", None, "2d6 (", 3, 16),
        ("1d20+6 dex save", "1d20+6", "dex save", "1d20 (", 7, 26),
        ("1D20+6 Dex Save", "1D20+6", "Dex Save", "1d20 (", 7, 26),
        ("3d6 # attack", "3d6", "attack", "3d6 (", 3, 18),
        ("1d20: Perception", "1d20", "Perception", "1d20 (", 1, 20),
        ("1d%", "1d%", None, "1d100 (", 1, 100),
        ("d%", "d%", None, "1d100 (", 1, 100),
        ("2d% loot", "2d%", "loot", "2d100 (", 2, 200),
        ("4d6kh3 stats", "4d6kh3", "stats", "4d6kh3 (", 3, 18),
        ("1d20 keep the dragon grappled", "1d20", "keep the dragon grappled", "1d20 (", 1, 20),
        ("  3d6  +  2  ", "3d6 + 2", None, "3d6 (", 5, 20),
        ("２ｄ６", "2d6", None, "2d6 (", 2, 12),  # full-width, as some keyboards type it
        ("1d20 fire\u200bball", "1d20", "fireball", "1d20 (", 1, 20),
        ("10 potion", "10", "potion", "10 = ", 10, 10),
    ],
)
def test_accepted_expressions(
    typed: str, expression: str, label: str | None, rendered: str, low: int, high: int
) -> None:
    result = roll(typed)
    assert (result.expression, result.label) == (expression, label)
    assert result.text.startswith(rendered), result.text
    assert low <= result.total <= high
    assert result.summary == (f"{label}: {result.text}" if label else result.text)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("999999d999999", "999,999 dice"),
        ("1d99999999", "at most 1000 sides"),
        ("60d6+60d6", "120 dice"),
        ("1d0", "d0 has no sides"),
        ("d", "not a dice expression I understand \\(it stops too early\\)"),
        ("1d20+", "it stops too early"),
        ("(((", "not a dice expression"),
        ("attack 1d20", "`attack` at position 1 was unexpected"),
        ("", "Give a dice expression"),
        ("\u200b\u200b", "Give a dice expression"),
        ("1d20" * 100, "400 characters long \\(its label included\\); the limit is 200"),
        ("1d20 " + "x" * 300, "305 characters long"),
        ("1d20 dex\x00save", "control characters \\(found NUL, U\\+0000\\)"),
        ("1/0", "divide by zero"),
        ("100d6e1", "more than 100 dice"),
    ],
)
def test_refusals(typed: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        roll(typed)


def test_the_label_counts_toward_the_length() -> None:
    label = "x" * (EXPRESSION_MAX - len("1d20 "))
    assert roll(f"1d20 {label}").label == label
    with pytest.raises(InvalidInput, match="201 characters long"):
        roll(f"1d20 {label}x")


def test_markdown_in_labels_and_annotations_stays_text() -> None:
    result = roll("1d20 [||fire||] burn @everyone")
    assert result.label == "burn @everyone"  # escaped where it is shown, not here
    assert "[||fire||]" not in result.text and "\\|\\|fire\\|\\|" in result.text


def test_percent_is_a_hundred_sided_die() -> None:
    parsed = parse("1d%")
    totals = {roll("1d%").total for _ in range(300)}
    assert min(totals) >= 1 and max(totals) <= 100
    assert any(t % 10 for t in totals)  # not d20's 0-90 tens die
    assert parsed.expression == "1d%"


def test_roll_keeps_every_die_in_the_text() -> None:
    result = roll("4d6kh3+2")
    assert result.text.startswith("4d6kh3 (")
    assert result.text.count(",") == 3
    assert 5 <= result.total <= 20


@pytest.mark.parametrize(
    ("typed", "relative", "low", "high", "label"),
    [
        ("15", False, 15, 15, None),
        ("-3", True, -3, -3, None),
        ("+1D4", True, 1, 4, None),
        ("-1D6 falling rock", True, -6, -1, "falling rock"),
        ("1d% luck", False, 1, 100, "luck"),
    ],
)
def test_gm_amounts_read_dice_like_roll(
    typed: str, relative: bool, low: int, high: int, label: str | None
) -> None:
    amount = parse_amount(typed)
    assert amount.relative is relative
    assert low <= amount.value <= high
    if label is None:
        assert amount.rolled is None or ":" not in amount.rolled.split("(")[0]
    else:
        assert amount.rolled is not None and amount.rolled.startswith(f"{label}: 1d")


@pytest.mark.parametrize("typed", ["999999d999999", "1d0", "d", "-1d20 " + "x" * 300])
def test_gm_amounts_have_the_same_limits(typed: str) -> None:
    with pytest.raises(InvalidInput):
        parse_amount(typed)


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


@given(st.text(alphabet="0123456789dD%+-*/()khlKHL #:abcxyz", max_size=40))
def test_dice_like_text_rolls_or_is_refused_cleanly(text: str) -> None:
    try:
        result = roll(text)
    except InvalidInput as error:
        assert str(error)
    else:
        assert isinstance(result.total, int)
