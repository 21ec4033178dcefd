"""The core's pending decisions (issue 10, "Decisions, generalised"): several open at once,
each numbered and answered on its own, nested ones settled with their parent, and states saved
with one ``pending`` decision loading as a list of one — exercised through a test variant of
UTTAS whose Volley opens one decision per target (``tests/rulesets/volley.py``)."""

from __future__ import annotations

import json

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.core.decisions import DecisionBase
from bot.engine.uttas.commands import React
from bot.engine.uttas.core import Tx
from bot.engine.uttas.state import PendingAttack, UttasState
from bot.errors import Conflict
from tests.engine.helpers import NOW, Fight
from tests.rulesets.volley import Volley, VolleyRuleset

VOLLEY_RULES = VolleyRuleset()


def volley_fight() -> tuple[Fight, str, str, str]:
    """Ann (party, first) against Bob and Cat."""
    f = Fight(VOLLEY_RULES)
    a = f.add("Ann", agility=14)
    b = f.add("Bob", side="foes", agility=12)
    c = f.add("Cat", side="foes", agility=10)
    f.begin(dice=[])
    return f, a, b, c


def test_a_volley_opens_one_numbered_decision_per_target() -> None:
    f, a, b, c = volley_fight()
    f.do(Volley(actor=a, attack="Sword"))
    opened = f.state.decisions
    assert [(d.target, d.id) for d in opened] == [(b, 1), (c, 2)]
    assert f.state.pending is opened[-1] and f.state.next_decision == 3
    assert all(d.created_at == NOW.isoformat() and d.kind == "attack" for d in opened)
    # Each target reacts to its own decision; on the other's it may only take the hit.
    assert "evade" in [o.choice for o in VOLLEY_RULES.reaction_options(f.state, b, opened[0])]
    assert [o.choice for o in VOLLEY_RULES.reaction_options(f.state, b, opened[1])] == ["intercept"]
    assert VOLLEY_RULES.decision_subject(f.state, opened[0]) == b
    # A turn command waits until no decision is open.
    with pytest.raises(Conflict, match="Waiting for"):
        f.do(EndTurn(actor=a))


def test_each_decision_is_answered_on_its_own_in_any_order_and_then_the_turn_passes() -> None:
    f, a, b, c = volley_fight()
    f.do(Volley(actor=a, attack="Sword"))
    f.do(React(actor=c, choice="none", decision=2))  # the second first
    assert [d.id for d in f.state.decisions] == [1] and f.state.turn == a
    with pytest.raises(Conflict, match="no longer waiting"):
        f.do(React(actor=c, choice="none", decision=2))
    f.do(React(actor=b, choice="none", decision=1))
    assert f.state.decisions == [] and f.state.turn == b  # Ann's turn passed on


def test_lapse_and_answer_name_their_decision() -> None:
    f, a, b, _c = volley_fight()
    f.do(Volley(actor=a, attack="Sword"))
    first, second = f.state.decisions
    lapse = VOLLEY_RULES.lapse(f.state, first)
    assert isinstance(lapse, React) and (lapse.actor, lapse.decision) == (b, 1)
    f.do(lapse)
    assert [d.id for d in f.state.decisions] == [second.id]
    assert VOLLEY_RULES.lapse(f.state).decision == second.id  # default: the newest


def test_deadlines_follow_each_decisions_own_window() -> None:
    f, a, _b, _c = volley_fight()
    f.do(Volley(actor=a, attack="Sword"))
    first, second = f.state.decisions
    quick = second.model_copy(update={"window_s": 30})
    state = f.state.model_copy(update={"decisions": [first, quick]})
    window = state.settings.reaction_window_s
    assert VOLLEY_RULES.reaction_deadline(state, first).timestamp() == NOW.timestamp() + window
    assert VOLLEY_RULES.reaction_deadline(state, quick).timestamp() == NOW.timestamp() + 30


def test_settling_a_decision_settles_the_decisions_nested_in_it() -> None:
    f, a, b, _c = volley_fight()
    f.do(Volley(actor=a, attack="Sword"))
    tx = Tx(f.state, VOLLEY_RULES.tables, f.roller, NOW, VOLLEY_RULES.economy)
    parent = f.state.decisions[0]
    child = tx.open_decision(PendingAttack(attacker=a, target=b, attack="Sword", parent=parent.id))
    grandchild = tx.open_decision(
        PendingAttack(attacker=a, target=b, attack="Sword", parent=child.id)
    )
    assert [d.id for d in tx.state.decisions] == [1, 2, child.id, grandchild.id]
    tx.settle_decision(parent.id)
    assert [d.id for d in tx.state.decisions] == [2]
    assert [d.id for d in f.state.decisions] == [1, 2]  # the input state is untouched


def test_a_state_saved_with_one_pending_decision_loads_as_a_list_of_one() -> None:
    f, a, b, _c = volley_fight()
    f.do(Volley(actor=a, attack="Sword"))
    saved = json.loads(f.state.model_dump_json())
    old = {**saved, "pending": {k: v for k, v in saved["decisions"][0].items() if k != "id"}}
    del old["decisions"], old["next_decision"]
    loaded = UttasState.model_validate(old)
    assert [(d.id, d.target) for d in loaded.decisions] == [(1, b)]
    assert loaded.next_decision == 2 and loaded.pending == loaded.decisions[0]
    none = UttasState.model_validate({**old, "pending": None})
    assert none.decisions == [] and none.pending is None


def test_every_ruleset_decision_model_is_a_core_decision() -> None:
    assert issubclass(PendingAttack, DecisionBase)
    stages = PendingAttack.model_fields["stage"].annotation
    assert "after_damage" in str(stages) and "before_roll" in str(stages)
