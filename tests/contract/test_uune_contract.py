"""The ruleset contract suite for Uune (issue 14), while Uune is still "planned" in the shipped
registry: the same state machine (:func:`tests.contract.test_ruleset_contract.machine_for`)
runs inside the test-only registry swap :func:`tests.rulesets.uune.playing_uune`. Once Uune is
registered, its harness moves into ``HARNESSES`` and this file goes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.engine.core.verbs import ActInput
from bot.errors import InvalidInput
from tests.contract.harness_uune import UUNE_KINDS, UuneHarness
from tests.contract.test_ruleset_contract import CONTRACT_SETTINGS, command_kinds, machine_for
from tests.engine.helpers import NOW
from tests.rulesets.uune import playing_uune

HARNESS = UuneHarness()


@pytest.fixture(autouse=True)
def _uune_registered() -> Iterator[None]:
    with playing_uune():
        yield


def test_the_harness_draws_every_command_kind() -> None:
    assert set(UUNE_KINDS) == command_kinds("uune") == get_ruleset("uune").command_kinds


def test_every_declared_action_builds_a_command_or_asks_for_its_option() -> None:
    rules = get_ruleset("uune")
    state = rules.new_encounter(name="Surface", seed=1)
    sheets = [HARNESS.example_sheet(), HARNESS.example_sheet()]
    for command in HARNESS.setup(sheets, [False, True]):
        state = rules.apply(state, command, RandomRoller(seed=1), NOW).state
    me = state.combatants[0]
    specs = rules.actions(state, me)
    assert 0 < len(specs) <= 25 and len({s.key for s in specs}) == len(specs)
    asks = {"downtime": "needs `detail:`", "passive": "needs `amount:`", "bond": "needs `detail:`"}
    for spec in specs:
        target = state.combatants[1].id if spec.target == "required" else None
        detail = {"npc-attack": "Cudgel"}.get(spec.key)
        given = ActInput(key=spec.key, target=target, detail=detail)
        if spec.key in asks:  # a required option: asked for by name
            with pytest.raises(InvalidInput, match=asks[spec.key]):
                rules.act(state, me, given)
            continue
        command = rules.act(state, me, given)
        assert command.kind in rules.command_kinds, spec.key
    with pytest.raises(InvalidInput, match="no action"):
        rules.act(state, me, ActInput(key="no-such-action"))


_machine = machine_for(HARNESS)
_machine.TestCase.settings = CONTRACT_SETTINGS
TestContract_uune = _machine.TestCase
