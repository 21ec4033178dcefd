"""Typed words the engine keeps shorter than typed are cut at a word, saying so
(:func:`bot.words.shortened`)."""

from __future__ import annotations

import pytest

from bot.words import shortened


@pytest.mark.parametrize(
    ("text", "width", "expected"),
    [
        ("  climb the wall  ", 60, "climb the wall"),
        ("climb the wall", 14, "climb the wall"),
        ("climb the wall", 13, "climb the..."),  # the cut falls between two words
        ("climb the wall", 11, "climb..."),  # "climb th" would cut "the"
        ("climb the walls", 14, "climb the..."),
        ("x" * 80, 60, "x" * 57 + "..."),
    ],
)
def test_shortened_at_a_word(text: str, width: int, expected: str) -> None:
    assert shortened(text, width) == expected
    assert len(shortened(text, width)) <= width
