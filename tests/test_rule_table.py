"""The rule tables (``docs/rules/uttas-rule-table.md``, issue 11;
``docs/rules/utopia-rule-table.md``, issue 12; ``docs/rules/untitled-rule-table.md``, issue 13)
stay true to the tests.

Every row names tests that exist (found by parsing the test files with :mod:`ast`), every row
that is neither ``not modelled`` nor ``in progress`` names at least one, ``in progress`` rows
name none, and the numbering runs 1, 2, … with splits lettered ``a``, ``b``, … in order.

Run as a script for the counts the integrator quotes in the closing note::

    .venv/bin/python -m tests.test_rule_table
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLES = {
    "uttas": ROOT / "docs" / "rules" / "uttas-rule-table.md",
    "utopia": ROOT / "docs" / "rules" / "utopia-rule-table.md",
    "untitled": ROOT / "docs" / "rules" / "untitled-rule-table.md",
    "uune": ROOT / "docs" / "rules" / "uune-rule-table.md",
}
COLUMNS = ("#", "section", "the text says", "status", "the bot does", "where", "test(s)")
STATUSES = ("yes", "partly", "not modelled", "in progress")
TEST_ID = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
NUMBER = re.compile(r"^(\d+)([a-z]?)$")


@dataclass(frozen=True)
class Row:
    """One rule: its number (``"25b"``), its status (one of :data:`STATUSES`; a ``not
    modelled: <reason>`` cell gives ``not modelled``), the full status cell and the test ids
    (``path::name``) its tests cell names."""

    number: str
    status: str
    status_cell: str
    tests: tuple[str, ...]
    line: int


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse(text: str) -> list[Row]:
    """The table's rows, in order. Raises ``ValueError`` for a table row with the wrong number
    of cells, a header other than :data:`COLUMNS` or an unknown status."""
    rows: list[Row] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("|"):
            continue
        cells = _cells(line)
        if cells[0] == "#":
            if tuple(cells) != COLUMNS:
                raise ValueError(f"line {n}: the header must be {' | '.join(COLUMNS)}")
            continue
        if set(cells[0]) <= {"-"}:
            continue
        if len(cells) != len(COLUMNS):
            raise ValueError(f"line {n}: {len(cells)} cells, not {len(COLUMNS)} (a '|' inside?)")
        status_cell = cells[3]
        status = next((s for s in STATUSES if status_cell.startswith(s)), None)
        if status is None:
            raise ValueError(f"line {n}: unknown status {status_cell!r}")
        tests = tuple(f"{p}::{name}" for p, name in TEST_ID.findall(cells[6]))
        rows.append(Row(cells[0], status, status_cell, tests, n))
    return rows


@cache
def rows(ruleset: str = "uttas") -> list[Row]:
    return parse(TABLES[ruleset].read_text(encoding="utf-8"))


@cache
def defined_tests(path: str) -> frozenset[str]:
    """The names of the test functions defined at the top level of ``path`` or in its
    ``Test*`` classes (an empty set when the file does not exist)."""
    file = ROOT / path
    if not file.is_file():
        return frozenset()
    tree = ast.parse(file.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        nodes = node.body if isinstance(node, ast.ClassDef) else [node]
        for fn in nodes:
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.name.startswith(
                "test_"
            ):
                found.add(fn.name)
    return frozenset(found)


def missing_tests(table: list[Row]) -> list[str]:
    """``row: path::name`` for each named test that does not exist."""
    out = []
    for r in table:
        for tid in r.tests:
            path, name = tid.split("::")
            if name not in defined_tests(path):
                out.append(f"row {r.number} (line {r.line}): {tid}")
    return out


def numbering_problems(table: list[Row]) -> list[str]:
    """Gaps, repeats and malformed numbers: integers 1..N in order, each either alone or split
    into a, b, c… in order."""
    problems: list[str] = []
    expected, letter = 1, ""
    for r in table:
        m = NUMBER.match(r.number)
        if m is None:
            problems.append(f"line {r.line}: {r.number!r} is not a number like 12 or 12a")
            continue
        num, suffix = int(m.group(1)), m.group(2)
        if letter and num == expected - 1 and suffix == chr(ord(letter) + 1):
            letter = suffix
            continue
        if num != expected or suffix not in ("", "a"):
            want = f"{expected}" if not letter else f"{expected - 1}{chr(ord(letter) + 1)} or "
            want += f"{expected}" if letter else ""
            problems.append(f"line {r.line}: row {r.number} where {want} was expected")
        expected, letter = num + 1, suffix
    return problems


def untested(table: list[Row]) -> list[str]:
    """Rows with no test that are neither ``not modelled`` nor ``in progress``, and ``in
    progress`` rows that name tests (the integrator fills those in with the status)."""
    out = []
    for r in table:
        if r.status in ("yes", "partly") and not r.tests:
            out.append(f"row {r.number} (line {r.line}) is '{r.status}' and names no test")
        if r.status == "in progress" and r.tests:
            out.append(f"row {r.number} (line {r.line}) is 'in progress' but names tests")
        if r.status == "not modelled" and not r.status_cell.startswith("not modelled:"):
            out.append(f"row {r.number} (line {r.line}): 'not modelled: <reason>' please")
    return out


def counts(table: list[Row]) -> dict[str, int]:
    """rules / implemented (yes) / partly / not modelled / in progress / tested (rows naming at
    least one test)."""
    by = Counter(r.status for r in table)
    return {
        "rules": len(table),
        "implemented": by["yes"],
        "partly": by["partly"],
        "not modelled": by["not modelled"],
        "in progress": by["in progress"],
        "tested": sum(1 for r in table if r.tests),
    }


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_every_named_test_exists(ruleset: str) -> None:
    assert rows(ruleset), "the rule table has no rows"
    assert missing_tests(rows(ruleset)) == []


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_every_row_is_tested_not_modelled_or_in_progress(ruleset: str) -> None:
    assert untested(rows(ruleset)) == []


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_the_numbering_has_no_gaps(ruleset: str) -> None:
    assert numbering_problems(rows(ruleset)) == []
    assert rows(ruleset)[-1].number.rstrip("abcdefghijklmnopqrstuvwxyz") != ""


def test_the_table_covers_the_audits_112_rules() -> None:
    assert {int(NUMBER.match(r.number).group(1)) for r in rows()} >= set(range(1, 113))  # type: ignore[union-attr]


def test_the_checks_catch_what_they_should() -> None:
    """The checks fail on a made-up table with each kind of fault (so they cannot pass
    vacuously)."""
    head = "| " + " | ".join(COLUMNS) + " |\n|---|---|---|---|---|---|---|\n"
    ok = "`tests/test_rule_table.py::test_every_named_test_exists`"
    bad = "`tests/test_rule_table.py::test_no_such_test`"
    table = parse(
        head
        + f"| 1 | s | t | yes | d | w | {ok} |\n"
        + f"| 2a | s | t | partly | d | w | {bad} |\n"
        + "| 2b | s | t | yes | d | w | — |\n"
        + f"| 2d | s | t | in progress | d | w | {ok} |\n"
        + "| 4 | s | t | not modelled | d | w | — |\n"
    )
    assert [r.number for r in table] == ["1", "2a", "2b", "2d", "4"]
    assert missing_tests(table) == [f"row 2a (line 4): {bad.strip('`')}"]
    assert len(numbering_problems(table)) == 2  # 2d after 2b, 4 after 2
    assert len(untested(table)) == 3  # 2b untested, 2d in progress with a test, 4 no reason
    assert counts(table) == {
        "rules": 5,
        "implemented": 2,
        "partly": 1,
        "not modelled": 1,
        "in progress": 1,
        "tested": 3,
    }
    with pytest.raises(ValueError, match="unknown status"):
        parse(head + "| 1 | s | t | maybe | d | w | — |\n")
    with pytest.raises(ValueError, match="cells"):
        parse(head + "| 1 | s | t | yes | d | w |\n")


def main() -> None:
    """Print each table's counts, one per line, and any problem the tests would report."""
    for ruleset in TABLES:
        table = rows(ruleset)
        print(f"{ruleset}:")
        for name, n in counts(table).items():
            print(f"  {name}: {n}")
        for problem in missing_tests(table) + numbering_problems(table) + untested(table):
            print(f"  problem: {problem}")


if __name__ == "__main__":
    main()
