"""Models the engine builds without validation (:mod:`bot.engine.core.built`) are the models
validation makes: the same fields in the same order, defaults, types, fields set and JSON — and
under the suite's check (``CHECKED``, on for every test) a value validation would change fails."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, Field, field_validator

from bot.engine.core import built as built_module
from bot.engine.core.built import built
from bot.engine.core.dice import Roll
from bot.engine.core.events import ActionsSpent, TurnStarted
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.state import PendingAttack
from tests.engine.helpers import Fight


def same(cls: type[BaseModel], **values: Any) -> None:
    mine, theirs = built(cls, **values), cls(**values)
    assert type(mine) is cls
    assert mine == theirs
    assert list(mine.__dict__) == list(theirs.__dict__)
    assert {k: type(v) for k, v in mine.__dict__.items()} == {
        k: type(v) for k, v in theirs.__dict__.items()
    }
    assert mine.model_fields_set == theirs.model_fields_set
    assert mine.model_dump_json() == theirs.model_dump_json()
    assert mine.model_dump_json(exclude_unset=True) == theirs.model_dump_json(exclude_unset=True)


def test_the_checks_are_on_in_the_suite() -> None:
    assert built_module.CHECKED


def test_events_rolls_and_a_waiting_attack_are_the_validated_models() -> None:
    roll = Roll(purpose="Accuracy", base_dice=3, dice=(1, 2, 3), total=6)
    same(Roll, purpose="Accuracy", base_dice=3, dice=(4, 5, 6), modifier=2, total=17)
    same(TurnStarted, combatant="c1", round=2, actions_left=4, text="Round 2: Willow's turn.")
    same(ActionsSpent, combatant="c1", amount=1, left=3, reason="Sword", text="spends")
    hits = _resolved(
        accuracy=roll, advantages=("Prone target",), hit=True, damage=roll, text="hits"
    )
    same(AttackResolved, **hits)
    # Defaults and default factories for the fields not given; an int given for a float field
    # is a float, as validation makes it (the stored JSON says 2.0), and a default stays as
    # declared (``range_m: float = 2``: validation keeps the int 2 too).
    same(PendingAttack, attacker="c1", target="c2", attack="Sword", range_m=2)
    assert isinstance(
        built(PendingAttack, attacker="a", target="b", attack="X", range_m=3).range_m, float
    )
    same(PendingAttack, attacker="c1", target="c2", attack="Sword")


def test_default_containers_are_not_shared() -> None:
    one = built(PendingAttack, attacker="c1", target="c2", attack="Sword")
    two = built(PendingAttack, attacker="c1", target="c2", attack="Sword")
    assert one.limbs == [] and one.limbs is not two.limbs
    assert one.joint is not two.joint


def test_under_the_check_a_value_validation_would_change_fails() -> None:
    with pytest.raises(AssertionError, match="range"):
        built(PendingAttack, attacker="c1", target="c2", attack="Sword", range_m="2")
    with pytest.raises(AssertionError, match="advantages"):
        built(AttackResolved, **_resolved(advantages=["a list, not a tuple"]))
    with pytest.raises(AssertionError, match="attack"):
        built(PendingAttack, attacker="c1", target="c2", attack="  Sword ")  # not a clean name


def _resolved(**changes: Any) -> dict[str, Any]:
    values: dict[str, Any] = dict(
        combatant="c1",
        attacker="c1",
        target="c2",
        attack="Sword",
        target_stat="Dodge",
        target_number=14,
        accuracy=None,
        hit=False,
        text="misses",
    )
    return {**values, **changes}


class _Validated(BaseModel):
    name: str
    tags: list[str] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()


def test_a_model_with_validators_of_its_own_is_validated() -> None:
    assert built(_Validated, name="willow").name == "WILLOW"


def test_a_clone_shares_no_container_with_its_original() -> None:
    """``Combatant.clone`` builds its copy in one dict: every list and dict field is copied (a
    container field added later and left out fails here), the frozen sheet shared."""
    fight = Fight()
    fight.add("Willow")
    fight.add("Thug", npc=True)
    for original in fight.state.combatants:
        copy = original.clone()
        assert copy == original and list(copy.__dict__) == list(original.__dict__)
        for name, value in original.__dict__.items():
            if isinstance(value, list | dict):
                assert copy.__dict__[name] is not value, name
        assert copy.sheet is original.sheet
        assert copy.model_fields_set == original.model_fields_set
        assert copy.__pydantic_fields_set__ is not original.__pydantic_fields_set__


def test_a_typed_maneuver_in_an_answer_is_still_validated_as_a_name() -> None:
    """``Ruleset.answer`` builds a plain choice without validation, but a maneuver or stance
    may be a member's typed words (``/dodge maneuver:``): cleaned as a name, as before."""
    from bot.engine.core.contract import ReactionOption
    from tests.engine.helpers import RULES

    fight = Fight()
    willow = fight.add("Willow")
    decider = fight.state.get(willow)
    typed = ReactionOption(choice="evade", label="evade", maneuver="  Tiger   Step ")
    answer = RULES.answer(fight.state, decider, typed)
    assert answer.model_dump() == {**answer.model_dump(), "maneuver": "Tiger Step"}
    plain = RULES.answer(fight.state, decider, ReactionOption(choice="none", label="none"))
    assert plain == type(plain)(actor=willow, choice="none", maneuver=None, stance=None)
    assert plain.model_fields_set == {"actor", "choice", "maneuver", "stance", "decision"}
