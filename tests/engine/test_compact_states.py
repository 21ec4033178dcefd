"""Compact parsed states (issue 15, "Memory"): a state parsed from its stored JSON shares what is
the same in every encounter — each model class's fields set, empty lists and dicts, repeated
strings — and still dumps, compares, copies and plays exactly as the state it was parsed from."""

from __future__ import annotations

import copy
import random

import pytest

from bot.engine import RandomRoller, get_ruleset
from bot.engine.core.commands import Begin, EndTurn
from bot.engine.core.compact import EMPTY_DICT, EMPTY_LIST, AllFields
from bot.engine.uttas.commands import AddCombatant, Attack, React
from tests.engine.helpers import NOW, sheet


def stored_fight() -> str:
    """A running UTTAS fight (three combatants, an attack waiting for its reaction), as the
    database keeps it."""
    rules = get_ruleset("uttas")
    state = rules.new_encounter(name="Ambush", seed=7)
    roller = RandomRoller(random.Random(7))
    for name, npc in (("Willow", False), ("Thug", True), ("Thug 2", True)):
        command = AddCombatant(name=name, sheet=sheet(name), controller_id=1, is_npc=npc)
        state = rules.apply(state, command, roller, NOW).state
    state = rules.apply(state, Begin(), roller, NOW).state
    me = state.current
    assert me is not None
    foe = next(c for c in state.combatants if c.side != me.side)
    attack = Attack(actor=me.id, target=foe.id, attack="Sword")
    state = rules.apply(state, attack, roller, NOW).state
    assert state.pending is not None
    return state.model_dump_json()


def test_a_parsed_state_dumps_to_the_text_it_was_parsed_from_and_equals_the_plain_parse() -> None:
    rules = get_ruleset("uttas")
    text = stored_fight()
    state = rules.load_state(text)
    plain = rules.state_model.model_validate_json(text)
    assert state.model_dump_json() == text
    assert state == plain
    assert state.model_dump() == plain.model_dump()


def test_two_parsed_states_share_fields_sets_empty_containers_and_strings() -> None:
    rules = get_ruleset("uttas")
    text = stored_fight()
    first, second = rules.load_state(text), rules.load_state(text)
    a, b = first.combatants[0], second.combatants[0]
    assert a is not b
    assert type(a.__pydantic_fields_set__) is AllFields
    assert a.__pydantic_fields_set__ is b.__pydantic_fields_set__
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    assert a.effects is b.effects is EMPTY_LIST
    assert a.characteristic_mods is b.characteristic_mods is EMPTY_DICT
    assert a.name is b.name and a.side is b.side and a.id is b.id
    assert first.order[0] is second.order[0]
    assert next(iter(a.pools)) is next(iter(b.pools))  # dict keys too
    # what differs per encounter is each one's own
    assert a.pools is not b.pools and first.combatants is not second.combatants


def test_the_shared_parts_refuse_changes_in_place() -> None:
    state = get_ruleset("uttas").load_state(stored_fight())
    fighter = state.combatants[0]
    with pytest.raises(TypeError, match="never changed in place"):
        fighter.effects.append("x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="never changed in place"):
        fighter.characteristic_mods["body"] = 1
    with pytest.raises(TypeError, match="never changed in place"):
        fighter.dropped += ["Sword"]
    with pytest.raises(TypeError, match="never changed in place"):
        fighter.__pydantic_fields_set__.discard("health")
    with pytest.raises(TypeError, match="never changed in place"):
        fighter.__pydantic_fields_set__.add("not a field")
    assert fighter.effects == [] and fighter.characteristic_mods == {}


def test_copies_of_a_parsed_state_can_be_changed_without_touching_it() -> None:
    state = get_ruleset("uttas").load_state(stored_fight())
    before = state.model_dump_json()
    fighter = state.combatants[0]
    clone = fighter.clone()
    clone.effects.append(None)  # type: ignore[arg-type]
    clone.characteristic_mods["body"] = 2
    clone.health = 1  # assignment adds a name the shared fields set already holds
    copied = fighter.model_copy(update={"health": 2})
    deep = copy.deepcopy(state)
    deep.combatants[0].effects.append(None)  # type: ignore[arg-type]
    deep.combatants[0].characteristic_mods["ego"] = 3
    again = copy.copy(fighter.dropped)
    again.append("Sword")
    assert (clone.health, copied.health, again) == (1, 2, ["Sword"])
    assert state.model_dump_json() == before


def test_a_parsed_state_plays_on_exactly_as_the_state_it_was_parsed_from() -> None:
    """The engine gives the same states and events from a compact state as from a plain parse,
    command after command (attack, reaction, end of turn)."""
    rules = get_ruleset("uttas")
    text = stored_fight()
    compacted, plain = rules.load_state(text), rules.state_model.model_validate_json(text)
    for _ in range(6):
        pending = plain.pending
        if pending is not None:
            command = React(actor=pending.target, choice="evade")
        else:
            assert plain.turn is not None
            command = EndTurn(actor=plain.turn)
        one = rules.apply(compacted, command, RandomRoller(random.Random(3)), NOW)
        two = rules.apply(plain, command, RandomRoller(random.Random(3)), NOW)
        assert one.state.model_dump_json() == two.state.model_dump_json()
        assert [e.model_dump() for e in one.events] == [e.model_dump() for e in two.events]
        compacted, plain = one.state, two.state
