"""How an UTTAS sheet reads (``/character show``, ``/npc show``): its sections as plain text —
characteristics with their dice, vitals and derived defences, movement, protection, stances,
skills, weapons, powers, martial arts, items, extra limbs — computed with the ruleset's own
rules and tables. The Discord layer lays them out (:func:`bot.ui.sheets.sheet_embed`); names go
through the ``name`` formatter it passes (escaping)."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core.contract import SheetSection
from bot.engine.uttas import rules
from bot.engine.uttas.sheet import CHARACTERISTICS, UttasSheet, Weapon
from bot.engine.uttas.state import Combatant
from bot.engine.uttas.tables import UttasTables

Name = Callable[[str], str]
Show = Callable[[float], str]
"""Writes the rules' meters as the board shows them (:class:`bot.engine.core.scale.Scale`)."""
LABELS = {
    "agility": "Agility",
    "body": "Body",
    "charisma": "Charisma",
    "dexterity": "Dexterity",
    "ego": "Ego",
    "intelligence": "Intelligence",
    "strength": "Strength",
}


def _names(items: list[str], name: Name) -> str:
    return ", ".join(name(x) for x in items)


def derived(sheet: UttasSheet, tables: UttasTables) -> tuple[dict[str, int], int, int]:
    """What the rules compute from a sheet (shown, never stored): each characteristic's dice,
    Dodge and Discipline before stances and reactions."""
    probe = Combatant(
        id="sheet",
        name=sheet.name,
        side="sheet",
        sheet=sheet,
        health=sheet.health,
        stamina=sheet.stamina,
    )
    dice: dict[str, int] = {
        ch: rules.dice_of(probe, ch, tables, natural=True) for ch in CHARACTERISTICS
    }
    return (
        dice,
        rules.derived_defence(probe, "dodge", tables),
        rules.derived_defence(probe, "discipline", tables),
    )


def damage_dice(w: Weapon) -> str:
    """What weapon ``w`` rolls for damage, as a sheet shows it (UTTAS "Damage"): its own d6s
    and, for a melee or thrown weapon, the wielder's Strength dice — "2d6 + Strength dice",
    "Strength dice" (none of its own, newuser26: it read "0d6 + Strength dice"), "3d6", or
    "no damage dice" (a mechanical weapon with none)."""
    own = f"{w.damage_dice}d6" if w.damage_dice else ""
    strength = "Strength dice" if w.kind in ("melee", "thrown") else ""
    return " + ".join(part for part in (own, strength) if part) or "no damage dice"


def _weapon_line(sheet: UttasSheet, index: int, name: Name, show: Show) -> str:
    w = sheet.weapons[index]
    parts = [
        w.kind,
        f"{damage_dice(w)} {name(w.damage_type)}",
        f"range {show(w.range_m)}",
    ]
    if w.required_strength:
        parts.append(f"needs Strength {w.required_strength}")
    if w.max_hits > 1:
        parts.append(f"up to {w.max_hits} hits")
    if w.light:
        parts.append("light")
    return f"**{name(w.name)}** — " + ", ".join(parts)


def _item_line(sheet: UttasSheet, index: int, name: Name, show: Show) -> str:
    """An item (issue 11): what it restores or that the GM applies it, its uses and hands,
    then its description (shortened)."""
    i = sheet.items[index]
    e = i.effect
    if e is None:
        parts = ["the GM applies it"]
    else:
        amount = " + ".join(x for x in (f"{e.dice}d6" if e.dice else "", str(e.bonus or "")) if x)
        parts = [f"restores {amount} {e.restores.title()}"]
    parts.append("unlimited uses" if i.uses is None else f"{i.uses} use{'s' * (i.uses != 1)}")
    if i.hands != 1:
        parts.append(f"{i.hands} hands")
    about = i.description if len(i.description) <= 80 else i.description[:79] + "…"
    return f"**{name(i.name)}** — " + ", ".join(parts) + (f": {name(about)}" if about else "")


def _power_line(sheet: UttasSheet, index: int, name: Name, show: Show) -> str:
    p = sheet.powers[index]
    parts = [f"{p.active_points} AP", LABELS[p.key_characteristic]]
    if p.targets is not None:
        parts.append(f"vs {p.targets.title()}")
    if p.damage_dice:
        parts.append(f"{p.damage_dice}d6 {name(p.damage_type)}")
    parts.append(f"range {show(p.range_m)}")
    if p.maintained:
        parts.append("maintained")
    if p.movement_mode:
        parts.append(f"{p.movement_mode} movement")
    if p.triggered:
        parts.append("triggered")
    if p.inflicts:
        parts.append("inflicts " + _names(list(p.inflicts), name))
    if p.heals:
        parts.append("heals")
    if p.effect is not None:  # Aid, Drain, Barrier, Invisibility (power_effects)
        of = f" {LABELS[p.characteristic]}" if p.characteristic else ""
        parts.append(f"{p.effect}{of}")
    if p.limitations:
        parts.append(", ".join(p.limitations))
    return f"**{name(p.name)}** — " + ", ".join(parts)


