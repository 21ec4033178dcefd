"""Powers that are not attacks (issue 11): Aid, Drain, Barrier and Invisibility — named in
``uttas-gameplay.txt`` ("Take a Breather": "the Aid or Drain powers"; "Chase Scenes": "powers
such as Invisibility to hide, ... put up Barrier powers") — and "Accuracy Checks": "every power
adversely affecting another character requires an Accuracy roll"."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from bot.engine.core.commands import EndPeriod, EndTurn
from bot.engine.uttas import rules
from bot.engine.uttas.commands import (
    ActivatePower,
    Attack,
    BreakFree,
    DropPower,
    Move,
    React,
    UseSkill,
)
from bot.engine.uttas.sheet import Power, UttasSheet
from bot.errors import InvalidInput, RuleViolation
from tests.engine.helpers import Fight

AID = {"name": "Aid", "active_points": 20, "effect": "aid", "characteristic": "strength"}
DRAIN = {
    "name": "Drain",
    "active_points": 20,
    "effect": "drain",
    "characteristic": "strength",
    "targets": "discipline",
    "range_m": 10,
}
BARRIER = {"name": "Wall", "active_points": 20, "effect": "barrier"}
VANISH = {"name": "Vanish", "active_points": 20, "effect": "invisibility", "maintained": True}


def _two(powers: list[Any] | None = None) -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("A", agility=14, powers=powers or [AID, DRAIN, BARRIER, VANISH])
    b = f.add("B", agility=10, skills={"Perception": 3})
    f.begin(dice=[])
    return f, a, b


def test_aid_raises_a_characteristic_until_the_scene_ends() -> None:
    """Aid: 1d6 per 10 Active Points (20 AP: 2d6) added to the characteristic — its dice follow
    (Strength 10 + 7 = 17: 3 Strength dice) — until the GM ends the scene; a weaker second Aid
    keeps the larger."""
    f, a, b = _two()
    out = f.do(ActivatePower(actor=a, power="Aid", target=a), dice=[3, 4])
    assert "A is now Aided Strength 7 (A's Aid, until the scene ends)" in out.text
    assert rules.effective(f.c(a), "strength") == 17
    assert rules.dice_of(f.c(a), "strength", f.rules.tables) == 3
    f.do(EndTurn(actor=b))
    out = f.do(ActivatePower(actor=a, power="Aid", target=a), dice=[1, 2])
    assert "keeps the larger aid already on it (7)" in out.text
    out = f.do(EndPeriod(period="scene"))
    assert rules.effective(f.c(a), "strength") == 10 and "Aided Strength" in out.text


def test_drain_is_an_attack_and_takes_points_on_a_hit() -> None:
    """Drain adversely affects its target, so it needs an Accuracy roll: `/power` refuses it
    (use Attack), and on a hit the rolled points leave the characteristic."""
    f, a, b = _two()
    with pytest.raises(RuleViolation, match=r"Drain is an attack .*use Attack"):
        f.do(ActivatePower(actor=a, power="Drain", target=b), dice=[])
    f.do(Attack(actor=a, target=b, attack="Drain"), dice=[])
    out = f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 5, 5])
    assert "B is now Drained Strength 10" in out.text
    assert rules.effective(f.c(b), "strength") == 0


def test_a_barrier_bars_its_target_until_broken_through() -> None:
    """Barrier: the one it bars cannot move on (Barred) until it breaks through — two parts, an
    action each — or the scene ends. It needs someone to bar."""
    f, a, b = _two()
    with pytest.raises(InvalidInput, match="Name whose way Wall bars"):
        f.do(ActivatePower(actor=a, power="Wall"), dice=[])
    out = f.do(ActivatePower(actor=a, power="Wall", target=b), dice=[])
    assert "B is now Barred 2" in out.text
    with pytest.raises(RuleViolation, match="B is Barred and cannot move"):
        f.do(Move(actor=b, meters=2), dice=[])
    f.do(BreakFree(actor=b), dice=[])
    f.do(EndTurn(actor=a))
    out = f.do(BreakFree(actor=b), dice=[])
    assert "B is no longer Barred" in out.text


def test_invisibility_hides_its_user_until_found_or_dropped() -> None:
    """Invisibility hides its user (score 10 + 20 ÷ 5 = 14, to beat with Perception); dropping
    the maintained power ends it."""
    f, a, b = _two()
    out = f.do(ActivatePower(actor=a, power="Vanish"), dice=[])
    assert "A is now Hidden (seen on a Perception of 15" in out.text and f.c(a).stealth == 14
    out = f.do(UseSkill(actor=b, skill="Perception", target=a), dice=[5, 5, 4])
    assert "A stays hidden" in out.text  # 14 does not beat 14
    out = f.do(DropPower(actor=a, power="Vanish"))
    assert "A is no longer Hidden (Vanish dropped)" in out.text


def test_a_power_that_cannot_be_activated_says_what_to_use() -> None:
    """A movement power moves (``/move``), an attack power attacks: neither is accepted by
    ``ActivatePower`` to do nothing."""
    f, a, _ = _two(
        powers=[
            {"name": "Warp", "active_points": 16, "targets": None, "movement_mode": "warp"},
            {"name": "Blast", "active_points": 20, "damage_dice": 4},
        ]
    )
    with pytest.raises(RuleViolation, match="Warp moves A: use `/move` with `mode:warp`"):
        f.do(ActivatePower(actor=a, power="Warp"), dice=[])
    with pytest.raises(RuleViolation, match="Blast is an attack"):
        f.do(ActivatePower(actor=a, power="Blast"), dice=[])


def test_an_adverse_power_without_an_accuracy_roll_is_refused_on_input_only() -> None:
    """ "Every attack and every power adversely affecting another character requires an
    Accuracy roll": a sheet's power that damages, inflicts or drains needs ``targets``; Aid and
    Drain name a characteristic; a sheet stored before the rule still loads."""
    with pytest.raises(ValidationError, match="needs an Accuracy roll"):
        Power.model_validate(
            {"name": "Blast", "active_points": 20, "damage_dice": 4, "targets": None}
        )
    with pytest.raises(ValidationError, match="names its `characteristic`"):
        Power.model_validate({"name": "Aid", "active_points": 20, "effect": "aid"})
    old = {
        "name": "X",
        "powers": [{"name": "Blast", "active_points": 20, "damage_dice": 4, "targets": None}],
    }
    from bot import names

    assert UttasSheet.model_validate(old, context=names.STORED).powers[0].targets is None
