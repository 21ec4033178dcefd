"""Utopia's economy rows the slice tests left implicit (``docs/rules/utopia-rule-table.md``):
"Interchanging Actions" 1 TA as 1 IA on the turn, "Standard Actions" going later in the order
(never earlier), and "Travel" (1 TA, the rest of the distance lost, no water or air travel
without a distance). Scripted dice."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import DelayTurn, EndTurn
from bot.engine.utopia import commands as u
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_utopia_engine import RULES, fight, run, sheet


def test_one_ta_becomes_one_ia_on_the_turn_and_lasts_to_the_next_turn_end() -> None:
    """ "Interchanging Actions": "You may spend 1 turn action as if it was 1 interrupt action"."""
    s = fight()
    s = run(s, u.Exchange(actor="c1", to="interrupt"), []).state
    assert s.get("c1").pools["turn"] == 5
    s = run(s, EndTurn(actor="c1"), []).state
    ana = s.get("c1")
    assert ana.pools["held"] == 1  # 2 IA of its own plus the exchanged one off its turn
    with pytest.raises(RuleViolation, match="on their own turn only"):
        run(s, u.Exchange(actor="c1", to="interrupt"), [])
    with pytest.raises(RuleViolation, match="take the action itself"):
        run(s, u.Exchange(actor="c1", to="turn"), [])


def test_a_creature_may_go_later_in_the_order_never_earlier() -> None:
    """ "Standard Actions": "A creature may choose to put themselves lower in turn order, but
    not higher"."""
    s = fight()
    assert s.order == ["c1", "c2"]
    out = run(s, DelayTurn(actor="c1", after="c2"), [])
    assert out.state.order == ["c2", "c1"] and out.state.turn == "c2"
    s = run(out.state, EndTurn(actor="c2"), []).state
    assert s.turn == "c1"
    with pytest.raises(RuleViolation, match="may only go later in the order"):
        run(s, DelayTurn(actor="c1", after="c2"), [])  # Bo comes before Ana now: not higher


def test_travel_costs_one_ta_up_to_the_distance_and_the_rest_is_lost() -> None:
    """ "Travel": 1 TA to move up to the travel distance; "the remainder is lost"; land, water
    and air."""
    s = fight(a=sheet(travel={"land": 5, "water": 2}))
    s = run(s, u.Travel(actor="c1", meters=2), []).state
    assert s.get("c1").pools["turn"] == 5 and s.get("c1").run_up_m == 2
    with pytest.raises(RuleViolation, match="at most 5 m by land per Travel"):
        run(s, u.Travel(actor="c1", meters=6), [])
    s = run(s, u.Travel(actor="c1", mode="water"), []).state  # the full 2 m
    assert s.get("c1").pools["turn"] == 4
    with pytest.raises(RuleViolation, match="cannot travel by air"):
        run(s, u.Travel(actor="c1", mode="air", meters=1), [])


def test_the_gm_charges_interrupt_actions_for_other_aid() -> None:
    """ "Assist": "Outside of standard aid, the level of aid the action-taking creature receives
    and the number of interrupt actions required is up to GM discretion": the GM sets or
    changes the TA and IA left (``/gm vital``), within 0 and the creature's own."""
    s = fight()
    s = run(s, EndTurn(actor="c1"), []).state  # Bo's turn: Ana has 2 IA
    s = run(s, u.SetVitals(target="c1", ia=(-1, True)), []).state
    assert s.get("c1").pools["interrupt"] == 1
    s = run(s, u.SetVitals(target="c2", ta=(99, False), ia=(-5, True)), []).state
    assert s.get("c2").pools["turn"] == 6 and s.get("c2").pools["interrupt"] == 0
    assert RULES.vital_label("ia") == "IA" and RULES.vital_label("stamina") == "Stamina"
    with pytest.raises(InvalidInput, match="shp, dhp, stamina, ta or ia"):
        RULES.vitals_command("c1", {"mana": (1, True)})
