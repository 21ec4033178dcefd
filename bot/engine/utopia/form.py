"""The Utopia sheet create form (``/character create ruleset:utopia``): the name, the twelve
subtrait scores, the SHP / DHP / Stamina maxima, the Block and Dodge Ratings and the size.
Everything else of :class:`~bot.engine.utopia.sheet.UtopiaSheet` (weapons, spells, armor,
gifted subtraits, travel, defenses) takes its defaults and is set with ``/character edit`` or
an import."""

from __future__ import annotations

from bot.engine.core.contract import FormBox, SheetForm
from bot.engine.utopia.terms import SUBTRAITS

SHEET_FORM = SheetForm(
    boxes=(
        FormBox(key="name", label="Name", placeholder="e.g. Vesna", max_length=80),
        FormBox(
            key="subtraits",
            label="Subtraits (12: Dexterity … Language)",
            default=" ".join("1" for _ in SUBTRAITS),
            placeholder="12 numbers, Dexterity … Language, or e.g. Dexterity 6, Power 3",
            max_length=300,
            required=False,
            scores=SUBTRAITS,
            into="subtraits",
        ),
        FormBox(
            key="pools",
            label="SHP DHP Stamina (maximums)",
            default="10 10 10",
            max_length=60,
            required=False,
            scores=("shp", "dhp", "stamina"),
        ),
        FormBox(
            key="ratings",
            label="Block Rating (d4s) and Dodge Rating (d12s)",
            default="1 1",
            max_length=40,
            required=False,
            scores=("block_rating", "dodge_rating"),
        ),
        FormBox(
            key="size",
            label="Size (tiny, small, medium, large, huge…)",
            default="medium",
            max_length=20,
            required=False,
            lower=True,
        ),
    ),
    rest="weapons, spells, armor",
)
