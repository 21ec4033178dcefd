"""Rules of ``uttas-gameplay.txt`` that no other test drove (issue 11, the rule table
``docs/rules/uttas-rule-table.md``): each test names its row and section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import (
    ActivatePower,
    Attack,
    Draw,
    Move,
    React,
    Ready,
    SetCondition,
    UseSkill,
)
from bot.engine.uttas.events import AttackResolved, Checked
from bot.errors import RuleViolation
from tests.engine.helpers import Fight


def last_hit(f: Fight) -> AttackResolved:
    return next(e for e in f.log[-1].events if isinstance(e, AttackResolved))


def duel(
    ann: Mapping[str, Any] | None = None, bob: Mapping[str, Any] | None = None
) -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("Ann", agility=12, **(ann or {}))
    b = f.add("Bob", npc=True, **(bob or {}))
    f.begin(dice=[])
    return f, a, b


def test_row3_a_round_is_six_seconds_and_ten_rounds_a_minute() -> None:
    """Row 3, "Time Scale": "1 Minute = 10 Rounds, 1 Round = 6 Seconds" — each new round adds
    6 seconds to the encounter's in-game time."""
    f, a, b = duel()
    start = f.state.game_time_s
    for _ in range(10):
        f.do(EndTurn(actor=a))
        f.do(EndTurn(actor=b))
    assert f.state.round == 11
    assert f.state.game_time_s - start == 60


def test_row25a_strike_deals_strength_dice_and_costs_a_stamina_per_die() -> None:
    """Row 25a, "Attack" (Basic Maneuvers) and "Stamina Costs" (Melee attacks): the Strike
    maneuver is an unarmed blow of the Strength dice (Strength 10: 2d6), 1 Stamina per die."""
    f, a, b = duel()
    f.do(Attack(actor=a, target=b, attack="Strike"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 3, 3])
    hit = last_hit(f)
    assert hit.hit and hit.health_damage == 2 and hit.stamina_damage == 6
    assert f.c(a).stamina == 40 - 2
    assert (f.c(b).health, f.c(b).stamina) == (18, 34)


def test_row25c_trip_knocks_the_target_prone_without_damage_or_stamina() -> None:
    """Row 25c, "Attack": "Basic Maneuvers ... such as tripping": the Trip rolls Accuracy only;
    a hit leaves the target Prone and deals no damage; it uses no Strength dice, so no Stamina."""
    f, a, b = duel()
    f.do(Attack(actor=a, target=b, attack="Trip"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    assert last_hit(f).hit and f.c(b).has("Prone")
    assert (f.c(b).health, f.c(b).stamina, f.c(a).stamina) == (20, 40, 40)
    # A miss leaves the target standing.
    g, x, y = duel()
    g.do(Attack(actor=x, target=y, attack="Trip"))
    g.do(React(actor=y, choice="none"), dice=[1, 1, 1])
    assert not last_hit(g).hit and not g.c(y).has("Prone")


def test_row33_a_readied_action_whose_trigger_never_comes_lapses() -> None:
    """Row 33, "Ready an Action": "If the circumstances don't come to pass, they do nothing" —
    a readied action that never fired lapses as its owner's next turn starts, having done
    nothing but the action it took to ready."""
    f, a, b = duel()
    f.do(Ready(actor=a, trigger="action", watch=b, plan="strike when Bob swings"))
    f.do(EndTurn(actor=b))  # Bob takes no action: the trigger never comes
    assert f.state.turn == a and f.c(a).readied is None
    assert "Ann's readied action lapses: its trigger never came." in f.texts()
    assert f.c(b).health == 20


def test_row64_bows_and_guns_aim_with_dexterity_melee_with_strength() -> None:
    """Row 64, "Accuracy Checks" ("the Base characteristic the power functions off of") and the
    table's ``weapon_key_characteristic``: a melee weapon's Accuracy adds (Strength + Dexterity)
    / 2, a bow's (Dexterity + Dexterity) / 2."""
    weapons = [
        {"name": "Sword", "damage_dice": 2},
        {"name": "Bow", "kind": "mechanical", "range_m": 10, "damage_dice": 1},
    ]
    f, a, b = duel(ann={"strength": 20, "dexterity": 10, "weapons": weapons})
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1])
    sword = last_hit(f).accuracy
    assert sword is not None and sword.total == 3 + (20 + 10) // 2
    f.do(EndTurn(actor=b))
    f.do(Attack(actor=a, target=b, attack="Bow", range_m=5))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1])
    bow = last_hit(f).accuracy
    assert bow is not None and bow.total == 3 + (10 + 10) // 2


