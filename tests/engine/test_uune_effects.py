"""Uune's effects through the core's scoped effects, with scripted dice (Uune SRD "Effects",
"Scopes and Scoped Mechanics", "Effect: Grappled" … "Effect: Stimulated")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import get_ruleset
from bot.engine.core.commands import EndCombat, EndPeriod, EndTurn
from bot.engine.core.dice import ScriptedRoller
from bot.engine.uune import commands as u
from bot.engine.uune.state import SpendDecision, UuneRecord
from bot.errors import InvalidInput, RuleViolation
from tests.contract.harness_uune import MIRA
from tests.engine.helpers import NOW
from tests.engine.test_uune_engine import RULES, Table


def _vitality(t: Table, cid: str) -> int:
    return int(t.state.get(cid).health.now(RULES.tables))


def _next_round(t: Table) -> None:
    start = t.state.round
    while t.state.round == start:
        t.do(EndTurn(actor=str(t.state.turn)))


def test_an_effect_lasts_the_scene_by_default_and_ends_with_its_scope() -> None:
    """Every effect of the text has "Default scope: Scene": the GM's default ("until
    removed") is the scene, so ending the scene ends it; one given for a day outlasts the
    scene and ends with the day ("Scopes and Scoped Mechanics")."""
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Impared"))  # the text's spelling
    t.do(u.SetCondition(target="c2", condition="Intoxicated", lasts="day"))
    assert t.state.get("c1").effect("Impaired").scope == "scene"
    t.do(EndPeriod(period="scene"))
    assert t.state.get("c1").effect("Impaired") is None
    assert t.state.get("c2").effect("Intoxicated") is not None
    t.do(EndPeriod(period="day"))
    assert t.state.get("c2").effect("Intoxicated") is None


def test_the_gm_may_give_an_effect_some_rounds_or_take_it_off() -> None:
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Stimulated", lasts="rounds", rounds=1))
    _next_round(t)
    assert t.state.get("c1").effect("Stimulated") is None
    t.do(u.SetCondition(target="c2", condition="Grappled"))
    t.do(u.SetCondition(target="c2", condition="Grappled", present=False))
    assert t.state.get("c2").effect("Grappled") is None
    with pytest.raises(RuleViolation, match="not Grappled"):
        t.do(u.SetCondition(target="c2", condition="Grappled", present=False))
    with pytest.raises(InvalidInput, match="no effect called 'Sleepy'"):
        t.do(u.SetCondition(target="c2", condition="Sleepy"))
    with pytest.raises(RuleViolation, match="follows vitality"):
        t.do(u.SetCondition(target="c2", condition="Incapacitated"))
    with pytest.raises(InvalidInput, match="rounds"):
        t.do(u.SetCondition(target="c2", condition="Stunned", lasts="rounds"))


def test_grappled_cannot_move_and_a_successful_attack_escapes() -> None:
    """ "Effect: Grappled": "You are grabbed and cannot move. You may attempt to make an attack
    to escape." (The bot: an attack that succeeds — heavy or lethal — frees the creature.)"""
    t = Table(5, 6, 6)
    t.do(u.SetCondition(target="c1", condition="Grappled"))
    for changes in (True, False):
        with pytest.raises(RuleViolation, match="Grappled and cannot move"):
            t.do(u.Move(actor="c1", changes_position=changes))
    t.do(u.Attack(actor="c1", target="c3", resources=("Quickblade", "Street fencing")))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))  # the Thug could spoil it
    assert t.state.get("c1").effect("Grappled") is None
    assert t.said("Mira is no longer Grappled (escaped with a successful attack)")


