"""What every system's commands share, made once in the core. Joining (``CoreTx.admit``): a
fight over takes no one, an encounter holds at most its system's ``MAX_COMBATANTS`` (UTTAS 60,
the others 25), and a name taken as names compare (case, lookalikes) is refused spelling it as
the fight does — each system kept its own copy of these checks before, and three of them echoed
the typed spelling. ``/gm end-fight`` (``order.end_combat``) and ``/gm settings`` outside UTTAS
(``interleave.change_settings``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.core.commands import Begin, ChangeSettings, EndCombat
from bot.engine.core.dice import RandomRoller
from bot.errors import Conflict, InvalidInput, RuleViolation
from tests.fixtures.make_golden_logs import CASTS, NOW

ROOT = Path(__file__).resolve().parents[2]
CAP = {"uttas": 60, "utopia": 25, "untitled": 25, "uune": 25}


def _joined(key: str, count: int) -> tuple[Any, Any, Any]:
    """System ``key``'s rules, an encounter with ``count`` NPCs ("Foe 1"…), and the NPC sheet."""
    rules = get_ruleset(key)
    _, stem, _ = next(cast for cast in CASTS[key] if cast[2])
    sheet = rules.parse_sheet(
        json.loads((ROOT / "data" / "sheets" / key / f"{stem}.json").read_text())
    )
    state = rules.new_encounter(name="Admit", seed=1)
    for n in range(1, count + 1):
        state = _add(rules, state, f"Foe {n}", sheet)
    return rules, state, sheet


def _add(rules: Any, state: Any, name: str, sheet: Any) -> Any:
    command = rules.add_command(name=name, sheet=sheet, is_npc=True)
    return rules.apply(state, command, RandomRoller(random.Random(1)), NOW).state


@pytest.mark.parametrize("key", sorted(CAP))
def test_an_encounter_holds_its_systems_cap(key: str) -> None:
    rules, state, sheet = _joined(key, CAP[key])
    assert len(state.combatants) == CAP[key]
    with pytest.raises(InvalidInput, match=f"holds at most {CAP[key]} combatants"):
        _add(rules, state, "One Too Many", sheet)


@pytest.mark.parametrize("key", sorted(CAP))
def test_a_taken_name_is_refused_as_the_fight_spells_it(key: str) -> None:
    rules, state, sheet = _joined(key, 1)
    with pytest.raises(Conflict, match="already a combatant called Foe 1"):
        _add(rules, state, "FOE 1", sheet)


@pytest.mark.parametrize("key", sorted(CAP))
def test_a_fight_over_takes_no_one(key: str) -> None:
    rules, state, sheet = _joined(key, 1)
    name, stem, _ = CASTS[key][0]  # a PC, so the fight can begin
    pc = rules.parse_sheet(
        json.loads((ROOT / "data" / "sheets" / key / f"{stem}.json").read_text())
    )
    state = rules.apply(
        state, rules.add_command(name=name, sheet=pc, is_npc=False), RandomRoller(), NOW
    ).state
    for command in (Begin(), EndCombat()):
        state = rules.apply(state, command, RandomRoller(random.Random(1)), NOW).state
    assert state.phase == "finished"
    with pytest.raises(RuleViolation, match="Start a new encounter for the next fight"):
        _add(rules, state, "Latecomer", sheet)


@pytest.mark.parametrize("key", sorted(CAP))
def test_no_fight_to_end_is_said_in_the_systems_word(key: str) -> None:
    """``/gm end-fight`` before the fight begins (the core's handler, ``Tx.FIGHT``)."""
    rules, state, _ = _joined(key, 1)
    word = "conflict" if key == "uune" else "fight"
    with pytest.raises(RuleViolation, match=f"^No {word} is running\\.$"):
        rules.apply(state, EndCombat(), RandomRoller(random.Random(1)), NOW)


ORDER_WORDS = {
    "utopia": "Utopia always rolls its order",
    "untitled": "Untitled rolls no initiative",
    "uune": "Uune rolls no initiative",
}


@pytest.mark.parametrize("key", sorted(ORDER_WORDS))
def test_settings_change_only_what_is_named_and_refuse_initiative_in_the_systems_words(
    key: str,
) -> None:
    rules, state, _ = _joined(key, 1)
    before = state.settings
    roller = RandomRoller(random.Random(1))
    out = rules.apply(state, ChangeSettings(turn_deadline_s=3600, interleaved=False), roller, NOW)
    assert out.state.settings.turn_deadline_s == 3600
    assert out.state.settings.reaction_window_s == before.reaction_window_s
    assert "Settings changed:" in out.text
    with pytest.raises(InvalidInput, match=f"^{ORDER_WORDS[key]}.*`initiative:` is UTTAS's"):
        rules.apply(state, ChangeSettings(initiative_mode="roll"), roller, NOW)
    with pytest.raises(InvalidInput, match=r"^Name at least one setting to change\.$"):
        rules.apply(state, ChangeSettings(), roller, NOW)
