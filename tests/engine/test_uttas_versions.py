"""UTTAS's rules version 4 (``UttasRuleset.rules_version``, found by the rules audit audit17a):
a maintained attack power can be dropped, a disabled head holds back the target's roll of an
opposed check, a grapple holds one limb per working arm. A fight started at version 3 or
before keeps the older reading, so its log replays as it was played."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import (
    Attack,
    DropPower,
    FirstAid,
    React,
    SetCondition,
    SetVitals,
    Stand,
    UseSkill,
)
from bot.engine.uttas.ruleset import UttasRuleset
from bot.errors import NotFound, RuleViolation
from tests.engine.helpers import RULES, Fight

V3 = UttasRuleset(version=3)

HOLD = {
    "name": "Hold",
    "active_points": 20,
    "targets": "dodge",
    "inflicts": ["Entangled"],
    "maintained": True,
}
"""A maintained attack power: 20 Active Points, 4 Stamina, doubled to 8 and held."""


def test_version_4_is_the_newest_and_versions_1_to_3_are_still_known() -> None:
    assert RULES.version == UttasRuleset.rules_version == 4
    assert UttasRuleset.known_versions == (1, 2, 3, 4)


def _mage_attacks(rules: UttasRuleset) -> tuple[Fight, str, str]:
    """The Mage (first by Agility) attacks the Foe with Hold, who takes it: it misses."""
    f = Fight(rules)
    mage = f.add("Mage", agility=14, powers=[HOLD])
    foe = f.add("Foe", npc=True)
    f.begin()
    f.do(Attack(actor=mage, target=foe, attack="Hold"))
    f.do(React(actor=foe, choice="none"), dice=[1, 1, 1])
    return f, mage, foe


def test_an_attack_with_a_maintained_power_can_be_dropped_to_free_its_stamina() -> None:
    """ "Activating Powers": a maintained power's Stamina cannot be regained "for as long as they
    Maintain the Power" — and no longer: dropping it frees it. Versions 1–3 held it for good
    (no record of what held it, so nothing could be dropped)."""
    f, mage, _ = _mage_attacks(RULES)
    m = f.c(mage)
    assert (m.stamina, m.stamina_held) == (32, 8)
    assert [(mp.power, mp.stamina_held) for mp in m.maintained] == [("Hold", 8)]
    f.do(DropPower(actor=mage, power="Hold"))
    assert (f.c(mage).stamina_held, f.c(mage).maintained) == (0, [])

    old, mage, _ = _mage_attacks(V3)
    assert (old.c(mage).stamina_held, old.c(mage).maintained) == (8, [])
    with pytest.raises(NotFound, match="not maintaining"):
        old.do(DropPower(actor=mage, power="Hold"))


def test_a_maintained_attack_power_is_not_used_again_until_dropped() -> None:
    """As ``/power`` refuses a maintained power already maintained, so does ``/attack``:
    nothing is spent."""
    f, mage, foe = _mage_attacks(RULES)
    while f.state.turn != mage:
        f.do(_end_turn(f))
    before = f.state
    with pytest.raises(RuleViolation, match="already maintains Hold: stop maintaining it first"):
        f.do(Attack(actor=mage, target=foe, attack="Hold"))
    assert f.state is before
    f.do(DropPower(actor=mage, power="Hold"))
    f.do(Attack(actor=mage, target=foe, attack="Hold"))
    assert [mp.power for mp in f.c(mage).maintained] == ["Hold"]


def _end_turn(f: Fight) -> Any:
    return EndTurn(actor=f.state.turn)


def test_a_counterattack_with_a_maintained_triggered_power_is_recorded_too() -> None:
    """The same rule for every way a maintained power strikes: a triggered counter."""
    counter = {**HOLD, "name": "Snare", "triggered": True}
    f = Fight()
    foe = f.add("Foe", agility=14, npc=True)
    mage = f.add("Mage", powers=[counter])
    f.begin()
    f.do(Attack(actor=foe, target=mage, attack="Sword"))
    f.do(React(actor=mage, choice="counter", maneuver="Snare"))
    assert [(mp.power, mp.stamina_held) for mp in f.c(mage).maintained] == [("Snare", 8)]


def _opposed(rules: UttasRuleset) -> str:
    """A's Perception against B (not hidden), whose head is disabled: B rolls Stealth 2d6."""
    f = Fight(rules)
    a = f.add("A", agility=14, skills={"Perception": 3})
    b = f.add("B", npc=True, skills={"Stealth": 2})
    f.begin()
    f.do(SetCondition(target=b, condition="Disabled limb", limb="head"))
    return f.do(UseSkill(actor=a, skill="Perception", target=b), dice=None).text


