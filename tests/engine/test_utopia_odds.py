"""Utopia /odds (issue 18): favor and disfavor of the ranged test, the damage after defenses and
what a Block or Dodge lets through — exact, checked against brute-force enumeration and against
a seeded simulation of the engine's own attack."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from bot.engine.core.dice import RandomRoller, ScriptedRoller
from bot.engine.utopia import commands as u
from bot.engine.utopia.events import AttackRolled
from bot.errors import DomainError
from tests.engine.helpers import NOW
from tests.engine.test_utopia_engine import RULES, fight
from tests.engine.test_utopia_stealth import sneaky


def test_melee_lines_match_brute_force() -> None:
    s = fight()
    odds = RULES.odds(s, s.get("c1"), s.get("c2"), "Maul", range_m=1)
    assert [line.reaction for line in odds.lines] == ["no defense", "Block", "Dodge"]
    guard = int(odds.damage[0].pool.rsplit(" ", 1)[1])
    after = [max(0, a + b - guard) for a, b in itertools.product(range(1, 7), repeat=2)]
    assert odds.lines[0].chance == Fraction(sum(d > 0 for d in after), 36)
    block = [sum(r) for r in itertools.product(range(1, 5), repeat=2)]  # Block Rating 2 → 2d4
    through = sum(r < d for d in after for r in block)
    assert odds.lines[1].chance == Fraction(through, 36 * 16)
    dodge = range(1, 13)  # Dodge Rating 1 → 1d12: at least the damage negates it
    assert odds.lines[2].chance == Fraction(sum(r < d for d in after for r in dodge), 36 * 12)


def test_ranged_test_matches_a_seeded_simulation_of_the_engine() -> None:
    s = fight()
    odds = RULES.odds(s, s.get("c1"), s.get("c2"), "Bow", range_m=20)
    assert any("disfavor: within far range" in m for m in odds.modifiers)
    roller, trials, landed = RandomRoller(random.Random(18)), 1500, 0
    for _ in range(trials):
        out = RULES.apply(
            s, u.Attack(actor="c1", target="c2", weapon="Bow", range_m=20), roller, NOW
        )
        rolled = [e for e in out.events if isinstance(e, AttackRolled)]
        landed += bool(rolled[0].hit and rolled[0].after_defense)
    # four standard errors of a proportion over 1,500 trials is at most 0.052
    assert abs(landed / trials - float(odds.lines[0].chance)) < 0.052
    beyond = RULES.odds(s, s.get("c1"), s.get("c2"), "Bow", range_m=31)
    assert beyond.lines[0].chance == 0


def test_unknown_weapon_and_missing_distance_are_refused() -> None:
    s = fight()
    with pytest.raises(DomainError, match="no weapon called 'Axe'"):
        RULES.odds(s, s.get("c1"), s.get("c2"), "Axe")
    with pytest.raises(DomainError, match="needs the distance"):
        RULES.odds(s, s.get("c1"), s.get("c2"), "Bow")


def test_no_block_or_dodge_line_where_none_is_offered() -> None:
    """A target that has not noticed the attacker (Stealth) or that attacked with interrupt
    actions is offered no Block or Dodge: the odds show none either (they showed both)."""
    s = fight(sneaky(), sneaky())
    hidden = RULES.apply(s, u.Stealth(actor="c1"), ScriptedRoller([6, 6, 6]), NOW).state
    odds = RULES.odds(hidden, hidden.get("c1"), hidden.get("c2"), "Knife", range_m=1)
    assert [line.reaction for line in odds.lines] == ["no defense"]
    assert "Bo has not noticed Ana: no Block or Dodge" in odds.modifiers
    guard = RULES.apply(
        s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), ScriptedRoller([1]), NOW
    ).state
    assert guard.get("c2").open_guard
    odds = RULES.odds(guard, guard.get("c1"), guard.get("c2"), "Knife", range_m=1)
    assert [line.reaction for line in odds.lines] == ["no defense"]
    seen = RULES.odds(s, s.get("c1"), s.get("c2"), "Knife", range_m=1)
    assert [line.reaction for line in seen.lines] == ["no defense", "Block", "Dodge"]
