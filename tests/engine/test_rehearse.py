"""``/rehearse``'s engine (issue 18): the UTTAS policy's choices, the Wilson interval, the
round cap, reproducibility with a seed, chunks that give the same figures in any order, and a
stored state never changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import RandomRoller, get_ruleset
from bot.engine.core.commands import Begin, EndTurn
from bot.engine.core.rehearse import (
    CHUNK,
    FIGHTS_MAX,
    Tally,
    chunks,
    play_chunk,
    rehearse,
    report,
    wilson_interval,
)
from bot.engine.uttas.commands import Attack, Breather, React
from bot.engine.uttas.ruleset import UttasRuleset
from bot.errors import DomainError, InvalidInput, RulesetNotImplemented
from tests.engine.helpers import NOW, RULES, Fight


def two_on_two() -> Fight:
    """Ann and Cat (party) against two NPC thugs; Ann acts first."""
    f = Fight(seed=11)
    f.add("Ann", agility=20)
    f.add("Cat", agility=12)
    f.add("Thug", npc=True, agility=5, health=14, stamina=24)
    f.add("Thug 2", npc=True, agility=4, health=14, stamina=24)
    f.begin()
    return f


def test_policy_attacks_the_most_hurt_enemy_first() -> None:
    f = two_on_two()
    ann, thug2 = f.state.find("Ann"), f.state.find("Thug 2")
    assert f.state.turn == ann.id
    hurt = thug2.model_copy(update={"health": 5})
    f.state = f.state.model_copy(
        update={"combatants": [hurt if c.id == thug2.id else c for c in f.state.combatants]}
    )
    first = next(iter(RULES.rehearsal("simple").candidates(f.state)))
    assert first == Attack(actor=ann.id, target=thug2.id, attack="Sword")


def test_policy_breathes_when_low_unless_reckless() -> None:
    f = two_on_two()
    ann = f.state.find("Ann")
    low = ann.model_copy(update={"stamina": 10})  # 10 of 40: a quarter
    f.state = f.state.model_copy(
        update={"combatants": [low if c.id == ann.id else c for c in f.state.combatants]}
    )
    assert next(iter(RULES.rehearsal("simple").candidates(f.state))) == Breather(actor=ann.id)
    reckless = next(iter(RULES.rehearsal("reckless").candidates(f.state)))
    assert isinstance(reckless, Attack)
    assert list(RULES.rehearsal("simple").candidates(f.state))[-1] == EndTurn(actor=ann.id)


def test_policy_takes_the_best_affordable_reaction() -> None:
    f = two_on_two()
    ann, thug = f.state.find("Ann"), f.state.find("Thug")
    f.do(Attack(actor=ann.id, target=thug.id, attack="Sword"))
    assert f.state.pending is not None
    simple = list(RULES.rehearsal("simple").candidates(f.state))
    assert simple[0] == React(actor=thug.id, choice="evade", decision=f.state.pending.id)
    assert simple[-1].choice == "none"  # type: ignore[attr-defined]
    reckless = list(RULES.rehearsal("reckless").candidates(f.state))
    assert [c.choice for c in reckless] == ["none"]  # type: ignore[attr-defined]
    # With one action left it keeps it for its own turn: no Evade.
    spent = f.state.find("Thug").model_copy(update={"pools": {"speed": 1}})
    f.state = f.state.model_copy(
        update={"combatants": [spent if c.id == thug.id else c for c in f.state.combatants]}
    )
    only = list(RULES.rehearsal("simple").candidates(f.state))
    assert [c.choice for c in only] == ["none"]  # type: ignore[attr-defined]


def test_a_seed_gives_the_same_figures_and_the_state_is_untouched() -> None:
    f = two_on_two()
    before = f.state.model_dump_json()
    one = rehearse(RULES, f.state, fights=150, seed=42)
    two = rehearse(RULES, f.state, fights=150, seed=42)
    other = rehearse(RULES, f.state, fights=150, seed=43)
    assert one == two
    assert one != other
    assert f.state.model_dump_json() == before
    assert one.fights == 150 and one.policy == "simple" and one.seed == 42
    assert sum(s.wins for s in one.sides) + one.draws == 150
    assert [s.side for s in one.sides] == ["party", "foes"]
    assert [d.name for d in one.downs] == ["Ann", "Cat"]  # the player characters only
    for s in one.sides:
        assert s.low <= s.chance <= s.high
    assert one.mean_rounds >= 1


def test_chunks_in_any_order_give_the_same_figures() -> None:
    f = two_on_two()
    whole = rehearse(RULES, f.state, fights=250, seed=5)
    assert chunks(250) == [(0, CHUNK), (1, CHUNK), (2, 50)]
    total = Tally()
    for index, n in reversed(chunks(250)):
        total.add(play_chunk(RULES, f.state, policy="simple", seed=5, index=index, fights=n))
    assert report(f.state, total, asked=250, policy="simple", seed=5) == whole


def test_round_cap_counts_draws() -> None:
    f = two_on_two()
    capped = rehearse(RULES, f.state, fights=40, seed=1, max_rounds=1)
    assert capped.draws > 0
    assert sum(s.wins for s in capped.sides) + capped.draws == 40
    assert capped.mean_rounds <= 1


def test_time_bound_stops_early_with_at_least_one_fight() -> None:
    f = two_on_two()
    ticks = iter(range(1_000_000))
    stopped = rehearse(
        RULES, f.state, fights=500, seed=1, time_limit_s=3, clock=lambda: float(next(ticks))
    )
    assert stopped.timed_out and 1 <= stopped.fights < 500
    assert sum(s.wins for s in stopped.sides) + stopped.draws == stopped.fights


def test_refusals() -> None:
    f = two_on_two()
    with pytest.raises(InvalidInput, match="between 1 and 10,000"):
        rehearse(RULES, f.state, fights=0)
    with pytest.raises(InvalidInput, match="between 1 and 10,000"):
        rehearse(RULES, f.state, fights=FIGHTS_MAX + 1)
    with pytest.raises(InvalidInput, match="no rehearsal policy 'cautious'"):
        rehearse(RULES, f.state, fights=1, policy="cautious")
    setup = Fight()
    setup.add("Ann")
    with pytest.raises(InvalidInput, match="no running fight"):
        rehearse(RULES, setup.state, fights=1)
    uune = get_ruleset("uune")
    with pytest.raises(RulesetNotImplemented, match="planned"):
        uune.rehearsal("simple")


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson_interval(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = wilson_interval(10, 10)
    assert round(low, 4) == 0.7225 and high == 1
    with pytest.raises(InvalidInput):
        wilson_interval(1, 0)


def test_the_fight_ends_when_the_last_foe_spends_its_last_stamina_on_an_attack() -> None:
    """UTTAS "Stamina Costs": the attack that took the attacker's last Stamina completes, then
    the attacker is out — and when it was the last of its side, the fight ends (it used to go
    on with nobody left to fight)."""
    f = Fight()
    ann = f.add("Ann", agility=20)
    bob = f.add("Bob", npc=True, stamina=2, agility=5)
    f.begin()
    f.do(EndTurn(actor=ann))
    f.do(Attack(actor=bob, target=ann, attack="Sword"))
    assert f.state.phase == "active" and f.c(bob).has("Unconscious")
    f.do(React(actor=ann, choice="none"))
    assert f.state.phase == "finished" and f.state.winner == "party"


def untitled_fight() -> tuple[Any, Any]:
    """Wren and Brask (party) against the bandit crossbowman and the hill giant, round 1."""
    rules = get_ruleset("untitled")
    sheets = Path(__file__).resolve().parents[2] / "data" / "sheets" / "untitled"
    roller = RandomRoller(seed=1)
    state = rules.new_encounter(name="Ford", seed=1)
    cast = (("Wren", "wren", False), ("Brask", "brask", False), ("Giant", "hill-giant", True))
    for name, stem, npc in cast:
        sheet = rules.parse_sheet(json.loads((sheets / f"{stem}.json").read_text()))
        state = rules.apply(
            state, rules.add_command(name=name, sheet=sheet, is_npc=npc), roller, NOW
        ).state
    return rules, rules.apply(state, Begin(), roller, NOW).state


def test_untitled_rehearses_with_the_shield_raised_and_the_most_hurt_attacked() -> None:
    rules, state = untitled_fight()
    before = state.model_dump_json()
    one = rehearse(rules, state, fights=60, seed=9)
    assert one == rehearse(rules, state, fights=60, seed=9)
    assert state.model_dump_json() == before
    assert sum(s.wins for s in one.sides) + one.draws == 60
    assert [d.name for d in one.downs] == ["Wren", "Brask"]
    policy = rules.rehearsal("simple")
    giant = state.find("Giant")
    while state.turn != giant.id:  # the Giant's turn: it goes for the most hurt of the two
        state = rules.apply(state, EndTurn(actor=state.turn), RandomRoller(seed=1), NOW).state
    brask = state.find("Brask")
    hurt = brask.model_copy(update={"health": 3})
    state = state.model_copy(
        update={"combatants": [hurt if c.id == brask.id else c for c in state.combatants]}
    )
    first = next(iter(policy.candidates(state)))
    assert (first.kind, first.target) == ("attack", brask.id)  # type: ignore[attr-defined]
    attacked = rules.apply(state, first, RandomRoller(seed=1), NOW).state
    assert attacked.pending is not None  # Brask carries a shield: the attack waits on it
    answer = next(iter(policy.candidates(attacked)))
    assert (answer.kind, answer.choice) == ("defend", "shield")  # type: ignore[attr-defined]


def test_utopia_policy_defends_with_the_bigger_dice_and_breathes_when_low() -> None:
    rules = get_ruleset("utopia")
    sheets = Path(__file__).resolve().parents[2] / "data" / "sheets" / "utopia"
    roller = RandomRoller(seed=2)
    state = rules.new_encounter(name="Ford", seed=2)
    for name, stem, npc in (("Vesna", "vesna", False), ("Hound", "stone-hound", True)):
        sheet = rules.parse_sheet(json.loads((sheets / f"{stem}.json").read_text()))
        add = rules.add_command(name=name, sheet=sheet, is_npc=npc)
        state = rules.apply(state, add, roller, NOW).state
    state = rules.apply(state, Begin(), roller, NOW).state
    simple, reckless = rules.rehearsal("simple"), rules.rehearsal("reckless")
    me = state.get(state.turn)
    low = me.model_copy(update={"stamina": 0})
    tired = state.model_copy(
        update={"combatants": [low if c.id == me.id else c for c in state.combatants]}
    )
    assert next(iter(simple.candidates(tired))).kind == "deep_breath"
    assert next(iter(reckless.candidates(tired))).kind == "attack"
    for command in simple.candidates(state):  # the turn holder attacks; damage waits on a defense
        try:
            state = rules.apply(state, command, roller, NOW).state
        except DomainError:
            continue
        break
    p = state.pending
    assert p is not None and p.kind == "damage"
    t, tables = state.get(p.target).sheet, rules.tables
    dodge = t.dodge_rating * (tables.dodge.sides + 1) >= t.block_rating * (tables.block.sides + 1)
    answers = [c.choice for c in simple.candidates(state) if c.kind == "defend"]  # type: ignore[attr-defined]
    assert answers == (["dodge", "block", "none"] if dodge else ["block", "dodge", "none"])
    assert [c.choice for c in reckless.candidates(state) if c.kind == "defend"] == ["none"]  # type: ignore[attr-defined]


class Silent:
    """A policy with no answer to any decision (the simple one on its own turns)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def candidates(self, state: Any) -> Any:
        return iter(()) if state.pending is not None else self.inner.candidates(state)

    def is_down(self, combatant: Any) -> bool:
        return bool(self.inner.is_down(combatant))


class SilentRules(UttasRuleset):
    def rehearsal(self, policy: str) -> Any:
        return Silent(super().rehearsal(policy))


def test_a_decision_the_policy_cannot_answer_is_settled_as_if_nobody_chose() -> None:
    f = two_on_two()
    rules = SilentRules()
    found = rehearse(rules, f.state, fights=20, seed=2)
    assert found.draws < 20  # fights went on: each waiting attack lapsed with no reaction
    assert sum(s.wins for s in found.sides) + found.draws == 20
