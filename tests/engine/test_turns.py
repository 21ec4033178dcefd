"""UTTAS "Combat" (initiative, the turn) and "Actions and Speed"."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import Begin, EndTurn, RemoveCombatant
from bot.engine.core.events import TurnSkipped
from bot.engine.uttas import rules
from bot.engine.uttas.commands import (
    ActivatePower,
    AddCombatant,
    Attack,
    ChangeStance,
    DropPower,
    Move,
    React,
    Sprint,
    Talk,
    UseSkill,
)
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.tables import default_tables
from bot.errors import Conflict, RuleViolation
from tests.engine.helpers import Fight, sheet


def duel(**bob: object) -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, **bob)  # type: ignore[arg-type]
    f.begin(dice=[])
    return f, a, b


# -- initiative ------------------------------------------------------------------------------
def test_initiative_by_agility_ties_roll_agility_dice_then_stable() -> None:
    f = Fight()
    ids = [f.add(n, agility=ag) for n, ag in (("A", 10), ("B", 14), ("C", 10), ("D", 10))]
    # A, C, D tie on 10 and roll 2d6: A 4, C 9, D 4 → C, then A and D tie again → join order.
    out = f.begin(dice=[2, 2, 4, 5, 1, 3])
    assert f.state.order == [ids[1], ids[2], ids[0], ids[3]]
    assert "Initiative: 1. B, 2. C, 3. A, 4. D" in out.text


def test_initiative_by_roll_ties_go_to_higher_agility_then_stable() -> None:
    f = Fight()
    a, b, c = f.add("A", agility=10), f.add("B", agility=15), f.add("C", agility=10)
    f.do(Begin(initiative_mode="roll"), dice=[3, 3, 2, 2, 2, 4, 1])  # A 6, B 6 (3d6), C 5
    assert f.state.order == [b, a, c]
    assert f.state.initiative_mode == "roll"


def test_begin_needs_two_combatants_and_only_once() -> None:
    f = Fight()
    f.add("A")
    with pytest.raises(RuleViolation):
        f.begin(dice=[])
    f.add("B", agility=12)
    f.begin(dice=[])
    with pytest.raises(Conflict):
        f.begin(dice=[])


def test_turn_is_an_id_so_removing_or_adding_never_skips_or_repeats() -> None:
    f = Fight()
    a, b, c, d = (f.add(n, agility=ag) for n, ag in (("A", 20), ("B", 15), ("C", 10), ("D", 5)))
    f.begin(dice=[])
    f.do(EndTurn(actor=a))
    assert f.state.turn == b
    f.do(RemoveCombatant(combatant=a))  # someone who already acted
    assert f.state.turn == b
    f.do(AddCombatant(name="E", sheet=sheet("E", agility=12)))  # joins between B and C
    e = f.state.combatants[-1].id
    assert f.state.order == [b, e, c, d]
    f.do(RemoveCombatant(combatant=b))  # the current one: the turn passes on, not skipped
    assert f.state.turn == e
    f.do(EndTurn(actor=e))
    assert f.state.turn == c


# -- the turn --------------------------------------------------------------------------------
def test_not_your_turn_message() -> None:
    f, a, b = duel()
    with pytest.raises(RuleViolation, match=r"It is Ann.s turn, not Bob.s\."):
        f.do(Attack(actor=b, target=a, attack="Sword"))


def test_first_stance_free_at_start_later_changes_cost_an_action_without_ending_turn() -> None:
    f, a, _b = duel()
    f.do(ChangeStance(actor=a, stance="Steady"))
    assert f.c(a).actions_left == 4
    f.do(ChangeStance(actor=a, stance="Mobile"))
    assert f.c(a).actions_left == 3 and f.state.turn == a
    with pytest.raises(RuleViolation, match="already"):
        f.do(ChangeStance(actor=a, stance="Mobile"))
    with pytest.raises(RuleViolation, match="does not know"):
        f.do(ChangeStance(actor=a, stance="Aggressive"))


def test_stance_after_moving_is_not_the_free_one() -> None:
    f, a, _b = duel()
    f.do(Move(actor=a, meters=2))
    f.do(ChangeStance(actor=a, stance="Steady"))
    assert f.c(a).actions_left == 3


def test_stance_off_turn_only_as_a_reaction() -> None:
    f, _a, b = duel()
    with pytest.raises(RuleViolation, match="reaction"):
        f.do(ChangeStance(actor=b, stance="Bracing"))


def test_half_move_is_free_and_split_moves_take_a_quarter_of_each() -> None:
    f, a, _b = duel()
    f.do(Move(actor=a, meters=3))
    f.do(Move(actor=a, meters=2))
    assert f.c(a).actions_left == 4 and f.state.turn == a
    with pytest.raises(RuleViolation, match="half"):
        f.do(Move(actor=a, meters=1))
    g = Fight()
    w = g.add("Willow", agility=12, movement={"run": 12, "warp": 8})
    g.add("X")
    g.begin(dice=[])
    g.do(Move(actor=w, meters=2))
    g.do(Move(actor=w, meters=2, mode="warp"))
    with pytest.raises(RuleViolation, match="quarter"):
        g.do(Move(actor=w, meters=2))


def test_full_move_is_the_action_rounds_odd_speed_down_and_costs_stamina() -> None:
    g = Fight()
    x = g.add("X", agility=12, movement={"run": 13})
    g.add("Y")
    g.begin(dice=[])
    with pytest.raises(RuleViolation, match="at most 12"):
        g.do(Move(actor=x, meters=13, full=True))
    g.do(Move(actor=x, meters=12, full=True))
    assert g.c(x).stamina == 40 - 1 and g.c(x).actions_left == 3  # refills as X's turn starts
    assert g.state.turn != x


def test_speech_is_free_up_to_25_words() -> None:
    f, a, b = duel()
    f.do(Talk(actor=b, text="Leave the tree alone!"))
    assert f.state.turn == a and f.c(b).actions_left == 4
    with pytest.raises(RuleViolation, match="25 words"):
        f.do(Talk(actor=a, text=" ".join(["word"] * 26)))


def test_one_action_ends_the_turn_and_a_multi_hit_attack_costs_one_per_hit() -> None:
    f, a, b = duel()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1])
    assert f.state.turn == b
    g = Fight()
    x = g.add("X", agility=12, weapons=[{"name": "Claws", "max_hits": 3}])
    y = g.add("Y")
    g.begin(dice=[])
    with pytest.raises(RuleViolation, match="at most 3"):
        g.do(Attack(actor=x, target=y, attack="Claws", hits=4))
    g.do(Attack(actor=x, target=y, attack="Claws", hits=3))
    assert g.c(x).actions_left == 1 and g.c(x).stamina == 40 - 6
    with pytest.raises(RuleViolation, match="needs 5 actions"):
        h = Fight()
        p = h.add("P", agility=12, weapons=[{"name": "Claws", "max_hits": 5}])
        q = h.add("Q")
        h.begin(dice=[])
        h.do(Attack(actor=p, target=q, attack="Claws", hits=5))


def test_speed_pool_spans_reactions_empty_means_staggered_then_a_skipped_turn() -> None:
    """Rules version 1's reading (the pool refills at the end of the own turn), kept for the
    encounters started with it (``speed_refill: turn_end``)."""
    f = Fight(UttasRuleset(version=1))
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, speed=2)
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="evade"), dice=[1, 1, 1])
    assert f.state.turn == b and f.c(b).actions_left == 1  # fewer for his own turn
    f.do(EndTurn(actor=b))
    assert f.c(b).actions_left == 2  # recovered at the end of his turn
    # Make Bob empty: a two-hit attack he evades twice (one action each).
    g = Fight(UttasRuleset(version=1))
    x = g.add("X", agility=12, weapons=[{"name": "Claws", "max_hits": 2}])
    y = g.add("Y", speed=2)
    g.begin(dice=[])
    g.do(Attack(actor=x, target=y, attack="Claws", hits=2))
    g.do(React(actor=y, choice="evade"), dice=[1, 1, 1])
    out = g.do(React(actor=y, choice="evade"), dice=[1, 1, 1, 1])  # Staggered already: +1d6
    gained = [e for e in out.events if getattr(e, "condition", None) == "Staggered"]
    assert [e.gained for e in gained] == [True, False]  # type: ignore[attr-defined]
    # Y's turn is skipped (spent everything), the pool refills at its end, Staggered ends.
    skipped = [e for e in g.log[-1].events if isinstance(e, TurnSkipped)]
    assert skipped and skipped[0].reason == "spent all actions"
    assert g.state.turn == x and g.c(y).actions_left == 2 and not g.c(y).has("Staggered")


def test_staggered_target_grants_advantage_and_cannot_react() -> None:
    g = Fight()
    x = g.add("X", agility=12, speed=6, weapons=[{"name": "Claws", "max_hits": 3}])
    y = g.add("Y", speed=2)
    g.begin(dice=[])
    g.do(Attack(actor=x, target=y, attack="Claws", hits=3))
    g.do(React(actor=y, choice="evade"), dice=[1, 1, 1])
    g.do(React(actor=y, choice="evade"), dice=[1, 1, 1, 1])
    assert g.rules.reaction_options(g.state, y)[0].choice == "none"
    assert [o.choice for o in g.rules.reaction_options(g.state, y)] == ["none", "surrender"]
    with pytest.raises(RuleViolation, match=r"Y has no actions left this round \(Staggered\)"):
        g.do(React(actor=y, choice="evade"))
    g.do(React(actor=y, choice="none"), dice=[6, 6, 6, 6, 1, 1])
    [hit] = [e for e in g.log[-1].events if isinstance(e, AttackResolved)]
    assert "Y is Staggered" in hit.advantages and len(hit.accuracy.dice) == 4  # type: ignore[union-attr]


def test_sprint_doubles_the_move_and_halves_dexterity_until_the_next_turn() -> None:
    f, a, b = duel()
    dodge = rules.derived_defence(f.c(a), "dodge", default_tables())
    with pytest.raises(RuleViolation, match="1 to 20"):
        f.do(Sprint(actor=a, meters=21))
    f.do(Sprint(actor=a, meters=20))
    assert f.c(a).has("Sprinting") and f.c(a).stamina == 38
    assert rules.derived_defence(f.c(a), "dodge", default_tables()) == dodge - 3
    f.do(EndTurn(actor=b))
    assert not f.c(a).has("Sprinting")


def test_use_a_skill_rolls_its_dice_against_a_difficulty() -> None:
    g = Fight()
    x = g.add("X", agility=12, skills={"Perception": 3})
    g.add("Y")
    g.begin(dice=[])
    out = g.do(UseSkill(actor=x, skill="perception", difficulty=12, advantage=1), dice=[3, 3, 3, 3])
    assert "success" in out.text and g.c(x).actions_left == 3 and g.state.turn != x


def test_maintained_power_holds_its_stamina_until_dropped() -> None:
    g = Fight()
    x = g.add(
        "X",
        agility=12,
        powers=[{"name": "Shield", "active_points": 15, "targets": None, "maintained": True}],
    )
    g.add("Y")
    g.begin(dice=[])
    g.do(ActivatePower(actor=x, power="Shield"))
    c = g.c(x)
    assert c.stamina == 34 and c.stamina_held == 6 and c.maintained[0].power == "Shield"
    g.do(DropPower(actor=x, power="shield"))
    assert g.c(x).stamina_held == 0
