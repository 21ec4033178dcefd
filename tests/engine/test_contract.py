"""The ruleset contract every system implements, parametrized over the registered ones."""

from __future__ import annotations

import pytest

from bot.engine import RULESET_KEYS, EncounterState, Outcome, Ruleset, ScriptedRoller, get_ruleset
from bot.engine.core.commands import Begin
from bot.engine.registry import REGISTRY, Registry
from bot.engine.uttas.commands import AddCombatant, Attack
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import Conflict, InvalidInput, NotFound, RulesetNotImplemented, RuleViolation
from tests.engine.helpers import NOW, Fight, sheet

IMPLEMENTED = ["uttas"]


def test_ruleset_keys_are_the_four_systems() -> None:
    assert RULESET_KEYS == ("uttas", "utopia", "untitled", "uune")


def test_planned_rulesets_are_refused_clearly() -> None:
    """Every shipped system is registered now; the registry's "planned" refusal is checked on a
    registry of its own."""
    registry = Registry()
    registry.plan("zeta", "Zeta")
    with pytest.raises(RulesetNotImplemented, match="Zeta combat is planned but not available yet"):
        registry.get("zeta")


def test_every_shipped_system_is_registered() -> None:
    assert REGISTRY.implemented == RULESET_KEYS


def test_unknown_ruleset_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="Unknown ruleset"):
        get_ruleset("d&d")


@pytest.mark.parametrize("key", IMPLEMENTED)
def test_contract_shape(key: str) -> None:
    rules = get_ruleset(key)
    assert isinstance(rules, Ruleset)
    assert rules.key == key and rules.title
    state = rules.new_encounter(name="Bridge", seed=42)
    assert (state.ruleset, state.name, state.phase, state.round, state.turn, state.pending) == (
        key,
        "Bridge",
        "setup",
        0,
        None,
        None,
    )
    assert state.combatants == [] and state.seed == 42
    assert rules.load_state(state.model_dump_json()) == state
    assert "Stunned" in rules.conditions() and "Staggered" in rules.conditions()
    assert "Neutral" in rules.stances()


@pytest.mark.parametrize("key", IMPLEMENTED)
def test_load_state_refuses_garbage(key: str) -> None:
    with pytest.raises(InvalidInput):
        get_ruleset(key).load_state("{not json")


def test_state_round_trips_mid_fight_and_outcome_is_frozen() -> None:
    f = Fight()
    a, b = f.add("Ann", agility=12), f.add("Bob", npc=True)
    f.begin(dice=[])
    f.do(Attack(actor=a, target=b, attack="Sword"))
    assert f.state.pending is not None
    assert f.rules.load_state(f.state.model_dump_json()) == f.state
    out = f.log[-1]
    assert isinstance(out, Outcome)
    with pytest.raises(AttributeError):
        out.state = f.state  # type: ignore[misc]


def test_ids_are_stable_and_never_reused_names_unique() -> None:
    f = Fight()
    a = f.add("Ann")
    f.add("Bob")
    from bot.engine.core.commands import RemoveCombatant

    f.do(RemoveCombatant(combatant=a))
    c = f.add("Cat")
    assert c == "c3"
    with pytest.raises(Conflict, match="already"):
        f.add("cat")


def test_errors_leave_state_untouched() -> None:
    f = Fight()
    a, b = f.add("Ann", agility=12), f.add("Bob", npc=True)
    f.begin(dice=[])
    before = f.state
    with pytest.raises(RuleViolation, match="It is Ann's turn, not Bob's"):
        f.rules.apply(before, Attack(actor=b, target=a, attack="Sword"), ScriptedRoller([]), NOW)
    with pytest.raises(NotFound):
        f.rules.apply(before, Attack(actor=a, target=b, attack="Laser"), ScriptedRoller([]), NOW)
    assert f.state is before


def test_sheet_bounds_and_extra_fields_are_refused() -> None:
    rules = get_ruleset("uttas")
    with pytest.raises(InvalidInput):
        rules.parse_sheet({"name": "X", "strength": 101})
    with pytest.raises(InvalidInput):
        rules.parse_sheet({"name": "X", "mana": 3})
    with pytest.raises(InvalidInput):
        rules.parse_sheet({"name": "X" * 81})
    with pytest.raises(InvalidInput):
        rules.parse_sheet({"name": "X", "weapons": [{"name": "Axe", "damage_dice": 101}]})
    ok = rules.parse_sheet({"name": "X"})
    assert isinstance(ok, UttasSheet)


def test_commands_parse_from_mappings() -> None:
    rules = get_ruleset("uttas")
    cmd = rules.parse_command({"kind": "attack", "actor": "c1", "target": "c2", "attack": "Sword"})
    assert isinstance(cmd, Attack)
    assert isinstance(rules.parse_command({"kind": "begin"}), Begin)
    with pytest.raises(InvalidInput):
        rules.parse_command({"kind": "fireball"})
    with pytest.raises(InvalidInput):
        rules.parse_command(
            {"kind": "attack", "actor": "c1", "target": "c2", "attack": "x", "hits": 1000}
        )


def test_add_combatant_starts_with_full_pools_and_breathers() -> None:
    f = Fight()
    f.do(AddCombatant(name="Ann", sheet=sheet("Ann", body=12, speed=5), controller_id=99))
    c = f.state.combatants[0]
    assert (c.id, c.controller_id, c.is_npc, c.side) == ("c1", 99, False, "party")
    assert (c.health, c.stamina, c.actions_left, c.breather_uses, c.stance) == (
        20,
        40,
        5,
        2,
        "Neutral",
    )
    assert isinstance(f.state, EncounterState)
