"""Utopia's rules version 2 changed how some actions play (``UtopiaRuleset.rules_version``); a
fight started at version 1 keeps the older reading, so its log replays with the dice it rolled
as it was played (decision C). Each test plays one command both ways from the same state."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import RemoveCombatant
from bot.engine.core.dice import ScriptedRoller
from bot.engine.utopia import commands as u
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_utopia_assist import trio
from tests.engine.test_utopia_engine import NOW, RULES, fight, run

V1 = UtopiaRuleset(version=1)


def run_v1(state: Any, command: Any, dice: list[int]) -> Any:
    roller = ScriptedRoller(dice)
    out = V1.apply(state, command, roller, NOW)
    assert roller.remaining == 0
    return out


def test_version_2_is_the_newest_and_version_1_is_still_known() -> None:
    assert RULES.version == UtopiaRuleset.rules_version == 2
    assert 1 in UtopiaRuleset.known_versions


def test_spent_turn_actions_are_made_up_with_interrupt_actions_on_the_own_turn_in_v1_only() -> None:
    """ "Interchanging Actions": 2 IA as 1 TA "when it's not your turn". Version 1 also did it
    on the creature's own turn (a seventh TA)."""
    s = fight()  # Ana's turn: 6 TA, 2 IA
    for _ in range(6):
        s = run(s, u.Aim(actor="c1"), []).state
    assert s.get("c1").pools["turn"] == 0

    with pytest.raises(RuleViolation, match="no turn actions left"):
        run(s, u.Aim(actor="c1"), [])
    old = run_v1(s, u.Aim(actor="c1"), []).state
    assert old.get("c1").pools["interrupt"] == 0  # 2 IA for the seventh TA


def test_what_costs_a_ta_or_an_ia_costs_the_ia_once_the_own_tas_are_spent_in_v2_only() -> None:
    """Breaking free is priced "1 TA or 1 IA" (the tables' escape costs): with Ana's TA spent,
    version 2 charges the IA; version 1 charged a TA, paid with 2 IA."""
    s = fight()
    tx_v2 = RULES._read(s)
    tx_v1 = V1._read(s)
    ana = s.get("c1")
    spent = ana.model_copy(update={"pools": {**ana.pools, "turn": 0}})
    assert tx_v2.either(spent, 1, 1).kind == "interrupt"
    assert tx_v1.either(spent, 1, 1).kind == "turn"
    assert tx_v2.either(ana, 1, 1).kind == tx_v1.either(ana, 1, 1).kind == "turn"


def test_a_leaver_takes_its_pledged_assists_in_v2_only() -> None:
    s = trio()  # Ana's turn; Cy pledges an Assist to her next test
    s = run(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    assert [p.helper for p in s.get("c1").pledges] == ["c3"]

    assert run(s, RemoveCombatant(combatant="c3"), []).state.get("c1").pledges == ()
    kept = run_v1(s, RemoveCombatant(combatant="c3"), []).state
    assert [p.helper for p in kept.get("c1").pledges] == ["c3"]
    # Either way a test skips the helper who left (version 1 refused the test before).
    tested = run_v1(kept, u.Test(actor="c1", score="dexterity"), [1, 1, 1])
    assert not any("assisted" in e.text for e in tested.events if e.kind == "tested")


def test_a_move_toward_oneself_is_refused_in_v2_only() -> None:
    s = fight()
    with pytest.raises(InvalidInput, match="toward themselves"):
        run(s, u.Travel(actor="c1", meters=1, toward="c1"), [])
    run_v1(s, u.Travel(actor="c1", meters=1, toward="c1"), [])
