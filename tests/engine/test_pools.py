"""Dice pools (issue 10 §4, decision F): mixed dice, sums and hits, keep highest/lowest,
rerolls, bumps and forced faces die by die, opposed rolls, favor policies — and an exact
distribution (icepool) that matches brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.engine.core.dice import ScriptedRoller
from bot.engine.core.pools import DiceGroup, ExtraDice, KeepBest, Pool, opposed
from bot.errors import InvalidInput


def d(count: int, sides: int, label: str = "") -> DiceGroup:
    return DiceGroup(count=count, sides=sides, label=label)


def test_a_mixed_pool_rolls_every_group_in_order_and_sums() -> None:
    pool = Pool(groups=(d(2, 6, "Sword"), d(1, 8, "Fire")), modifier=2)
    rolled = pool.roll(ScriptedRoller([4, 1, 7]))
    assert [(die.sides, die.value) for die in rolled.dice] == [(6, 4), (6, 1), (8, 7)]
    assert rolled.total == rolled.result == 14
    assert rolled.shown("attack") == "attack: Sword 2d6 + Fire 1d8 [4] [1] [7] + 2 = 14"


def test_hits_count_dice_at_or_above_a_face() -> None:
    """Uune: 1d6 plus one per approved resource; any die landing on 5 or 6 is a hit."""
    pool = Pool(groups=(d(3, 6),), hit_on=5)
    rolled = pool.roll(ScriptedRoller([5, 2, 6]))
    assert rolled.hits == rolled.result == 2
    assert rolled.shown() == "3d6 [5] [2] [6] = 2 hits"


def test_keep_highest_and_lowest_strike_out_the_rest() -> None:
    highest = Pool(groups=(d(3, 6),), keep="highest", keep_count=2).roll(ScriptedRoller([2, 6, 2]))
    assert [die.kept for die in highest.dice] == [True, True, False]  # ties: the first rolled
    assert highest.total == 8 and "~~[2]~~" in highest.shown()
    lowest = Pool(groups=(d(3, 6),), keep="lowest", keep_count=1).roll(ScriptedRoller([4, 3, 5]))
    assert lowest.total == 3
    with pytest.raises(ValidationError):
        Pool(groups=(d(2, 6),), keep="highest")


def test_reroll_bump_and_set_keep_each_dies_history() -> None:
    pool = Pool(groups=(d(3, 6),), hit_on=5)
    rolled = pool.roll(ScriptedRoller([1, 4, 2]))
    assert rolled.hits == 0
    rerolled = rolled.reroll([0, 2], ScriptedRoller([5, 3]))  # a focus point: reroll two
    assert [die.value for die in rerolled.dice] == [5, 4, 3] and rerolled.hits == 1
    bumped = rerolled.bump(1)  # 10 vitality: bump one by 1
    assert bumped.dice[1].value == 5 and bumped.dice[1].bumped == 1 and bumped.hits == 2
    forced = bumped.set_face(2, 5)  # a focus point forces a resource to hit
    assert forced.hits == 3
    assert forced.shown() == "3d6 [1→5] [4+1] [2→3→5] = 3 hits"
    assert rolled.hits == 0  # the original is unchanged
    with pytest.raises(InvalidInput):
        forced.bump(0, by=2).bump(0)  # already at 6
    with pytest.raises(InvalidInput):
        rolled.reroll([0, 0], ScriptedRoller([1, 1]))
    with pytest.raises(InvalidInput):
        rolled.reroll([3], ScriptedRoller([1]))
    with pytest.raises(InvalidInput):
        rolled.set_face(0, 7)


def test_a_reroll_chooses_the_kept_dice_again() -> None:
    pool = Pool(groups=(d(2, 10),), keep="highest", keep_count=1)
    rolled = pool.roll(ScriptedRoller([9, 2]))
    assert rolled.total == 9
    assert rolled.reroll([1], ScriptedRoller([10])).total == 10


def test_opposed_results_and_tie_rules() -> None:
    assert opposed(12, 9, "second") == "first"
    assert opposed(9, 12, "first") == "second"
    assert opposed(10, 10, "second") == "second"
    assert opposed(10, 10, "tie") == "tie"


def test_extra_dice_is_uttas_advantage_and_disadvantage() -> None:
    pool = Pool(groups=(d(3, 6, "accuracy"),))
    policy = ExtraDice(6)
    assert policy.apply(pool, 2, 1).size == 4  # one net Advantage: +1d6
    assert policy.apply(pool, 1, 3).size == 1  # two net Disadvantages: −2d6
    assert policy.apply(pool, 0, 9).size == 0  # never below no dice
    assert policy.apply(pool, 0, 9).roll(ScriptedRoller([])).total == 0


def test_keep_best_rolls_extra_dice_and_keeps_as_many_as_before() -> None:
    pool = Pool(groups=(d(2, 20),))
    favored = KeepBest(20).apply(pool, 1, 0)
    assert favored.size == 3 and favored.keep == "highest" and favored.keep_count == 2
    assert favored.roll(ScriptedRoller([3, 15, 11])).total == 26
    disfavored = KeepBest(20).apply(pool, 0, 1)
    assert disfavored.roll(ScriptedRoller([3, 15, 11])).total == 14
    assert KeepBest(20).apply(pool, 1, 1) == pool


def test_the_distribution_of_known_pools() -> None:
    two_d6 = Pool(groups=(d(2, 6),)).distribution()
    assert two_d6[7] == Fraction(1, 6) and two_d6[2] == Fraction(1, 36)
    assert sum(two_d6.values()) == 1
    hits = Pool(groups=(d(2, 6),), hit_on=5).distribution()
    assert hits == {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}
    assert Pool(groups=(d(1, 6),), hit_on=5).chance(1) == Fraction(1, 3)
    assert Pool(modifier=3).distribution() == {3: Fraction(1)}


def test_limits_are_refused_before_rolling_or_computing() -> None:
    huge = Pool(groups=(d(100, 6), d(1, 6)))
    with pytest.raises(InvalidInput):
        huge.roll(ScriptedRoller([]))
    with pytest.raises(InvalidInput):
        huge.distribution()
    with pytest.raises(ValidationError):
        DiceGroup(count=999_999, sides=999_999)


def _brute_force(pool: Pool) -> dict[int, Fraction]:
    faces = [range(1, group.sides + 1) for group in pool.groups for _ in range(group.count)]
    outcomes: dict[int, int] = {}
    total = 0
    for combo in itertools.product(*faces):
        values = list(combo)
        if pool.hit_on is not None:
            values = [1 if v >= pool.hit_on else 0 for v in values]
        if pool.keep == "highest":
            values = sorted(values, reverse=True)[: pool.keep_count]
        elif pool.keep == "lowest":
            values = sorted(values)[: pool.keep_count]
        result = sum(values) + pool.modifier
        outcomes[result] = outcomes.get(result, 0) + 1
        total += 1
    return {k: Fraction(v, total) for k, v in sorted(outcomes.items())}


small_pools = st.builds(
    lambda groups, modifier, keep, keep_count, hit_on: Pool(
        groups=tuple(groups),
        modifier=modifier,
        keep=keep,
        keep_count=keep_count if keep != "all" else 0,
        hit_on=hit_on,
    ),
    st.lists(
        st.builds(DiceGroup, count=st.integers(0, 2), sides=st.sampled_from([2, 4, 6, 8])),
        max_size=3,
    ),
    st.integers(-3, 3),
    st.sampled_from(["all", "highest", "lowest"]),
    st.integers(1, 3),
    st.one_of(st.none(), st.integers(2, 6)),
)


@given(small_pools)
def test_the_exact_distribution_matches_enumerating_every_roll(pool: Pool) -> None:
    assert pool.distribution() == _brute_force(pool)


@given(small_pools, st.lists(st.integers(1, 8), min_size=6, max_size=6))
def test_a_roll_is_always_an_outcome_the_distribution_allows(pool: Pool, faces: list[int]) -> None:
    values: list[int] = []
    for group in pool.groups:
        values += [1 + (faces[len(values) % 6] - 1) % group.sides for _ in range(group.count)]
    rolled = pool.roll(ScriptedRoller(values))
    assert rolled.result in pool.distribution()
