"""Untitled /odds (issue 18): the opposed attack's exact chance (ties to the defender) matches
brute-force enumeration of every face, and the chance and the Health lost match a seeded
simulation of the engine's own exchange (with the shield, armor and criticals)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from bot.engine.core.dice import RandomRoller
from bot.engine.core.odds import percentile
from bot.engine.untitled.dice import exchange, skill_pool
from bot.engine.untitled.odds import untitled_odds
from bot.engine.untitled.tables import load_tables
from bot.errors import InvalidInput
from tests.engine.test_untitled_dice import ARCHER, FIGHTER, TABLES


def _faces(level: int | None) -> list[int]:
    pool = skill_pool(TABLES, level)[0]
    dice = [range(1, g.sides + 1) for g in pool.groups for _ in range(g.count)]
    return [sum(f) + pool.modifier for f in itertools.product(*dice)]


def test_no_shield_line_matches_brute_force() -> None:
    odds = untitled_odds(TABLES, FIGHTER, ARCHER, "Arming sword")
    attacks, defenses = _faces(5), _faces(3)
    won = sum(a > d for a in attacks for d in defenses)  # a tie goes to the defender
    assert odds.lines[0].reaction == "Combat Defense"
    assert odds.lines[0].chance == Fraction(won, len(attacks) * len(defenses))
    assert [line.reaction for line in odds.lines] == ["Combat Defense"]  # the archer has none


def test_shield_and_health_match_a_seeded_simulation() -> None:
    odds = untitled_odds(TABLES, ARCHER, FIGHTER, "Longbow")
    # in the shield prompt's words (newuser26: "no shield" / "Shield" read unlike its buttons)
    assert [line.reaction for line in odds.lines] == ["Combat Defense alone", "Raise the shield"]
    roller = RandomRoller(random.Random(18))
    trials = 6000
    runs = [exchange(roller, TABLES, ARCHER, "Longbow", FIGHTER) for _ in range(trials)]
    hits = [r.health for r in runs if r.attack.hit]
    # four standard errors of a proportion over 6,000 trials is at most 0.026
    assert abs(len(hits) / trials - float(odds.lines[1].chance)) < 0.026
    seen = {h: Fraction(hits.count(h), len(hits)) for h in set(hits)}
    (health,) = odds.damage
    assert abs(percentile(seen, Fraction(1, 2)) - health.median) <= 1
    assert health.low <= health.median <= health.high


def test_a_weapon_not_on_the_sheet_is_refused() -> None:
    with pytest.raises(InvalidInput, match="no weapon called 'Axe'"):
        untitled_odds(TABLES, ARCHER, FIGHTER, "Axe")


def test_a_tie_goes_where_the_tables_send_it() -> None:
    """A server whose ``defense.tie`` gives ties to the attacker: the odds count a tie as a hit
    and say so (the note said "a tie goes to the defender" whatever the tables said)."""
    tables = load_tables(overrides={"defense": {"tie": "attacker"}})
    odds = untitled_odds(tables, FIGHTER, ARCHER, "Arming sword")
    attacks, defenses = _faces(5), _faces(3)
    won = sum(a >= d for a in attacks for d in defenses)
    assert odds.lines[0].chance == Fraction(won, len(attacks) * len(defenses))
    assert odds.lines[0].note == "a tie goes to the attacker"
    assert untitled_odds(TABLES, FIGHTER, ARCHER, "Arming sword").lines[0].note == (
        "a tie goes to the defender"
    )
