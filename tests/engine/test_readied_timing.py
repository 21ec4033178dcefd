"""UTTAS "Perform a readied action": "If the readied action is in response to an enemy's
action, the readied action comes after the target has completed their action" — even when the
enemy acted last in the round and the readier's own turn comes next (issue 11: it used to lapse
at that very turn's start, so it could never fire)."""

from __future__ import annotations

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import Move, Ready, ResolveReadied, UseSkill
from tests.engine.helpers import Fight


def _ready_before_the_last() -> tuple[Fight, str, str]:
    f = Fight()
    w = f.add("Willow", agility=14, skills={"Perception": 3})
    t = f.add("Thug", npc=True, agility=8)
    f.begin(dice=[])
    f.do(Ready(actor=w, trigger="action", watch=t, plan="spot him"))
    return f, w, t


def test_a_trigger_that_comes_just_before_the_readiers_turn_may_still_resolve() -> None:
    f, w, t = _ready_before_the_last()
    out = f.do(Move(actor=t, meters=2, full=True))  # his action; round 2: Willow's turn
    assert f.state.turn == w and f.c(w).readied is not None
    assert "Willow's readied action can still resolve, now: Thug just acted" in out.text
    out = f.do(
        ResolveReadied(actor=w, action=UseSkill(actor=w, skill="Perception")), dice=[3, 3, 3]
    )
    assert "Willow's readied action triggers!" in out.text and f.c(w).readied is None


def test_a_kept_readied_action_lapses_when_that_turn_ends() -> None:
    """Kept for the turn its trigger preceded, it lapses unused when that turn ends; one
    whose trigger never came lapses as the readier's turn starts."""
    f, w, t = _ready_before_the_last()
    f.do(Move(actor=t, meters=2, full=True))
    out = f.do(EndTurn(actor=w))
    assert "Willow's readied action lapses: its moment passed." in out.text
    g, _, t2 = _ready_before_the_last()
    out = g.do(EndTurn(actor=t2))  # he passes without acting
    assert "Willow's readied action lapses: its trigger never came." in out.text