def test_row63_an_attack_on_discipline_ignores_the_basic_dodge_bonuses() -> None:
    """Rows 37 and 63, "Accuracy Checks" ("compare it to the opponent's Dodge or Discipline,
    whichever the attack requires"): a power aimed at Discipline is rolled against
    10 + (Ego + Intelligence) / 2, and a basic Evade adds nothing to it."""
    mind = {
        "name": "Mind Blast",
        "active_points": 10,
        "targets": "discipline",
        "damage_dice": 1,
        "key_characteristic": "ego",
    }
    f, a, b = duel(ann={"ego": 10, "powers": [mind]}, bob={"ego": 14, "intelligence": 10})
    f.do(Attack(actor=a, target=b, attack="Mind Blast"))
    f.do(React(actor=b, choice="evade"), dice=[6, 6, 1, 4])
    hit = last_hit(f)
    assert hit.target_stat == "Discipline" and hit.target_number == 10 + (14 + 10) // 2
    assert hit.hit  # 13 + 10 = 23 beats 22


def test_row94_a_head_held_in_a_grapple_blocks_incantation_powers() -> None:
    """Row 94, "Head": "If the head is disabled through the Grapple condition, they cannot use
    any Powers with the Incantation limitation" — a Warp with Incantation cannot escape a hold
    on the head, and escapes one on the arms."""
    warp = {
        "name": "Warp",
        "active_points": 10,
        "targets": None,
        "movement_mode": "warp",
        "limitations": ["incantation"],
    }
    bob = {"movement": {"run": 10, "warp": 8}, "powers": [warp]}
    f, a, b = duel(bob=bob)
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("head",)))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    with pytest.raises(RuleViolation, match="needs incantation, held by the grapple"):
        f.do(Move(actor=b, meters=2, mode="warp"))
    g, x, y = duel(bob=bob)
    g.do(Attack(actor=x, target=y, attack="Grapple", limbs=("left arm", "right arm")))
    g.do(React(actor=y, choice="none"), dice=[6, 6, 6])
    g.do(Move(actor=y, meters=2, mode="warp"))
    assert not g.c(y).has("Grappled")


def test_row96_a_disabled_extra_arm_stops_working() -> None:
    """Row 96, "Extra Limbs": "A limb gained through the Extra Limb power that is disabled
    ceases its normal function" — an extra arm holds a weapon while both arms are disabled,
    and not once it is disabled too."""
    f, a, b = duel(ann={"extra_limbs": [{"name": "Third arm", "is_arm": True}]})
    for limb in ("left arm", "right arm"):
        f.do(SetCondition(target=a, condition="Disabled limb", limb=limb))
    f.do(SetCondition(target=a, condition="Disabled limb", limb="third arm"))
    with pytest.raises(RuleViolation, match="no free hand"):
        f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(SetCondition(target=a, condition="Disabled limb", limb="third arm", present=False))
    # The disabled arm dropped the Sword ("A disabled arm or hand immediately drops whatever
    # it's holding"): the working third arm picks it up, then swings it.
    with pytest.raises(RuleViolation, match="dropped the Sword"):
        f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(Draw(actor=a, thing="Sword"))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.state.decisions


def test_row102_each_extra_arm_lets_a_grapple_hold_one_more_limb() -> None:
    """Row 102, "Grappled": "Characters with additional arms gained through the Extra Limbs
    Power can disable one additional limb per arm" — three arms hold three limbs, not four."""
    f, a, b = duel(ann={"extra_limbs": [{"name": "Third arm", "is_arm": True}]})
    with pytest.raises(RuleViolation, match="at most 3 limbs"):
        f.do(
            Attack(
                actor=a,
                target=b,
                attack="Grapple",
                limbs=("left arm", "right arm", "left leg", "right leg"),
            )
        )
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm", "right arm", "head")))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    held = sorted(d.limb for d in f.c(b).disabled_limbs if d.source == "grapple")
    assert held == ["head", "left arm", "right arm"]


