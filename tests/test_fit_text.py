"""Text over Discord's limits is cut at whole lines or entries, never inside a mention, a name or
a code fence (:func:`bot.ui.text.fit_text`, :func:`bot.ui.embeds.fit_lines`)."""

from __future__ import annotations

from bot.ui.embeds import fit_lines
from bot.ui.text import MESSAGE_MAX, fit_text


def test_short_text_is_unchanged() -> None:
    assert fit_text("a\nb") == "a\nb"


def test_long_text_keeps_whole_lines_and_says_so() -> None:
    lines = [f"- <@{1000 + n}> line {n}" for n in range(300)]
    fitted = fit_text("\n".join(lines))
    assert len(fitted) <= MESSAGE_MAX and fitted.endswith("\n…")
    kept = fitted.split("\n")[:-1]
    assert kept == lines[: len(kept)]  # every kept line whole, in order


def test_an_open_code_block_is_closed() -> None:
    text = "Changes:\n```json\n" + "\n".join(f'"k{n}": {n},' for n in range(400)) + "\n```"
    fitted = fit_text(text)
    assert len(fitted) <= MESSAGE_MAX and fitted.count("```") == 2
    assert fitted.endswith("```\n…")


def test_one_line_too_long_is_cut_to_the_limit() -> None:
    assert len(fit_text("x" * 5000)) <= MESSAGE_MAX


def test_entries_joined_by_any_separator_are_kept_whole() -> None:
    parts = [f"<@{10**17 + n}> (<@{2 * 10**17 + n}> stands in)" for n in range(40)]
    fitted = fit_lines(parts, 600, sep=", ")
    assert len(fitted) <= 600 and fitted.endswith("more")
    shown = fitted.split(", ")
    assert shown[:-1] == parts[: len(shown) - 1]
    assert shown[-1] == f"… and {len(parts) - len(shown) + 1} more"
