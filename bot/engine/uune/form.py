"""The Uune character create form (``/character create ruleset:uune``: ``Ruleset.sheet_form()``
reads :data:`SHEET_FORM`): the name, the shticks with their levels, the bonds, the experiences
and the items — what "Level 1" asks for ("place your shtick points, write two bonds and two
experiences"). A form box is one line of text, so a list is written with ``;`` between its
entries (items may use ``,``); :func:`lists_from_form` turns those texts into the sheet's lists
before the sheet model checks them (the level rules included). Everything else — features,
proficiency, focus, money and income, special items, backstory — takes the sheet's defaults
and is set with ``/character edit`` or an import. NPC statblocks have no form: they are
imported (``/npc import``)."""

from __future__ import annotations

import re
from typing import Any

from bot.engine.core.contract import FormBox, SheetForm

SHEET_FORM = SheetForm(
    boxes=(
        FormBox(key="name", label="Name", placeholder="e.g. Mira Quell", max_length=80),
        FormBox(
            key="shticks",
            label="Shticks with their levels (; between)",
            placeholder="e.g. Quickblade 2 — or Quickblade; Sneak (2 shtick points at level 1)",
            max_length=300,
        ),
        FormBox(
            key="bonds",
            label="Bonds: kind: words (; between)",
            placeholder="e.g. motivation: repay the river guild; flaw: cannot refuse a wager",
            max_length=1000,
        ),
        FormBox(
            key="experiences",
            label="Experiences (; between)",
            placeholder="e.g. River guild runner; Street fencing",
            max_length=1000,
        ),
        FormBox(
            key="items",
            label="Items, up to 10 (, between)",
            placeholder="e.g. Twin short blades, Lockpicks, Dark cloak",
            max_length=1000,
            required=False,
        ),
    ),
    rest="features, proficiency points, money and income, special items, backstory",
)

_ENTRY = re.compile(r"[;\n]")
_ITEM = re.compile(r"[;,\n]")
_LEVEL = re.compile(r"^(?P<name>.*?)\s+(?P<level>\d+)$")


def _entries(text: str, split: re.Pattern[str]) -> list[str]:
    return [part.strip() for part in split.split(text) if part.strip()]


def lists_from_form(data: Any) -> Any:
    """``data`` with the form's texts for ``shticks``, ``bonds``, ``experiences`` and ``items``
    made into the sheet's lists (a value that is not text is left for the model to check):
    ``Quickblade 2; Sneak`` → a shtick at level 2 and one at level 1; ``motivation: repay the
    guild`` → a bond of that kind (the kind lower-cased; a missing colon leaves the kind empty,
    which the model refuses naming the kinds); ``Street fencing: six years of alley duels`` →
    an experience and its description; ``Lockpicks, Dark cloak`` → two items."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    if isinstance(out.get("shticks"), str):
        shticks = []
        for entry in _entries(out["shticks"], _ENTRY):
            found = _LEVEL.match(entry)
            if found:
                shticks.append({"name": found["name"], "level": int(found["level"])})
            else:
                shticks.append({"name": entry})
        out["shticks"] = shticks
    if isinstance(out.get("bonds"), str):
        bonds = []
        for entry in _entries(out["bonds"], _ENTRY):
            kind, colon, words = entry.partition(":")
            bonds.append(
                {"kind": kind.strip().casefold(), "text": words.strip()}
                if colon
                else {"kind": "", "text": entry}
            )
        out["bonds"] = bonds
    if isinstance(out.get("experiences"), str):
        experiences = []
        for entry in _entries(out["experiences"], _ENTRY):
            name, _, description = entry.partition(":")
            experiences.append({"name": name.strip(), "description": description.strip()})
        out["experiences"] = experiences
    if isinstance(out.get("items"), str):
        out["items"] = [{"name": entry} for entry in _entries(out["items"], _ITEM)]
    return out
