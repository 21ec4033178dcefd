"""Class guard: a refusal never quotes what was typed with ``!r``.

``{typed!r}`` puts the text between quotes but leaves its Markdown live, so ``/act
action:*bad*`` read "Untitled has no action 'bad'" in italics (and a backtick opened a code
span). A refusal (a raised :class:`~bot.errors.DomainError`) quotes typed text with
:func:`bot.names.quoted` (or :func:`bot.names.code` in a code span) instead. This test reads the
source of ``bot/`` and ``cogs/`` and fails on a ``!r`` conversion in any f-string of a raised
refusal's arguments (a number or a fixed word may simply be written without ``!r``)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import bot.errors

ROOT = Path(__file__).resolve().parent.parent
REFUSALS = {
    name
    for name, value in vars(bot.errors).items()
    if inspect.isclass(value) and issubclass(value, bot.errors.DomainError)
}


def repr_in_refusals(source: str, path: str = "<test>") -> list[str]:
    """``path:line`` of each ``!r`` in an f-string argument of ``raise Refusal(...)``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        func = node.exc.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if called not in REFUSALS:
            continue
        for arg in (*node.exc.args, *(k.value for k in node.exc.keywords)):
            for inner in ast.walk(arg):
                if isinstance(inner, ast.FormattedValue) and inner.conversion == ord("r"):
                    found.append(f"{path}:{inner.lineno}")
    return found


def test_no_refusal_quotes_typed_text_with_repr() -> None:
    found = [
        hit
        for folder in ("bot", "cogs")
        for file in sorted((ROOT / folder).rglob("*.py"))
        for hit in repr_in_refusals(file.read_text(), str(file.relative_to(ROOT)))
    ]
    assert found == [], "quote typed text with names.quoted, not !r: " + ", ".join(found)


def test_the_guard_sees_repr_and_lets_quoted_pass() -> None:
    raw = "def f(x):\n    raise InvalidInput(f'No action {x!r}.')\n"
    fine = "def f(x):\n    raise InvalidInput(f'No action {names.quoted(x)}.')\n"
    assert repr_in_refusals(raw) == ["<test>:2"]
    assert repr_in_refusals(fine) == []
