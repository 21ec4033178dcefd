"""Positions (issue 10, decision E): declared distances and engagement groups, set by the GM,
kept consistent when combatants move or leave, and read by rules."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import Disengage, Engage, RemoveCombatant, SetDistance
from bot.engine.core.positions import ENGAGED_M, Positions
from bot.errors import InvalidInput, RuleViolation
from tests.engine.helpers import Fight


def test_distances_and_engagement_stay_consistent() -> None:
    p = Positions().with_distance("c1", "c2", 12).with_distance("c3", "c1", 0.5)
    assert p.distance("c2", "c1") == 12 and p.distance("c1", "c3") == ENGAGED_M
    assert p.are_engaged("c3", "c1") and p.distance("c2", "c3") is None
    p = p.engage("c2", "c4")
    p = p.engage("c1", "c4")  # groups merge: c1, c2, c3, c4 in one melee
    assert p.engaged == (("c1", "c2", "c3", "c4"),)
    assert "c1|c2" not in p.distances  # engaged now: within 1 m
    p = p.disengage("c2")
    assert p.engaged == (("c1", "c3", "c4"),) and p.distance("c2", "c1") is None
    p = p.with_distance("c1", "c3", 5)  # apart: c1 leaves the melee
    assert p.engaged == (("c3", "c4"),) and p.distance("c1", "c3") == 5
    p = p.moved("c3")
    assert p.engaged == () and p.distance("c1", "c3") is None
    assert p.lines({"c1": "Ann"}) == []


def test_the_gm_places_combatants_and_a_leaver_is_forgotten() -> None:
    f = Fight()
    a = f.add("Ann")
    b = f.add("Bob", npc=True)
    c = f.add("Cy")
    f.do(SetDistance(a=a, b=b, meters=8))
    assert "Ann and Bob are 8 m apart." in f.texts()
    f.do(Engage(a=b, b=c))
    assert f.state.positions.are_engaged(c, b)
    with pytest.raises(InvalidInput, match="two different"):
        f.do(Engage(a=a, b=a))
    f.do(Disengage(combatant=c))
    with pytest.raises(InvalidInput, match="not engaged"):
        f.do(Disengage(combatant=c))
    f.do(RemoveCombatant(combatant=a))
    assert f.state.positions.distances == {}
    assert f.state.positions.lines({}) == []


def test_uttas_reads_positions_for_an_attacks_distance_and_moves_change_them() -> None:
    from bot.engine.uttas.commands import Attack, Move

    f = Fight()
    a = f.add("Ann", agility=14)
    b = f.add("Bob", npc=True)
    f.begin(dice=[])
    f.do(SetDistance(a=a, b=b, meters=30))
    with pytest.raises(RuleViolation, match="Sword reaches"):  # a sword at 30 m: out of reach
        f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(Move(actor=a, meters=5, toward=b))
    assert f.state.positions.distance(a, b) == 25
    assert "Ann is now 25 m from Bob." in f.texts()
    f.do(Move(actor=a, meters=4, toward=b, full=True))
    assert f.state.positions.distance(a, b) == 21  # (a full move ends the turn)
    f.do(SetDistance(a=a, b=b, meters=3))
    f.do(Engage(a=a, b=b))
    assert f.state.positions.distance(a, b) == 1.0
    assert f.state.turn == b
    f.do(Move(actor=b, meters=2))  # moving off with no destination leaves the melee
    assert f.state.positions.engaged == () and f.state.positions.distance(a, b) is None


def test_groups_list_combatants_in_the_order_they_joined() -> None:
    p = Positions().engage("c10", "c9").engage("c2", "c11")
    assert p.engaged == (("c2", "c11"), ("c9", "c10"))
