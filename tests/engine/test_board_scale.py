"""UTTAS "Range Modifiers"/"Game Scale": "If the game board is operating in feet instead of
meters, the side of one square is assumed to be 5 feet" — a square is 2 m, so on a feet board
1 ft is 0.4 m of the rules (issue 11, Missing 8; :mod:`bot.engine.core.scale`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine.core.commands import SetDistance
from bot.engine.core.scale import METERS
from bot.engine.uttas import rules
from bot.engine.uttas.commands import Attack, Move
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.tables import load_tables
from bot.errors import RuleViolation
from tests.engine.helpers import Fight

FEET = UttasRuleset(load_tables(overrides={"range": {"board": "feet"}}))
ROOT = Path(__file__).resolve().parents[2]


def test_a_square_is_five_feet_and_two_meters() -> None:
    scale = FEET.scale
    assert scale.to_meters(5) == 2 and scale.to_meters(25) == 10 and scale.show(6) == "15 ft"
    assert METERS.show(6) == "6 m" and METERS.to_meters(6) == 6
    # The range increments, in squares, stay the text's: 1-5 squares = 10 m = 25 ft.
    assert rules.range_increment(scale.to_meters(25), FEET.tables) == 0
    assert rules.range_increment(scale.to_meters(30), FEET.tables) == 1


def test_every_distance_the_engine_writes_is_in_feet_on_a_feet_board() -> None:
    """Placing, moving, a reach refusal and a move's limit all read in feet."""
    f = Fight(FEET)
    a = f.add("Ann", agility=14)
    b = f.add("Bob", npc=True)
    f.begin(dice=[])
    placed = f.do(SetDistance(a=a, b=b, meters=FEET.scale.to_meters(30)))
    assert "Ann and Bob are 30 ft apart." in placed.text
    assert f.state.positions.lines({a: "Ann", b: "Bob"}, FEET.scale) == ["Ann ↔ Bob: 30 ft"]
    with pytest.raises(RuleViolation, match="Ann's Sword reaches 5 ft; the target is 30 ft"):
        f.do(Attack(actor=a, target=b, attack="Sword"))
    with pytest.raises(RuleViolation, match=r"run speed \(12.5 ft\); that would be 20 ft"):
        f.do(Move(actor=a, meters=FEET.scale.to_meters(20)))
    moved = f.do(Move(actor=a, meters=FEET.scale.to_meters(10), toward=b))
    assert "Ann moves 10 ft (run, free)." in moved.text and "now 20 ft from Bob" in moved.text


def test_no_engine_or_cog_text_writes_meters_by_hand() -> None:
    """The class guard: a distance is written through ``Scale.show`` (or typed through
    ``Scale.to_meters``), never as ``{x:g} m`` — a new message that did would show meters on
    a feet board."""
    by_hand = re.compile(r"""\{[^{}]*(?::g)?\} m\b(?!\w)""")
    offenders = []
    for folder in ("bot/engine", "cogs", "bot/ui"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if by_hand.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
    assert by_hand.search('f"{c.name} moves {cmd.meters:g} m (run)."')  # what it catches
