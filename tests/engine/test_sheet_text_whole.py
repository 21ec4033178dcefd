"""Every game system's ``/character show`` reads the whole sheet: each thing the sheet names (its
weapons, armor, shield, spells, skills, resources, attacks…) shows to its owner or a GM.

Untitled's once listed no armor and no shield, Utopia's no spells or armor, Uune's no bonds or
items: the sheet model grew and its text did not. This walks every example sheet of every
ruleset and looks for every ``name`` the sheet holds, at any depth, in the full text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import get_ruleset
from bot.engine.uttas.sheet import Weapon
from bot.engine.uttas.sheet_text import damage_dice

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "data" / "sheets").glob("*/*.json"))


def _names(data: Any, top: bool = True) -> Iterator[str]:
    """Every ``name`` the sheet holds below its own (weapons, armor, skills…)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "name" and isinstance(value, str) and not top:
                yield value
            else:
                yield from _names(value, top=False)
    elif isinstance(data, list):
        for item in data:
            yield from _names(item, top=False)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_owners_view_names_everything_the_sheet_holds(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    rules = get_ruleset(path.parent.name)
    sheet = rules.sheet_model_for(data.get("kind", "character")).model_validate(data)
    sections = rules.sheet_sections(sheet, full=True, name=lambda n: n)
    text = "\n".join([s.title for s in sections] + [line for s in sections for line in s.lines])
    missing = [n for n in _names(data) if n not in text]
    assert missing == [], (path.name, missing, text)


@pytest.mark.parametrize(
    ("weapon", "shown"),
    [
        ({"name": "Fist", "damage_dice": 0}, "Strength dice"),
        ({"name": "Sword", "damage_dice": 2}, "2d6 + Strength dice"),
        ({"name": "Rock", "kind": "thrown", "damage_dice": 0}, "Strength dice"),
        ({"name": "Bow", "kind": "mechanical", "damage_dice": 3}, "3d6"),
        ({"name": "Net", "kind": "mechanical", "damage_dice": 0}, "no damage dice"),
    ],
)
def test_a_uttas_weapons_damage_dice_read_as_a_player_would_say_them(
    weapon: dict[str, object], shown: str
) -> None:
    """A weapon with no dice of its own rolls only the wielder's Strength dice: the sheet said
    "0d6 + Strength dice" (newuser26)."""
    assert damage_dice(Weapon.model_validate(weapon)) == shown
