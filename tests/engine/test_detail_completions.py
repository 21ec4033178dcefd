"""``detail:`` suggestions (:func:`bot.engine.core.verbs.completions`, :func:`after_colon`):
Discord's limits (25 choices, 100 characters each), lists completed after their last comma,
what is typed before a colon kept as typed."""

from __future__ import annotations

from bot.engine.core.verbs import DETAIL_CHOICE_MAX, DETAIL_CHOICES_MAX, after_colon, completions


def values(found: list[tuple[str, str]]) -> list[str]:
    assert all(shown == value for shown, value in found)
    return [value for _shown, value in found]


def test_what_is_typed_is_found_anywhere_in_an_option_whatever_its_case() -> None:
    assert values(completions("BOW", ["Longbow", "Knife", "Bowstring"])) == [
        "Longbow",
        "Bowstring",
    ]
    assert values(completions("", ["Knife", "Knife"])) == ["Knife"]  # each once


def test_at_most_25_choices_none_over_100_characters() -> None:
    many = [f"Rope {n}" for n in range(40)]
    assert len(completions("", many)) == DETAIL_CHOICES_MAX
    long = "x" * (DETAIL_CHOICE_MAX + 1)
    assert values(completions("", [long, "Rope"])) == ["Rope"]
    # a list that would grow past the limit is not offered
    typed = ", ".join(["y" * 45, "z" * 50]) + ","  # 103 characters with ", Rope"
    assert completions(typed, ["Rope"], listed=True) == []


def test_a_list_is_completed_after_its_last_comma_without_repeats() -> None:
    options = ["Rope", "Grit", "Lockpicks"]
    assert values(completions("rope, g", options, listed=True)) == ["rope, Grit"]
    assert values(completions("Rope,", options, listed=True)) == ["Rope, Grit", "Rope, Lockpicks"]
    assert values(completions(" , ", options, listed=True)) == options  # blank parts dropped


def test_after_a_colon_the_words_before_it_are_kept() -> None:
    options = ["Rope", "Grit"]
    assert after_colon("", options) == []  # the member's own words come first
    assert values(after_colon("climb the wall", options)) == [
        "climb the wall: Rope",
        "climb the wall: Grit",
    ]
    assert values(after_colon("climb:gr", options)) == ["climb: Grit"]
    assert values(after_colon("climb: Rope, g", options)) == ["climb: Rope, Grit"]
    assert after_colon("x" * 95 + ": ", options) == []  # over 100 characters
