"""Free-form dice expressions through d20, as people type them: any letter case, ``d%``, a label
after the expression, and limits checked before anything is rolled."""

from __future__ import annotations

import d20
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
        # A label may say anything after a space, mentions included (shown escaped).
        ("1d20 <@123>", "1d20", "<@123>", "1d20 (", 1, 20),
        ("1d20 <@&123> <#4> <:x:5>", "1d20", "<@&123> <#4> <:x:5>", "1d20 (", 1, 20),
        ("1d20 @everyone", "1d20", "@everyone", "1d20 (", 1, 20),
        ("1d20 >= the DC", "1d20", ">= the DC", "1d20 (", 1, 20),
        ("1d20 > 10", "1d20 > 10", None, "1d20 (", 0, 1),  # d20's comparison stays one
        ("1d20 20ft fall", "1d20", "20ft fall", "1d20 (", 1, 20),
        ("1d20 2nd try", "1d20", "2nd try", "1d20 (", 1, 20),
        # Marked with # or :, a label may start with anything.
        ("1d20 # 2d6 fire", "1d20", "2d6 fire", "1d20 (", 1, 20),
        ("1d20: 12 goblins", "1d20", "12 goblins", "1d20 (", 1, 20),
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
        # Text glued to the dice is a mistake, not a label.
        ("1d6d6", "`1d6d6` is not a dice expression I understand \\(`d6` at position 4 was"),
        ("1e3", "\\(`e3` at position 2 was unexpected\\).*a label goes after a space"),
        ("1d20abc", "`abc` at position 5 was unexpected"),
        ("1d20+6fire", "`fire` at position 7 was unexpected"),
        ("1d20 + fire", "`fire` at position 8 was unexpected"),
        ("1d20 +", "it stops too early"),
        # A label that starts with dice or a number: refused, with what was probably meant.
        (
            "1 d20",
            "^`1 d20` reads as the number 1 then the label 'd20' — did you mean `1d20`\\?$",
        ),
        ("12 D6 fire", "reads as the number 12 then the label 'D6' — did you mean `12D6`\\?"),
        ("1d20 2d6", "reads as the dice `1d20` then the label '2d6' — did you mean `1d20\\+2d6`"),
        ("1d20 12", "the label '12' — did you mean `1d20\\+12`\\? A label can't start with"),
        ("1d20 d%, twice", "the label 'd%'"),
        ("1d20 (1)", "the label '\\(1\\)'"),
        # A label is a name: nothing blank-looking, no unassigned code points.
        ("1d20 \u0301", "^The roll's label shows as blank"),
        ("1d20 \u1cbc", "unassigned code point, U\\+1CBC"),
    ],
)
def test_refusals(typed: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        roll(typed)


@given(
    st.sampled_from(["1", "2", "1d20", "2d6+1", "d%", "4d6kh3"]),
    st.sampled_from(["d20", "2d6", "12", "1d%", "D8", "3"]),
    st.sampled_from([" ", "  ", "\u00a0"]),
    st.sampled_from(["", " fire", " to hit"]),
)
def test_a_label_never_starts_with_dice(dice: str, word: str, gap: str, more: str) -> None:
    with pytest.raises(InvalidInput, match=r"reads as .* then the label"):
        roll(f"{dice}{gap}{word}{more}")
    assert roll(f"{dice} # {word}{more}").label == f"{word}{more}"


@given(st.text(alphabet="0123456789dD%+-*/()khe#: abcxyz<@>", max_size=30))
def test_a_label_is_only_ever_text_after_a_space_or_mark(text: str) -> None:
    try:
        result = parse(text)
    except InvalidInput:
        return
    if result.label is None:
        return
    after = " ".join(text.split())[len(result.expression) :]
    assert after[:1] in (" ", "#", ":"), (text, result)
    if after.strip()[:1] not in ("#", ":"):  # unmarked: its first word is not dice or a number
        with pytest.raises(d20.RollSyntaxError):
            d20.parse(result.label.split()[0].rstrip(",.;!?").lower())


def test_the_label_counts_toward_the_length() -> None:
    label = "x" * (EXPRESSION_MAX - len("1d20 "))
    assert roll(f"1d20 {label}").label == label
    with pytest.raises(InvalidInput, match="201 characters long"):
        roll(f"1d20 {label}x")


def test_the_first_decimal_typed_is_kept() -> None:
    assert parse("2.7").decimal == "2.7"
    assert parse("1d6+0.5 luck").decimal == "0.5"
    assert parse("7/2").decimal is None  # a division is not a typed decimal
    assert roll("2.7").decimal == "2.7"


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


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("999999d999999", "at most 100 dice"),
        ("1d0", "no sides"),
        ("d", "stops too early"),
        ("-1d20 " + "x" * 300, "characters long"),
        ("1 d6", "did you mean `1d6`"),
        ("-1d6d6", "`d6` at position 4 was unexpected"),
        # Amounts are whole numbers: a typed decimal is refused, never cut to 2.
        ("2.7", "^Amounts of Health and Stamina are whole numbers: `2.7` has the decimal 2.7\\."),
        ("-2.7", "`-2.7` has the decimal 2.7"),
        ("+0.5", "has the decimal 0.5"),
        ("1d6+0.5 luck", "has the decimal 0.5"),
        ("2.0", "has the decimal 2.0"),
    ],
)
def test_gm_amounts_have_the_same_limits(typed: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_amount(typed)


@pytest.mark.parametrize("what", ["SHP", "light wounds", "Health and Stamina"])
def test_a_refused_amount_reads_right_for_a_vital_of_any_number(what: str) -> None:
    """The refusal agrees with a vital named in the singular or the plural (it said "light
    wounds stays")."""
    with pytest.raises(InvalidInput, match=f"^Amounts of {what} stay within ±100000\\.$"):
        parse_amount("+999999", what)
    with pytest.raises(InvalidInput, match=f"^Amounts of {what} are whole numbers: "):
        parse_amount("1.5", what)


def test_gm_amounts_from_dice_are_whole() -> None:
    assert parse_amount("7/2").value == 3  # d20's division: a dice total is always whole
    assert parse_amount("-1d20 <@123> trap").rolled is not None


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
