"""Counting in plain English for the texts people read: ``counted(1, "action")`` is "1 action",
``counted(3, "action")`` "3 actions" — never "action(s)"."""

from __future__ import annotations


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural (``plural``, else ``word`` + "s") unless ``n`` is 1."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {plural or word + 's'}"


def shortened(text: str, width: int) -> str:
    """``text`` (stripped) in at most ``width`` characters: as it is when it fits, else cut
    at the last word that fits, with "..." to say so — never a word cut in the middle (a single
    word longer than ``width`` is cut, with "..."). Three dots, not "…": text the engine keeps
    is NFKC-folded (:func:`bot.names.visible`), which turns "…" into "..." anyway."""
    text = text.strip()
    if len(text) <= width:
        return text
    cut = text[: width - 3]
    if not text[width - 3].isspace() and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + "..."


def sentence(text: str) -> str:
    """``text`` as a sentence's start: its first letter in upper case ("a burning beam hurts…"
    → "A burning beam hurts…"), the rest as it is."""
    return text[:1].upper() + text[1:]


def starts_a_sentence(text: str, names: list[str]) -> bool:
    """Whether ``text`` (an event's line) reads as a sentence's start: empty, not beginning
    with a lower-case letter, or beginning with one of ``names`` as typed (a combatant's name
    is its own, "goblin 1" too). Checked on every event the test suite's fights emit
    (:meth:`bot.engine.core.tx.CoreTx.emit`): a line led by text someone typed ("a burning
    beam hurts Willow…") goes through :func:`sentence`."""
    if not text[:1].islower():
        return True
    return any(text.startswith(name) for name in names if name)
