"""UTTAS "Perform a Reaction command", "Perform a readied action", "Surrender", "Take one for
the team", "Range Modifiers" as applied to attacks."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.core.events import ActionsSpent
from bot.engine.uttas.commands import (
    Attack,
    Move,
    React,
    Ready,
    ResolveReadied,
    ResolveSurrender,
    SetCondition,
)
from bot.engine.uttas.events import AttackResolved
from bot.errors import Conflict, NotAllowed, RuleViolation
from tests.engine.helpers import Fight


def trio(**bob: object) -> tuple[Fight, str, str, str]:
    """Ann (party, first), Bob (foes), Cat (Bob's ally)."""
    f = Fight()
    a = f.add("Ann", agility=14)
    b = f.add("Bob", npc=True, agility=12, **bob)  # type: ignore[arg-type]
    c = f.add("Cat", npc=True, agility=10)
    f.begin(dice=[])
    return f, a, b, c


def spent(f: Fight, cid: str) -> int:
    """Actions ``cid`` paid in the last command (whatever its turn refilled afterwards)."""
    return sum(
        e.amount for e in f.log[-1].events if isinstance(e, ActionsSpent) and e.combatant == cid
    )


def last_hit(f: Fight) -> AttackResolved:
    return next(e for e in f.log[-1].events if isinstance(e, AttackResolved))


def test_defend_reactions_use_the_table_numbers() -> None:
    f, a, b, _c = trio()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="block"), dice=[6, 6, 6, 3, 3, 3, 3])  # 28 vs 21+3; 4 dice
    hit = last_hit(f)
    assert hit.target_number == 24 and hit.armor == 1 and hit.defense == 3
    assert hit.health_damage == 3 and hit.stamina_damage == 12 - 3
    assert spent(f, b) == 1


def test_custom_martial_art_defence() -> None:
    f, a, b, _c = trio(martial_arts=[{"name": "Iron Wall", "maneuver": "block", "dodge_bonus": 5}])
    labels = [o.label for o in f.rules.reaction_options(f.state, b)] if f.state.pending else []
    assert labels == []
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert "Iron Wall" in [o.label for o in f.rules.reaction_options(f.state, b)]
    f.do(React(actor=b, choice="block", maneuver="iron wall"), dice=[4, 4, 4])
    assert last_hit(f).target_number == 26 and not last_hit(f).hit


def test_counterattack_needs_a_martial_art_or_triggered_power_and_cannot_be_reacted_to() -> None:
    f, a, b, _ = trio()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert "counter" not in [o.choice for o in f.rules.reaction_options(f.state, b)]
    with pytest.raises(RuleViolation, match="no counterattack"):
        f.do(React(actor=b, choice="counter", maneuver="Sword"))
    g, a, b, _c = trio(martial_arts=[{"name": "Riposte", "maneuver": "counter", "bonus_dice": 1}])
    g.do(Attack(actor=a, target=b, attack="Sword"))
    opts = {o.label: o for o in g.rules.reaction_options(g.state, b)}
    assert opts["Counter: Riposte"].stamina == 2
    # Ann's Sword misses (3 dice), Bob's Riposte hits (3 acc + 3 damage): no window for Ann.
    g.do(React(actor=b, choice="counter", maneuver="Riposte"), dice=[1, 1, 1, 6, 6, 6, 2, 2, 2])
    hits = [e for e in g.log[-1].events if isinstance(e, AttackResolved)]
    assert [(h.attacker, h.hit) for h in hits] == [(a, False), (b, True)]
    assert g.state.pending is None and g.c(a).stamina == 40 - 2 - 6
    assert spent(g, b) == 1


