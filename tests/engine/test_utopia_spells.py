"""Utopia "Casting a spell" (``utopia-actions.txt``: "Casting a spell normally requires 3 Turn
Actions"), with scripted dice: 3 TA and the spell's Stamina, the range, the damage through the
attacks' defense decision (no weapon properties), and every refusal changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import SetDistance
from bot.engine.core.verbs import ActInput
from bot.engine.utopia import commands as u
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_utopia_engine import RULES, fight, run, sheet

SPELLS = [
    {"name": "Firebolt", "stamina": 2, "damage": "2d6", "damage_type": "heat", "range_m": 20},
    {"name": "Shocking Grasp", "stamina": 1, "damage": "1d8", "damage_type": "energy"},
    {"name": "Light", "stamina": 1, "description": "a glowing mote"},
]


def caster(**over: Any) -> Any:
    return sheet(spells=SPELLS, **over)


def test_casting_costs_3_ta_and_the_spells_stamina() -> None:
    """ "Casting a spell normally requires 3 Turn Actions"; the sheet's Stamina cost."""
    s = fight(a=caster())
    out = run(s, u.Cast(actor="c1", spell="light"), [])
    ana = out.state.get("c1")
    assert ana.pools["turn"] == 3 and ana.stamina == 8 - 1
    assert any("a glowing mote" in e.text for e in out.events)


def test_a_damaging_spell_goes_through_the_defense_decision() -> None:
    """The spell's damage: the target's defense against its type (innate 1) is subtracted,
    then the target may Block or Dodge, as against an attack."""
    s = fight(a=caster())
    s = run(s, u.Cast(actor="c1", spell="Firebolt", target="c2", range_m=15), [5, 4]).state
    p = s.pending
    assert p.stage == "after_damage" and p.damage == 9 - 1 and p.damage_type == "heat"
    assert not p.ignores_shp
    assert [o.choice for o in RULES.reaction_options(s, "c2")] == [
        "block",
        "dodge",
        "cover",
        "none",
    ]
    s = run(s, u.Defend(actor="c2", choice="block"), [1, 2]).state
    assert s.get("c2").shp == 10 - (8 - 3)
    assert s.get("c1").stamina == 8 - 2


def test_a_touch_spell_reaches_one_meter_or_an_engaged_creature() -> None:
    """Range 0 is touch: within 1 m (as weaponless), refused farther."""
    s = fight(a=caster())
    with pytest.raises(RuleViolation, match="out of Shocking Grasp's range"):
        run(s, u.Cast(actor="c1", spell="Shocking Grasp", target="c2", range_m=3), [])
    out = run(s, u.Cast(actor="c1", spell="Shocking Grasp", target="c2", range_m=1), [8])
    assert out.state.pending.damage == 8 - 1


def test_refusals_name_the_reason_and_change_nothing() -> None:
    """Unknown spell (the caster's listed), out of range, no distance, not enough Stamina or
    TA: refused, nothing spent."""
    s = fight(a=caster(stamina=1))
    cases: list[tuple[Any, type[Exception], str]] = [
        (u.Cast(actor="c1", spell="Meteor"), InvalidInput, "spells: Firebolt, Shocking Grasp"),
        (u.Cast(actor="c1", spell="Firebolt", target="c2", range_m=25), RuleViolation, "range"),
        (u.Cast(actor="c1", spell="Firebolt", target="c2"), InvalidInput, "amount:"),
        (u.Cast(actor="c1", spell="Firebolt"), InvalidInput, "target:"),
        (u.Cast(actor="c1", spell="Firebolt", target="c2", range_m=5), RuleViolation, "Stamina"),
    ]
    for command, error, words in cases:
        with pytest.raises(error, match=words):
            run(s, command, [])
    s = run(s, u.Cast(actor="c1", spell="Light"), []).state
    s = run(s, SetDistance(a="c1", b="c2", meters=5), []).state
    s = run(s, u.SetVitals(target="c1", stamina=(8, False)), []).state
    s = run(s, u.Cast(actor="c1", spell="Light"), []).state  # 6 TA - 3 - 3 = 0
    before = s.get("c1")
    with pytest.raises(RuleViolation, match="cannot cast Light"):
        run(s, u.Cast(actor="c1", spell="Light"), [])
    assert s.get("c1") == before


def test_off_turn_a_cast_needs_six_interrupt_actions() -> None:
    """Off its turn, 3 TA would cost 6 IA ("2 interrupt actions as if they were 1 turn
    action"): Bo's 2 IA cannot pay, and the refusal says so."""
    s = fight(b=caster())
    with pytest.raises(RuleViolation, match="cannot cast"):
        run(s, u.Cast(actor="c2", spell="Light"), [])


def test_act_cast_builds_the_command_and_needs_the_spell() -> None:
    s = fight(a=caster())
    me = s.get("c1")
    command = RULES.act(s, me, ActInput(key="cast", detail="Firebolt", target="c2", amount=12))
    assert command == u.Cast(actor="c1", spell="Firebolt", target="c2", range_m=12)
    with pytest.raises(InvalidInput, match="Cast needs the spell named in `detail:`"):
        RULES.act(s, me, ActInput(key="cast"))
