"""QA8: the Speed pool across a round (UTTAS "Actions and Speed", rules version 2) against the
other ways a turn is skipped: an emptied pool costs exactly one turn."""

from __future__ import annotations

from bot.engine.core.commands import EndTurn, SkipTurn
from bot.engine.uttas.commands import Attack, React
from tests.engine.test_uttas_audit_defects import speed3


def skipped_reasons(out: object, cid: str) -> list[str]:
    return [
        e.reason  # type: ignore[attr-defined]
        for e in out.events  # type: ignore[attr-defined]
        if getattr(e, "reason", None) is not None and getattr(e, "combatant", None) == cid
    ]


def test_an_emptied_pool_and_a_gm_skip_cost_one_turn_not_two() -> None:
    """X empties its pool with a 3-hit attack (its next turn is lost) and the GM also skips
    X's next turn: that is the same turn. Today X is skipped in round 2 (by the GM) and again
    in round 3 ("spent all actions"), though it spent nothing in round 2."""
    f, x, y = speed3()
    f.do(Attack(actor=x, target=y, attack="Claws", hits=3))
    for _ in range(3):
        f.do(React(actor=y, choice="none"), dice=[1, 1, 1])
    assert f.c(x).actions_left == 0 and f.state.turn == y
    f.do(SkipTurn(target=x))
    out = f.do(EndTurn(actor=y))  # round 2: X's turn is skipped (once)
    assert skipped_reasons(out, x)
    assert f.state.turn == y and f.state.round == 2
    out = f.do(EndTurn(actor=y))  # round 3: X spent nothing since — X acts
    assert skipped_reasons(out, x) == []
    assert f.state.turn == x and f.c(x).actions_left == 3
