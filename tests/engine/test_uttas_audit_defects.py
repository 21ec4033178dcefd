"""The defects the UTTAS rules audit found (``../shared/audits/uttas-rules-audit.md`` §1b,
R2–R5 and the questionable row 59), each against the text of ``uttas-gameplay.txt``."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import Attack, BreakFree, Move, React, SetVitals, Sprint, Talk
from bot.errors import RuleViolation
from tests.engine.helpers import Fight


def duel(**bob: object) -> tuple[Fight, str, str]:
    f = Fight()
    a = f.add("Ann", agility=12, movement={"run": 12})
    b = f.add("Bob", npc=True, **bob)  # type: ignore[arg-type]
    f.begin(dice=[])
    return f, a, b


def test_talk_counts_25_words_across_the_round_not_per_message() -> None:
    """ "Talk": "Characters can speak up to 25 words in a 6 second period" — a round (R2)."""
    f, a, b = duel()
    f.do(Talk(actor=a, text=" ".join(["word"] * 20)))
    with pytest.raises(RuleViolation, match="5 more words"):
        f.do(Talk(actor=a, text=" ".join(["word"] * 20)))
    f.do(Talk(actor=a, text="five more words right here"))
    with pytest.raises(RuleViolation, match="no more words"):
        f.do(Talk(actor=a, text="one"))
    f.do(Talk(actor=b, text=" ".join(["word"] * 25)))  # Bob has his own 25
    f.do(EndTurn(actor=a))
    f.do(EndTurn(actor=b))  # round 2: the words are back
    assert f.state.round == 2
    f.do(Talk(actor=a, text=" ".join(["word"] * 25)))


def test_a_sprint_after_a_half_move_stays_within_twice_the_move() -> None:
    """ "Full Move": a Sprint doubles the full move; a free half move already taken counts
    against it, as it does against a full Move (R3)."""
    f, a, _b = duel()
    f.do(Move(actor=a, meters=6))  # the free half move
    with pytest.raises(RuleViolation, match="1 to 18 m"):
        f.do(Sprint(actor=a, meters=24))
    f.do(Sprint(actor=a, meters=18))


def test_a_creature_held_in_a_grapple_cannot_react() -> None:
    """ "Grappled": "the only actions the grappled creature may take are those allowing him to
    either escape the grapple or take control of the grapple" — reactions are actions (R4)."""
    f = Fight()
    a = f.add("Ann", agility=12, weapons=[{"name": "Dagger", "damage_dice": 1, "light": True}])
    b = f.add("Bob")
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Grapple", limbs=("left arm", "right arm")))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 6])
    assert f.c(b).grappled_by == a
    f.do(EndTurn(actor=b))
    f.do(Attack(actor=a, target=b, attack="Dagger"))
    for choice in ("evade", "block", "counter"):
        with pytest.raises(RuleViolation, match="held in a grapple"):
            f.do(React(actor=b, choice=choice))  # type: ignore[arg-type]
    options = [o.choice for o in f.rules.reaction_options(f.state, b)]
    assert options == ["none", "surrender"]
    actions = f.c(b).actions_left
    f.do(React(actor=b, choice="none"))
    assert f.c(b).actions_left == actions


def test_a_disabled_limb_works_again_when_its_health_damage_is_healed_by_any_means() -> None:
    """ "Disabled Limb": the limb works again "when the Health damage suffered from the attack
    ... is healed" — by the GM's Health change too, not only natural healing (R5)."""
    f, a, b = duel()
    f.do(Attack(actor=a, target=b, attack="Sword", aimed_limb="left leg"))
    f.do(React(actor=b, choice="none"), dice=[6, 6, 1, 1, 1, 1])
    hurt = f.c(b)
    assert hurt.disabled_limbs and hurt.health < 20
    f.do(SetVitals(target=b, health_change=1))  # not yet all of it
    assert f.c(b).disabled_limbs or f.c(b).health == 20
    out = f.do(SetVitals(target=b, health=20))
    assert not f.c(b).disabled_limbs and not f.c(b).has("Disabled limb")
    assert "left leg works again" in out.text


