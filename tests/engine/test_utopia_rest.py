"""Utopia rests and healing outside a fight (``utopia-actions.txt`` "Deep Breath": "to achieve
maximum stamina regeneration you must take a short rest"; what a rest restores: the game's
Foundry VTT system's ``rest()`` — SHP and Stamina to full, DHP unchanged — as the tables'
documented defaults)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.dice import ScriptedRoller
from bot.engine.utopia import commands as u
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.engine.utopia.state import UtopiaRecord
from bot.engine.utopia.tables import load_tables
from bot.errors import InvalidInput, RuleViolation
from tests.engine.helpers import NOW
from tests.engine.test_utopia_engine import RULES, fight, run, sheet


def hurt(dhp: int = 4) -> Any:
    """Between fights (as the campaign records seat them): Ana at SHP 2, DHP ``dhp``,
    Stamina 1; Bo unhurt."""
    s = RULES.new_encounter(name="Camp", seed=1)
    record = UtopiaRecord(shp=2, dhp=dhp, stamina=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=sheet(), record=record), []).state
    return run(s, u.AddCombatant(name="Bo", sheet=sheet()), []).state


def test_a_short_rest_restores_shp_and_stamina_not_dhp() -> None:
    s = hurt()
    command = RULES.rest_command("short")
    out = run(s, command, [])
    ana = out.state.get("c1")
    assert (ana.shp, ana.dhp, ana.stamina) == (10, 4, 8)
    assert any(
        "Ana takes a short rest: SHP 10/10, DHP 4/10, Stamina 8/8." in e.text for e in out.events
    )


def test_no_rest_during_a_fight() -> None:
    with pytest.raises(RuleViolation, match="Rest once the fight is over"):
        run(fight(), u.Rest(rest="short"), [])


def test_the_long_rest_and_weeks_of_healing_are_refused_by_default() -> None:
    """The text names only the short rest; neither it nor Foundry heals DHP over weeks."""
    with pytest.raises(InvalidInput, match="Utopia has no long rest"):
        RULES.rest_command("long")
    with pytest.raises(InvalidInput, match="no natural healing"):
        RULES.healing_command(2)
    s = hurt()
    with pytest.raises(RuleViolation, match="no long rest"):
        run(s, u.Rest(rest="long"), [])


def test_a_gm_may_give_a_long_rest_and_healing_in_the_tables() -> None:
    rules = UtopiaRuleset(
        load_tables(overrides={"rest": {"long": ["shp", "dhp", "stamina"], "dhp_per_week": 3}})
    )
    s = hurt()
    out = rules.apply(s, rules.healing_command(1), ScriptedRoller([]), NOW)
    assert out.state.get("c1").dhp == 7
    out = rules.apply(out.state, rules.rest_command("long"), ScriptedRoller([]), NOW)
    ana = out.state.get("c1")
    assert (ana.shp, ana.dhp, ana.stamina) == (10, 10, 8)


def test_a_rest_that_raises_dhp_lifts_down() -> None:
    rules = UtopiaRuleset(load_tables(overrides={"rest": {"dhp_per_week": 5}}))
    s = hurt(dhp=-2)
    assert s.get("c1").has("Down")
    out = rules.apply(s, rules.healing_command(1), ScriptedRoller([]), NOW)
    assert out.state.get("c1").dhp == 3 and not out.state.get("c1").has("Down")