def test_stunned_levels_lose_consecutive_turns() -> None:
    """ "Effect: Stunned": "lose your next turn. You lose consecutive actions if you have
    multiple levels of this effect." Each level is one turn, skipped by itself."""
    t = Table()
    t.do(u.SetCondition(target="c2", condition="Stunned"))
    t.do(u.SetCondition(target="c2", condition="Stunned"))  # stacks: level 2
    assert t.state.get("c2").effect("Stunned").level == 2
    t.do(EndTurn(actor="c1"))
    assert t.state.turn == "c3" and t.said("Tobin spends the turn stunned")
    assert t.state.get("c2").effect("Stunned").level == 1
    _next_round(t)
    t.do(EndTurn(actor="c1"))
    assert t.state.turn == "c3" and t.state.get("c2").effect("Stunned") is None
    _next_round(t)
    t.do(EndTurn(actor="c1"))
    assert t.state.turn == "c2"


def test_intoxicated_rerolls_6s_and_impaired_needs_one_more_hit() -> None:
    """ "Effect: Intoxicated": "must reroll all 6s"; "Effect: Impared": "All actions require
    +1 hits"."""
    t = Table(6, 2)
    t.do(u.SetCondition(target="c1", condition="Intoxicated"))
    t.do(u.RollAction(actor="c1", action="aim", difficulty=1))
    if isinstance(t.open, SpendDecision):
        t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    assert t.said("Mira's aim fails (0 of 1 hits)")
    _next_round(t)
    t.do(u.SetCondition(target="c1", condition="Intoxicated", present=False))
    t.do(u.SetCondition(target="c1", condition="Impaired"))
    t.more(5)
    t.do(u.RollAction(actor="c1", action="aim again", difficulty=1))
    if isinstance(t.open, SpendDecision):
        t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    assert t.said("Mira's aim again fails (1 of 2 hits)")


def test_bleeding_takes_10_at_each_rounds_start_per_level_until_staunched() -> None:
    """ "Effect: Bleeding": "lose 10 vitality at the start of each round … spend an action (no
    roll) to staunch the wound"."""
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Bleeding"))
    _next_round(t)
    assert _vitality(t, "c1") == 90 and t.said("Mira bleeds: 10 vitality lost")
    t.do(u.SetCondition(target="c1", condition="Bleeding"))  # a second level
    t.do(EndTurn(actor="c1"))
    _next_round(t)
    assert _vitality(t, "c1") == 70
    t.do(u.Staunch(actor="c1"))
    _next_round(t)
    assert _vitality(t, "c1") == 70


def test_stimulated_raises_the_focus_maximum() -> None:
    """ "Effect: Stimulated": "Your maximum focus increases by 1" — Center then gains 3."""
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Stimulated"))
    t.do(u.Center(actor="c1"))
    assert t.state.get("c1").focus == 3
    t.do(u.SetCondition(target="c1", condition="Stimulated", present=False))
    assert t.state.get("c1").focus == 2  # back within the maximum


def test_focus_falls_to_the_maximum_whenever_stimulated_ends() -> None:
    """ "Effect: Stimulated" raises the maximum focus; when it ends — its rounds run out, its
    owner's turn ends, a level is taken off — focus above the maximum falls to it (it stayed
    at 3 of 2 when the turn cycle ended the effect)."""
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Stimulated", lasts="rounds", rounds=1))
    t.do(u.Center(actor="c1"))
    assert t.state.get("c1").focus == 3
    _next_round(t)
    assert t.state.get("c1").effect("Stimulated") is None and t.state.get("c1").focus == 2
    t = Table()
    t.do(u.SetCondition(target="c2", condition="Stimulated", lasts="end_of_next_turn"))
    t.do(u.SetCondition(target="c2", condition="Stimulated", lasts="end_of_next_turn"))
    t.do(EndTurn(actor="c1"))
    t.do(u.Center(actor="c2"))  # Tobin: focus 4 of 2 + 2 levels; his turn ends
    stimulated = t.state.get("c2").effect("Stimulated")
    assert stimulated is None or t.state.get("c2").focus <= 2 + stimulated.level
    _next_round(t)
    _next_round(t)
    assert t.state.get("c2").effect("Stimulated") is None and t.state.get("c2").focus == 2


