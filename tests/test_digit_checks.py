"""Class guard: text a user typed is tested for digits with ``str.isdecimal``, never
``str.isdigit``. ``"²".isdigit()`` is True but ``int("²")`` raises ``ValueError``, so an
``isdigit`` check before ``int`` turned ``/odds resources:²`` into "Something went wrong";
``isdecimal`` accepts exactly the characters ``int`` reads."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_isdigit_in_the_bot() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ".isdigit()" in line
    ]
    assert not found, f"use str.isdecimal (what int() reads), not str.isdigit: {found}"


def test_isdecimal_is_what_int_reads() -> None:
    for text in ("²", "①", "٣", "３", "12"):
        readable = True
        try:
            int(text)
        except ValueError:
            readable = False
        assert text.isdecimal() is readable, text
