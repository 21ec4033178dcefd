"""Uune's rules version 2 (``UuneRuleset.rules_version``): a roll whose roller a GM tool
knocked out no longer waits on anyone. A fight started at version 1 keeps the older reading,
so its log replays as it was played (decision C)."""

from __future__ import annotations

from bot.engine.core.commands import MoveInOrder
from bot.engine.core.dice import ScriptedRoller
from bot.engine.uune import commands as u
from bot.engine.uune.ruleset import UuneRuleset
from bot.engine.uune.state import ApprovalDecision
from bot.errors import RuleViolation
from tests.engine.helpers import NOW
from tests.engine.test_uune_engine import RULES, Table

V1 = UuneRuleset(version=1)


def test_version_2_is_the_newest_and_version_1_is_still_known() -> None:
    assert RULES.version == UuneRuleset.rules_version == 2
    assert UuneRuleset.known_versions == (1, 2)


def test_an_approval_whose_roller_the_gm_knocks_out_is_called_off_in_v2_only() -> None:
    """ "Vitality": at zero "they become incapacitated and cannot take actions"."""
    t = Table()
    t.do(u.Attack(actor="c1", target="c3", resources=("Quickblade",)))
    assert isinstance(t.open, ApprovalDecision)
    out = u.SetVitals(target="c1", vitality=(0, False))
    new = RULES.apply(t.state, out, ScriptedRoller([]), NOW)
    assert new.state.decisions == [] and new.state.turn == "c2"
    assert any("is called off: Mira is Incapacitated" in e.text for e in new.events)
    old = V1.apply(t.state, out, ScriptedRoller([]), NOW)
    assert isinstance(old.state.pending, ApprovalDecision) and old.state.turn == "c1"


def test_an_npc_moved_ahead_of_the_pcs_is_refused_in_v2_only() -> None:
    """ "Conflict": the PCs take their turns, then the NPCs."""
    t = Table()
    move = MoveInOrder(target="c3", position=1)
    try:
        RULES.apply(t.state, move, ScriptedRoller([]), NOW)
    except RuleViolation as refused:
        assert "Thug may take places 3 to 4" in str(refused)
    else:
        raise AssertionError("the NPC was moved ahead of the PCs")
    assert V1.apply(t.state, move, ScriptedRoller([]), NOW).state.order[0] == "c3"
