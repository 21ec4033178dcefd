"""Shared sheets (issue 15, "Memory"): combatants whose stored sheets are the same hold one
parsed, frozen sheet object — within an encounter and across encounters — and a sheet nobody
holds any more is let go."""

from __future__ import annotations

import gc
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.engine import RandomRoller, get_ruleset
from bot.engine.core import shared
from bot.engine.uttas.commands import AddCombatant
from bot.engine.uttas.sheet import UttasSheet

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uttas"
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def stored(*sheets: tuple[str, UttasSheet]) -> str:
    """A UTTAS encounter with one NPC per ``(name, sheet)``, as the database keeps it."""
    rules = get_ruleset("uttas")
    state = rules.new_encounter(name="Ambush", seed=7)
    roller = RandomRoller(random.Random(7))
    for name, sheet in sheets:
        command = AddCombatant(name=name, sheet=sheet, controller_id=1, is_npc=True)
        state = rules.apply(state, command, roller, NOW).state
    return state.model_dump_json()


def test_equal_stored_sheets_are_one_object_within_and_across_encounters() -> None:
    thug = UttasSheet.model_validate(json.loads((SHEETS / "thug.json").read_text()))
    tougher = thug.model_copy(update={"health": thug.health + 1})
    text = stored(("Thug", thug), ("Thug 2", thug), ("Big Thug", tougher))
    rules = get_ruleset("uttas")
    first, second = rules.load_state(text), rules.load_state(text)
    a, b, big = first.combatants
    assert a.sheet is b.sheet is second.combatants[0].sheet is second.combatants[1].sheet
    assert big.sheet is not a.sheet and big.sheet.health == thug.health + 1
    assert a.sheet == thug
    with pytest.raises(ValidationError):  # shared safely: nobody can change it in place
        a.sheet.health = 1  # type: ignore[misc]


def test_a_sheet_nobody_holds_is_let_go() -> None:
    thug = UttasSheet.model_validate(json.loads((SHEETS / "thug.json").read_text()))
    odd = thug.model_copy(update={"health": thug.health + 17})
    text = stored(("Odd", odd))
    held = get_ruleset("uttas").load_state(text)
    kept = {key for key, sheet in shared._SHEETS.items() if sheet is held.combatants[0].sheet}
    assert kept
    del held
    gc.collect()
    assert not kept & set(shared._SHEETS.keys())
