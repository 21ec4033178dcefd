"""UTTAS /odds (issue 18): each reaction's exact chance matches brute-force enumeration of the
Accuracy dice, damage on a hit is Health per die less Armor and Stamina less Defense, and an
attack the sheet lacks is refused."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from bot.engine.core.odds import damage_summary
from bot.engine.uttas.plausibility import dice_sum
from bot.engine.uttas.rules import attack_profile
from bot.errors import DomainError
from tests.engine.helpers import RULES, Fight


def _brute(dice: int, bonus: int, tn: int) -> Fraction:
    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return Fraction(sum(sum(r) + bonus > tn for r in rolls), len(rolls))


def test_each_reaction_matches_brute_force() -> None:
    f = Fight()
    a = f.add("Ana")
    b = f.add("Ogre", npc=True, armor={"physical": 1})
    odds = RULES.odds(f.state, f.c(a), f.c(b), "Sword", range_m=1)
    words = [line.reaction for line in odds.lines]
    assert words[0] == "no reaction" and len(words) >= 3
    for line in odds.lines:
        m = re.fullmatch(r"(\d+)d6 \+ (-?\d+) must beat (-?\d+)", line.note)
        assert m, line.note
        dice, bonus, tn = map(int, m.groups())
        assert line.chance == _brute(dice, bonus, tn), line.text
    assert len({line.chance for line in odds.lines}) > 1  # a reaction changes the odds
    health, stamina = odds.damage
    dice = attack_profile(f.c(a), "Sword", RULES.tables).dice
    assert (health.pool, health.median) == ("Health", dice - 1)  # one per die less Armor 1
    by_hand = damage_summary("Stamina", dice_sum(dice))  # the rolled total, Defense 0
    assert stamina == by_hand and stamina.low < stamina.median < stamina.high
    assert odds.text()[0] == "Ana's Sword against Ogre at 1 m"


def test_an_attack_not_on_the_sheet_is_refused() -> None:
    f = Fight()
    a, b = f.add("Ana"), f.add("Ogre", npc=True)
    with pytest.raises(DomainError, match="Axe"):
        RULES.odds(f.state, f.c(a), f.c(b), "Axe")


def test_a_feet_board_shows_the_distance_in_feet() -> None:
    """The board's scale (issue 11, :mod:`bot.engine.core.scale`) reaches /odds' heading too."""
    from bot.engine.uttas.ruleset import UttasRuleset
    from bot.engine.uttas.tables import load_tables

    feet = UttasRuleset(load_tables(overrides={"range": {"board": "feet"}}))
    f = Fight(feet)
    a, b = f.add("Ana"), f.add("Ogre", npc=True)
    odds = feet.odds(f.state, f.c(a), f.c(b), "Sword", range_m=feet.scale.to_meters(5))
    assert odds.text()[0] == "Ana's Sword against Ogre at 5 ft"


def test_the_gm_dice_on_the_attacker_count_in_the_odds() -> None:
    """``/odds`` gives the chance of the roll the attack would make: the Game Master's dice on
    the attacker (``/gm advantage``) join that roll, so they join the odds (they were left out:
    2 Advantage dice showed the 3d6 chance)."""
    from bot.engine.uttas.commands import GrantDice

    f = Fight()
    a, b = f.add("Ana"), f.add("Ogre", npc=True)
    plain = RULES.odds(f.state, f.c(a), f.c(b), "Sword", range_m=1)
    f.do(GrantDice(target=a, dice=2, until_removed=True))
    helped = RULES.odds(f.state, f.c(a), f.c(b), "Sword", range_m=1)
    assert helped.lines[0].note.startswith("5d6 + ") and plain.lines[0].note.startswith("3d6 + ")
    assert helped.lines[0].chance > plain.lines[0].chance
    assert "+1d6 Advantage: Game Master x2" in helped.modifiers