def test_an_attack_paid_with_the_last_stamina_still_lands_then_the_attacker_drops() -> None:
    """ "Stamina Costs": Stamina is consumed "to complete the action", and "When a creature
    runs out of Stamina, they fall over Unconscious" — the attack completes, then the attacker
    is out (audit row 59: the paid attack used to vanish)."""
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, agility=10)
    f.add("Cal", side=f.c(a).side, agility=8)  # Ann's ally: the fight goes on without her
    f.begin(dice=[])
    spent = f.state.get(a).model_copy(update={"stamina": 2})  # a Sword swing costs 2
    f.state = f.state.model_copy(
        update={"combatants": [spent if c.id == a else c for c in f.state.combatants]}
    )
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.c(a).has("Unconscious")
    assert f.state.pending is not None, "the paid attack waits for Bob's reaction"
    out = f.do(React(actor=b, choice="none"), dice=[6, 6, 6, 3, 3, 3, 3])
    assert "hits" in out.text.casefold() and f.c(b).health < 20
    assert f.state.turn != a  # Ann is out: her turn passed on


def test_a_surrender_to_an_attacker_who_collapsed_paying_for_the_swing_stops_the_attack() -> None:
    """ "Surrender": the attacker "can either complete their attack or stop" — an attacker who
    fell Unconscious paying for the swing cannot choose, so the attack stops, as when nobody
    chooses; nobody waits on a decision the fallen attacker would have to make (found by the
    random-fight property test, seed 228361)."""
    f = Fight()
    a = f.add("Ann", agility=12)
    b = f.add("Bob", npc=True, agility=10)
    f.add("Cal", side=f.c(a).side, agility=8)
    f.begin(dice=[])
    spent = f.state.get(a).model_copy(update={"stamina": 2})
    f.state = f.state.model_copy(
        update={"combatants": [spent if c.id == a else c for c in f.state.combatants]}
    )
    f.do(Attack(actor=a, target=b, attack="Sword"))
    out = f.do(React(actor=b, choice="surrender"), dice=[])
    assert "Ann is down and cannot complete the attack: it stops" in out.text
    assert f.state.decisions == [] and f.c(b).health == 20 and f.state.turn != a


def speed3() -> tuple[Fight, str, str]:
    f = Fight()
    x = f.add("X", agility=12, speed=3, weapons=[{"name": "Claws", "max_hits": 3}])
    y = f.add("Y", stamina=400, health=400, weapons=[{"name": "Claws", "max_hits": 3}])
    f.begin(dice=[])
    return f, x, y


def test_emptying_the_pool_on_ones_own_turn_costs_the_next_turn() -> None:
    """ "Actions and Speed": "If a character uses all of their available actions, they don't get
    to act on their next turn" — spending them on one's own turn too (audit R1a; rules version
    2: the pool refills at the start of the own turn, not at its end)."""
    f, x, y = speed3()
    f.do(Attack(actor=x, target=y, attack="Claws", hits=3))
    for _ in range(3):
        f.do(React(actor=y, choice="none"), dice=[1, 1, 1])
    assert f.c(x).actions_left == 0 and f.c(x).has("Staggered")
    assert f.state.turn == y
    out = f.do(EndTurn(actor=y))
    skipped = [e for e in out.events if getattr(e, "reason", "") == "spent all actions"]
    assert skipped and skipped[0].combatant == x  # type: ignore[attr-defined]
    # The pool refilled at the end of the skipped turn; Staggered is over.
    assert f.c(x).actions_left == 3 and not f.c(x).has("Staggered")
    assert f.state.turn == y and f.state.round == 2


def test_the_turn_and_the_reactions_until_the_next_turn_share_one_pool_of_speed() -> None:
    """ "Actions and Speed": "a number of actions equal to their Speed across an entire round"
    — a Speed-3 combatant that makes a 3-hit attack cannot also Evade three hits before its
    next turn (audit R1b: it used to take 6 actions in one round)."""
    f, x, y = speed3()
    f.do(Attack(actor=x, target=y, attack="Claws", hits=2))  # 2 of X's 3 actions
    f.do(React(actor=y, choice="none"), dice=[1, 1, 1])
    f.do(React(actor=y, choice="none"), dice=[1, 1, 1])
    assert f.state.turn == y and f.c(x).actions_left == 1
    f.do(Attack(actor=y, target=x, attack="Claws", hits=2))
    f.do(React(actor=x, choice="evade"))  # X's last action
    with pytest.raises(RuleViolation, match="no reaction is possible"):
        f.do(React(actor=x, choice="evade"))
    assert f.c(x).actions_left == 0


