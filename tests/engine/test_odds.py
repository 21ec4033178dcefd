"""Exact odds (issue 18): checked against brute-force enumeration of every face for small pools
and against a seeded simulation for large ones; the contract's default hook says "planned"."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from bot.engine.core.dice import RandomRoller
from bot.engine.core.odds import (
    Odds,
    OddsHooks,
    OddsLine,
    chance_to_beat,
    damage_summary,
    percent,
    percentile,
)
from bot.engine.core.pools import DiceGroup, ExtraDice, Pool
from bot.errors import InvalidInput, RulesetNotImplemented


def _pool(count: int, sides: int, modifier: int = 0, **kw: object) -> Pool:
    return Pool(groups=(DiceGroup(count=count, sides=sides),), modifier=modifier, **kw)  # type: ignore[arg-type]


def _faces(pool: Pool) -> list[tuple[int, ...]]:
    ranges = [range(1, g.sides + 1) for g in pool.groups for _ in range(g.count)]
    return list(itertools.product(*ranges))


def _value(pool: Pool, faces: tuple[int, ...]) -> int:
    counted = sorted(faces, reverse=pool.keep == "highest")
    if pool.keep != "all":
        counted = counted[: pool.keep_count]
    if pool.hit_on is not None:
        return sum(1 for f in counted if f >= pool.hit_on) + pool.modifier
    return sum(counted) + pool.modifier


def _brute(attack: Pool, defense: Pool | int, tie: str) -> Fraction:
    defenses = [(defense,)] if isinstance(defense, int) else _faces(defense)
    won = total = 0
    for a in _faces(attack):
        for d in defenses:
            mine = _value(attack, a)
            theirs = defense if isinstance(defense, int) else _value(defense, d)
            total += 1
            won += mine > theirs or (mine == theirs and tie == "first")
    return Fraction(won, total)


@pytest.mark.parametrize(
    ("attack", "defense", "tie"),
    [
        (_pool(3, 6, 2), 12, "first"),  # UTTAS: a sum pool against a Defense, ties hit
        (_pool(2, 6), _pool(2, 6, 1), "second"),  # Untitled: opposed, ties to the defender
        (_pool(2, 8, 3), _pool(1, 10), "second"),
        (_pool(3, 6, -1), _pool(2, 6), "tie"),
        (ExtraDice(6).apply(_pool(3, 6), 2, 0), 14, "first"),  # Utopia: 2 favor → 5d6
        (ExtraDice(6).apply(_pool(3, 6), 0, 2), 4, "first"),  # 2 disfavor → 1d6
        (_pool(4, 6, keep="highest", keep_count=2), 9, "first"),
        (_pool(4, 6, hit_on=5), 1, "first"),  # success counting (Uune-style hits)
    ],
)
def test_exact_chance_matches_brute_force(attack: Pool, defense: Pool | int, tie: str) -> None:
    assert chance_to_beat(attack, defense, tie) == _brute(attack, defense, tie)  # type: ignore[arg-type]


def test_large_pool_matches_a_seeded_simulation() -> None:
    attack, defense = _pool(20, 6, 3), _pool(18, 8)
    exact = chance_to_beat(attack, defense, "second")
    roller = RandomRoller(random.Random(18))
    trials = 20_000
    won = sum(attack.roll(roller).total > defense.roll(roller).total for _ in range(trials))
    # four standard errors of a proportion over 20,000 trials is at most 0.0142
    assert abs(won / trials - float(exact)) < 0.0142
    assert Fraction(1, 10) < exact < Fraction(9, 10)


def test_damage_summary_is_the_exact_percentiles() -> None:
    dist = _pool(2, 6).distribution()
    summary = damage_summary("Health", _pool(2, 6))
    assert (summary.low, summary.median, summary.high) == (4, 7, 10)
    assert percentile(dist, Fraction(1, 2)) == 7
    assert damage_summary("Stamina", _pool(1, 6, -4)).low == 0  # never below no damage
    with pytest.raises(InvalidInput):
        percentile(dist, Fraction(0))


def test_absurd_pools_are_refused_before_computing() -> None:
    with pytest.raises(InvalidInput):
        chance_to_beat(Pool(groups=(DiceGroup(count=100, sides=6),) * 2), 5, "first")


def test_odds_text_and_the_planned_default() -> None:
    odds = Odds(
        attack="Sword against the Ogre",
        modifiers=("+1 Advantage (flanking)",),
        lines=(
            OddsLine(reaction="none", chance=Fraction(5, 12)),
            OddsLine(reaction="Evade", chance=Fraction(0), note="1 action"),
        ),
        damage=(damage_summary("Health", _pool(2, 6)),),
    )
    text = odds.text()
    assert text[2] == "none: 41.7 % to hit"
    assert text[3] == "Evade: 0 % to hit — 1 action"
    assert "Health: median 7 (10 %: 4, 90 %: 10)" in text[4]
    assert percent(Fraction(1)) == "100 %"

    class Uune(OddsHooks):
        title = "Uune"

    with pytest.raises(RulesetNotImplemented, match="Exact odds for Uune are planned"):
        Uune().odds(None, None, None, "Sword")