def test_the_target_of_an_opposed_check_rolls_with_its_disabled_heads_disadvantage() -> None:
    """ "Head": "a Disadvantage on all Accuracy rolls and skill checks" — the target's roll in
    an opposed check is a skill check too. Version 3 rolled it whole."""
    assert "B's Stealth: 2d6 -1 disadv" in _opposed(RULES)
    assert "B's Stealth: 2d6 [" in _opposed(V3)


def _head_disabled_fight() -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add(
        "A",
        agility=14,
        skills={"Perception": 3, "Stealth": 3, "First Aid": 3, "Acrobatics": 3, "Lore": 3},
        skill_turns={"Lore": 2},
    )
    b = f.add("B", npc=True, skills={"Stealth": 3, "Perception": 3})
    f.begin()
    f.do(SetCondition(target=a, condition="Disabled limb", limb="head"))
    f.do(SetCondition(target=b, condition="Disabled limb", limb="head"))
    return f, a, b


def _skill_check_texts(kind: str) -> str:
    """The text of one kind of skill check, both combatants' heads disabled."""
    f, a, b = _head_disabled_fight()
    if kind == "check":
        return f.do(UseSkill(actor=a, skill="Stealth", difficulty=5)).text
    if kind == "opposed":
        return f.do(UseSkill(actor=a, skill="Perception", target=b)).text
    if kind == "acrobatics":
        f.do(SetCondition(target=a, condition="Prone"))
        return f.do(Stand(actor=a, method="acrobatics")).text
    f.do(UseSkill(actor=a, skill="Lore", difficulty=5))  # a skill of two turns: begun…
    f.do(_end_turn(f))
    return f.log[-1].text  # …and completed as A's next turn starts


@pytest.mark.parametrize("kind", ["check", "opposed", "acrobatics", "long skill"])
def test_every_skill_check_rolls_with_a_disabled_heads_disadvantage(kind: str) -> None:
    """The class guard: each kind of skill check (a plain one, both sides of an opposed one,
    standing with Acrobatics, a skill of several turns) takes the disabled head's die off —
    they all roll through ``Tx.check_roll``."""
    text = _skill_check_texts(kind)
    pools = re.findall(r"\d+d6( -1 disadv)?", text)
    assert pools, text
    assert all(pools), text  # every pool rolled took the die off


def test_first_aid_rolls_with_a_disabled_heads_disadvantage() -> None:
    f, a, _ = _head_disabled_fight()
    f.do(SetVitals(target=a, health_change=-5))
    text = f.do(FirstAid(actor=a, target=a)).text
    assert "First Aid on A: 3d6 -1 disadv" in text, text


def _grapple(rules: UttasRuleset, disabled: tuple[str, ...], limbs: tuple[str, ...]) -> str:
    f = Fight(rules)
    a = f.add("A", agility=14)
    b = f.add("B", npc=True)
    f.begin()
    for arm in disabled:
        f.do(SetCondition(target=a, condition="Disabled limb", limb=arm))
    return f.do(Attack(actor=a, target=b, attack="Grapple", limbs=limbs)).text


def test_a_grapple_holds_one_limb_per_working_arm() -> None:
    """ "Grappled": one limb per arm ("Extra Limbs ... one additional limb per arm"); "Arms/
    Hands": a disabled arm "cannot be used for any actions". Version 3 counted every arm."""
    with pytest.raises(RuleViolation, match=r"at most 1 limb \(a disabled arm holds nothing\)"):
        _grapple(RULES, ("left arm",), ("left arm", "right arm"))
    assert "A attacks B with Grapple" in _grapple(RULES, ("left arm",), ("head",))
    with pytest.raises(RuleViolation, match="no working arm to grapple with"):
        _grapple(RULES, ("left arm", "right arm"), ("head",))
    assert "A attacks B with Grapple" in _grapple(V3, ("left arm",), ("left arm", "right arm"))
    assert "A attacks B with Grapple" in _grapple(V3, ("left arm", "right arm"), ("head",))