def test_an_encounter_keeps_the_speed_reading_it_started_with() -> None:
    """Rules frozen per encounter (issue 10, decision C): rules version 1 refilled the pool at
    the end of the own turn; an encounter that started with it plays so to its end, and the
    ``speed_refill`` table entry chooses a reading outright."""
    from bot.engine.uttas.ruleset import UttasRuleset
    from bot.engine.uttas.tables import load_tables

    old = UttasRuleset(version=1)
    assert old.economy.refill == "turn_end"  # type: ignore[attr-defined]
    thawed = UttasRuleset.thawed(old.frozen())
    assert thawed.version == 1 and thawed.economy.refill == "turn_end"  # type: ignore[attr-defined]
    new = UttasRuleset()
    assert new.version == UttasRuleset.rules_version and new.economy.refill == "turn_start"  # type: ignore[attr-defined]
    chosen = UttasRuleset(load_tables(overrides={"speed_refill": "turn_end"}))
    assert chosen.economy.refill == "turn_end"  # type: ignore[attr-defined]
    f = Fight(old)
    x = f.add("X", agility=12, speed=3, weapons=[{"name": "Claws", "max_hits": 3}])
    y = f.add("Y", stamina=400, health=400)
    f.begin(dice=[])
    f.do(Attack(actor=x, target=y, attack="Claws", hits=3))
    for _ in range(3):
        f.do(React(actor=y, choice="none"), dice=[1, 1, 1])
    assert f.c(x).actions_left == 3 and not f.c(x).has("Staggered")  # version 1's reading


def test_a_skill_check_outside_a_fight_needs_no_turn_and_no_action() -> None:
    """Issue 11, "Checks outside a fight": before a fight begins or after it ended a skill
    check (an investigation, a Perception check) is rolled without a turn; in a fight it is
    still the turn's action."""
    from bot.engine.core.commands import EndCombat
    from bot.engine.uttas.commands import UseSkill

    f = Fight()
    x = f.add("X", agility=12, skills={"Perception": 3})
    f.add("Y", agility=10)
    out = f.do(UseSkill(actor=x, skill="Perception", difficulty=9), dice=[3, 3, 3])
    assert "success" in out.text and f.state.phase == "setup"
    f.begin(dice=[])
    f.do(EndCombat())
    out = f.do(UseSkill(actor=x, skill="Perception", difficulty=12), dice=[1, 2, 3])
    assert "failure" in out.text and f.c(x).actions_left == 4


def test_breaking_out_of_an_entangle_breaks_half_of_it_per_attempt() -> None:
    """ "Chase Scenes in Action": the arsonist "attempts to break out of the Entangle and breaks
    down half of it" — each attempt (an action) breaks one of its two parts; the second frees
    him (issue 11, "Bindings"; ``extra_conditions.Entangled.break_attempts``)."""
    snare = {
        "name": "Snare",
        "active_points": 20,
        "targets": "dodge",
        "damage_dice": 0,
        "range_m": 30,
        "inflicts": ["Entangled"],
    }
    f = Fight()
    w = f.add("Willow", agility=14, powers=[snare])
    a = f.add("Arsonist", npc=True, agility=10, stamina=200)
    f.begin(dice=[])
    f.do(EndTurn(actor=w))
    with pytest.raises(RuleViolation, match="bound by nothing"):
        f.do(BreakFree(actor=a))
    f.do(EndTurn(actor=a))
    f.do(Attack(actor=w, target=a, attack="Snare"))
    f.do(React(actor=a, choice="none"), dice=[6, 6, 6])
    assert f.c(a).effect("Entangled").level == 2
    out = f.do(BreakFree(actor=a))
    assert f.c(a).has("Entangled") and f.c(a).effect("Entangled").level == 1
    assert "Arsonist is now Entangled" in out.text
    f.do(EndTurn(actor=w))
    out = f.do(BreakFree(actor=a))
    assert not f.c(a).has("Entangled") and "no longer Entangled" in out.text
