"""The action-economy contract expresses all four systems without touching the engine core."""

from __future__ import annotations

import pytest

from bot.engine.core.economy import (
    ECONOMIES,
    Cost,
    SpeedPool,
    UntitledActions,
    UtopiaActions,
    UuneActions,
)
from bot.errors import RuleViolation

ACT = Cost()


def test_every_system_has_an_economy() -> None:
    assert set(ECONOMIES) == {"uttas", "utopia", "untitled", "uune"}


def test_uttas_speed_pool_refills_at_the_own_turn_start_or_after_a_skipped_turn() -> None:
    """Rules version 2 (UTTAS "Actions and Speed", issue 11): one pool for the turn and every
    reaction until the next turn; refilled as the own turn starts, unless it is empty — then
    the turn is skipped and it refills at that skipped turn's end."""
    e = SpeedPool()
    p = e.pay(e.fresh(4), ACT, "turn", 4)
    p = e.pay(p, ACT, "off_turn", 4)  # a reaction before the next turn: the same pool
    assert e.on_turn_end(p, own=True, capacity=4) == {"speed": 2}  # no refill at the end
    assert e.on_turn_start(p, own=False, capacity=4) == p
    assert e.on_turn_start(p, own=True, capacity=4) == {"speed": 4}
    empty = e.pay(e.fresh(2), Cost(amount=2), "turn", 2)
    assert e.skips_turn(empty) and e.on_turn_end(empty, own=True, capacity=2) == empty
    assert e.on_turn_skipped(empty, capacity=2) == {"speed": 2}


def test_uttas_speed_pool_spans_turn_and_reactions_and_refills_at_own_turn_end() -> None:
    """Rules version 1's reading (kept: ``speed_refill: turn_end``)."""
    e = SpeedPool("turn_end")
    p = e.fresh(4)
    p = e.pay(p, ACT, "off_turn", 4)  # a reaction
    p = e.pay(p, ACT, "turn", 4)
    assert p == {"speed": 2}
    assert e.on_turn_end(p, own=False, capacity=4) == p
    assert e.on_turn_end(p, own=True, capacity=4) == {"speed": 4}
    assert e.on_turn_start(p, own=True, capacity=4) == p
    p = e.pay(e.fresh(2), Cost(amount=2), "turn", 2)
    assert e.exhausted(p) and e.skips_turn(p)
    assert e.on_turn_skipped(p, capacity=2) == p
    with pytest.raises(RuleViolation):
        e.pay(p, ACT, "off_turn", 2)


def test_utopia_turn_and_interrupt_actions_with_exchanges_and_holding() -> None:
    e = UtopiaActions()
    p = e.fresh(6)
    p = e.on_turn_start(p, own=True, capacity=6)
    p = e.pay(p, Cost(kind="turn", amount=4), "turn", 6)
    p = e.pay(p, Cost(kind="hold"), "turn", 6)  # 2 TA held as 1 IA
    assert p["turn"] == 0 and p["held_new"] == 1
    p = e.on_turn_end(p, own=True, capacity=6)
    assert p["held"] == 1
    p = e.on_turn_start(p, own=False, capacity=6)  # another creature's turn: IA reset to 2
    p = e.pay(p, Cost(kind="turn"), "off_turn", 6)  # 2 IA pay for 1 TA
    assert p["interrupt"] == 0
    p = e.pay(p, Cost(kind="interrupt"), "off_turn", 6)  # the held IA
    assert p["held"] == 0
    with pytest.raises(RuleViolation):
        e.pay(p, Cost(kind="interrupt"), "off_turn", 6)
    p = e.on_turn_start(p, own=False, capacity=6)
    assert p["interrupt"] == 2
    p = e.on_turn_start(p, own=True, capacity=6)
    p = e.pay(p, Cost(kind="interrupt"), "turn", 6)  # 1 TA as 1 IA on your turn
    assert p["turn"] == 5


def test_utopia_an_action_dearer_than_whats_left_says_what_it_takes() -> None:
    """Turn actions were paid one by one, so an action costing 3 with 2 left was refused as
    "no turn actions left this turn" (the third found none): it says what it takes and what
    is left, on the creature's turn and off it; none left is still "none left"."""
    e = UtopiaActions()
    p = e.on_turn_start(e.fresh(6), own=True, capacity=6)
    p = e.pay(p, Cost(kind="turn", amount=4), "turn", 6)
    with pytest.raises(RuleViolation) as on_turn:
        e.pay(p, Cost(kind="turn", amount=3), "turn", 6)
    assert on_turn.value.message == "it takes 3 turn actions and 2 are left this turn"
    p = e.on_turn_end(p, own=True, capacity=6)
    p = e.on_turn_start(p, own=False, capacity=6)  # 2 IA: one TA's worth
    with pytest.raises(RuleViolation) as off_turn:
        e.pay(p, Cost(kind="turn", amount=2), "off_turn", 6)
    assert off_turn.value.message == (
        "it takes 2 turn actions, off your turn 4 interrupt actions (2 interrupt actions pay "
        "for 1), and 2 are left"
    )
    p = e.pay(p, Cost(kind="turn"), "off_turn", 6)
    with pytest.raises(RuleViolation, match=r"^no turn actions left"):
        e.pay(p, Cost(kind="turn", amount=2), "off_turn", 6)


def test_untitled_two_moves_and_a_standard_or_one_full_round() -> None:
    e = UntitledActions()
    p = e.on_turn_start(e.fresh(0), own=True, capacity=0)
    p = e.pay(p, Cost(kind="move"), "turn", 0)
    p = e.pay(p, Cost(kind="move"), "turn", 0)
    p = e.pay(p, Cost(kind="standard"), "turn", 0)
    with pytest.raises(RuleViolation):
        e.pay(p, Cost(kind="move"), "turn", 0)
    with pytest.raises(RuleViolation):
        e.pay(p, Cost(kind="full_round"), "turn", 0)
    p = e.pay(p, Cost(kind="swift"), "turn", 0)
    p = e.pay(p, Cost(kind="free"), "turn", 0)
    p = e.pay(p, Cost(kind="immediate"), "off_turn", 0)
    fresh = e.on_turn_start(p, own=True, capacity=0)
    q = e.pay(fresh, Cost(kind="full_round"), "turn", 0)
    with pytest.raises(RuleViolation):
        e.pay(q, Cost(kind="standard"), "turn", 0)
    with pytest.raises(RuleViolation):
        e.pay(fresh, Cost(kind="standard"), "off_turn", 0)


def test_uune_one_action_a_turn_and_defend_is_free_off_turn() -> None:
    e = UuneActions()
    p = e.on_turn_start(e.fresh(0), own=True, capacity=0)
    p = e.pay(p, Cost(kind="action"), "turn", 0)
    with pytest.raises(RuleViolation):
        e.pay(p, Cost(kind="action"), "turn", 0)
    assert e.pay(p, Cost(kind="defend"), "off_turn", 0) == p
    with pytest.raises(RuleViolation):
        e.pay(e.fresh(0), Cost(kind="action"), "off_turn", 0)