def test_row100_the_holder_uses_only_light_weapons_and_grab_techniques() -> None:
    """Row 100, "Grappled": "Grappled Characters can only use light melee weapons, pistols, and
    hand crossbows while held or holding on to another creature, and the only Martial Arts
    techniques characters can use in a grapple are those with the Grab addition"."""
    ann = {
        "weapons": [
            {"name": "Sword", "damage_dice": 2},
            {"name": "Dagger", "damage_dice": 1, "light": True},
        ],
        "martial_arts": [
            {"name": "Haymaker", "maneuver": "attack", "bonus_dice": 1},
            {"name": "Choke", "maneuver": "attack", "bonus_dice": 1, "grab": True},
        ],
    }
    f, a, b = duel(ann=ann)
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm",)))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    f.do(EndTurn(actor=b))
    for heavy in ("Sword", "Haymaker"):
        with pytest.raises(RuleViolation, match="only use light weapons and Grab techniques"):
            f.do(Attack(actor=a, target=b, attack=heavy))
    f.do(Attack(actor=a, target=b, attack="Choke"))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1, 1])  # Advantage: Bob is Grappled
    assert last_hit(f).attack == "Choke"
    f.do(EndTurn(actor=b))
    f.do(Attack(actor=a, target=b, attack="Dagger"))
    assert f.state.decisions


def test_row29_a_power_that_is_not_an_attack_costs_its_stamina_and_the_action() -> None:
    """Row 29, "Activate a Power" and "Activating Powers": a power that is not an attack is the
    turn's action and costs 1 Stamina per 5 Active Points; the turn then passes."""
    shield = {"name": "Shield", "active_points": 15, "targets": None}
    f, a, b = duel(ann={"powers": [shield]})
    f.do(ActivatePower(actor=a, power="Shield"))
    assert f.c(a).stamina == 40 - 3 and f.state.turn == b
    assert "Ann activates Shield." in f.texts()


def test_row91_arms_held_in_a_grapple_block_gestures_powers() -> None:
    """Row 91, "Arms/Hands": "If the arms and hands are disabled through the Grapple condition,
    they cannot use any powers with the Gestures limitation" — a Warp with Gestures cannot
    escape a hold on an arm; a hold on a leg leaves it free."""
    warp = {
        "name": "Warp",
        "active_points": 10,
        "targets": None,
        "movement_mode": "warp",
        "limitations": ["gestures"],
    }
    bob = {"movement": {"run": 10, "warp": 8}, "powers": [warp]}
    f, a, b = duel(bob=bob)
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm",)))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    with pytest.raises(RuleViolation, match="needs gestures, held by the grapple"):
        f.do(Move(actor=b, meters=2, mode="warp"))
    g, x, y = duel(bob=bob)
    g.do(Attack(actor=x, target=y, attack="Grapple", limbs=("left leg",)))
    g.do(React(actor=y, choice="none"), dice=[6, 6, 6])
    g.do(Move(actor=y, meters=2, mode="warp"))
    assert not g.c(y).has("Grappled")


def test_row93_a_disabled_head_takes_a_die_off_skill_checks() -> None:
    """Row 93, "Head": "they have a Disadvantage on all Accuracy rolls and skill checks until
    they recover" — a 3d6 skill rolls 2d6 with the head disabled."""
    f, a, _b = duel(ann={"skills": {"Perception": 3}})
    f.do(SetCondition(target=a, condition="Disabled limb", limb="head"))
    out = f.do(UseSkill(actor=a, skill="Perception", difficulty=12), dice=[6, 6])
    check = next(e for e in out.events if isinstance(e, Checked))
    assert check.roll.disadvantage == 1 and check.roll.total == 12 and check.success
