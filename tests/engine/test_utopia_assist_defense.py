"""Utopia's Assist on a Block or Dodge (``utopia-actions.txt`` "Assist": "spend an interrupt
action to add 1d4 to a blocking creature's Block Rating or 1d12 to a dodging creature's Dodge
Rating, any number of times per event. Creatures aided this way must be within 1 meter") and
the defense buttons' costs ("Interchanging Actions"), with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import Begin, Engage, SetDistance
from bot.engine.utopia import commands as u
from bot.engine.utopia.state import AssistDecision
from bot.errors import RuleViolation
from tests.engine.test_utopia_engine import RULES, run, sheet


def trio(*, near: bool = True) -> Any:
    """Ana (c1) attacks; Bo (c2) and Cy (c3) are on the other side, Cy within 1 m of Bo (or
    3 m away). Speed tests: Ana 18, Bo 3, Cy 4: Ana first."""
    s = RULES.new_encounter(name="Trio", seed=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=sheet()), []).state
    s = run(s, u.AddCombatant(name="Bo", sheet=sheet(), is_npc=True), []).state
    s = run(s, u.AddCombatant(name="Cy", sheet=sheet(), is_npc=True), []).state
    s = run(s, Begin(), [6, 6, 6, 1, 1, 1, 1, 1, 2]).state
    assert s.turn == "c1"
    if near:
        return run(s, Engage(a="c2", b="c3"), []).state
    return run(s, SetDistance(a="c2", b="c3", meters=3), []).state


def test_block_with_an_ally_within_1m_waits_for_assists_then_rolls_them() -> None:
    """The Block is paid at once; Cy's two Assists (1 IA each) add 2d4; Bo's Roll now rolls
    its 2d4 Block plus the assist dice and reduces the damage by the total."""
    s = trio()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state  # 8 + 2 − 1 = 9
    s = run(s, u.Defend(actor="c2", choice="block"), []).state
    p = s.pending
    assert isinstance(p, AssistDecision) and p.defense == "block" and p.hit.damage == 9
    assert s.get("c2").pools["interrupt"] == 1  # the Block's 1 IA
    options = RULES.decision_options(s, p)
    assert [o.choice for o in options["c3"]] == ["assist"]
    assert options["c3"][0].label == "Assist Bo's Block: +1d4"
    assert options["c3"][0].costs == {"IA": 1}
    assert [o.choice for o in options["c2"]] == ["roll"]
    s = run(s, u.AssistDefense(actor="c3", choice="assist", decision=p.id), []).state
    s = run(s, u.AssistDefense(actor="c3", choice="assist"), []).state
    assert s.get("c3").pools["interrupt"] == 0 and s.pending.assists == {"c3": 2}
    assert RULES.decision_options(s, s.pending).get("c3", []) == []  # no IA left
    out = run(s, u.AssistDefense(actor="c2", choice="roll"), [1, 1, 2, 3])
    assert out.state.pending is None
    assert out.state.get("c2").shp == 10 - (9 - (1 + 1 + 2 + 3))


def test_dodge_assists_add_d12s_and_the_lapse_rolls_with_them() -> None:
    """A Dodge's Assist adds 1d12; when nobody rolls, the lapse rolls with what was given."""
    s = trio()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    s = run(s, u.Defend(actor="c2", choice="dodge"), []).state
    s = run(s, u.AssistDefense(actor="c3", choice="assist"), []).state
    lapse = RULES.lapse(s)
    assert lapse.kind == "assist_defense" and lapse.actor == "c2"
    out = run(s, lapse, [2, 7])  # Dodge 1d12 [2] + assist 1d12 [7] = 9 ≥ 9
    assert out.state.get("c2").shp == 10


def test_no_helper_within_1m_rolls_at_once() -> None:
    """ "Creatures aided this way must be within 1 meter": Cy 3 m away is not asked."""
    s = trio(near=False)
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    out = run(s, u.Defend(actor="c2", choice="block"), [3, 2])
    assert out.state.pending is None and out.state.get("c2").shp == 10 - (9 - 5)


def test_only_helpers_assist_and_only_the_defender_rolls() -> None:
    """The attacker cannot assist; a helper cannot roll; a second Block is refused."""
    s = trio()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    s = run(s, u.Defend(actor="c2", choice="block"), []).state
    with pytest.raises(RuleViolation, match="Ana cannot Assist Bo"):
        run(s, u.AssistDefense(actor="c1", choice="assist"), [])
    with pytest.raises(RuleViolation, match="Only Bo rolls"):
        run(s, u.AssistDefense(actor="c3", choice="roll"), [])
    with pytest.raises(RuleViolation, match="already chose to block"):
        run(s, u.Defend(actor="c2", choice="dodge"), [])


def test_act_assist_says_where_the_assist_is() -> None:
    """``/act assist`` without a pledged form says where Assist on a Block or Dodge lives (a
    button) and which forms it pledges."""
    from bot.engine.core.verbs import ActInput
    from bot.engine.utopia import verbs
    from bot.errors import InvalidInput

    me = type("C", (), {"id": "c1"})()
    with pytest.raises(InvalidInput, match=r"test \(1 IA\), leap \(1 IA\) or grapple.*is a button"):
        verbs.act(me, ActInput(key="assist", target="c2", detail="block"))
