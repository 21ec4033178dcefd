"""Untitled's own checks beside the shared contract suite (which runs its state machine through
``HARNESSES`` in ``tests/contract/test_ruleset_contract.py``): every ``/act`` action given the
detail it asks for builds a command, and the actions not built yet are refused by name."""

from __future__ import annotations

import pytest

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.engine.core.verbs import ActInput
from bot.errors import InvalidInput
from tests.contract.harness_untitled import UntitledHarness
from tests.engine.helpers import NOW

HARNESS = UntitledHarness()


def test_every_declared_action_builds_a_command() -> None:
    rules = get_ruleset("untitled")
    state = rules.new_encounter(name="Surface", seed=1)
    sheets = [HARNESS.example_sheet(), HARNESS.example_sheet()]
    for command in HARNESS.setup(sheets, [False, True]):
        state = rules.apply(state, command, RandomRoller(seed=1), NOW).state
    me = state.combatants[0]
    specs = rules.actions(state, me)
    assert 0 < len(specs) <= 25 and len({s.key for s in specs}) == len(specs)
    for spec in specs:
        assert len(spec.choice_name()) <= 100
        target = state.combatants[1].id if spec.target == "required" else None
        detail = "Sword" if spec.detail else None
        command = rules.act(state, me, ActInput(key=spec.key, target=target, detail=detail))
        assert command.kind in rules.command_kinds, spec.key
    for planned in ("flourish", "special-attack", "parry"):
        with pytest.raises(InvalidInput, match="does not play them yet"):
            rules.act(state, me, ActInput(key=planned))
    with pytest.raises(InvalidInput, match="no action"):
        rules.act(state, me, ActInput(key="no-such-action"))