def test_triggered_power_counter_refused_with_a_disabled_head() -> None:
    f, a, b, _c = trio(
        powers=[{"name": "Zap Back", "active_points": 10, "damage_dice": 2, "triggered": True}]
    )
    f.do(SetCondition(target=b, condition="Disabled limb", limb="head"))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert "counter" not in [o.choice for o in f.rules.reaction_options(f.state, b)]
    with pytest.raises(RuleViolation, match="Triggered"):
        f.do(React(actor=b, choice="counter", maneuver="Zap Back"))


def test_stance_change_as_a_reaction_costs_an_action_and_applies_to_this_attack() -> None:
    f, a, b, _c = trio(stances=["Bracing"])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="stance", stance="Bracing"), dice=[6, 6, 6, 3, 3, 3, 3])
    hit = last_hit(f)
    assert f.c(b).stance == "Bracing" and spent(f, b) == 1
    assert hit.armor == 1 and hit.defense == 5


def test_no_reaction_against_an_attack_the_target_cannot_perceive() -> None:
    f, a, b, _c = trio()
    f.do(Attack(actor=a, target=b, attack="Sword", hidden=True), dice=[6, 6, 6, 1, 1, 1, 1])
    assert f.state.pending is None and last_hit(f).hit
    assert f.state.turn == b


def test_only_the_target_reacts_and_only_when_something_is_pending() -> None:
    f, a, b, c = trio()
    with pytest.raises(Conflict, match="no attack waiting"):
        f.do(React(actor=b, choice="evade"))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    with pytest.raises(NotAllowed, match="Only Bob"):
        f.do(React(actor=c, choice="evade"))
    with pytest.raises(Conflict, match="Waiting for Bob"):
        f.do(EndTurn(actor=a))


def test_take_one_for_the_team_hits_the_interceptor_automatically_without_defence() -> None:
    f, a, b, c = trio()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert [o.choice for o in f.rules.reaction_options(f.state, c)] == ["intercept"]
    assert f.rules.reaction_options(f.state, a) == []
    f.do(React(actor=c, choice="intercept"), dice=[4, 4, 4, 4])
    hit = last_hit(f)
    assert hit.target == c and hit.auto == "hit" and hit.accuracy is None
    assert f.c(c).stamina == 40 - 16 and f.c(b).stamina == 40 and f.c(c).actions_left == 3
    with pytest.raises(NotAllowed):
        g, a, b, c = trio()
        g.do(Attack(actor=a, target=b, attack="Sword"))
        g.do(React(actor=a, choice="intercept"))


def test_surrender_lets_the_attacker_complete_or_stop() -> None:
    f, a, b, c = trio()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="surrender"))
    assert f.state.pending is not None and f.state.pending.awaiting == "attacker"
    with pytest.raises(NotAllowed):
        f.do(ResolveSurrender(actor=b, complete=False))
    f.do(ResolveSurrender(actor=a, complete=False))
    assert f.state.pending is None and f.state.turn == c  # Ann's turn ended; Bob is helpless
    assert f.c(b).has("Surrendered") and f.c(b).stamina == 40
    g, a, b, c = trio()
    g.do(Attack(actor=a, target=b, attack="Sword"))
    g.do(React(actor=b, choice="surrender"))
    g.do(ResolveSurrender(actor=a, complete=True), dice=[1, 1, 1, 1])
    assert last_hit(g).auto == "hit" and g.c(b).stamina == 40 - 4


@pytest.mark.parametrize("complete", [False, True])
def test_the_last_of_a_side_surrendering_ends_the_fight_once_the_attacker_chose(
    complete: bool,
) -> None:
    """UTTAS: "the battle ends when one side of the conflict is either knocked out or
    surrenders" — also when the surrender was a reaction and the attacker decides after."""
    f = Fight()
    a = f.add("Ann", agility=14)
    b = f.add("Bob", npc=True, agility=12)
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="surrender"))
    assert f.state.phase == "active"  # Ann still chooses
    f.do(ResolveSurrender(actor=a, complete=complete), dice=[1, 1, 1, 1] if complete else [])
    assert f.state.phase == "finished" and f.state.winner == f.c(a).side


