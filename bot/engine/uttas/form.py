"""The UTTAS sheet create form (``/character create``): the name, the seven characteristics,
Speed, Health and Stamina; the rest of :class:`~bot.engine.uttas.sheet.UttasSheet` takes its
defaults and is set with ``/character edit`` or an import."""

from __future__ import annotations

from bot.engine.core.contract import FormBox, SheetForm

CHARACTERISTICS = ("agility", "body", "charisma", "dexterity", "ego", "intelligence", "strength")

SHEET_FORM = SheetForm(
    boxes=(
        FormBox(key="name", label="Name", placeholder="e.g. Willow", max_length=80),
        FormBox(
            key="characteristics",
            label="Agility Body Charisma Dexterity Ego Int Str",
            default="10 10 10 10 10 10 10",
            placeholder="7 numbers in that order, or e.g. Agility 12, Strength 14",
            max_length=200,
            required=False,
            scores=CHARACTERISTICS,
        ),
        FormBox(key="speed", label="Speed (actions per round)", default="4", max_length=3),
        FormBox(key="health", label="Health (maximum)", default="10", max_length=6),
        FormBox(key="stamina", label="Stamina (maximum)", default="20", max_length=6),
    ),
    rest="weapons, powers",
)
