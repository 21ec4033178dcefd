"""The Untitled sheet create form (``/character create ruleset:untitled``, ``/npc create``:
``Ruleset.sheet_form()`` reads :data:`SHEET_FORM`): the name, Health and the speed
rating, the Combat Defense and Parry levels, and the armor skills by weight class. Everything
else of :class:`~bot.engine.untitled.sheet.UntitledSheet` (weapon skills, combat forms, shield
skills, weapons, the shield and the armor worn) takes its defaults — none, untrained — and is set
with ``/character edit`` or an import.

A blank skill box means untrained (issue 13: "an untrained roll is 1d6 with no bonus"); levels
are 1–30, checked by the sheet model.
"""

from __future__ import annotations

from bot.engine.core.contract import FormBox, SheetForm

SHEET_FORM = SheetForm(
    boxes=(
        FormBox(key="name", label="Name", placeholder="e.g. Wren", max_length=80),
        FormBox(
            key="vitals",
            label="Health and speed rating (m per move)",
            default="20 9",
            placeholder="2 numbers, e.g. 20 9, or Health 20, Speed 9",
            max_length=40,
            required=False,
            scores=("health", "speed_m"),
        ),
        FormBox(
            key="defense",
            label="Combat Defense and Parry levels (1-30)",
            placeholder="e.g. 3 1, or Combat 3, Parry 1; blank: untrained",
            max_length=40,
            required=False,
            scores=("combat_defense", "parry"),
        ),
        FormBox(
            key="armor_skills",
            label="Armor skill levels: Light Medium Heavy",
            placeholder="e.g. Light 2, Medium 6 (blank: untrained)",
            max_length=60,
            required=False,
            scores=("light", "medium", "heavy"),
            into="armor_skills",
        ),
    ),
    rest="weapon skills, combat forms, shield skills, weapons, shield, armor worn",
)
