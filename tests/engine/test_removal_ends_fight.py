"""Removing the combatant whose turn it is, when its leaving ends the fight: every system's
rules version from UTTAS 3, Utopia 5, Untitled 3, Uune 4 on ends the fight at once, and no
turn passes on; the versions before began the next turn first (its start announced in a fight
that was over) and still do, so their logs replay as they were played
(:meth:`bot.engine.core.tx.CoreTx.leave_fight`)."""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import NextTurn, RemoveCombatant
from bot.engine.core.dice import RandomRoller
from bot.engine.core.events import CombatantLeft, CombatEnded, TurnStarted
from tests.engine.helpers import NOW
from tests.engine.rehearsed import begun

NEWEST = {"uttas": 7, "utopia": 8, "untitled": 5, "uune": 7}
FIRST = {"uttas": 3, "utopia": 5, "untitled": 3, "uune": 4}
"""The version from which each system ends the fight at once, and refuses a second skip
(``Tx.LATER_READINGS``: ``end_first``, ``one_skip``)."""
CASTS = {
    "uttas": (("Willow", "willow"), ("Thug", "thug"), ("Brawler", "brawler")),
    "utopia": (("Vesna", "vesna"), ("Hound", "stone-hound"), ("Brannoc", "brannoc")),
    "untitled": (("Wren", "wren"), ("Giant", "hill-giant"), ("Brask", "brask")),
    "uune": (("Mira", "mira"), ("Thug", "dock-thug"), ("Tobin", "tobin")),
}


def _rules(key: str, version: int) -> Any:
    data = json.loads(get_ruleset(key).frozen())
    data["version"] = version
    return get_ruleset(key, frozen=json.dumps(data))


def _begun(rules: Any, key: str, fighters: int) -> Any:
    """A begun fight of ``fighters`` of the system's cast: the second is the GM's NPC (the
    other side), the rest the players'."""
    cast = [(name, stem, index == 1) for index, (name, stem) in enumerate(CASTS[key][:fighters])]
    return begun(rules, key, RandomRoller(random.Random(7)), cast=cast)


def _remove_turn_holder(rules: Any, state: Any) -> Any:
    return rules.apply(
        state, RemoveCombatant(combatant=state.turn), RandomRoller(random.Random(1)), NOW
    )


@pytest.mark.parametrize("key", sorted(NEWEST))
def test_the_newest_version_is_the_one_tested(key: str) -> None:
    rules = get_ruleset(key)
    assert type(rules).rules_version == NEWEST[key]
    assert NEWEST[key] - 1 in type(rules).known_versions


@pytest.mark.parametrize("key", sorted(NEWEST))
def test_removing_the_turn_holder_who_ends_the_fight_starts_no_turn(key: str) -> None:
    rules = _rules(key, NEWEST[key])
    state = _begun(rules, key, 2)
    leaver = state.turn
    outcome = _remove_turn_holder(rules, state)
    kinds = [type(e) for e in outcome.events]
    assert TurnStarted not in kinds, [e.text for e in outcome.events]
    assert kinds.index(CombatantLeft) < kinds.index(CombatEnded)
    after = outcome.state
    assert after.phase == "finished"
    assert after.turn is None
    assert leaver not in {c.id for c in after.combatants}
    assert after.round == state.round  # no turn passed, so no round began either
    stayer = next(c for c in state.combatants if c.id != leaver)
    assert after.winner == stayer.side


@pytest.mark.parametrize("key", sorted(NEWEST))
def test_older_versions_still_begin_the_next_turn_first(key: str) -> None:
    """What the fights started before play by, and their logs replay."""
    rules = _rules(key, FIRST[key] - 1)
    state = _begun(rules, key, 2)
    outcome = _remove_turn_holder(rules, state)
    kinds = [type(e) for e in outcome.events]
    assert TurnStarted in kinds
    assert outcome.state.phase == "finished"


@pytest.mark.parametrize("key", sorted(NEWEST))
def test_a_removal_that_leaves_the_fight_going_still_passes_the_turn(key: str) -> None:
    """Three fighters, two on the players' side: removing one of those on its turn leaves a
    side to fight, so the turn passes on as before."""
    rules = _rules(key, NEWEST[key])
    state = _begun(rules, key, 3)
    pcs = [c for c in state.combatants if not c.is_npc]
    for _ in range(6):  # until a player's combatant holds the turn
        if state.turn in {c.id for c in pcs}:
            break
        state = rules.apply(state, NextTurn(), RandomRoller(random.Random(2)), NOW).state
    assert state.turn in {c.id for c in pcs}
    outcome = _remove_turn_holder(rules, state)
    assert outcome.state.phase == "active"
    assert outcome.state.turn not in (None, state.turn)
    assert TurnStarted in [type(e) for e in outcome.events]


@pytest.mark.parametrize("key", sorted(NEWEST))
def test_a_fight_that_does_not_end_by_itself_passes_the_turn(key: str) -> None:
    """With the fight's automatic end off (``auto_end``), the last of a side leaving ends
    nothing: the turn passes on to whoever is left."""
    rules = _rules(key, NEWEST[key])
    state = _begun(rules, key, 2)
    settings = state.settings.model_copy(update={"auto_end": False})
    state = state.model_copy(update={"settings": settings})
    outcome = _remove_turn_holder(rules, state)
    assert outcome.state.phase == "active"
    assert TurnStarted in [type(e) for e in outcome.events]


@pytest.mark.parametrize("key", sorted(FIRST))
def test_first_is_the_version_each_system_reads_it_from(key: str) -> None:
    core = importlib.import_module(f"bot.engine.{key}.core")
    readings = core.Tx.LATER_READINGS
    assert {"end_first": FIRST[key], "one_skip": FIRST[key]} == {
        reading: readings[reading] for reading in ("end_first", "one_skip")
    }
