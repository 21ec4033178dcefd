"""Uune exact odds (issue 18): hits against the hits required, for a stated number of approved
resources — checked against brute-force enumeration of every face (and every reroll of an
Intoxicated 6) for small pools, and against the engine's own dice for the rest."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from bot.engine.core.commands import Begin
from bot.engine.core.dice import RandomRoller
from bot.engine.core.effects import Effect
from bot.engine.uune import commands as u
from bot.engine.uune.dice import Resource, roll_action
from bot.engine.uune.odds import chance_of_hits, hits_distribution, uune_odds
from bot.engine.uune.ruleset import UuneRuleset
from bot.engine.uune.sheet import Proficiency
from bot.engine.uune.state import UuneCombatant, UuneState
from bot.errors import InvalidInput, NotFound, RuleViolation
from tests.contract.harness_uune import MIRA, statblock
from tests.engine.helpers import NOW

RULES = UuneRuleset()
T = RULES.tables


def brute_hits(dice: int, *, intoxicated: bool) -> dict[int, Fraction]:
    """Every face of every die (and, Intoxicated, every face of each 6's one reroll)."""
    out: dict[int, Fraction] = {}
    if not intoxicated:
        for faces in itertools.product(range(1, 7), repeat=dice):
            hits = sum(f >= 5 for f in faces)
            out[hits] = out.get(hits, Fraction(0)) + Fraction(1, 6**dice)
        return out
    for faces in itertools.product(range(1, 7), repeat=dice):
        sixes = [i for i, f in enumerate(faces) if f == 6]
        for rerolls in itertools.product(range(1, 7), repeat=len(sixes)):
            final = list(faces)
            for i, r in zip(sixes, rerolls, strict=True):
                final[i] = r
            hits = sum(f >= 5 for f in final)
            p = Fraction(1, 6**dice) * Fraction(1, 6 ** len(sixes))
            out[hits] = out.get(hits, Fraction(0)) + p
    return out


@pytest.mark.parametrize("resource_dice", [0, 1, 2, 3])
@pytest.mark.parametrize("intoxicated", [False, True])
def test_hits_match_brute_force_for_small_pools(resource_dice: int, intoxicated: bool) -> None:
    exact = hits_distribution(resource_dice, T, intoxicated=intoxicated)
    assert exact == brute_hits(1 + resource_dice, intoxicated=intoxicated)
    assert sum(exact.values()) == 1


def test_a_large_pool_matches_the_engines_own_dice() -> None:
    """Eight resources: the exact chance of 3+ hits against 20,000 rolls of the engine's
    ``roll_action`` (seeded), within four standard errors."""
    exact = chance_of_hits(hits_distribution(8, T, intoxicated=False), 3)
    roller = RandomRoller(seed=18)
    n = 20_000
    made = sum(roll_action(roller, [Resource(name="r", dice=8)], 3, T).success for _ in range(n))
    se = (float(exact) * (1 - float(exact)) / n) ** 0.5
    assert abs(made / n - float(exact)) < 4 * se


def fight() -> UuneState:
    state: UuneState = RULES.new_encounter(name="Docks", seed=1)
    for command in (
        u.AddCombatant(name="Mira", sheet=MIRA),
        u.AddCombatant(name="Thug", sheet=statblock(60), is_npc=True),
        Begin(),
    ):
        state = RULES.apply(state, command, RandomRoller(seed=1), NOW).state
    return state


def with_effect(c: UuneCombatant, name: str, level: int = 1) -> UuneCombatant:
    return c.model_copy(update={"effects": [*c.effects, Effect(name=name, level=level)]})


def test_a_pcs_attack_needs_the_npcs_defensiveness_per_resource_count() -> None:
    state = fight()
    mira, thug = state.combatants
    odds = uune_odds(T, mira, thug, "Attack", None)
    assert odds.attack == "Mira's Attack against Thug"
    labels = [line.reaction for line in odds.lines]
    assert labels == ["no resources", "1 resource", "2 resources", "3 resources", "4 resources"]
    for n, line in enumerate(odds.lines):  # Defensiveness 3: three hits from 1 + n dice
        assert line.chance == chance_of_hits(brute_hits(1 + n, intoxicated=False), 3)
        assert f"{1 + n}d6, hits on 5+, 3 needed (Defensiveness 3)" == line.note
    assert odds.lines[0].chance == 0 and odds.lines[2].chance == Fraction(1, 27)
    assert any("not counted: Help" in m for m in odds.modifiers)


def test_stated_resources_a_count_or_names_with_proficiency() -> None:
    state = fight()
    mira, thug = state.combatants
    (two,) = uune_odds(T, mira, thug, "Attack", "2").lines
    assert two.reaction == "2 resources" and two.chance == Fraction(1, 27)
    proficient = mira.sheet.model_copy(  # as at a higher level: 2 points on Quickblade
        update={"proficiency": (Proficiency(on="Quickblade", points=2),)}
    )
    mira = mira.model_copy(update={"sheet": proficient})
    (named,) = uune_odds(T, mira, thug, "Attack", "quickblade, Lockpicks").lines
    # Quickblade with 2 proficiency points gives 3 dice, Lockpicks 1: 5d6 in all
    assert named.reaction == "Quickblade, Lockpicks" and named.note.startswith("5d6")
    assert named.chance == chance_of_hits(brute_hits(5, intoxicated=False), 3)
    with pytest.raises(NotFound, match="no resource called 'Rope'"):
        uune_odds(T, mira, thug, "Attack", "Rope")
    with pytest.raises(InvalidInput, match="stated twice"):
        uune_odds(T, mira, thug, "Attack", "Lockpicks, lockpicks")
    with pytest.raises(InvalidInput, match="at most 20"):
        uune_odds(T, mira, thug, "Attack", "21")


def test_impaired_and_intoxicated_change_the_roll() -> None:
    state = fight()
    mira, thug = state.combatants
    impaired = uune_odds(T, with_effect(mira, "Impaired", 2), thug, "Attack", "3")
    assert "Impaired: +2 hits required (Mira)" in impaired.modifiers
    assert impaired.lines[0].chance == chance_of_hits(brute_hits(4, intoxicated=False), 5)
    drunk = uune_odds(T, with_effect(mira, "Intoxicated"), thug, "Attack", "2")
    assert any(m.startswith("Intoxicated") for m in drunk.modifiers)
    assert drunk.lines[0].chance == chance_of_hits(brute_hits(3, intoxicated=True), 3)


def test_an_npcs_attack_lands_when_the_pcs_defend_fails() -> None:
    state = fight()
    mira, thug = state.combatants
    odds = uune_odds(T, thug, mira, "Cudgel", "1")
    assert odds.attack == "Thug's Cudgel against Mira (who Defends)"
    (line,) = odds.lines
    assert line.reaction == "Mira's Defend with 1 resource"
    assert line.chance == 1 - chance_of_hits(brute_hits(2, intoxicated=False), 3)
    assert "difficulty 3" in line.note
    bottle = uune_odds(T, thug, mira, "Thrown bottle", None)
    assert len(bottle.lines) == 5 and bottle.lines[0].chance == 1  # 1 die, 2 hits needed
    with pytest.raises(NotFound, match="no attack called 'Axe'"):
        uune_odds(T, thug, mira, "Axe", None)


def test_pc_against_pc_and_npc_against_npc_are_refused() -> None:
    state = fight()
    mira, thug = state.combatants
    with pytest.raises(RuleViolation, match="against an NPC"):
        uune_odds(T, mira, mira, "Attack", None)
    with pytest.raises(RuleViolation, match="against a PC"):
        uune_odds(T, thug, thug, "Cudgel", None)


def test_the_ruleset_offers_attack_for_a_pc_and_the_statblock_for_an_npc() -> None:
    state = fight()
    mira, thug = state.combatants
    assert RULES.odds_count_resources
    assert RULES.odds_attack_names(mira) == ["Attack"]
    assert RULES.odds_attack_names(thug) == ["Cudgel", "Thrown bottle"]
    assert (
        RULES.odds(state, mira, thug, "Attack").lines
        == uune_odds(T, mira, thug, "Attack", None).lines
    )


def test_stated_resources_of_only_commas_are_no_resources() -> None:
    """``resources: ,,,`` names nothing (blank parts are dropped, as ``/act`` drops them): it
    was shown as a line with no label at all (": 0 % to hit"); it is no resources."""
    state = fight()
    mira, thug = state.combatants
    (line,) = uune_odds(T, mira, thug, "Attack", " , ,, ").lines
    (none,) = uune_odds(T, mira, thug, "Attack", "0").lines
    assert line == none and line.reaction == "no resources"


def brute_levels(dice: int, levels: int) -> dict[int, Fraction]:
    """Every face, each die showing 6 rerolled up to ``levels`` times ("Effects": a level's
    mechanic applies once per level; "Effect: Intoxicated": "must reroll all 6s")."""
    one: dict[int, Fraction] = {f: Fraction(1, 6) for f in range(1, 7)}
    for _ in range(levels):
        again = {f: p for f, p in one.items() if f != 6}
        for f in range(1, 7):
            again[f] = again.get(f, Fraction(0)) + one[6] / 6
        one = again
    hit = one[5] + one[6]
    return {
        k: Fraction(math.comb(dice, k)) * hit**k * (1 - hit) ** (dice - k) for k in range(dice + 1)
    }


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_intoxicated_levels_reroll_6s_once_per_level(levels: int) -> None:
    assert brute_levels(3, 1) == brute_hits(3, intoxicated=True)
    exact = hits_distribution(2, T, intoxicated=levels)
    assert {k: v for k, v in exact.items() if v} == {
        k: v for k, v in brute_levels(3, levels).items() if v
    }
    state = fight()
    mira, thug = state.combatants
    drunk = uune_odds(T, with_effect(mira, "Intoxicated", levels), thug, "Attack", "2")
    assert drunk.lines[0].chance == chance_of_hits(brute_levels(3, levels), 3)
    times = {1: "once", 2: "twice", 3: "3 times"}[levels]
    assert f"Intoxicated: every 6 rerolled {times} (Mira)" in drunk.modifiers
