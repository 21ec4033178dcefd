"""Utopia's optional interleaved turn order (``utopia-actions.txt`` "Turn order": "each creature
goes after each action …, and turn round ends only after each creature expended it's TA"), with
scripted dice, and the readings ``bot/engine/utopia/interleave.py`` documents for TA, IA,
Hold, Aim, open guard, Take Cover, run-ups and choosing to go later."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import (
    Begin,
    ChangeSettings,
    DelayTurn,
    EndTurn,
    NextTurn,
    RemoveCombatant,
)
from bot.engine.utopia import commands as u
from bot.engine.uttas.ruleset import UttasRuleset
from bot.errors import NotAllowed, RuleViolation
from tests.engine.helpers import NOW
from tests.engine.helpers import sheet as uttas_sheet
from tests.engine.test_utopia_engine import RULES, run, sheet


def interleaved(a: Any = None, b: Any = None) -> Any:
    """Ana (c1) and Bo (c2, an NPC), the order interleaved in setup; Speed tests: Ana first."""
    s = RULES.new_encounter(name="Duel", seed=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=a or sheet()), []).state
    s = run(s, u.AddCombatant(name="Bo", sheet=b or sheet(), is_npc=True), []).state
    s = run(s, ChangeSettings(interleaved=True), []).state
    return run(s, Begin(), [6, 6, 6, 1, 1, 1]).state


def ta(s: Any, cid: str) -> int:
    return int(s.get(cid).pools["turn"])


def texts(out: Any) -> list[str]:
    return [e.text for e in out.events]


# -- the setting ---------------------------------------------------------------------------------
def test_the_gm_turns_it_on_in_setup_and_off_again() -> None:
    s = RULES.new_encounter(name="Duel", seed=1)
    out = run(s, ChangeSettings(interleaved=True), [])
    assert out.state.settings.interleaved
    assert "Settings changed: interleaved order: on" in texts(out)
    assert not run(out.state, ChangeSettings(interleaved=False), []).state.settings.interleaved


def test_refused_once_the_fight_has_begun_and_nothing_changes() -> None:
    s = interleaved()
    with pytest.raises(RuleViolation, match="before the fight begins"):
        run(s, ChangeSettings(interleaved=False), [])
    assert s.settings.interleaved


def test_uttas_has_no_interleaved_order() -> None:
    """UTTAS plays whole turns in order: the setting is refused, by name."""
    rules = UttasRuleset()
    s = rules.new_encounter(name="Firewood", seed=1)
    with pytest.raises(NotAllowed, match="no interleaved turn order"):
        rules.apply(s, ChangeSettings(interleaved=True), _NoDice(), NOW)
    s = rules.apply(s, rules.add_command(name="W", sheet=uttas_sheet("W")), _NoDice(), NOW)
    assert not s.state.settings.interleaved


# -- one action at a time ------------------------------------------------------------------------
def test_each_paid_action_passes_the_turn_and_ta_refill_once_per_round() -> None:
    """ "each creature goes after each action": Ana's Deep Breath (1 TA) passes to Bo; Bo's
    passes back to Ana, who has the 5 TA she kept — no refill until the round ends."""
    s = interleaved()
    assert s.turn == "c1" and s.round == 1
    out = run(s, u.DeepBreath(actor="c1"), [])
    s = out.state
    assert s.turn == "c2" and (ta(s, "c1"), ta(s, "c2")) == (5, 6)
    assert "Ana's action is done (5 TA left this round)." in texts(out)
    assert "Round 1: Bo acts (6 TA left)." in texts(out)
    out = run(s, u.DeepBreath(actor="c2"), [])
    assert out.state.turn == "c1" and ta(out.state, "c1") == 5
    assert "Round 1: Ana acts (5 TA left)." in texts(out)


def test_the_round_ends_when_every_creature_spent_or_gave_up_its_ta() -> None:
    """ "turn round ends only after each creature expended it's TA": Ana ends her turn (gives
    up 6 TA); Bo acts alone until his 6 TA are spent; round 2 refills both, Ana first."""
    s = interleaved()
    out = run(s, EndTurn(actor="c1"), [])
    s = out.state
    assert "Ana is done for the round (gives up 6 TA)." in texts(out)
    assert s.turn == "c2" and ta(s, "c1") == 0
    for left in (5, 4, 3, 2, 1):
        s = run(s, u.DeepBreath(actor="c2"), []).state
        assert s.turn == "c2" and ta(s, "c2") == left and s.round == 1
    out = run(s, u.DeepBreath(actor="c2"), [])
    s = out.state
    assert s.round == 2 and s.turn == "c1" and (ta(s, "c1"), ta(s, "c2")) == (6, 6)
    assert "Round 2 begins." in texts(out) and "Round 2: Ana acts (6 TA left)." in texts(out)


def test_the_gm_ending_a_go_gives_up_the_round() -> None:
    s = run(interleaved(), NextTurn(), []).state
    assert s.turn == "c2" and ta(s, "c1") == 0


def test_the_turn_passes_after_the_defense_is_chosen() -> None:
    """An attack waits for the target's defense; then the attacker's go ends."""
    s = interleaved()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    assert s.turn == "c1" and s.pending is not None
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    assert s.turn == "c2" and ta(s, "c1") == 4


def test_acting_off_the_go_is_paid_in_ia_and_refused_by_name_when_short() -> None:
    """Off its go a creature pays with IA ("Interchanging Actions"), never with the TA it keeps
    for its next go; the refusal says whose action it is."""
    s = interleaved()
    with pytest.raises(RuleViolation, match=r"It is Ana's action, not Bo's \(interleaved"):
        run(s, u.Attack(actor="c2", target="c1", weapon="Maul", range_m=1), [])
    with pytest.raises(RuleViolation, match="It is Ana's turn, not Bo's"):
        run(s, EndTurn(actor="c2"), [])


# -- the readings ---------------------------------------------------------------------------------
def test_ia_reset_once_per_round_and_open_guard_lifts_at_the_next_go() -> None:
    """IA ("resets at the beginning of each other creature's turn") reset at the round's start
    only; the open guard ("until it's the next creature's turn") lifts when the next go
    starts."""
    s = interleaved()
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c1", choice="none"), []).state
    assert s.turn == "c1" and s.get("c2").pools["interrupt"] == 0 and s.get("c2").open_guard
    s = run(s, u.DeepBreath(actor="c1"), []).state
    assert s.turn == "c2" and not s.get("c2").open_guard
    assert s.get("c2").pools["interrupt"] == 0  # not reset by the go
    s = run(s, EndTurn(actor="c2"), []).state
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.round == 2 and s.get("c2").pools["interrupt"] == 2


def test_aim_waits_across_other_creatures_goes() -> None:
    """ "Aim": "If you take any actions after the Aim action" — a pass is not Ana's action."""
    s = interleaved()
    s = run(s, u.Aim(actor="c1"), []).state
    s = run(s, u.DeepBreath(actor="c2"), []).state
    assert s.turn == "c1" and s.get("c1").aim == 1
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Bow", range_m=20), [3, 3, 3])
    roll = next(e for e in out.events if e.kind == "attack_rolled").test
    assert len(roll.dice) == 3  # far: 1 disfavor, aim: 1 favor


