"""Utopia tests on demand and the GM's favor (issue 12, slice U4), with scripted dice: a test
is "3d6 + modifier against a difficulty" and "favor and disfavor cancel one for one; each net
favor adds a die" (issue 12's documented defaults for ``utopia-actions.txt``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import EndCombat
from bot.engine.utopia import commands as u
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_utopia_engine import RULES, fight, run, sheet


def rolled(out: Any) -> list[Any]:
    """The ``tested`` events of an outcome."""
    return [e for e in out.events if e.kind == "tested"]


def test_check_is_3d6_plus_the_modifier_against_the_difficulty() -> None:
    """Dexterity 6 → modifier +2: 3 + 4 + 5 + 2 = 14 meets 14."""
    s = fight()
    me = s.get("c1")
    command = RULES.check(s, me, "Dexterity", 14)
    out = run(s, command, [3, 4, 5])
    (e,) = rolled(out)
    assert e.roll.total == 14 and e.success is True
    assert "against difficulty 14: success" in e.text
    out = run(s, RULES.check(s, me, "dexterity", 15), [3, 4, 5])
    assert rolled(out)[0].success is False


def test_check_costs_no_action_and_needs_no_turn() -> None:
    """The bot's default: a test has no cost of its own; Bo tests on Ana's turn."""
    s = fight()
    out = run(s, RULES.check(s, s.get("c2"), "awareness", 10), [5, 5, 5])
    assert out.state.get("c2").pools == s.get("c2").pools
    assert out.state.get("c1").pools == s.get("c1").pools


def test_check_works_outside_a_fight() -> None:
    """Before a fight begins and after it ends, a test still rolls."""
    s = RULES.new_encounter(name="Calm", seed=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=sheet()), []).state
    out = run(s, RULES.check(s, s.get("c1"), "Power", 10), [4, 4, 4])
    assert rolled(out)[0].roll.total == 14
    ended = run(fight(), EndCombat(), []).state
    assert rolled(run(ended, RULES.check(ended, ended.get("c1"), "speed", None), [1, 1, 1]))


def test_opposed_check_the_target_tests_against_and_wins_ties() -> None:
    """Opposed: the target tests ``against`` (default the same score); a tie goes to it."""
    s = fight()
    command = RULES.check(s, s.get("c1"), "power", None, target="c2", against="dexterity")
    assert command.against == "dexterity"
    out = run(s, command, [4, 4, 4, 4, 4, 4])
    (e,) = rolled(out)
    assert e.opposing.total == e.roll.total and e.success is False
    assert "Bo prevails" in e.text
    out = run(s, RULES.check(s, s.get("c1"), "power", None, target="c2"), [6, 4, 4, 1, 1, 1])
    assert rolled(out)[0].success is True


def test_check_refuses_unknown_names_and_a_difficulty_with_a_target() -> None:
    s = fight()
    me = s.get("c1")
    with pytest.raises(InvalidInput, match="subtraits: dexterity, speed"):
        RULES.check(s, me, "Perception", 10)
    with pytest.raises(InvalidInput, match="not both"):
        RULES.check(s, me, "power", 10, target="c2")
    with pytest.raises(InvalidInput, match="give a `target:`"):
        RULES.check(s, me, "power", None, against="power")
    with pytest.raises(InvalidInput, match="their own"):
        run(s, RULES.check(s, me, "power", None, target="c1"), [])


def test_a_down_creature_cannot_test() -> None:
    s = fight()
    s = run(s, u.SetCondition(target="c2", condition="Down"), []).state
    with pytest.raises(RuleViolation):
        run(s, RULES.check(s, s.get("c2"), "power", 5), [])


def test_gm_favor_adds_a_die_to_the_next_test_only() -> None:
    """ "Each net favor adds a die": 2 points → 5d6 on the next test, then 3d6 again."""
    s = fight()
    s = run(s, RULES.boon_command("c1", 2, until_removed=False), []).state
    out = run(s, RULES.check(s, s.get("c1"), "power", 10), [1, 1, 1, 1, 1])
    assert len(rolled(out)[0].roll.dice) == 5
    assert "the GM's favor 2" in rolled(out)[0].text
    s = out.state
    again = run(s, RULES.check(s, s.get("c1"), "power", 10), [1, 1, 1])
    assert len(rolled(again)[0].roll.dice) == 3


def test_gm_disfavor_until_removed_and_cancelling() -> None:
    """Disfavor on every test until removed; favor and disfavor cancel one for one; 0 removes."""
    s = fight()
    s = run(s, RULES.boon_command("c1", -1, until_removed=True), []).state
    for _ in range(2):
        out = run(s, RULES.check(s, s.get("c1"), "power", 10), [1, 1])
        s = out.state
    s = run(s, RULES.boon_command("c1", 1, until_removed=False), []).state
    out = run(s, RULES.check(s, s.get("c1"), "power", 10), [1, 1, 1])  # +1 −1: 3d6
    s = run(out.state, RULES.boon_command("c1", 0, until_removed=False), []).state
    assert s.get("c1").gm_favor_every == 0 and s.get("c1").gm_favor_next == 0


def test_gm_favor_joins_a_ranged_attacks_dexterity_test() -> None:
    """ "Any test": the Bow's Dexterity test at 20 m (far: 1 disfavor) + the GM's 1 favor: 3d6."""
    s = fight()
    s = run(s, RULES.boon_command("c1", 1, until_removed=False), []).state
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Bow", range_m=20), [6, 6, 6, 1])
    attack = next(e for e in out.events if e.kind == "attack_rolled")
    assert len(attack.test.dice) == 3
    assert out.state.get("c1").gm_favor_next == 0
