"""Hiding, seeking and opposed checks (issue 11, "Checks outside a fight and opposed checks"),
and chase scenes (issue 11, "Chase scenes"), from ``uttas-gameplay.txt``: "Chase Scenes",
"Chase Scenes in Action", "Range Modifiers", "Perform a Reaction command"."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn, SetDistance
from bot.engine.uttas.commands import (
    Attack,
    EndChase,
    Move,
    React,
    StartChase,
    UseSkill,
)
from bot.errors import RuleViolation
from tests.engine.helpers import Fight


def _pair(**quarry: object) -> tuple[Fight, str, str]:
    """The chase's pair: the arsonist (Agility 13, goes first) and Willow, both Run 12 and
    Speed 6 (UTTAS "Chase Scenes in Action": "the same Movement and Speed")."""
    f = Fight()
    a = f.add(
        "Arsonist",
        npc=True,
        agility=13,
        speed=6,
        movement={"run": 12},
        skills={"Stealth": 6},
        **quarry,
    )
    w = f.add(
        "Willow",
        agility=12,
        speed=6,
        movement={"run": 12, "warp": 8},
        skills={"Perception": 6, "Tracking": 5},
    )
    f.begin(dice=[])
    return f, a, w


def test_stealth_hides_and_a_perception_check_must_beat_the_score() -> None:
    """ "The arsonist attempts to hide from Willow, rolling 6d6 for a score of 21. Willow
    attempts a Perception check ... scoring a 23. She perceives the arsonist": a Stealth check
    hides the roller with its total as the score; a Perception check against a hidden target
    beats it (23 > 21) and finds him. Ties stay hidden (the seeker must beat it)."""
    f, a, w = _pair()
    out = f.do(UseSkill(actor=a, skill="Stealth"), dice=[6, 5, 4, 3, 2, 1])
    assert f.c(a).has("Hidden") and f.c(a).stealth == 21
    assert "Arsonist is now Hidden" in out.text
    out = f.do(UseSkill(actor=w, skill="Perception", target=a), dice=[6, 6, 5, 3, 2, 1])
    assert "vs Arsonist's Stealth 21: finds Arsonist" in out.text
    assert not f.c(a).has("Hidden") and f.c(a).stealth is None


def test_a_tie_leaves_the_hider_hidden_and_the_check_costs_the_action() -> None:
    f, a, w = _pair()
    f.do(UseSkill(actor=a, skill="Stealth"), dice=[6, 5, 4, 3, 2, 1])
    out = f.do(UseSkill(actor=w, skill="Perception", target=a), dice=[6, 5, 4, 3, 2, 1])
    assert "Arsonist stays hidden" in out.text and f.c(a).has("Hidden")
    assert f.c(w).actions_left == 5 and f.state.turn == a  # the turn's action, the turn ended


def test_perception_takes_the_range_penalties_and_fails_three_increments_out() -> None:
    """UTTAS "Range Modifiers": Perception checks within the first increment (10 m) have no
    penalty; one increment beyond, a Disadvantage; two, 2d6 off; three fail automatically
    (refused, nothing spent)."""
    f, a, w = _pair()
    f.do(UseSkill(actor=a, skill="Stealth"), dice=[1, 1, 1, 1, 1, 1])
    f.do(SetDistance(a=a, b=w, meters=25))  # 11–30 m: one increment beyond 10 m
    out = f.do(UseSkill(actor=w, skill="Perception", target=a), dice=[2, 2, 2, 2, 2])
    assert "Disadvantage" in out.text and "25 m away" in out.text
    roll = next(e for e in out.events if e.kind == "checked")
    assert roll.roll.total == 10  # a Disadvantage takes 1d6 off: 5 of the 6 dice
    f.do(EndTurn(actor=a))
    f.do(SetDistance(a=a, b=w, meters=70))  # 61–100 m: three increments beyond
    before = f.c(w).actions_left
    with pytest.raises(RuleViolation, match="fails automatically"):
        f.do(UseSkill(actor=w, skill="Perception", target=a), dice=[])
    assert f.c(w).actions_left == before


def test_an_opposed_check_against_someone_not_hidden_rolls_their_skill() -> None:
    """Stealth against Perception as an opposed roll (issue 11): a seeker's Perception against
    a target that is not hidden is opposed by the target's Stealth roll (the tables'
    ``checks.opposed``); a skill the target lacks is rolled untrained (1d6); ties to the
    target; ``against:`` names another skill."""
    f, a, w = _pair()
    f.do(EndTurn(actor=a))
    out = f.do(UseSkill(actor=w, skill="Perception", target=a), dice=[3] * 6 + [3] * 6)
    assert "Arsonist's Stealth" in out.text and "Arsonist wins" in out.text  # 18 vs 18
    f.do(EndTurn(actor=a))
    out = f.do(
        UseSkill(actor=w, skill="Tracking", target=a, against="Athletics"),
        dice=[2] * 5 + [6],
    )
    assert "Arsonist's Athletics, untrained" in out.text and "success" in out.text


def test_an_attack_from_hiding_cannot_be_reacted_to_and_reveals_the_attacker() -> None:
    """UTTAS "Perform a Reaction command": a character who does not see the attack coming —
    "the attack's source was hidden" — cannot react; attacking gives the attacker away. An
    attack on a hidden target is refused: find it first."""
    f, a, w = _pair(weapons=[{"name": "Torch", "damage_dice": 1}])
    f.do(UseSkill(actor=a, skill="Stealth"), dice=[6] * 6)
    with pytest.raises(RuleViolation, match="Arsonist is hidden: find them first"):
        f.do(Attack(actor=w, target=a, attack="Club"), dice=[])
    f.do(EndTurn(actor=w))
    out = f.do(Attack(actor=a, target=w, attack="Torch"), dice=[6, 6, 6, 4, 4, 4])
    assert f.state.decisions == [] and "may react" not in out.text
    assert not f.c(a).has("Hidden")


def test_a_chase_starts_only_with_the_same_movement_and_speed() -> None:
    """UTTAS "Chase Scenes": more movement and Speed overtakes ("combat continues as normal");
    less of either and "the target will eventually escape"; the same of both: a chase scene."""
    f, a, w = _pair()
    bear = f.add("Bear", agility=12, speed=6, movement={"run": 16})
    slow = f.add("Slow", agility=8, speed=4, movement={"run": 12})
    with pytest.raises(RuleViolation, match=r"Bear can overtake Arsonist .*continues as normal"):
        f.do(StartChase(quarry=a, pursuer=bear))
    with pytest.raises(RuleViolation, match=r"Slow cannot keep pace .*eventually escape"):
        f.do(StartChase(quarry=a, pursuer=slow))
    out = f.do(StartChase(quarry=a, pursuer=w, gap_m=12))
    assert "Chase scene: Willow chases Arsonist, 12 m apart — both at 12 m and Speed 6" in out.text
    assert f.state.chase is not None and f.state.chase.pursuers == [w]


def test_a_chase_keeps_its_gap_through_moves_records_it_per_round_and_ends() -> None:
    """Both are "assumed to be constantly moving at their fastest available movement speed":
    their moves keep the gap (a move toward the other closes it); the gap is recorded each
    round; the chase ends when the GM says so or the quarry is out of the fight."""
    f, a, w = _pair()
    f.do(StartChase(quarry=a, pursuer=w, gap_m=20))
    f.do(Move(actor=a, meters=6))
    assert f.state.positions.distance(a, w) == 20
    f.do(EndTurn(actor=a))
    f.do(Move(actor=w, meters=6, toward=a))
    assert f.state.positions.distance(a, w) == 14
    f.do(EndTurn(actor=w))  # round 2 begins
    assert f.state.round == 2
    chase = f.state.chase
    assert chase is not None and [(m.round, m.gaps[w]) for m in chase.marks] == [(1, 14), (2, 14)]
    lines = f.rules.scene_lines(f.state, {a: "Arsonist", w: "Willow"})
    assert lines == [
        "Willow chasing Arsonist since round 1",
        "Willow ↔ Arsonist: R1 14 m · R2 14 m",
    ]
    out = f.do(EndChase(outcome="escaped"))
    assert "The chase ends after 2 rounds: Arsonist escapes." in out.text
    assert f.state.chase is None
    with pytest.raises(RuleViolation, match="No chase is running"):
        f.do(EndChase())


def test_a_chase_ends_when_the_quarry_is_knocked_out() -> None:
    """ "Willow moves forward and uses her Fire Blast on the arsonist, knocking him out and
    ending the chase"."""
    f, a, w = _pair(stamina=5)
    f.add("Bear", agility=1, speed=6)  # Willow's side goes on after the arsonist drops
    f.do(StartChase(quarry=a, pursuer=w, gap_m=2))
    f.do(EndTurn(actor=a))
    f.do(Attack(actor=w, target=a, attack="Sword"), dice=[])
    out = f.do(React(actor=a, choice="none"), dice=[6] * 7)
    assert "Arsonist is now Unconscious" in out.text
    assert "The chase ends after 1 round: Arsonist is caught." in out.text
    assert f.state.chase is None
