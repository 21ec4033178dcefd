"""How a Utopia sheet reads (``/character show``): every number the sheet holds and what the
rules derive from it — each trait's score and modifier, the pools and Ratings as dice, each
weapon's damage with its modifier as it stands and its reach or ranges, the spells with their
costs, the armor with what it adds while worn, the innate defenses. Another player's character
shows only what the table would see of it: its size, its weapons and its spells, by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.engine.core.contract import SheetSection
from bot.engine.core.scale import Scale
from bot.engine.utopia.sheet import TRAITS, Armor, Spell, UtopiaSheet, Weapon
from bot.engine.utopia.tables import UtopiaTables
from bot.engine.utopia.terms import DamageType, Subtrait, Trait

Name = Callable[[str], str]


def sections(
    sheet: UtopiaSheet, t: UtopiaTables, scale: Scale, *, full: bool, name: Name
) -> list[SheetSection]:
    """The sheet's sections: all of them for its owner or a GM (``full``), else what another
    player sees; distances on the server's board (``scale``: meters, or feet)."""
    if not full:
        return _seen_by_others(sheet, name)
    offset = t.test.modifier_offset
    traits = [f"{x.title()} {sheet.score(x)} ({sheet.modifier(x, offset):+d})" for x in TRAITS]
    vitals = [
        f"SHP {sheet.shp} · DHP {sheet.dhp} · Stamina {sheet.stamina}",
        f"Block {sheet.block_rating}d{t.block.sides}",
        f"Dodge {sheet.dodge_rating}d{t.dodge.sides}",
        f"{sheet.turn_actions_max(t)} TA · {sheet.interrupt_actions_max(t)} IA",
        f"Size: {sheet.size}",
    ]
    vitals.append(_defense_line(sheet, t))
    if sheet.gifted:
        vitals.append("Gifted: " + ", ".join(g.title() for g in sheet.gifted))
    weapons = [_weapon(sheet, w, t, scale, name) for w in sheet.weapons] or [_weaponless(sheet, t)]
    out = [
        SheetSection(title="Traits", lines=traits, inline=True),
        SheetSection(title="Vitals", lines=vitals, inline=True),
        SheetSection(title="Weapons", lines=weapons),
    ]
    if sheet.spells:
        out.append(
            SheetSection(title="Spells", lines=[_spell(s, scale, name) for s in sheet.spells])
        )
    if sheet.armor:
        out.append(SheetSection(title="Armor", lines=[_armor(a, name) for a in sheet.armor]))
    return out


def _seen_by_others(sheet: UtopiaSheet, name: Name) -> list[SheetSection]:
    lines = [f"Size: {sheet.size}"]
    if sheet.weapons:
        lines.append("Weapons: " + ", ".join(name(w.name) for w in sheet.weapons))
    if sheet.spells:
        lines.append("Spells: " + ", ".join(name(s.name) for s in sheet.spells))
    return [SheetSection(title=name(sheet.name), lines=lines)]


def _modifier(sheet: UtopiaSheet, trait: Trait | Subtrait | None, t: UtopiaTables) -> str:
    """`` + Power (+3)``: the damage modifier's name and value for this sheet; "" for none."""
    if trait is None:
        return ""
    value = sheet.modifier(trait, t.test.modifier_offset)
    return f" + {trait.title()} ({value:+d})"


def _weapon(sheet: UtopiaSheet, w: Weapon, t: UtopiaTables, scale: Scale, name: Name) -> str:
    if w.kind == "ranged":
        where = f"ranged: close {scale.show(w.close_m or 0)}, far {scale.show(w.far_m or 0)}"
    else:
        where = f"reach {scale.show(w.reach_m)}"
    extra = [where]
    if w.hands != 1:
        extra.append("natural" if w.hands == 0 else f"{w.hands} hands")
    if w.ignores_shp:
        extra.append("ignores SHP")
    damage = f"{w.damage}{_modifier(sheet, w.damage_modifier, t)} {w.damage_type}"
    return f"{name(w.name)}: {damage}, {w.ta_cost} TA, " + ", ".join(extra)


def _weaponless(sheet: UtopiaSheet, t: UtopiaTables) -> str:
    rules = t.weaponless
    damage = f"{rules.damage}{_modifier(sheet, rules.modifier, t)} {rules.damage_type}"
    return f"none (weaponless: {damage}, {rules.ta} TA)"


def _spell(s: Spell, scale: Scale, name: Name) -> str:
    parts = [f"{s.stamina} Stamina"]
    if s.damage:
        parts.append(f"{s.damage} {s.damage_type}")
    parts.append(f"range {scale.show(s.range_m)}" if s.range_m else "touch")
    text = f"{name(s.name)}: " + ", ".join(parts)
    return text + (f" — {name(s.description)}" if s.description else "")


def _armor(a: Armor, name: Name) -> str:
    worn = "worn" if a.worn else "not worn"
    adds = f": {_defenses(a.defenses)}" if a.defenses else ""
    return f"{name(a.name)} ({a.slot}, {worn}){adds}"


def _defenses(defenses: Mapping[DamageType, int]) -> str:
    return ", ".join(f"{kind} {value:+d}" for kind, value in defenses.items())


def _defense_line(sheet: UtopiaSheet, t: UtopiaTables) -> str:
    """Each damage type's defense before armor — the innate one (``tables.innate_defense``)
    plus the sheet's — and where it comes from: "Defenses: physical 2, energy 1, … (innate 1
    each, the sheet's physical +1; worn armor adds more)". It showed the sheet's alone, and a
    creature with none showed no line, so a hit of 1 that "takes no damage (its defenses stop
    it)" had nothing on the sheet to explain it."""
    innate = {kind: value for kind, value in t.innate_defense.items() if value}
    kinds = [*innate, *(kind for kind in sheet.defenses if kind not in innate)]
    totals = [(kind, innate.get(kind, 0) + sheet.defenses.get(kind, 0)) for kind in kinds]
    shown = ", ".join(f"{kind} {value}" for kind, value in totals if value) or "none"
    values = set(innate.values())
    whence = (
        [f"innate {values.pop()} each" if len(values) == 1 else f"innate {_defenses(innate)}"]
        if innate
        else []
    )
    if sheet.defenses:
        whence.append(f"the sheet's {_defenses(sheet.defenses)}")
    whence.append("worn armor adds more")
    return f"Defenses: {shown} ({', '.join(whence)})"