def test_range_one_increment_out_is_a_disadvantage_three_fail_and_melee_needs_reach() -> None:
    f, a, b, _c = trio()
    with pytest.raises(RuleViolation, match="Move closer"):
        f.do(Attack(actor=a, target=b, attack="Sword", range_m=4))
    g = Fight()
    x = g.add(
        "X",
        agility=12,
        weapons=[{"name": "Bow", "kind": "mechanical", "damage_dice": 2, "range_m": 10}],
    )
    y = g.add("Y")
    g.begin(dice=[])
    g.do(Attack(actor=x, target=y, attack="Bow", range_m=25))
    g.do(React(actor=y, choice="none"), dice=[1, 1])  # 2d6: one die off
    assert last_hit(g).disadvantages == ("1 range increment beyond 10 m",)
    g.do(EndTurn(actor=y))
    # Three increments out fails automatically, so the attack is refused before anything is
    # spent (a player is told, rather than losing an action on a certain miss).
    actions = g.c(x).actions_left
    with pytest.raises(RuleViolation, match="out of range: 80 m is 3 range increments beyond"):
        g.do(Attack(actor=x, target=y, attack="Bow", range_m=80))
    assert g.c(x).actions_left == actions


def test_readied_action_after_an_enemy_acts_costs_an_action_and_blocks_reactions() -> None:
    f, a, b, c = trio()
    f.do(Ready(actor=a, trigger="action", watch=b, plan="hit Bob when he swings"))
    assert f.c(a).readied is not None
    with pytest.raises(RuleViolation, match="waits for Bob"):
        f.do(ResolveReadied(actor=a, action=Attack(actor=a, target=b, attack="Sword")))
    f.do(Attack(actor=b, target=a, attack="Sword"))
    assert [o.choice for o in f.rules.reaction_options(f.state, a)] == ["none", "surrender"]
    f.do(React(actor=a, choice="none"), dice=[1, 1, 1])
    assert f.state.turn == c
    f.do(ResolveReadied(actor=a, action=Attack(actor=a, target=b, attack="Sword")))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 1, 1, 1, 1])
    assert last_hit(f).hit and f.c(a).readied is None
    # Readying was the turn's action, resolving one more, from the same pool (it refills as
    # Ann's next turn starts: rules version 2).
    assert f.c(a).actions_left == 2 and spent(f, a) == 0
    assert f.state.turn == c  # a readied action does not take anyone's turn


def test_readied_action_interrupting_movement_ends_it() -> None:
    f, a, b, _c = trio()
    f.do(Ready(actor=a, trigger="movement", watch=b))
    f.do(Move(actor=b, meters=2))
    f.do(
        ResolveReadied(
            actor=a, stops_movement=True, action=Attack(actor=a, target=b, attack="Sword")
        )
    )
    f.do(React(actor=b, choice="none"), dice=[1, 1, 1])
    with pytest.raises(RuleViolation, match="stopped"):
        f.do(Move(actor=b, meters=1))


def test_coordinated_attack_lands_at_the_same_instant() -> None:
    f = Fight()
    a = f.add("Ann", agility=14)
    d = f.add("Dan", agility=13, weapons=[{"name": "Spear", "damage_dice": 1}])
    b = f.add("Bob", npc=True, agility=12, stamina=20, body=20)
    f.begin(dice=[])
    f.do(EndTurn(actor=a))
    f.do(Ready(actor=d, trigger="coordinated", watch=a, attack="Spear", target=b))
    f.do(EndTurn(actor=b))
    f.do(Attack(actor=a, target=b, attack="Sword", with_readied=(d,)))
    # Both accuracy rolls happen before either damage lands: Bob, dropped by the pair, was not
    # Stunned/Unconscious for the second roll.
    f.do(React(actor=b, choice="none"), dice=[6] * 13)
    hits = [e for e in f.log[-1].events if isinstance(e, AttackResolved)]
    assert [h.attacker for h in hits] == [a, d] and all(h.hit for h in hits)
    assert hits[1].advantages == () and f.c(b).has("Unconscious")
    assert f.c(d).actions_left == 2 and f.c(d).readied is None  # readying + the attack


