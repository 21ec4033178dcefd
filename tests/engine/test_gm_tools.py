"""Game Master tools in the engine: Health/Stamina, dice on the next roll, the turn order by hand,
settings. Every refusal leaves the state untouched (the Fight driver checks the input is never
mutated)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.engine.core.commands import ChangeSettings, MoveInOrder, NextTurn, SkipTurn
from bot.engine.core.events import TurnSkipped, TurnStarted
from bot.engine.uttas.commands import Attack, GrantDice, React, SetVitals
from bot.engine.uttas.events import AttackResolved, VitalsSet
from bot.errors import Conflict, InvalidInput, RuleViolation
from tests.engine.helpers import Fight


def trio() -> tuple[Fight, str, str, str]:
    f = Fight()
    a = f.add("Ann", agility=14)
    b = f.add("Bob", agility=12)
    c = f.add("Cat", npc=True, agility=10)
    f.begin(dice=[])
    return f, a, b, c


def test_set_and_change_vitals_capped_and_reported() -> None:
    f, a, _, _ = trio()
    out = f.do(SetVitals(target=a, health=15, stamina_change=-5))
    assert (f.c(a).health, f.c(a).stamina) == (15, 35)
    event = next(e for e in out.events if isinstance(e, VitalsSet))
    assert (event.health_before, event.stamina_before) == (20, 40)
    f.do(SetVitals(target=a, health_change=100, stamina=1000))
    assert (f.c(a).health, f.c(a).stamina) == (20, 40)  # capped at the sheet


def test_vitals_to_zero_knock_out_kill_and_wake() -> None:
    f, a, b, _ = trio()
    f.do(SetVitals(target=a, stamina=0))
    assert f.c(a).has("Unconscious") and f.c(a).has("Prone")
    f.do(SetVitals(target=a, stamina_change=3))
    assert not f.c(a).has("Unconscious")
    f.do(SetVitals(target=b, health=0))
    assert f.c(b).has("Dead")


def test_vitals_command_needs_one_value_per_pool() -> None:
    with pytest.raises(ValidationError):
        SetVitals(target="c1")
    with pytest.raises(ValidationError):
        SetVitals(target="c1", health=3, health_change=-1)


def test_gm_dice_on_next_roll_only_and_until_removed() -> None:
    f, a, _, c = trio()
    f.do(GrantDice(target=a, dice=2))
    # 3d6 + 2 Advantage dice = 5 dice; the roll hits (high), then the damage dice.
    f.do(Attack(actor=a, target=c, attack="Sword"))
    out = f.do(React(actor=c, choice="none"), dice=[6, 6, 6, 6, 6, 1, 1, 1, 1])
    hit = next(e for e in out.events if isinstance(e, AttackResolved))
    assert hit.accuracy is not None and len(hit.accuracy.dice) == 5
    assert any("Game Master" in why for why in hit.advantages)
    assert f.c(a).gm_next_roll == 0  # used up
    f.do(GrantDice(target=c, dice=-1, until_removed=True))
    assert f.c(c).gm_every_roll == -1
    f.do(GrantDice(target=c, dice=0))
    assert (f.c(c).gm_next_roll, f.c(c).gm_every_roll) == (0, 0)


def test_gm_dice_apply_when_the_attack_is_declared_and_kept_if_refused() -> None:
    f, _a, b, c = trio()
    f.do(GrantDice(target=b, dice=1))
    with pytest.raises(RuleViolation):  # not Bob's turn: nothing changes, dice are kept
        f.do(Attack(actor=b, target=c, attack="Sword"))
    assert f.c(b).gm_next_roll == 1


def test_next_turn_and_refused_while_an_attack_waits() -> None:
    f, a, b, _c = trio()
    assert f.state.turn == a
    out = f.do(NextTurn())
    assert f.state.turn == b
    assert any(isinstance(e, TurnStarted) and e.combatant == b for e in out.events)
    f.do(Attack(actor=b, target=a, attack="Sword"))  # Ann can react: pending
    assert f.state.pending is not None
    with pytest.raises(Conflict):
        f.do(NextTurn())
    f.do(React(actor=a, choice="none"), dice=[1, 1, 1])


def test_skip_now_and_skip_next_turn() -> None:
    f, a, b, c = trio()
    out = f.do(SkipTurn(target=a))  # Ann holds the turn: skipped now
    assert any(isinstance(e, TurnSkipped) for e in out.events)
    assert f.state.turn == b
    f.do(SkipTurn(target=c))  # Cat's turn comes next: skipped then
    assert f.c(c).skip_next_turn
    out = f.do(NextTurn())
    skipped = [e for e in out.events if isinstance(e, TurnSkipped)]
    assert [e.combatant for e in skipped] == [c]
    assert f.state.turn == a and f.state.round == 2
    assert not f.c(c).skip_next_turn


def test_move_in_order_keeps_the_turn_holder() -> None:
    f, a, b, c = trio()
    f.do(MoveInOrder(target=c, position=1))
    assert f.state.order == [c, a, b]
    assert f.state.turn == a
    f.do(NextTurn())
    assert f.state.turn == b
    with pytest.raises(InvalidInput):
        f.do(MoveInOrder(target=a, position=4))


def test_change_settings() -> None:
    f, *_ = trio()
    f.do(ChangeSettings(reaction_window_s=60, npcs_react=True, initiative_mode="roll"))
    assert f.state.settings.reaction_window_s == 60
    assert f.state.settings.npcs_react
    assert f.state.settings.hide_npc_numbers  # untouched
    assert f.state.initiative_mode == "roll"
    with pytest.raises(InvalidInput):
        f.do(ChangeSettings())


def test_gm_state_round_trips() -> None:
    f, a, _, _ = trio()
    f.do(GrantDice(target=a, dice=3, until_removed=True))
    f.do(SkipTurn(target=a))
    assert f.rules.load_state(f.state.model_dump_json()) == f.state


def test_an_attack_whose_attacker_drops_out_is_cancelled_and_the_turn_passes() -> None:
    """UTTAS "Conditions": a Dead or Unconscious creature takes no actions, so its waiting
    attack cannot complete — the GM killing the attacker mid-reaction cancels it."""
    f, a, b, _c = trio()
    assert f.state.turn == a
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.state.pending is not None
    out = f.do(SetVitals(target=a, health=0))
    assert f.state.pending is None
    assert "Ann's Sword is cancelled: Ann is dead." in out.text
    assert f.state.turn != a
    with pytest.raises(Conflict):
        f.do(React(actor=b, choice="evade"))


def test_an_attack_on_a_target_that_died_meanwhile_is_cancelled() -> None:
    f, a, b, _c = trio()
    f.do(Attack(actor=a, target=b, attack="Sword"))
    f.do(SetVitals(target=b, health=0))
    assert f.state.pending is None and f.c(b).has("Dead")