def test_effects_beyond_the_scene_outlast_the_fight_in_the_record() -> None:
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Impaired", lasts="quest"))
    t.do(u.SetCondition(target="c1", condition="Bleeding"))
    t.do(EndCombat())
    kept = RULES.record_of(t.state.get("c1")).effects
    assert [e.name for e in kept] == ["Impaired"]


def test_bleeding_outside_a_conflict_takes_10_a_minute_per_level() -> None:
    """ "Effect: Bleeding": "If outside of a conflict, this happens every out of game minute" —
    the GM says the minutes (``/gm time minutes``); in a conflict it is refused (the round's
    start takes it there)."""
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Bleeding", lasts="day"))
    t.do(u.SetCondition(target="c1", condition="Bleeding", lasts="day"))  # level 2
    t.do(u.SetCondition(target="c3", condition="Bleeding", lasts="day"))
    with pytest.raises(RuleViolation, match="outside a conflict only"):
        t.do(u.TimePasses(minutes=1))
    t.do(EndCombat())
    t.do(u.TimePasses(minutes=3))
    assert _vitality(t, "c1") == 40  # 2 levels × 3 minutes × 10
    assert _vitality(t, "c3") == 30  # the thug's 60, 1 level × 3 minutes
    assert t.said("3 minutes pass: Mira bleeds 60 vitality (vitality 40/100).")
    t.do(u.Staunch(actor="c1"))  # an action outside a conflict: no turn needed
    t.do(u.TimePasses(minutes=1))
    assert _vitality(t, "c1") == 40 and _vitality(t, "c3") == 20
    with pytest.raises(InvalidInput, match="counts nothing by the minute"):
        get_ruleset("uttas").minutes_command(1)


def _seated_again(record: UuneRecord, sheet: Any) -> UuneRecord:
    """The record a character joining the next fight with ``record`` takes from it."""
    fresh = RULES.new_encounter(name="Next", seed=0)
    join = RULES.add_command(name="Mira", sheet=sheet, character_id=1, record=record)
    seated = RULES.apply(fresh, join, ScriptedRoller([]), NOW).state
    return RULES.record_of(seated.combatants[0])


def test_focus_raised_by_a_scene_long_stimulated_falls_to_the_maximum_in_the_record() -> None:
    """Regression (the contract's ``campaign_records_round_trip_and_carry_over``): Mira,
    Stimulated for the scene, centered to 3 focus; the record kept 3 focus but not the
    effect, so she joined the next fight with 2 and the records differed. The record is the
    character as the scene's end leaves it: focus falls to the maximum without Stimulated."""
    t = Table()
    t.do(u.SetCondition(target="c1", condition="Stimulated"))  # the scene
    t.do(u.Center(actor="c1"))
    assert t.state.get("c1").focus == 3
    record = RULES.record_of(t.state.get("c1"))
    assert record.focus == 2 and record.effects == ()
    assert RULES.parse_record(record.model_dump_json()) == record
    assert _seated_again(record, MIRA) == record


@settings(max_examples=60, deadline=None)
@given(
    given_scopes=st.lists(
        st.tuples(st.sampled_from(["scene", "day", "quest"]), st.integers(1, 3)), max_size=3
    ),
    focus=st.integers(0, 5),
)
def test_a_record_reads_back_and_joins_the_next_fight_the_same(
    given_scopes: list[tuple[Any, int]], focus: int
) -> None:
    """The class of the bug above: whatever Stimulated levels and scopes a character holds and
    whatever focus it has within its maximum, its record round-trips through JSON and a
    character joining with it takes the same record from the next fight."""
    t = Table()
    for scope, levels in given_scopes:
        for _ in range(levels):
            t.do(u.SetCondition(target="c1", condition="Stimulated", lasts=scope))
    stimulated = t.state.get("c1").effect("Stimulated")
    cap = MIRA.focus_max(RULES.tables, stimulated.level if stimulated else 0)
    t.do(u.SetVitals(target="c1", focus=(min(focus, cap), False)))
    record = RULES.record_of(t.state.get("c1"))
    assert RULES.parse_record(record.model_dump_json()) == record
    assert _seated_again(record, MIRA) == record
