"""Utopia "Assist", pledged (issue 12, slice U4), with scripted dice: a test (a point of favor
and the helper's modifier, at least +1; a Strength test: the helper's roll added), a Leap (the
helper's Power score added) and a grapple (the helper's Agility test added); the IA paid at
once, the range, and the pledge lapsing at the end of the aided creature's next turn."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn, SetDistance
from bot.engine.core.dice import ScriptedRoller
from bot.engine.core.verbs import ActInput
from bot.engine.utopia import commands as u
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_utopia_engine import NOW, RULES, run, sheet


def trio() -> Any:
    """Ana (c1) and Cy (c3) against Bo (c2, an NPC); every sheet Dexterity 6, Speed 5, Power
    6, the other subtraits 1. Speed tests: Ana 18, Bo 3, Cy 6: Ana, Cy, Bo."""
    s = RULES.new_encounter(name="Trio", seed=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=sheet()), []).state
    s = run(s, u.AddCombatant(name="Bo", sheet=sheet(), is_npc=True), []).state
    s = run(s, u.AddCombatant(name="Cy", sheet=sheet()), []).state
    return run(s, Begin(), [6, 6, 6, 1, 1, 1, 2, 2, 2]).state


def first_test(out: Any) -> Any:
    return next(e for e in out.events if e.kind == "tested")


def test_assisted_test_a_favor_and_the_helpers_modifier() -> None:
    """ "the aided creature is given a point of favor … Its roll is also increased by the
    aiding creature's modifier, minimum of +1": Dexterity 4d6 [1, 1, 1, 1] + 2 + Cy's +2."""
    s = trio()
    s = run(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    assert s.get("c3").pools["interrupt"] == 1  # 1 IA, off Cy's turn
    out = run(s, u.Test(actor="c1", score="dexterity", difficulty=8), [1, 1, 1, 1])
    e = first_test(out)
    assert e.roll.total == 8 and e.success and "assisted: Cy's modifier +2" in e.text
    assert out.state.get("c1").pledges == ()
    out = run(s, u.Test(actor="c1", score="memory"), [1, 1, 1, 1])  # memory 1: −3 → +1
    assert first_test(out).roll.total == 4 - 3 + 1


def test_assisted_strength_test_adds_the_helpers_roll() -> None:
    """ "Some tests, such as Strength tests, may add the aiding creature's roll": Ana's Power
    3 + 2, Cy's Power test 6 + 2 added: 13; no favor."""
    s = trio()
    s = run(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    out = run(s, u.Test(actor="c1", score="power", difficulty=13), [1, 1, 1, 2, 2, 2])
    assert first_test(out).roll.total == 13 and first_test(out).success


def test_assisted_leap_adds_the_helpers_power_score() -> None:
    """ "adding the aiding creature's Power score to the leaping creature's leap distance"."""
    s = trio()
    with pytest.raises(RuleViolation, match="at most 6 m"):
        run(s, u.Leap(actor="c1", meters=12), [])
    s = run(s, u.Assist(actor="c3", target="c1", form="leap"), []).state
    out = run(s, u.Leap(actor="c1", meters=12), [])
    moved = next(e for e in out.events if e.kind == "moved")
    assert "assisted: Cy +6 m" in moved.text and out.state.get("c1").pledges == ()


def test_assisted_grapple_adds_the_helpers_agility_test() -> None:
    """ "adding its Agility test to the grappling creature's": 2 IA; Ana's Agility 3 + 7 and
    Cy's 3 + 7 = 20 beat Bo's 3 + 7 (alone, a tie would hold Ana off)."""
    s = trio()
    s = run(s, u.Assist(actor="c3", target="c1", form="grapple"), []).state
    assert s.get("c3").pools["interrupt"] == 0
    out = run(s, u.Grapple(actor="c1", target="c2"), [1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert out.state.get("c2").grappled_by == "c1"


def test_a_pledge_lapses_at_the_end_of_the_aided_creatures_turn() -> None:
    s = trio()
    s = run(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    out = run(s, EndTurn(actor="c1"), [])
    assert out.state.get("c1").pledges == ()
    assert any("lapses unused" in getattr(e, "text", "") for e in out.events)


def test_assist_refusals_change_nothing() -> None:
    s = trio()
    with pytest.raises(InvalidInput, match="themselves"):
        run(s, u.Assist(actor="c1", target="c1", form="test"), [])
    far = run(s, SetDistance(a="c1", b="c3", meters=5), []).state
    with pytest.raises(RuleViolation, match="touching"):
        run(far, u.Assist(actor="c3", target="c1", form="leap"), [])
    with pytest.raises(RuleViolation, match="within reach to help"):
        run(far, u.Assist(actor="c3", target="c1", form="test"), [])
    once = run(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    with pytest.raises(RuleViolation, match="already pledged"):
        run(once, u.Assist(actor="c3", target="c1", form="test"), [])
    with pytest.raises(RuleViolation, match="cannot assist"):  # 1 IA left, a grapple needs 2
        run(once, u.Assist(actor="c3", target="c1", form="grapple"), [])
    with pytest.raises(InvalidInput, match="Assist on a Block or Dodge is a button"):
        RULES.act(s, s.get("c3"), ActInput(key="assist", target="c1", detail="block"))


def test_on_its_own_turn_the_helper_pays_turn_actions() -> None:
    """ "You may spend 1 turn action as if it was 1 interrupt action"."""
    s = trio()
    s = run(s, u.Assist(actor="c1", target="c3", form="grapple"), []).state
    assert s.get("c1").pools["turn"] == 4


def test_a_servers_assist_tables_change_the_grapple_cost_and_the_minimum() -> None:
    """`docs/rules/utopia.md` names `assist` as where a GM changes Assist: with `grapple_ia` 1
    a grapple pledge costs 1 IA, and with `test_minimum` 2 a helper's +1-or-less modifier adds
    2 (memory 1: −3 → +2)."""
    rules = UtopiaRuleset.configured({"assist": {"grapple_ia": 1, "test_minimum": 2}})

    def play(s: Any, command: Any, dice: list[int]) -> Any:
        roller = ScriptedRoller(dice)
        out = rules.apply(s, command, roller, NOW)
        assert roller.remaining == 0, "every scripted die is used"
        return out

    s = trio()
    pledged = play(s, u.Assist(actor="c3", target="c1", form="grapple"), []).state
    assert pledged.get("c3").pools["interrupt"] == 1
    s = play(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    out = play(s, u.Test(actor="c1", score="memory"), [1, 1, 1, 1])
    assert first_test(out).roll.total == 4 - 3 + 2


def test_at_rules_version_1_a_grapple_pledge_still_costs_the_shipped_2_ia() -> None:
    """Fights started before Assist read these tables keep the numbers they played by."""
    changed = UtopiaRuleset.configured({"assist": {"grapple_ia": 1, "test_minimum": 2}})
    old = UtopiaRuleset.thawed(json.dumps({"version": 1, "tables": changed.tables_data()}))
    out = old.apply(
        trio(), u.Assist(actor="c3", target="c1", form="grapple"), ScriptedRoller([]), NOW
    )
    assert out.state.get("c3").pools["interrupt"] == 0
