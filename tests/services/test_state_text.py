"""The state's text built from kept parts (:mod:`bot.services.state_text`) is byte for byte what
``model_dump_json`` writes — on the states random fights of every ruleset go through (the
contract suite's machines, one state after another sharing unchanged combatants), and on the
layouts it must not rebuild."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from hypothesis.stateful import invariant

from bot.engine import get_ruleset
from bot.engine.core.dice import RandomRoller
from bot.engine.core.state import shallow_copy
from bot.services.state_text import _combatant_pieces, _layout, kept_texts, state_text
from tests.contract.harness import HARNESSES
from tests.contract.test_ruleset_contract import machine_for, machine_tests
from tests.engine.helpers import NOW


def fight(key: str, name: str = "Text", size: int = 4) -> Any:
    """A begun fight of ruleset ``key`` with ``size`` combatants (every other one an NPC)."""
    harness = HARNESSES[key]
    rules = get_ruleset(key)
    state = rules.new_encounter(name=name, seed=3)
    party = [harness.example_sheet() for _ in range(size)]
    for command in harness.setup(party, [i % 2 == 1 for i in range(size)]):
        state = rules.apply(state, command, RandomRoller(seed=1), NOW).state
    return state


def text_machine(key: str) -> Any:
    """The contract machine of ``key`` checking, after every step, the text of the state and of
    the state before it (whose parts' texts are kept)."""

    class TextMachine(machine_for(HARNESSES[key])):  # type: ignore[misc]
        before: Any = None

        @invariant()
        def text_is_model_dump_json(self) -> None:
            for state in (self.state, self.before):
                if state is not None:
                    assert state_text(state) == state.model_dump_json()
            self.before = self.state

    TextMachine.__name__ = f"Text_{key}"
    return TextMachine


globals().update(machine_tests("TestStateText", text_machine))


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_a_state_after_a_change_and_one_parsed_again_are_written_the_same(key: str) -> None:
    state = fight(key)
    assert state_text(state) == state.model_dump_json()
    # A change: the state and one combatant copied, the others shared (their texts kept).
    changed = shallow_copy(state)
    combatants = list(state.combatants)
    combatants[1] = combatants[1].clone()
    combatants[1].__dict__["join_seq"] = 99
    changed.__dict__["combatants"] = combatants
    assert state_text(changed) == changed.model_dump_json()
    assert state_text(state) == state.model_dump_json()  # the old one's texts are unchanged
    parsed = get_ruleset(key).load_state(state.model_dump_json())
    assert state_text(parsed) == parsed.model_dump_json() == state.model_dump_json()


@pytest.mark.parametrize(
    "name", ['Quote " and \\ back', 'Sneaky ,"combatants":[] name', "Ünïcödé ✓ 🎲"]
)
def test_names_that_look_like_json_are_written_the_same(name: str) -> None:
    state = fight("uttas", name=name)
    renamed = shallow_copy(state)
    combatants = [c.clone() for c in state.combatants]
    combatants[0].__dict__["name"] = name
    renamed.__dict__["combatants"] = combatants
    assert state_text(renamed) == renamed.model_dump_json()


def test_a_field_name_found_twice_writes_the_text_in_full() -> None:
    """A pool named like the field after the sheet (``,"health":`` twice in the combatant's
    text): where the sheet goes is not certain, so that combatant is written in full."""
    state = fight("uttas")
    odd = shallow_copy(state)
    first = state.combatants[0].clone()
    first.__dict__["pools"] = {"speed": 3, "health": 2, "combatants": 1}
    odd.__dict__["combatants"] = [first, *state.combatants[1:]]
    assert state_text(odd) == odd.model_dump_json()
    assert len(_combatant_pieces(first)) == 1


def test_no_combatants_and_a_combatant_of_another_class() -> None:
    empty = get_ruleset("uttas").new_encounter(name="Empty", seed=1)
    assert state_text(empty) == empty.model_dump_json()
    state = fight("uttas")
    kind = type(state.combatants[0])
    other = type("OtherCombatant", (kind,), {"__module__": __name__})
    odd = shallow_copy(state)
    stranger = other.model_validate(state.combatants[0].model_dump())
    odd.__dict__["combatants"] = [stranger, *state.combatants[1:]]
    assert state_text(odd) == odd.model_dump_json()


def test_kept_texts_go_with_their_objects() -> None:
    gc.collect()
    before = kept_texts()
    state = fight("uttas", size=5)
    state_text(state)
    assert kept_texts() > before
    del state
    gc.collect()
    assert kept_texts() <= before


@pytest.mark.parametrize("key", sorted(HARNESSES))
def test_every_rulesets_state_is_rebuilt_from_parts_not_written_in_full(key: str) -> None:
    """The checks above compare with ``model_dump_json``; here, that they compared the rebuilt
    text: each ruleset's state and combatants have a layout this rebuilds (else every state
    would quietly be written in full, as before)."""
    state = fight(key)
    assert _layout(type(state), "combatants") is not None
    for combatant in state.combatants:
        assert len(_combatant_pieces(combatant)) == 2, type(combatant)
