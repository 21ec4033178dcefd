"""Untitled's rules version 2 (``UntitledRuleset.rules_version``): an attack waiting on the
shield choice of a defender a GM tool put Down is cancelled. A fight started at version 1
keeps the older reading, so its log replays as it was played (decision C)."""

from __future__ import annotations

from bot.engine.core.dice import ScriptedRoller
from bot.engine.untitled import commands as u
from bot.engine.untitled.ruleset import UntitledRuleset
from bot.engine.untitled.state import ShieldDecision
from tests.contract.harness_untitled import untitled_sheet
from tests.engine.helpers import NOW
from tests.engine.test_untitled_engine import RULES, Fight

V1 = UntitledRuleset(version=1)


def test_version_3_is_the_newest_and_versions_1_and_2_are_still_known() -> None:
    assert RULES.version == UntitledRuleset.rules_version == 3
    assert UntitledRuleset.known_versions == (1, 2, 3)


def test_an_attack_on_a_defender_put_down_meanwhile_is_cancelled_in_v2_only() -> None:
    f = Fight(
        u.AddCombatant(name="A", sheet=untitled_sheet(20, 3, False, None, False)),
        u.AddCombatant(name="B", sheet=untitled_sheet(20, 3, True, None, False), side="foes"),
        u.AddCombatant(name="C", sheet=untitled_sheet(20, 3, False, None, False), side="foes"),
    )
    a, b = f.c("A").id, f.c("B").id
    f.do(u.Attack(actor=a, target=b))
    assert isinstance(f.state.pending, ShieldDecision)
    down = u.SetVitals(target=b, health=(0, False))
    new = RULES.apply(f.state, down, ScriptedRoller([]), NOW)
    assert new.state.decisions == []
    assert any("attack with" in e.text and "is cancelled: B is Down" in e.text for e in new.events)
    old = V1.apply(f.state, down, ScriptedRoller([]), NOW)
    assert isinstance(old.state.pending, ShieldDecision)