def _martial_line(sheet: UttasSheet, index: int, name: Name, show: Show) -> str:
    m = sheet.martial_arts[index]
    parts = [m.maneuver, LABELS[m.key_characteristic]]
    if m.bonus_dice:
        parts.append(f"+{m.bonus_dice}d6 {name(m.damage_type)}")
    for label, value in (
        ("Dodge", m.dodge_bonus),
        ("Discipline", m.discipline_bonus),
        ("Armor", m.armor_bonus),
        ("Defense", m.defense_bonus),
    ):
        if value:
            parts.append(f"{value:+d} {label}")
    if m.grab:
        parts.append("grab")
    if m.range_m is not None:
        parts.append(f"ranged, range {show(m.range_m)}")
    return f"**{name(m.name)}** — " + ", ".join(parts)


def sections(
    sheet: UttasSheet, tables: UttasTables, *, full: bool, name: Name
) -> list[SheetSection]:
    """The sheet's sections: every number (``full``: its owner, a GM), or what a player sees of
    another player's character — names, no numbers. Distances read as the tables' board shows
    them (meters, or feet: ``range.board``); the sheet itself keeps meters."""
    show = tables.range.scale.show
    if not full:
        listed = [
            ("Stances", list(sheet.stances)),
            ("Weapons", [w.name for w in sheet.weapons]),
            ("Powers", [p.name for p in sheet.powers]),
            ("Martial arts and counters", [m.name for m in sheet.martial_arts]),
        ]
        if sheet.items:
            listed.append(("Items", [i.name for i in sheet.items]))
        return [
            SheetSection(title=title, lines=[_names(list(items), name)] if items else [])
            for title, items in listed
        ]
    dice, dodge, discipline = derived(sheet, tables)
    chars = [
        f"{LABELS[ch]} **{sheet.value(ch)}** ({dice[ch]}d6"
        + (" bought" if ch in sheet.characteristic_dice else "")
        + ")"
        for ch in CHARACTERISTICS
    ]
    vitals = [
        f"Speed **{sheet.speed}** actions",
        f"Health **{sheet.health}** max",
        f"Stamina **{sheet.stamina}** max",
        f"Dodge **{dodge}**" + (f" (bonus {sheet.dodge_bonus:+d})" if sheet.dodge_bonus else ""),
        f"Discipline **{discipline}**"
        + (f" (bonus {sheet.discipline_bonus:+d})" if sheet.discipline_bonus else ""),
    ]
    moves = [
        f"{mode.title()} {show(getattr(sheet.movement, mode))}"
        for mode in ("run", "leap", "swim", "fly", "warp")
        if getattr(sheet.movement, mode)
    ]
    types = sorted({*sheet.armor, *sheet.defense})
    protection = [
        f"{name(t)}: Armor {sheet.armor.get(t, 0)}, Defense {sheet.defense.get(t, 0)}"
        for t in types
    ]
    out = [
        SheetSection(title="Characteristics", lines=chars, inline=True),
        SheetSection(title="Vitals and defences", lines=vitals, inline=True),
        SheetSection(title="Movement", lines=moves or ["Cannot move"], inline=True),
        SheetSection(title="Armor and Defense", lines=protection or ["None"]),
        SheetSection(
            title="Stances",
            lines=[_names(list(sheet.stances), name)] if sheet.stances else ["None"],
            inline=True,
        ),
    ]
    if sheet.skills:
        skills = [
            f"{name(n)} {d}d6"
            + (f" ({turns} turns)" if (turns := sheet.skill_turn_count(n)) > 1 else "")
            for n, d in sheet.skills.items()
        ]
        out.append(SheetSection(title="Skills", lines=skills, inline=True))
    for title, count, line in (
        ("Weapons", len(sheet.weapons), _weapon_line),
        ("Powers", len(sheet.powers), _power_line),
        ("Martial arts and counters", len(sheet.martial_arts), _martial_line),
        ("Items", len(sheet.items), _item_line),
    ):
        if count:
            lines = [line(sheet, i, name, show) for i in range(count)]
            out.append(SheetSection(title=f"{title} ({count})", lines=lines))
    if sheet.extra_limbs:
        limbs = [
            f"{name(limb.name)}{' (arm)' if limb.is_arm else ''}" for limb in sheet.extra_limbs
        ]
        out.append(SheetSection(title="Extra limbs", lines=limbs, inline=True))
    return out
