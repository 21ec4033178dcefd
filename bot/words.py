"""Counting in plain English for the texts people read: ``counted(1, "action")`` is "1 action",
``counted(3, "action")`` "3 actions" — never "action(s)"."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural (``plural``, else ``word`` + "s") unless ``n`` is 1."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {plural or word + 's'}"
