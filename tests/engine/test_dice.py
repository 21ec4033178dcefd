"""Dice: injected rollers, every die kept, Advantage/Disadvantage, hard limits."""

from __future__ import annotations

import random

import pytest

from bot.engine import MAX_DICE, DiceRoller, DiceScriptExhausted, RandomRoller, ScriptedRoller
from bot.engine.core.dice import net_dice, roll_pool
from bot.errors import InvalidInput


def test_random_roller_is_reproducible_with_a_seed() -> None:
    a, b = RandomRoller(random.Random(5)), RandomRoller(seed=5)
    assert a.roll(10, 6) == b.roll(10, 6)
    assert isinstance(a, DiceRoller)


def test_scripted_roller_hands_out_values_and_says_when_it_runs_out() -> None:
    r = ScriptedRoller([1, 2, 3])
    assert r.roll(2, 6) == [1, 2]
    with pytest.raises(DiceScriptExhausted, match="ran out"):
        r.roll(2, 6)


def test_scripted_value_must_fit_the_die() -> None:
    with pytest.raises(InvalidInput, match="d6"):
        ScriptedRoller([7]).roll(1, 6)


@pytest.mark.parametrize(("count", "sides"), [(MAX_DICE + 1, 6), (-1, 6), (3, 1), (3, 10_000)])
def test_limits_refuse_expensive_or_malformed_rolls(count: int, sides: int) -> None:
    with pytest.raises(InvalidInput):
        RandomRoller(seed=1).roll(count, sides)


def test_advantage_adds_a_die_and_disadvantage_removes_one() -> None:
    up = roll_pool(ScriptedRoller([6, 6, 6, 6]), "acc", 3, advantage=1, modifier=2)
    assert up.dice == (6, 6, 6, 6) and up.total == 26
    down = roll_pool(ScriptedRoller([1, 1]), "acc", 3, disadvantage=1)
    assert down.dice == (1, 1) and down.total == 2
    assert up.text == "acc: 3d6 +1 adv [6, 6, 6, 6] + 2 = 26"


def test_several_advantages_and_disadvantages_cancel_pairwise() -> None:
    assert net_dice(3, 1) == (2, 0)
    assert net_dice(1, 3) == (0, 2)
    roll = roll_pool(ScriptedRoller([2, 2, 2, 2]), "x", 3, advantage=3, disadvantage=2)
    assert len(roll.dice) == 4 and roll.advantage == 3 and roll.disadvantage == 2


def test_disadvantage_never_goes_below_zero_dice() -> None:
    assert roll_pool(ScriptedRoller([]), "x", 2, disadvantage=5).dice == ()


def test_pool_growth_is_bounded() -> None:
    with pytest.raises(InvalidInput):
        roll_pool(ScriptedRoller([]), "x", 100, advantage=1)