def test_reaction_deadline_follows_the_encounter_window() -> None:
    from datetime import timedelta

    from tests.engine.helpers import NOW

    f, a, b, _ = trio()
    assert f.rules.reaction_deadline(f.state) is None
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.rules.reaction_deadline(f.state) == NOW + timedelta(seconds=300)


def test_move_reaction_and_two_increments_take_two_dice_off() -> None:
    f, a, b, _ = trio()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="move"), dice=[4, 4, 4])  # 22 vs 21 + 2
    assert last_hit(f).target_number == 23 and not last_hit(f).hit
    g = Fight()
    x = g.add("X", agility=12, weapons=[{"name": "Bow", "kind": "mechanical", "range_m": 10}])
    y = g.add("Y")
    g.begin(dice=[])
    g.do(Attack(actor=x, target=y, attack="Bow", range_m=50))
    g.do(React(actor=y, choice="none"), dice=[1])  # 3d6 - 2d6 = 1 die
    hit = last_hit(g)
    assert (
        hit.accuracy is not None and len(hit.accuracy.dice) == 1 and hit.accuracy.disadvantage == 2
    )


def test_no_stance_change_in_response_to_a_counterattack() -> None:
    """A counterattack is itself a reaction, so it opens no reaction window for anyone."""
    f, a, b, _ = trio(martial_arts=[{"name": "Riposte", "maneuver": "counter"}])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(React(actor=b, choice="counter", maneuver="Riposte"), dice=[1, 1, 1, 1, 1, 1])
    assert f.state.pending is None
    assert f.rules.reaction_options(f.state, a) == []
    with pytest.raises(Conflict):
        f.do(React(actor=a, choice="stance", stance="Steady"))


def test_a_target_out_of_the_fight_has_no_choice_and_only_allies_are_asked() -> None:
    """UTTAS "Conditions": the unconscious cannot act — no "No reaction", no "Surrender" for
    them; an ally who can react may still take the hit, so the attack waits on the ally only."""
    f, a, b, c = trio()
    f.do(SetCondition(target=b, condition="Unconscious"))
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.state.pending is not None
    assert f.rules.reaction_options(f.state, b) == []
    assert [o.choice for o in f.rules.reaction_options(f.state, c)] == ["intercept"]


def test_an_attack_nobody_can_react_to_resolves_at_once() -> None:
    f, a, b, c = trio()
    f.do(EndTurn(actor=a))
    f.do(EndTurn(actor=b))
    f.do(Ready(actor=c, trigger="action", watch=a))  # waiting on it: Cat cannot react
    assert f.state.turn == a
    f.do(SetCondition(target=b, condition="Unconscious"))
    out = f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.state.pending is None and last_hit(f).target == b
    assert not any(e.kind == "attack_declared" for e in out.events)


def test_later_hits_after_the_target_drops_ask_only_allies() -> None:
    """A three-hit attack whose first hit knocks the target out: the second hit offers the
    target nothing (no Surrender to someone unconscious) and waits on the ally only."""
    f = Fight()
    a = f.add("Ann", agility=14, weapons=[{"name": "Sword", "damage_dice": 2, "max_hits": 3}])
    b = f.add("Bob", npc=True, agility=12, stamina=5, body=30)
    c = f.add("Cat", npc=True, agility=10)
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Sword", hits=2))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 6, 6, 6, 6])  # Bob (5 Stamina) is down
    assert f.c(b).has("Unconscious")
    assert f.state.pending is not None and f.state.pending.hit_index == 2
    assert f.rules.reaction_options(f.state, b) == []
    assert [o.choice for o in f.rules.reaction_options(f.state, c)] == ["intercept"]
