"""Which commands wait while a decision is open (``CommandBase.waits_for_decisions``): those
that move the fight on past the moment the decision waits at — the turn order, a turn's end or
start, time passing. Each is refused the same way, in the system's words, whoever gives it
(``Ruleset.require_decided``, checked by the services before every command applies). Before,
each handler opted in with its own ``require_no_pending`` call, and the GM's ``/gm order``
(``MoveInOrder``) and ``/gm roll-order`` never did.

Every command kind of every system is classified here: a new one fails
:func:`test_every_command_kind_is_classified` until it is put on one side or the other."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.command_union import discriminated_kinds, model_class
from bot.engine.core.commands import EndCombat, MoveInOrder, RemoveCombatant
from bot.engine.core.dice import RandomRoller
from bot.errors import Conflict, DomainError
from tests.engine.helpers import NOW
from tests.engine.rehearsed import begun

MOVES_ON = {"begin", "end_period", "move_in_order", "natural_healing", "next_turn", "rest"}
MOVES_ON |= {"skip_turn"}
WAITS: dict[str, set[str]] = {
    "uttas": MOVES_ON | {"start_chase", "end_chase"},
    "utopia": MOVES_ON | {"delay"},
    "untitled": MOVES_ON | {"hold", "roll_order"},
    "uune": MOVES_ON | {"time_passes", "choose_next"},
}
"""The kinds that wait for an open decision, per system."""
GOES_ON: dict[str, set[str]] = {
    "uttas": {
        *("activate_power", "add_combatant", "adjust_characteristic", "attack", "break_free"),
        *("breather", "change_settings", "disengage", "draw", "drop_power", "end_combat"),
        *("end_turn", "engage", "first_aid", "grant_dice", "grapple_contest", "hazard", "move"),
        *("react", "ready", "remove_combatant", "resolve_readied", "resolve_surrender"),
        *("set_condition", "set_distance", "set_vitals", "sprint", "stance", "stand"),
        *("stop_skill", "stow", "surrender", "talk", "use_item", "use_skill"),
    },
    "utopia": {
        *("add_combatant", "aim", "assist", "assist_defense", "attack", "cast"),
        *("change_settings", "deep_breath", "defend", "disengage", "end_combat", "end_turn"),
        *("engage", "escape", "exchange", "grant_favor", "grapple", "hold_action", "leap"),
        *("multi_attack", "remove_combatant", "scale", "set_condition", "set_distance"),
        *("set_vitals", "shake_off", "sheathe", "stealth", "test", "travel", "wear"),
    },
    "untitled": {
        *("add_combatant", "allow_combined", "attack", "change_settings", "check", "declare"),
        *("defend", "disengage", "draw", "end_combat", "end_turn", "engage", "move", "reload"),
        *("remove_combatant", "resume", "set_condition", "set_distance", "set_rule"),
        *("set_vitals", "stow"),
    },
    "uune": {
        *("add_combatant", "approve", "attack", "center", "change_settings", "claim_bond"),
        *("disengage", "downtime", "end_combat", "end_turn", "engage", "help", "insight"),
        *("level_up", "luck", "move", "npc_attack", "observe", "passive", "propose"),
        *("remove_combatant", "roll_action", "set_condition", "set_distance", "set_vitals"),
        *("spend", "stabilise", "staunch", "stealth", "take_harm"),
    },
}
"""The kinds that go on while a decision is open: a turn's own actions (their handlers refuse
what must wait, e.g. an attack), answers to the decision, and what the GM corrects in the
moment (numbers, conditions, dice, places, settings), who joins or leaves, the fight's end.
(``end_turn`` is refused by its handler, with the same words.)"""
SYSTEMS = sorted(WAITS)


def _kinds(key: str) -> dict[str, bool]:
    rules = get_ruleset(key)
    schemas = discriminated_kinds(rules.command_adapter.core_schema)
    return {kind: model_class(schema).waits_for_decisions for kind, schema in schemas.items()}


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_command_kind_is_classified(key: str) -> None:
    kinds = _kinds(key)
    unclassified = set(kinds) - WAITS[key] - GOES_ON[key]
    assert not unclassified, f"classify {sorted(unclassified)}: do they move the fight on?"
    assert {k for k, waits in kinds.items() if waits} == WAITS[key]


def _waiting(key: str) -> tuple[Any, Any]:
    """A fight of ``key``'s example cast, played by its rehearsal policy until a decision
    waits."""
    rules = get_ruleset(key)
    for seed in range(1, 40):
        roller = RandomRoller(random.Random(seed))
        state = begun(rules, key, roller)
        policy = rules.rehearsal(rules.rehearsal_policies[0])
        for _ in range(40):
            if state.decisions or state.phase != "active":
                break
            for command in policy.candidates(state):
                try:
                    state = rules.apply(state, command, roller, NOW).state
                except DomainError:
                    continue
                break
        if state.decisions and state.phase == "active":
            return rules, state
    raise AssertionError(f"no {key} fight reached a decision")


@pytest.mark.parametrize("key", SYSTEMS)
def test_moving_the_order_waits_for_the_decision_in_every_system(key: str) -> None:
    rules, state = _waiting(key)
    other = next(c.id for c in state.combatants if c.id != state.turn)
    with pytest.raises(Conflict, match=r"^Waiting for .+ first\. .*`/gm resolve` settles it"):
        rules.require_decided(state, MoveInOrder(target=other, position=1))
    # The way out and the GM's corrections are not held up.
    rules.require_decided(state, EndCombat())
    rules.require_decided(state, RemoveCombatant(combatant=other))
    # With nothing open, it goes on.
    settled = rules.apply(state, rules.lapse(state), RandomRoller(random.Random(1)), NOW).state
    if not settled.decisions:
        rules.require_decided(settled, MoveInOrder(target=other, position=1))
