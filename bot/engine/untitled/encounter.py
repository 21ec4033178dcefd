"""Untitled's encounter settings (:mod:`bot.engine.core.encounter_rules`): what the Storyteller
decides for one fight, set with ``/gm settings rule: value: [combatant:]``.

* **Legendary dice** — the ladder's "21+ Legendary ... Storyteller" (``untitled-combat.txt``
  "Combat", the skill table; issue 13: "Storyteller-defined dice, an encounter setting").
* **Light / Medium / Heavy armor above 18** — issue 13's armor dice: "above 18: the
  Storyteller's call, an encounter setting". They apply to armor-skill levels 19 and up,
  whatever rows the server's tables have there.
* **Combined move actions** — per fighter: "Not all move actions work this way, so your
  Storyteller will advise you should there be an issue with something you propose"
  (:class:`~bot.engine.untitled.commands.AllowCombined`).

The server's tables (``data/untitled/tables.json``, ``/tables``) stay the default: an
encounter's value replaces them for that encounter only; ``table`` goes back to them. The
values live in ``EncounterSettings.rules`` (saved, undone and redone with the state);
:func:`for_encounter` builds the tables an encounter plays by.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import names
from bot.engine.core.commands import CommandBase
from bot.engine.core.encounter_rules import EncounterRule, find_rule, rule_target
from bot.engine.untitled.commands import AllowCombined, SetRule
from bot.engine.untitled.tables import UntitledTables
from bot.engine.untitled.terms import WEIGHT_CLASSES, check_dice
from bot.errors import InvalidInput

LEGENDARY = "Legendary dice"
ARMOR = {w: f"{w.title()} armor above 18" for w in WEIGHT_CLASSES}
COMBINED = "Combined move actions"
ARMOR_STORYTELLER_FROM = 19
"""Issue 13: armor dice "above 18: the Storyteller's call" — the encounter's armor dice apply
from this armor-skill level up."""
TABLE_WORDS = ("table", "tables", "default", "unset")
"""Values that take an encounter's dice back to the server's tables."""

DICE_TAKES = "dice, e.g. 3d12 or 2d10 + 1d6; `table` for the server's tables"
RULES: tuple[EncounterRule, ...] = (
    EncounterRule(name=LEGENDARY, takes=DICE_TAKES),
    *(EncounterRule(name=name, takes=DICE_TAKES) for name in ARMOR.values()),
    EncounterRule(name=COMBINED, takes="`allowed` or `refused`", per_combatant=True),
)
_ALLOWED = {"allowed": True, "allow": True, "yes": True, "refused": False, "refuse": False}


def rule_command(rule: str, value: str, target: str | None) -> CommandBase:
    """The command that sets ``rule`` (a name of :data:`RULES`) to ``value`` as typed. Raises
    :class:`InvalidInput`: an unknown rule, malformed or absurd dice (checked with ``d20``:
    :func:`bot.engine.untitled.terms.check_dice`), a verdict other than allowed/refused, a
    combatant given or missing."""
    found = find_rule(RULES, rule, "Untitled")
    rule_target(found, target)
    words = value.strip()
    if found.name == COMBINED:
        allowed = _ALLOWED.get(words.casefold())
        if allowed is None or target is None:
            raise InvalidInput(
                f"`{COMBINED}` is `allowed` or `refused`, not {names.quoted(words, 60)}."
            )
        return AllowCombined(target=target, allowed=allowed)
    if words.casefold() in TABLE_WORDS:
        return SetRule(rule=found.name, dice=None)
    try:
        dice = check_dice(words)
    except ValueError as error:
        raise InvalidInput(f"{names.code(found.name)}: {error}.") from None
    return SetRule(rule=found.name, dice=dice)


def for_encounter(base: UntitledTables, rules: Mapping[str, str]) -> UntitledTables:
    """The tables an encounter plays by: ``base`` (the server's) with the encounter's
    Legendary dice and armor dice above 18 (``rules``, by :data:`RULES` name). Raises
    :class:`InvalidInput` when the server's ladder has no Legendary tier to set."""
    if not rules:
        return base
    data: dict[str, Any] = base.model_dump()
    legendary = rules.get(LEGENDARY)
    if legendary is not None:
        rows = [r for r in data["ladder"] if r["tier"] == "legendary"]
        if not rows:
            raise InvalidInput(
                "This server's ladder has no Legendary tier (its tables end lower): "
                "there are no Legendary dice to set."
            )
        rows[0]["dice"] = legendary
    armor: dict[str, str] = {w: rules[name] for w, name in ARMOR.items() if name in rules}
    if armor:
        data["armor"] = _armor_rows(data["armor"], armor)
    return UntitledTables.model_validate(data)


def _armor_rows(rows: list[dict[str, Any]], dice: Mapping[str, str]) -> list[dict[str, Any]]:
    """``rows`` with ``dice`` (by weight class) from level :data:`ARMOR_STORYTELLER_FROM` up; a
    row spanning level 18 and 19 is split there."""
    start = ARMOR_STORYTELLER_FROM
    out: list[dict[str, Any]] = []
    for row in rows:
        high = row["high"]
        if high is not None and high < start:
            out.append(row)
            continue
        if row["low"] < start:
            out.append({**row, "high": start - 1})
            row = {**row, "low": start}
        out.append({**row, **dice})
    return out


def rule_lines(tables: UntitledTables, state: Any) -> list[str]:
    """``/gm settings``: each rule and its value now, saying whether it is the encounter's or
    the server's tables'."""
    own: Mapping[str, str] = state.settings.rules
    lines = []
    legendary = next((r.dice for r in tables.ladder if r.tier == "legendary"), None)
    lines.append(_dice_line(LEGENDARY, own.get(LEGENDARY), legendary))
    top = next(r for r in tables.armor if r.high is None or r.high >= ARMOR_STORYTELLER_FROM)
    for weight, name in ARMOR.items():
        lines.append(_dice_line(name, own.get(name), getattr(top, weight)))
    refused = [str(c.name) for c in state.combatants if c.combined_refused]
    lines.append(
        f"{COMBINED}: refused for {', '.join(refused)}"
        if refused
        else f"{COMBINED}: allowed for everyone"
    )
    return lines


def _dice_line(name: str, own: str | None, table: str | None) -> str:
    if own is not None:
        return f"{name}: {own} (this encounter)"
    if table is not None:
        return f"{name}: {table} (the server's tables)"
    return f"{name}: not set — the Storyteller's call (refused until set)"
