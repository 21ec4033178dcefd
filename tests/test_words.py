"""Typed words the engine keeps shorter than typed are cut at a word, saying so
(:func:`bot.words.shortened`)."""

from __future__ import annotations

from pathlib import Path

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


def test_the_bot_shortens_typed_words_with_one_function() -> None:
    """Uune's bond claim kept its own shortener (``specials._short``, over ``textwrap``) beside
    :func:`shortened`: a bond listed in a refusal ended "sheltered…", an action "climb the...".
    One function now shortens typed words; ``textwrap.shorten`` is left only where Uune rules
    versions 2-5 keep a bond's label in the decision (the GM's answer names it, so a fight's
    log replays only with the label it had)."""
    root = Path(__file__).resolve().parents[1] / "bot"
    users = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "textwrap.shorten" in p.read_text(encoding="utf-8")
    )
    assert users == ["engine/uune/specials.py"], users
    source = (root / "engine" / "uune" / "specials.py").read_text(encoding="utf-8")
    assert source.count("textwrap.shorten") == 1 and "def _short" not in source


_COUNTED_AS_WRITTEN = {
    # UTTAS rules versions 1-5 keep the words their logs were played with ("counted_words")
    ("bot/engine/uttas/core.py", "_actions"),
    ("bot/engine/uttas/chase.py", "_end"),
}


def test_no_text_counts_with_a_parenthesised_plural() -> None:
    """A number before "word(s)" in a text people read ("spends 1 action(s)") is written with
    :func:`bot.words.counted` instead ("1 action", "2 actions"). Scans every f-string of the bot
    and its cogs (``ast``), so a new one is caught wherever it is written; operators' log lines
    (``%d``-formatted) are not f-strings and are left alone."""
    import ast
    import re

    root = Path(__file__).resolve().parents[1]
    plural = re.compile(r"^ \w+\(s\)")
    found = []
    for path in sorted([*root.joinpath("bot").rglob("*.py"), *root.joinpath("cogs").rglob("*.py")]):
        where = str(path.relative_to(root))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in [
            n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]:
            if (where, func.name) in _COUNTED_AS_WRITTEN:
                continue
            for node in ast.walk(func):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for before, after in zip(node.values, node.values[1:], strict=False):
                    if (
                        isinstance(before, ast.FormattedValue)
                        and isinstance(after, ast.Constant)
                        and plural.match(str(after.value))
                    ):
                        found.append(f"{where}:{node.lineno} ({func.name})")
    assert not found, f"count with bot.words.counted: {sorted(set(found))}"
