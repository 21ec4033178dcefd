"""How an Untitled sheet reads (``/character show``, ``/npc show``): every number the sheet holds
and the dice the rules derive from it — Health and the speed rating; each skill's level, tier and
dice (the level added: "adding the skill level value as a modifier"); each weapon with the skill
it hits with and the Combat Form its damage uses (their dice as they stand, untrained: 1d6), its
reach or range, reload, hands and whether it starts put away; Combat Defense and Parry; the
shield with its skill's dice (added without the level: "add the result to their defense roll");
the armor worn with its weight class and the dice it mitigates. Another player's character shows
only what the table would see of it: its weapons, shield and armor, by name."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core.contract import SheetSection
from bot.engine.core.scale import Scale
from bot.engine.untitled.sheet import UntitledSheet, Weapon
from bot.engine.untitled.tables import UntitledTables
from bot.errors import InvalidInput

Name = Callable[[str], str]

_RELOAD = {"move": "reload: a move action", "full_round": "reload: a full-round action"}


def sections(
    sheet: UntitledSheet, t: UntitledTables, scale: Scale, *, full: bool, name: Name
) -> list[SheetSection]:
    """The sheet's sections: all of them for its owner or a GM (``full``), else what another
    player sees; distances on the server's board (``scale``: meters, or feet)."""
    if not full:
        return _seen_by_others(sheet, name)
    vitals = [f"Health {sheet.health}", f"Speed {scale.show(sheet.speed_m)} per move action"]
    skills = [f"{name(k)} {v} ({_dice(t, v)})" for k, v in sheet.skill_levels().items()] or [
        f"none (untrained: {t.untrained.dice})"
    ]
    weapons = [_weapon(sheet, w, t, scale, name) for w in sheet.weapons] or ["none"]
    defense = [
        f"Combat Defense: {_level(t, sheet.combat_defense)}",
        f"Parry: {_level(t, sheet.parry)}",
        _shield(sheet, t, name),
        _armor(sheet, t, name),
    ]
    return [
        SheetSection(title="Vitals", lines=vitals, inline=True),
        SheetSection(title="Skills", lines=skills, inline=True),
        SheetSection(title="Weapons", lines=weapons),
        SheetSection(title="Defense", lines=defense),
    ]


def _seen_by_others(sheet: UntitledSheet, name: Name) -> list[SheetSection]:
    lines = []
    if sheet.weapons:
        lines.append("Weapons: " + ", ".join(name(w.name) for w in sheet.weapons))
    if sheet.shield is not None:
        lines.append(f"Shield: {name(sheet.shield.name)}")
    if sheet.armor is not None:
        lines.append(f"Armor: {name(sheet.armor.name)}")
    return [SheetSection(title=name(sheet.name), lines=lines or ["An Untitled character"])]


def _dice(t: UntitledTables, level: int, *, bonus: bool = True) -> str:
    """ "Journeyman: 2d8 + 7": the tier and its dice with the level added (``bonus``), or the
    tier's dice alone; "Legendary: the Storyteller's dice" while they are not set."""
    tier = t.tier(level).title()
    try:
        dice = t.skill_dice(level)
    except InvalidInput:
        return f"{tier}: the Storyteller's dice"
    return f"{tier}: {dice} + {level}" if bonus else f"{tier}: {dice}"


def _level(t: UntitledTables, level: int | None, *, bonus: bool = True) -> str:
    """A skill's level and dice ("3 (Novice: 2d6 + 3)"), or "untrained (1d6)"."""
    if level is None:
        return f"untrained ({t.untrained.dice})"
    return f"{level} ({_dice(t, level, bonus=bonus)})"


def _weapon(sheet: UntitledSheet, w: Weapon, t: UntitledTables, scale: Scale, name: Name) -> str:
    hit = f"to hit {name(w.skill)} {_level(t, sheet.attack_level(w))}"
    damage = f"damage {name(w.form)} {_level(t, sheet.damage_level(w))}"
    extra = [
        f"range {scale.show(w.range_m or 0)}"
        if w.kind == "ranged"
        else f"reach {scale.show(w.reach_m)}"
    ]
    if w.reload in _RELOAD:
        extra.append(_RELOAD[w.reload])
    if w.hands != 1:
        extra.append("natural" if w.hands == 0 else f"{w.hands} hands")
    if w.stowed:
        extra.append("starts put away")
    return f"{name(w.name)}: {hit}, {damage}; " + ", ".join(extra)


def _shield(sheet: UntitledSheet, t: UntitledTables, name: Name) -> str:
    if sheet.shield is None:
        return "Shield: none"
    skill = f"{name(sheet.shield.skill)} {_level(t, sheet.shield_level(), bonus=False)}"
    return f"Shield: {name(sheet.shield.name)}, {skill} added to the defense roll"


def _armor(sheet: UntitledSheet, t: UntitledTables, name: Name) -> str:
    if sheet.armor is None:
        return "Armor: none"
    weight = sheet.armor.weight
    level = sheet.armor_level()
    if level is None:
        mitigates = t.untrained_armor or "nothing"
        skill = f"untrained in {weight} armor: mitigates {mitigates}"
    else:
        try:
            dice = t.armor_dice(level, weight)
        except InvalidInput:
            dice = "the Storyteller's dice"
        skill = f"{weight.title()} armor {level}: mitigates {dice}"
    return f"Armor: {name(sheet.armor.name)} ({weight}), {skill}"
