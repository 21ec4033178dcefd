"""Untitled's sheet create form (``bot/engine/untitled/form.py``): its boxes fit Discord's
modal, and what a member types into them — read by the same parser the modal uses
(``bot.ui.sheets_views.parse_scores``) — makes a valid :class:`UntitledSheet`, blank skill
boxes meaning untrained; a bad level is refused naming its field."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from bot.engine.untitled.form import SHEET_FORM
from bot.engine.untitled.sheet import UntitledSheet
from bot.errors import InvalidInput
from bot.ui.sheets_views import parse_scores


def submitted(typed: dict[str, str]) -> dict[str, Any]:
    """The sheet data the modal's ``fields()`` builds from ``typed`` (defaults where absent)."""
    values: dict[str, Any] = {}
    for box in SHEET_FORM.boxes:
        text = typed.get(box.key, box.default).strip()
        if box.scores is None:
            values[box.key] = text
            continue
        scores = parse_scores(text, box.scores, box.label.split(" (")[0])
        if scores and box.into:
            values[box.into] = scores
        else:
            values.update(scores)
    return values


def test_the_form_fits_a_discord_modal() -> None:
    assert 1 <= len(SHEET_FORM.boxes) <= 5
    assert SHEET_FORM.boxes[0].key == "name"
    assert all(len(box.label) <= 45 for box in SHEET_FORM.boxes)
    keys = [box.key for box in SHEET_FORM.boxes]
    assert len(set(keys)) == len(keys)
    fields = set(UntitledSheet.model_fields)
    for box in SHEET_FORM.boxes:
        target = box.into or (box.key if box.scores is None else None)
        if target:
            assert target in fields
        if box.scores and not box.into:
            assert set(box.scores) <= fields


def test_the_defaults_make_an_untrained_sheet() -> None:
    sheet = UntitledSheet.model_validate(submitted({"name": "Wren"}))
    assert (sheet.health, sheet.speed_m) == (20, 9)
    assert sheet.defense_level() is None and sheet.parry is None
    assert sheet.armor_skills.model_dump() == {"light": None, "medium": None, "heavy": None}


def test_typed_levels_fill_the_sheet_by_order_or_by_name() -> None:
    data = submitted(
        {
            "name": "Brask",
            "vitals": "Health 30, Speed 8",
            "defense": "5 4",
            "armor_skills": "Light 3, Med 6",
        }
    )
    sheet = UntitledSheet.model_validate(data)
    assert (sheet.health, sheet.speed_m, sheet.combat_defense, sheet.parry) == (30, 8, 5, 4)
    assert (sheet.armor_skills.light, sheet.armor_skills.medium) == (3, 6)
    assert sheet.armor_skills.heavy is None


def test_bad_input_is_refused_saying_where() -> None:
    with pytest.raises(ValidationError, match="combat_defense"):
        UntitledSheet.model_validate(submitted({"name": "Brask", "defense": "0 2"}))
    with pytest.raises(ValidationError, match=r"armor_skills\.heavy"):
        UntitledSheet.model_validate(submitted({"name": "Brask", "armor_skills": "Heavy 31"}))
    with pytest.raises(InvalidInput, match="give 2 numbers"):
        submitted({"name": "Brask", "defense": "3"})
