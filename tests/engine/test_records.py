"""UTTAS campaign records (issue 10, decision A): what outlasts a fight, and a character
joining as its record left it."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.uttas.commands import AddCombatant, SetCondition, SetVitals, Sprint
from bot.engine.uttas.record import UttasRecord
from bot.errors import RuleViolation
from tests.engine.helpers import RULES, Fight, sheet


def fought() -> tuple[Fight, str]:
    f = Fight()
    a = f.add("Ann", agility=14)
    f.add("Bob", npc=True)
    f.begin(dice=[])
    f.do(SetVitals(target=a, health_change=-6, stamina_change=-10))
    f.do(Sprint(actor=a, meters=4))
    f.do(SetCondition(target=a, condition="Entangled", lasts="quest"))
    f.do(SetCondition(target=a, condition="Prone"))
    return f, a


def test_only_what_outlasts_the_fight_is_kept() -> None:
    f, a = fought()
    record = RULES.record_of(f.c(a))
    assert (record.health, record.stamina) == (14, 30 - 1)  # a 4 m sprint costs 1 Stamina
    assert [e.name for e in record.effects] == ["Entangled"]  # Prone, Sprinting: this fight's
    assert record.breather_uses == 2


def test_a_character_joins_as_its_record_left_it_within_its_sheet() -> None:
    f, a = fought()
    record = RULES.record_of(f.c(a))
    g = Fight()
    g.do(AddCombatant(name="Ann", sheet=sheet("Ann", health=10), character_id=7, record=record))
    ann = g.state.combatants[0]
    assert ann.health == 10  # the sheet shrank since: never above its maximum
    assert ann.character_id == 7 and ann.has("Entangled")
    assert RULES.record_of(ann).stamina == record.stamina


def test_a_dead_character_is_not_seated() -> None:
    f, a = fought()
    f.do(SetCondition(target=a, condition="Dead"))
    record = RULES.record_of(f.c(a))
    with pytest.raises(RuleViolation, match="dead in this campaign"):
        Fight().do(AddCombatant(name="Ann", sheet=sheet("Ann"), record=record))


def test_a_record_and_its_lines() -> None:
    record = UttasRecord(health=3, stamina=-2, breather_uses=0)
    lines = RULES.record_lines(sheet("Ann"), record)
    assert lines[:2] == ["Health 3/20 · Stamina -2/40", "Breathers left: 0 of 2"]
    assert RULES.record_lines(sheet("Ann"), None)[-1] == "Fresh: no fight has left a mark yet."
    f, a = fought()
    f.do(EndTurn(actor=f.state.turn))
    assert "Conditions: Entangled (quest)" in RULES.record_lines(
        sheet("Ann"), RULES.record_of(f.c(a))
    )