def test_a_run_up_survives_the_pass_and_ends_with_the_round() -> None:
    """ "Leap": 2 m of travel "directly prior" — Travel and Leap are two goes apart."""
    s = interleaved()
    s = run(s, u.Travel(actor="c1", meters=2), []).state
    s = run(s, u.DeepBreath(actor="c2"), []).state
    out = run(s, u.Leap(actor="c1", meters=7), [])
    assert "Strength" in next(e for e in out.events if e.kind == "moved").text
    s = run(s, EndTurn(actor="c1"), []).state
    s = run(s, EndTurn(actor="c2"), []).state
    assert s.round == 2 and s.get("c1").run_up_m == 0


def test_cover_ends_with_the_go_it_was_taken_in() -> None:
    s = interleaved()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    s = run(s, u.Defend(actor="c2", choice="cover"), []).state
    assert s.get("c2").cover and s.turn == "c1"
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    assert s.turn == "c2" and not s.get("c2").cover


def test_a_hold_is_usable_next_round_and_lapses_after_it() -> None:
    """ "Hold Action": "depleted if not used by the creature's following turn" — a creature's
    turn is its round."""
    s = interleaved()
    s = run(s, u.HoldAction(actor="c1"), []).state
    assert s.get("c1").pools["held_new"] == 1 and ta(s, "c1") == 4
    s = run(s, EndTurn(actor="c2"), []).state
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.round == 2 and s.get("c1").pools["held"] == 1
    s = run(s, EndTurn(actor="c1"), []).state
    s = run(s, EndTurn(actor="c2"), []).state
    assert s.round == 3 and s.get("c1").pools["held"] == 0


def test_going_later_keeps_the_ta_for_the_go_at_the_new_place() -> None:
    s = interleaved()
    out = run(s, DelayTurn(actor="c1", after="c2"), [])
    s = out.state
    assert s.order == ["c2", "c1"] and s.turn == "c2" and ta(s, "c1") == 6
    s = run(s, u.DeepBreath(actor="c2"), []).state
    assert s.turn == "c1"


def test_without_the_setting_turns_are_whole_as_before() -> None:
    """With the setting off (the default) a paid action keeps the turn."""
    base = RULES.new_encounter(name="Duel", seed=1)
    base = run(base, u.AddCombatant(name="Ana", sheet=sheet()), []).state
    base = run(base, u.AddCombatant(name="Bo", sheet=sheet()), []).state
    base = run(base, Begin(), [6, 6, 6, 1, 1, 1]).state
    assert not base.settings.interleaved
    s = run(base, u.DeepBreath(actor="c1"), []).state
    assert s.turn == "c1" and ta(s, "c1") == 5
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.turn == "c2" and ta(s, "c1") == 0 and ta(s, "c2") == 6


class _NoDice:
    def roll(self, count: int, sides: int) -> list[int]:
        raise AssertionError("no dice here")


def test_removing_the_creature_whose_go_it_is_passes_on_to_the_next_round() -> None:
    """The others have given up their round: the creature leaving on its go does not get the
    go back (the next round starts), and the fight goes on."""
    s = RULES.new_encounter(name="Trio", seed=1)
    for name, npc in (("Ana", False), ("Bo", True), ("Cy", True)):
        s = run(s, u.AddCombatant(name=name, sheet=sheet(), is_npc=npc), []).state
    s = run(s, ChangeSettings(interleaved=True), []).state
    s = run(s, Begin(), [6, 6, 6, 3, 3, 3, 1, 1, 1]).state
    assert s.order == ["c1", "c2", "c3"]
    s = run(s, EndTurn(actor="c1"), []).state
    s = run(s, u.DeepBreath(actor="c2"), []).state
    s = run(s, EndTurn(actor="c3"), []).state
    assert s.turn == "c2"
    out = run(s, RemoveCombatant(combatant="c2"), [])
    assert out.state.phase == "active" and out.state.turn == "c1" and out.state.round == 2
