"""UTTAS "Perform a skill": "If the Skill requires more than one turn, they begin initiating the
skill and complete it after the allotted amount of time has passed" (issue 11, Missing 8;
:mod:`bot.engine.uttas.skills_long`)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.engine.core.commands import EndTurn
from bot.engine.core.events import TurnSkipped
from bot.engine.uttas.commands import Attack, React, SetCondition, UseSkill
from bot.engine.uttas.events import Checked
from bot.engine.uttas.skills_long import PERFORMING, StopSkill
from bot.errors import RuleViolation
from tests.engine.helpers import Fight, sheet

LOCKS = {"skills": {"Lockpicking": 3, "Tracking": 2}, "skill_turns": {"Lockpicking": 3}}


def pair() -> tuple[Fight, str, str]:
    """Ann (Lockpicking takes 3 turns) acts first, then Bob."""
    f = Fight()
    a = f.add("Ann", agility=14, **LOCKS)  # type: ignore[arg-type]
    b = f.add("Bob", npc=True, agility=12)
    f.begin(dice=[])
    return f, a, b


def checks(f: Fight) -> list[Checked]:
    return [e for e in f.log[-1].events if isinstance(e, Checked)]


def test_a_skill_of_three_turns_is_begun_continued_and_completed_with_its_roll() -> None:
    """Begun as the turn's action (no roll), the next turn spent on it (an action, the turn
    ends by itself), completed and rolled on the third."""
    f, a, b = pair()
    out = f.do(UseSkill(actor=a, skill="lockpicking", difficulty=10))
    assert not checks(f) and f.state.turn == b
    assert f.c(a).skill_in_progress.done == 1 and f.c(a).has(PERFORMING)
    assert "Ann begins Lockpicking: it takes 3 turns" in out.text
    out = f.do(EndTurn(actor=b))  # Ann's 2nd turn goes on it
    skipped = [e for e in out.events if isinstance(e, TurnSkipped)]
    assert [e.text for e in skipped] == [
        "Ann spends the turn continuing Lockpicking (turn 2 of 3)."
    ]
    assert f.state.turn == b and f.c(a).skill_in_progress.done == 2
    assert f.c(a).actions_left == 3  # the turn's action: 1 of Speed 4
    f.do(EndTurn(actor=b), dice=[4, 4, 3])  # Ann's 3rd turn: completes, 11 vs 10
    (done,) = checks(f)
    assert done.success and done.roll.total == 11 and done.combatant == a
    assert "Ann completes Lockpicking" in done.text
    assert f.c(a).skill_in_progress is None and not f.c(a).has(PERFORMING)
    assert f.state.turn == b


def test_a_one_turn_skill_still_rolls_at_once() -> None:
    f, a, _ = pair()
    f.do(UseSkill(actor=a, skill="Tracking"), dice=[2, 5])
    assert checks(f)[0].roll.total == 7 and f.c(a).skill_in_progress is None


def test_reacting_interrupts_the_skill() -> None:
    """Acting otherwise (an Evade spends an action) interrupts it: no roll, the turns lost."""
    f, a, b = pair()
    f.do(UseSkill(actor=a, skill="Lockpicking"))
    f.do(Attack(actor=b, target=a, attack="Sword"))
    out = f.do(React(actor=a, choice="evade"), dice=[1, 1, 1])
    assert "Ann's Lockpicking is interrupted after 1 of 3 turns (Ann acted otherwise" in out.text
    assert f.c(a).skill_in_progress is None and not f.c(a).has(PERFORMING)


@pytest.mark.parametrize("condition", ["Stunned", "Unconscious"])
def test_a_condition_interrupts_the_skill(condition: str) -> None:
    f, a, _ = pair()
    f.do(UseSkill(actor=a, skill="Lockpicking"))
    out = f.do(SetCondition(target=a, condition=condition))
    assert f"(Ann is {condition.lower()})" in out.text
    assert f.c(a).skill_in_progress is None


def test_a_grapple_interrupts_the_skill() -> None:
    """Held in a grapple, the performer may only escape or take control ("Grappled")."""
    f, a, b = pair()
    f.do(UseSkill(actor=a, skill="Lockpicking"))
    f.do(Attack(actor=b, target=a, attack="Grapple", limbs=("left arm",)))
    out = f.do(React(actor=a, choice="none"), dice=[6, 6, 6])
    assert "(Ann is grappled)" in out.text and f.c(a).skill_in_progress is None


def test_stopping_is_free_and_the_next_turn_is_ones_own() -> None:
    f, a, b = pair()
    f.do(UseSkill(actor=a, skill="Lockpicking"))
    out = f.do(StopSkill(actor=a))
    assert "interrupted after 1 of 3 turns (Ann stopped)" in out.text
    f.do(EndTurn(actor=b))
    assert f.state.turn == a  # an ordinary turn again
    with pytest.raises(RuleViolation, match="performing no skill"):
        f.do(StopSkill(actor=a))


def test_outside_a_fight_a_long_skill_rolls_at_once() -> None:
    """No turns before the fight: the check needs none (issue 11, "Checks outside a fight")."""
    f = Fight()
    a = f.add("Ann", **LOCKS)  # type: ignore[arg-type]
    f.do(UseSkill(actor=a, skill="Lockpicking"), dice=[3, 3, 3])
    assert checks(f)[0].roll.total == 9 and f.c(a).skill_in_progress is None


def test_the_sheet_names_only_its_own_skills_and_at_least_two_turns() -> None:
    with pytest.raises(ValidationError, match="skill_turns names skills the sheet does not"):
        sheet(skills={"Tracking": 2}, skill_turns={"Surgery": 3})
    with pytest.raises(ValidationError, match="greater than or equal to 2"):
        sheet(skills={"Tracking": 2}, skill_turns={"Tracking": 1})
