"""The ruleset contract suite for Untitled (issue 13), while Untitled is still "planned" in the
shipped registry: the same state machine (:func:`tests.contract.test_ruleset_contract.machine_for`)
runs inside the test-only registry swap :func:`tests.rulesets.untitled.playing_untitled`. Once
Untitled is registered, its harness moves into ``HARNESSES`` and this file's swap goes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.engine.core.verbs import ActInput
from bot.errors import InvalidInput
from tests.contract.harness_untitled import UNTITLED_KINDS, UntitledHarness
from tests.contract.test_ruleset_contract import CONTRACT_SETTINGS, command_kinds, machine_for
from tests.engine.helpers import NOW
from tests.rulesets.untitled import playing_untitled

HARNESS = UntitledHarness()


@pytest.fixture(autouse=True)
def _untitled_registered() -> Iterator[None]:
    with playing_untitled():
        yield


def test_the_harness_draws_every_command_kind() -> None:
    assert set(UNTITLED_KINDS) == command_kinds("untitled") == get_ruleset("untitled").command_kinds


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


_machine = machine_for(HARNESS)  # type: ignore[arg-type]
_machine.TestCase.settings = CONTRACT_SETTINGS
TestContract_untitled = _machine.TestCase
