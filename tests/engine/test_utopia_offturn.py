"""Utopia's off-turn economy on the defense buttons (``utopia-actions.txt`` "Interchanging
Actions": "You may spend 1 turn action as if it was 1 interrupt action"; "if you spend your IA
on an attack, you cannot defend, until it's the next creature's turn"; "Block", "Dodge": "1 turn
action or 1 interrupt action"), with scripted dice."""

from __future__ import annotations

from typing import Any

from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import EndTurn, Engage
from bot.engine.utopia import commands as u
from tests.engine.test_utopia_assist_defense import trio
from tests.engine.test_utopia_engine import RULES, fight, run, sheet


def costs(s: Any, cid: str) -> dict[str, dict[str, int]]:
    return {o.choice: o.costs for o in RULES.reaction_options(s, cid)}


def test_an_attack_paid_with_ia_leaves_no_defense_until_the_next_turn() -> None:
    """Bo knifes Ana off turn (1 TA = 2 IA): the warning is in the result; Ana's Knife at Bo
    then settles at once — no buttons — saying why; at Bo's own turn Bo may defend again."""
    s = fight()  # Ana's turn
    out = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [1])
    assert any("cannot defend until the next creature's turn" in e.text for e in out.events)
    s = out.state
    assert s.get("c2").open_guard and s.get("c2").pools["interrupt"] == 0
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4])
    assert out.state.decisions == []
    said = [e.text for e in out.events if e.kind == "damage_resolved"]
    assert said == [
        "Bo cannot defend (they attacked with interrupt actions: they cannot defend until the next "
        "creature's turn): takes 3 of 3 from Knife (SHP); SHP 7, DHP 10, Stamina 8."
    ]
    s = run(out.state, EndTurn(actor="c1"), []).state  # Bo's turn
    assert not s.get("c2").open_guard
    s = run(s, EndTurn(actor="c2"), []).state  # Ana's turn: Bo has 2 IA again
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4]).state
    assert costs(s, "c2") == {
        "block": {"IA": 1},
        "dodge": {"IA": 1},
        "cover": {"IA": 1},
        "none": {},
    }


def test_with_no_action_left_the_log_says_why_instead_of_an_empty_choice() -> None:
    """Bo spent both IA: Ana's next Knife settles at once, "a Block needs 1 IA and they have 0
    IA left"."""
    s = fight()
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c2", choice="block"), [1, 1]).state
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c2", choice="dodge"), [1]).state
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4])
    assert out.state.decisions == []
    assert any(
        "Bo cannot defend (a Block needs 1 IA and they have 0 IA left)" in e.text
        for e in out.events
    )


def test_a_second_source_after_the_last_ia_is_spent_says_so_in_the_prompt() -> None:
    """Bo's multi-weapon attack opens two decisions; Ana (1 IA) blocks the first with it: the
    second offers only "take it" and its words say why."""
    s = fight(a=sheet(interrupt_actions=1), b=sheet())
    s = run(s, EndTurn(actor="c1"), []).state  # Bo's turn
    multi = u.MultiAttack(actor="c2", target="c1", weapons=("Knife", "Maul"), range_m=1)
    s = run(s, multi, [4, 6, 6]).state
    knife, maul = s.decisions
    s = run(s, u.Defend(actor="c1", choice="block", decision=knife.id), [1, 1]).state
    assert costs(s, "c1") == {"none": {}}
    deciders = RULES.decision_options(s, maul)
    words = RULES.decision_words(s, maul, deciders, RULES.view(s, PUBLIC))
    assert "**Ana** cannot defend (a Block needs 1 IA and they have 0 IA left)" in words.ask


def test_buttons_say_what_they_spend_on_the_turn_and_with_a_held_action() -> None:
    """On its own turn a Block is "1 TA"; a held IA pays off turn ("1 held IA"); an Assist on
    the helper's own turn is "1 TA as 1 IA"."""
    s = fight()  # Ana's turn
    s = run(s, u.HoldAction(actor="c1"), []).state
    s = run(s, EndTurn(actor="c1"), []).state  # Bo's turn; Ana holds 1 IA
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c1", choice="block"), [1, 1]).state
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c1", choice="block"), [1, 1]).state
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [4]).state
    assert costs(s, "c1")["block"] == {"held IA": 1}
    s = trio()  # Ana's turn; Bo and Cy engaged
    s = run(s, Engage(a="c1", b="c2"), []).state
    s = run(s, EndTurn(actor="c1"), []).state  # the order is Ana, Cy, Bo
    assert s.turn == "c3"  # Cy's turn: Ana attacks Bo off turn, Cy assists on its own turn
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c2", choice="block"), []).state
    assert costs(s, "c3") == {"assist": {"TA as 1 IA": 1}}
