"""The core's turn-order policies and moves (issue 10 §1), on the core alone: a bare
transaction over core combatants, as a new ruleset would start — Utopia's rolled order with
"go later, never earlier", Untitled's Storyteller order with "hold until …", Uune's PCs then
NPCs, and the GM's next / skip / order — and UTTAS's order unchanged on top of it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from bot.engine import get_ruleset
from bot.engine.core import order
from bot.engine.core.commands import (
    CommandBase,
    DelayTurn,
    HoldTurn,
    MoveInOrder,
    NextTurn,
    ResumeTurn,
)
from bot.engine.core.dice import Roll, ScriptedRoller
from bot.engine.core.economy import UuneActions
from bot.engine.core.events import UNSCORED_ORDERS, InitiativeRolled
from bot.engine.core.order import ByScore, PcsThenNpcs, Rolled, StorytellerOrder, TurnOrder
from bot.engine.core.state import CombatantBase, EncounterState
from bot.engine.core.tx import CoreTx
from bot.engine.registry import REGISTRY
from bot.errors import Conflict, NotAllowed, RuleViolation

NOW = datetime(2026, 11, 30, tzinfo=UTC)


class NoPending(BaseModel):
    pass


State = EncounterState[CombatantBase, NoPending]


class BareTx(CoreTx[Any, CombatantBase]):
    """The core's transaction with the two initiative hooks a ruleset supplies: a score per
    combatant and a 2d6 roll."""

    SCORES: ClassVar[dict[str, int]] = {}

    def initiative_score(self, c: CombatantBase) -> int:
        return self.SCORES.get(c.name, 0)

    def initiative_roll(self, c: CombatantBase, tie_on: int | None) -> Roll:
        return self.roll(f"{c.name}'s initiative", 2)


def fight(
    policy: TurnOrder,
    *people: tuple[str, bool],
    scores: dict[str, int] | None = None,
    dice: list[int] | None = None,
) -> tuple[State, ScriptedRoller]:
    """Begin a fight of ``people`` (name, is_npc) ordered by ``policy``."""
    BareTx.SCORES = scores or {}
    state = State(ruleset="bare", name="Bare")
    state = state.model_copy(
        update={
            "combatants": [
                CombatantBase(
                    id=f"c{i + 1}",
                    name=name,
                    is_npc=npc,
                    side="foes" if npc else "party",
                    join_seq=i + 1,
                    pools={"turn": 1},
                )
                for i, (name, npc) in enumerate(people)
            ]
        }
    )
    roller = ScriptedRoller(dice or [])
    tx = BareTx(state, UuneActions(), roller, NOW, policy)
    policy.arrange(tx)
    tx.state.phase, tx.state.round = "active", 1
    tx.start_turn(tx.state.order[0])
    return tx.state, roller


def run(
    state: State, policy: TurnOrder, command: CommandBase, dice: list[int] | None = None
) -> tuple[State, BareTx]:
    tx = BareTx(state, UuneActions(), ScriptedRoller(dice or []), NOW, policy)
    order.HANDLERS[command.kind](tx, command)
    return tx.state, tx


def names(state: State) -> list[str]:
    return [state.get(cid).name for cid in state.order]


def end_turn(state: State, policy: TurnOrder) -> State:
    tx = BareTx(state, UuneActions(), ScriptedRoller([]), NOW, policy)
    assert tx.state.turn is not None
    tx.finish_turn(tx.state.turn)
    return tx.state


def test_rolled_order_goes_highest_first_ties_by_score() -> None:
    """Utopia: every creature makes a Speed test; highest first."""
    state, _ = fight(
        Rolled(),
        ("Ann", False),
        ("Bob", True),
        ("Cat", False),
        scores={"Ann": 1, "Bob": 3, "Cat": 2},
        dice=[3, 3, 6, 6, 2, 4],  # Ann 6, Bob 12, Cat 6: Ann and Cat tie, Cat's score is higher
    )
    assert names(state) == ["Bob", "Cat", "Ann"]
    assert state.current is not None and state.current.name == "Bob"


def test_going_later_moves_the_creature_for_good_never_earlier() -> None:
    policy = Rolled()
    state, _ = fight(
        policy,
        ("Ann", False),
        ("Bob", True),
        ("Cat", False),
        scores={"Ann": 3, "Bob": 2, "Cat": 1},
        dice=[6, 6, 4, 4, 1, 1],
    )
    assert names(state) == ["Ann", "Bob", "Cat"] and state.turn == "c1"
    with pytest.raises(RuleViolation, match="only go later"):
        run(state, policy, DelayTurn(actor="c1", after="c1"))
    state, tx = run(state, policy, DelayTurn(actor="c1", after="c3"))
    assert names(state) == ["Bob", "Cat", "Ann"] and state.turn == "c2" and state.round == 1
    assert "Ann waits: from now on they go after Cat." in [e.text for e in tx.events]
    state = end_turn(end_turn(state, policy), policy)  # Bob, then Cat: Ann's turn, same round
    assert state.turn == "c1" and state.round == 1
    state = end_turn(state, policy)
    assert state.turn == "c2" and state.round == 2  # and the new order stays
    # Once it has spent something on its turn, it is too late.
    state = state.model_copy(update={"turn_spent": True})
    with pytest.raises(RuleViolation, match="already acted"):
        run(state, policy, DelayTurn(actor="c2", after="c1"))


def test_systems_without_the_move_refuse_it() -> None:
    state, _ = fight(StorytellerOrder(), ("Ann", False), ("Bob", True))
    with pytest.raises(NotAllowed, match="no choosing to go later"):
        run(state, StorytellerOrder(), DelayTurn(actor="c1", after="c2"))
    state, _ = fight(PcsThenNpcs(), ("Ann", False), ("Bob", True))
    with pytest.raises(NotAllowed, match="no holding an action"):
        run(state, PcsThenNpcs(), HoldTurn(actor="c1", until="the giant goes"))


def test_the_storyteller_order_is_the_join_order_until_moved() -> None:
    policy = StorytellerOrder()
    state, _ = fight(policy, ("Giant", True), ("Ann", False), ("Bob", False))
    assert names(state) == ["Giant", "Ann", "Bob"]
    state, _ = run(state, policy, MoveInOrder(target="c3", position=1))
    assert names(state) == ["Bob", "Giant", "Ann"] and state.turn == "c1"


def test_a_held_action_resumes_after_the_turn_it_waited_for_and_keeps_that_place() -> None:
    """Untitled: "I want to hold my action until the giant goes again" — the holder then takes
    its turn at its new position from that point forward."""
    policy = StorytellerOrder()
    state, _ = fight(policy, ("Ann", False), ("Giant", True), ("Bob", False))
    state, tx = run(state, policy, HoldTurn(actor="c1", until="the giant goes again"))
    assert state.turn == "c2" and "c1" in state.holding
    assert "Ann holds their action until the giant goes again." in [e.text for e in tx.events]
    with pytest.raises(Conflict, match="not holding"):
        run(state, policy, ResumeTurn(actor="c3"))
    state, _ = run(state, policy, ResumeTurn(actor="c1"))  # during the giant's turn
    assert state.turn == "c2"  # the giant's turn goes on
    state = end_turn(state, policy)
    assert state.turn == "c1" and not state.holding
    assert names(state) == ["Giant", "Ann", "Bob"]
    state = end_turn(state, policy)
    assert state.turn == "c3"
    state = end_turn(state, policy)
    assert state.turn == "c2" and state.round == 2  # round 2 in the new order


def test_a_hold_never_resumed_lapses_when_its_place_comes_round() -> None:
    policy = StorytellerOrder()
    state, _ = fight(policy, ("Ann", False), ("Giant", True))
    state, _ = run(state, policy, HoldTurn(actor="c1", until="the door opens"))
    state = end_turn(state, policy)  # the giant's turn ends; round 2 reaches Ann's place
    assert state.turn == "c1" and state.round == 2 and not state.holding


def test_pcs_then_npcs_and_a_late_joiner_goes_with_its_kind() -> None:
    """Uune: every PC takes a turn, then the NPCs."""
    policy = PcsThenNpcs()
    state, _ = fight(policy, ("Orc", True), ("Ann", False), ("Wolf", True), ("Bob", False))
    assert names(state) == ["Ann", "Bob", "Orc", "Wolf"]
    tx = BareTx(state, UuneActions(), ScriptedRoller([]), NOW, policy)
    for cid, name, npc in (("c5", "Cat", False), ("c6", "Rat", True)):
        tx.add(CombatantBase(id=cid, name=name, is_npc=npc, side="x", join_seq=9))
        policy.place(tx, cid)
    assert names(tx.state) == ["Ann", "Bob", "Cat", "Orc", "Wolf", "Rat"]


def test_gm_next_is_refused_for_a_turn_that_already_ended() -> None:
    policy = StorytellerOrder()
    state, _ = fight(policy, ("Ann", False), ("Bob", True))
    state, _ = run(state, policy, NextTurn(for_turn=state.turn_seq))
    with pytest.raises(Conflict):
        run(state, policy, NextTurn(for_turn=state.turn_seq - 1))


def test_by_score_rolls_only_the_tied_and_reports_the_order() -> None:
    BareTx.SCORES = {"Ann": 2, "Bob": 2, "Cat": 5}
    state = State(ruleset="bare", name="Bare").model_copy(
        update={
            "combatants": [
                CombatantBase(id=f"c{i}", name=n, side=n, join_seq=i)
                for i, n in enumerate(("Ann", "Bob", "Cat"), start=1)
            ]
        }
    )
    tx = BareTx(state, UuneActions(), ScriptedRoller([1, 1, 6, 6]), NOW, ByScore())
    ByScore().arrange(tx)
    assert names(tx.state) == ["Cat", "Bob", "Ann"]
    (event,) = [e for e in tx.events if isinstance(e, InitiativeRolled)]
    assert event.text == "Initiative: 1. Cat, 2. Bob, 3. Ann"
    rolled = {line.name: line.roll.total if line.roll else None for line in event.lines}
    assert rolled == {"Cat": None, "Bob": 12, "Ann": 2}  # Cat had no tie to break


@pytest.mark.parametrize("key", sorted(REGISTRY.implemented))
def test_a_newcomers_place_is_said_in_the_words_of_the_systems_order(key: str) -> None:
    """Guard (attack 18): a newcomer to a running fight was told its place "in the initiative
    order" in every system, though Uune and Untitled roll no initiative (their orders'
    headings: :data:`~bot.engine.core.events.UNSCORED_ORDERS`). Each order says a place in
    its own words: only an order a score or a roll sets speaks of initiative."""
    turn_order = get_ruleset(key).turn_order
    for is_npc in (False, True):
        words = turn_order.place_words("Wren", 3, is_npc=is_npc)
        assert words.startswith("Wren"), words
        if turn_order.key in UNSCORED_ORDERS:
            assert "initiative" not in words.lower(), (key, words)
        else:
            assert "place 3 in the initiative order" in words, (key, words)
