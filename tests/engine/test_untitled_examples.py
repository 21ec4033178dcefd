"""Untitled's example sheets (``data/sheets/untitled/``, issue 13): two characters — the text's
archer, who moves while drawing, shoots as the standard action and reloads with the second
move, and a melee fighter with a shield — and two NPC templates, all valid and plausible, and
offered by ``/character import example:``.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.engine.core.dice import RandomRoller
from bot.engine.untitled.dice import exchange
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.tables import default_tables
from bot.services.sheet_examples import EXAMPLES_DIR, ExampleSheets

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "sheets" / "untitled"
TABLES = default_tables()


def load(stem: str) -> UntitledSheet:
    return UntitledSheet.model_validate_json((EXAMPLES / f"{stem}.json").read_text("utf-8"))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_example_sheets_are_valid_and_trained_in_what_they_carry(path: Path) -> None:
    s = UntitledSheet.model_validate_json(path.read_text("utf-8"))
    assert s.system == "untitled"
    assert s.weapons, "every example carries a weapon"
    for weapon in s.weapons:
        assert s.attack_level(weapon) is not None, f"{weapon.name}: its skill is on the sheet"
        assert s.damage_level(weapon) is not None, f"{weapon.name}: its form is on the sheet"
    assert s.defense_level() is not None
    if s.shield is not None:
        assert s.shield_level() is not None
    if s.armor is not None:
        assert s.armor_level() is not None
    assert all(level <= 20 for level in s.skill_levels().values()), "no Legendary example"


def test_the_archer_and_the_fighter_are_the_issues_two_characters() -> None:
    """ "as an archer, you have your character move into position while drawing their bow ...
    utilize their standard action to load, draw, aim and fire ... and their second move action
    to reload"; issue 13: "a melee fighter with a shield"."""
    wren = load("wren")
    bow = wren.weapon("Longbow")
    assert bow is not None
    assert (bow.kind, bow.reload, bow.hands) == ("ranged", "move", 2)
    brask = load("brask")
    sword = brask.weapon("Arming sword")
    assert sword is not None and sword.kind == "melee"
    assert brask.shield is not None and brask.shield_level() is not None
    crossbow = load("bandit-crossbowman").weapon("Heavy crossbow")
    assert crossbow is not None and crossbow.reload == "full_round"  # "a complex weapon"
    assert load("hill-giant").armor is not None  # the text's "giant"


def test_every_example_can_attack_every_other_with_its_shipped_tables() -> None:
    """No example holds a level whose dice the Storyteller must set first: every pairing
    resolves, over many seeds."""
    sheets = [load(p.stem) for p in sorted(EXAMPLES.glob("*.json"))]
    roller = RandomRoller(seed=13)
    hits = crits = 0
    for attacker, defender in itertools.permutations(sheets, 2):
        for weapon in attacker.weapons:
            for _ in range(25):
                result = exchange(roller, TABLES, attacker, weapon.name, defender)
                hits += result.attack.hit
                crits += result.attack.critical
                assert 0 <= result.health <= (result.damage.total if result.damage else 0)
    assert hits and crits


def test_untitleds_examples_are_offered_now_it_is_registered() -> None:
    """The listing offers registered rulesets (``bot/services/sheet_examples.py``)."""

    class Shipped(ExampleSheets):
        _examples_dir = EXAMPLES_DIR

    assert EXAMPLES.parent == EXAMPLES_DIR
    assert len(list(EXAMPLES.glob("*.json"))) == 4
    listed = {e.key for e in Shipped().examples() if e.ruleset == "untitled"}
    assert listed == {"wren", "brask", "hill-giant", "bandit-crossbowman"}
    assert Shipped().example_choices("wren") == [("Wren (Untitled)", "wren")]
