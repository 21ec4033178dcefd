"""UTTAS "Conditions": Dead, Unconscious, Stunned, Prone, Grappled, Disabled Limb."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.core.events import TurnSkipped
from bot.engine.uttas import limbs
from bot.engine.uttas.commands import (
    ActivatePower,
    AdjustCharacteristic,
    Attack,
    Draw,
    GrappleContest,
    Move,
    React,
    SetCondition,
    Stand,
)
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.tables import default_tables
from bot.errors import InvalidInput, RuleViolation
from tests.engine.helpers import Fight


def duel(**bob: object) -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, **bob)  # type: ignore[arg-type]
    f.begin(dice=[])
    return f, a, b


def last_hit(f: Fight) -> AttackResolved:
    return next(e for e in f.log[-1].events if isinstance(e, AttackResolved))


def test_dead_at_zero_health_and_never_acts_again() -> None:
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, health=2)
    c = f.add("Cat", npc=True, agility=5)
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    out = f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 1, 1, 1, 1])
    assert f.c(b).has("Dead") and f.c(b).health == -2
    assert any(isinstance(e, TurnSkipped) and e.combatant == b for e in out.events)
    assert f.state.turn == c
    with pytest.raises(RuleViolation, match="dead"):
        f.do(Attack(actor=c, target=b, attack="Sword"))


def test_unconscious_at_zero_stamina_falls_prone_tracks_negative_stamina_and_cannot_act() -> None:
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, stamina=5)
    f.add("Cat", npc=True, agility=5)
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 3, 3, 3, 3])
    bob = f.c(b)
    assert bob.has("Unconscious") and bob.has("Prone") and bob.stamina == -7
    assert f.state.turn != b
    assert f.rules.reaction_options(f.state, b) == []


def test_stunned_when_one_hit_exceeds_body_grants_advantage_and_costs_the_next_turn() -> None:
    f, a, b = duel(body=10)
    f.do(Attack(actor=a, target=b, attack="Sword"))
    out = f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 3, 3, 3, 2])  # 11 > Body 10
    assert any(getattr(e, "condition", "") == "Stunned" and e.gained for e in out.events)  # type: ignore[attr-defined]
    # Bob's turn is spent recovering (one action); Ann acts again.
    assert f.state.turn == a and not f.c(b).has("Stunned")
    g, a, b = duel(body=10)
    g.do(Attack(actor=a, target=b, attack="Sword"))
    g.do(React(actor=b, choice="none"), dice=[6, 6, 6, 3, 3, 3, 2])
    # The recovery was the turn's action, paid from the pool refilled as the turn began.
    assert g.c(b).actions_left == 3 and not g.c(b).has("Stunned")


def test_prone_advantage_adjacent_disadvantage_beyond_8m_standing_costs_half_run() -> None:
    f = Fight()
    a = f.add(
        "Ann",
        agility=12,
        weapons=[
            {"name": "Bow", "kind": "mechanical", "range_m": 30, "damage_dice": 1},
            {"name": "Sword"},
        ],
    )
    b = f.add("Bob", npc=True, skills={"Acrobatics": 4})
    f.begin(dice=[])
    f.do(SetCondition(target=b, condition="prone"))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1, 1])
    assert "Bob is Prone and adjacent" in last_hit(f).advantages
    f.do(Stand(actor=b, method="acrobatics"), dice=[6, 6, 6, 3])  # 21 < DC 22
    assert f.c(b).has("Prone")
    with pytest.raises(RuleViolation, match="already tried"):
        f.do(Stand(actor=b, method="acrobatics"))
    f.do(Stand(actor=b))
    assert not f.c(b).has("Prone") and f.c(b).actions_left == 4
    with pytest.raises(RuleViolation, match="half"):
        f.do(Move(actor=b, meters=1))
    f.do(EndTurn(actor=b))
    f.do(SetCondition(target=b, condition="Prone"))
    f.do(Attack(actor=a, target=b, attack="Bow", range_m=20))
    f.do(React(actor=b, choice="none"), dice=[1, 1])
    assert any("more than 8 m" in d for d in last_hit(f).disadvantages)


def test_acrobatics_dc_22_stands_for_free() -> None:
    f, a, b = duel(skills={"Acrobatics": 4})
    f.do(EndTurn(actor=a))
    f.do(SetCondition(target=b, condition="Prone"))
    f.do(Stand(actor=b, method="acrobatics"), dice=[6, 6, 6, 4])
    assert not f.c(b).has("Prone") and f.c(b).actions_left == 4
    f.do(Move(actor=b, meters=5))  # the half move is still free to use


def test_grapple_disables_limbs_gives_advantage_against_both_and_nobody_moves() -> None:
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add(
        "Bob",
        npc=True,
        powers=[
            {
                "name": "Fire Hands",
                "active_points": 10,
                "targets": None,
                "limitations": ["gestures"],
            }
        ],
    )
    c = f.add("Cat", agility=8)
    f.begin(dice=[])
    with pytest.raises(InvalidInput, match="limb"):
        f.do(Attack(actor=a, target=b, attack="Grapple"))
    with pytest.raises(RuleViolation, match="at most 2"):
        f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm", "right arm", "head")))
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm", "right arm")))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    bob, ann = f.c(b), f.c(a)
    assert bob.has("Grappled") and bob.grappled_by == a and ann.has("Grappling")
    assert limbs.usable_arms(bob) == 0
    assert f.state.turn == b
    for cmd in (
        Move(actor=b, meters=1),
        Attack(actor=b, target=a, attack="Sword"),
        ActivatePower(actor=b, power="Fire Hands"),
    ):
        with pytest.raises(RuleViolation):
            f.do(cmd)
    f.do(GrappleContest(actor=b, goal="escape"), dice=[1, 1, 6, 6])
    assert f.c(b).has("Grappled")
    # Cat attacks Bob: Advantage because he is in a grapple.
    f.do(Attack(actor=c, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1, 1])
    assert "Bob is Grappled" in last_hit(f).advantages
    with pytest.raises(RuleViolation, match="grapple"):
        f.do(Move(actor=a, meters=1))
    f.do(EndTurn(actor=a))
    f.do(GrappleContest(actor=b, goal="control"), dice=[6, 6, 1, 1])
    assert f.c(a).has("Grappled") and f.c(b).has("Grappling") and not f.c(b).has("Grappled")
    assert f.c(a).grappled_by == b


def test_warp_escapes_a_grapple_unless_its_limitation_is_held() -> None:
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add(
        "Bob",
        npc=True,
        movement={"run": 10, "warp": 8},
        powers=[{"name": "Warp", "active_points": 10, "targets": None, "movement_mode": "warp"}],
    )
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left leg",)))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    f.do(Move(actor=b, meters=2, mode="warp"))
    assert not f.c(b).has("Grappled") and not f.c(a).has("Grappling")


def test_disabled_limbs() -> None:
    """Arms drop weapons; one leg halves Run and stops Leap, two stop Run; a head gives
    Disadvantage; a body forbids a breather; an aimed hit disables until Health heals."""
    f, a, b = duel(movement={"run": 10, "leap": 4})
    t = default_tables()
    f.do(SetCondition(target=b, condition="Disabled limb", limb="left leg"))
    bob = f.c(b)
    assert limbs.speed(bob, "run", t) == 5 and limbs.speed(bob, "leap", t) == 0
    f.do(SetCondition(target=b, condition="Disabled limb", limb="right leg"))
    assert limbs.speed(f.c(b), "run", t) == 0
    dropped = f.do(SetCondition(target=a, condition="Disabled limb", limb="right arm"))
    assert "Ann drops the Sword: the right arm is disabled." in dropped.text
    f.do(SetCondition(target=a, condition="Disabled limb", limb="left arm"))
    with pytest.raises(RuleViolation, match="free hand"):
        f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(SetCondition(target=a, condition="Disabled limb", limb="left arm", present=False))
    f.do(SetCondition(target=a, condition="Disabled limb", limb="head"))
    with pytest.raises(RuleViolation, match="dropped the Sword"):  # issue 11: drawn again first
        f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(Draw(actor=a, thing="Sword"))  # into the working left hand; the turn goes on
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[1, 1])
    assert "Ann's head is disabled" in last_hit(f).disadvantages
    with pytest.raises(InvalidInput):
        f.do(SetCondition(target=a, condition="Disabled limb", limb="tail"))


def test_aimed_attack_disables_the_limb_and_extra_limbs_count() -> None:
    f, a, b = duel(extra_limbs=[{"name": "Tail", "is_arm": False}])
    f.do(Attack(actor=a, target=b, attack="Sword", aimed_limb="tail"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 1, 1, 1, 1])  # 2d6: the called shot
    hit = last_hit(f)
    assert "aimed at the tail" in hit.disadvantages
    assert [d.limb for d in f.c(b).disabled_limbs] == ["tail"]
    assert f.c(b).disabled_limbs[0].restore_at_health == 20


def test_aid_and_drain_change_effective_characteristics() -> None:
    f, a, b = duel()
    f.do(AdjustCharacteristic(target=a, characteristic="strength", delta=5))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 1, 1, 1, 1, 1])  # 3 Strength dice now
    assert last_hit(f).damage is not None and len(last_hit(f).damage.dice) == 5  # type: ignore[union-attr]


def test_gm_cannot_hand_set_rule_driven_conditions() -> None:
    f, _a, b = duel()
    for cond in ("Staggered", "Grappled"):
        with pytest.raises(RuleViolation):
            f.do(SetCondition(target=b, condition=cond))


def test_stunned_target_grants_advantage() -> None:
    f, a, b = duel()
    f.do(SetCondition(target=b, condition="Stunned"))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1, 1])
    assert "Bob is Stunned" in last_hit(f).advantages
