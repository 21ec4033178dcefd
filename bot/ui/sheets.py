"""Embeds for character sheets and NPC templates. Pure presentation: no I/O, no rules (derived
values arrive computed from :func:`bot.services.sheets.uttas_derived`).

Every builder keeps within Discord's limits: title 256, field value 1024, ≤ 25 fields and 6000
characters per embed (:func:`fit_total` trims the longest fields when a big sheet would exceed it).
"""

from __future__ import annotations

from datetime import datetime

import discord
from pydantic import BaseModel

from bot.engine.uttas.sheet import CHARACTERISTICS, UttasSheet
from bot.services.sheets import SheetView, UttasDerived, ruleset_title, uttas_derived
from bot.store.sheets import SheetKind, SheetRow
from bot.ui.embeds import FIELD_MAX, fit_lines
from bot.ui.text import shown_name, shown_names

EMBED_TOTAL_MAX = 5900  # below Discord's 6000 for one message's embeds
DESCRIPTION_MAX = 4096
LABELS = {
    "agility": "Agility",
    "body": "Body",
    "charisma": "Charisma",
    "dexterity": "Dexterity",
    "ego": "Ego",
    "intelligence": "Intelligence",
    "strength": "Strength",
}


def _num(value: float) -> str:
    return f"{value:g}"


def _owner_line(row: SheetRow) -> str:
    if row.kind == "npc":
        return f"NPC template · {ruleset_title(row.ruleset)}"
    return f"Character of <@{row.owner_id}> · {ruleset_title(row.ruleset)}"


def fit_total(embed: discord.Embed, limit: int = EMBED_TOTAL_MAX) -> discord.Embed:
    """Shorten the longest field values until the embed's total length is within ``limit``."""
    while len(embed) > limit and embed.fields:
        index, field = max(enumerate(embed.fields), key=lambda pair: len(pair[1].value or ""))
        value = field.value or ""
        excess = len(embed) - limit
        keep = max(1, len(value) - excess - 2)
        lines = value[:keep].split("\n")
        shortened = "\n".join(lines[:-1]) + "\n…" if len(lines) > 1 else value[:keep] + "…"
        if len(shortened) >= len(value):
            shortened = value[: max(1, len(value) // 2)] + "…"
        embed.set_field_at(index, name=field.name, value=shortened, inline=field.inline)
    return embed


def _weapon_line(sheet: UttasSheet, index: int) -> str:
    w = sheet.weapons[index]
    strength = " + Strength dice" if w.kind in ("melee", "thrown") else ""
    parts = [
        w.kind,
        f"{w.damage_dice}d6{strength} {shown_name(w.damage_type)}",
        f"range {_num(w.range_m)} m",
    ]
    if w.required_strength:
        parts.append(f"needs Strength {w.required_strength}")
    if w.max_hits > 1:
        parts.append(f"up to {w.max_hits} hits")
    if w.light:
        parts.append("light")
    return f"**{shown_name(w.name)}** — " + ", ".join(parts)


def _power_line(sheet: UttasSheet, index: int) -> str:
    p = sheet.powers[index]
    parts = [f"{p.active_points} AP", LABELS[p.key_characteristic]]
    if p.targets is not None:
        parts.append(f"vs {p.targets.title()}")
    if p.damage_dice:
        parts.append(f"{p.damage_dice}d6 {shown_name(p.damage_type)}")
    parts.append(f"range {_num(p.range_m)} m")
    if p.maintained:
        parts.append("maintained")
    if p.movement_mode:
        parts.append(f"{p.movement_mode} movement")
    if p.triggered:
        parts.append("triggered")
    if p.inflicts:
        parts.append("inflicts " + shown_names(p.inflicts))
    if p.limitations:
        parts.append(", ".join(p.limitations))
    return f"**{shown_name(p.name)}** — " + ", ".join(parts)


def _martial_line(sheet: UttasSheet, index: int) -> str:
    m = sheet.martial_arts[index]
    parts = [m.maneuver, LABELS[m.key_characteristic]]
    if m.bonus_dice:
        parts.append(f"+{m.bonus_dice}d6 {shown_name(m.damage_type)}")
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
    return f"**{shown_name(m.name)}** — " + ", ".join(parts)


def uttas_full(sheet: UttasSheet, row: SheetRow, derived: UttasDerived) -> discord.Embed:
    """Every number of an UTTAS sheet, derived values included."""
    embed = discord.Embed(
        title=shown_name(sheet.name)[:256],
        description=_owner_line(row),
        colour=discord.Colour.green(),
    )
    chars = [
        f"{LABELS[ch]} **{sheet.value(ch)}** ({derived.dice[ch]}d6"
        + (" bought" if ch in sheet.characteristic_dice else "")
        + ")"
        for ch in CHARACTERISTICS
    ]
    embed.add_field(name="Characteristics", value="\n".join(chars), inline=True)
    vitals = [
        f"Speed **{sheet.speed}** actions",
        f"Health **{sheet.health}** max",
        f"Stamina **{sheet.stamina}** max",
        f"Dodge **{derived.dodge}**"
        + (f" (bonus {sheet.dodge_bonus:+d})" if sheet.dodge_bonus else ""),
        f"Discipline **{derived.discipline}**"
        + (f" (bonus {sheet.discipline_bonus:+d})" if sheet.discipline_bonus else ""),
    ]
    embed.add_field(name="Vitals and defences", value="\n".join(vitals), inline=True)
    moves = [
        f"{mode.title()} {_num(getattr(sheet.movement, mode))} m"
        for mode in ("run", "leap", "swim", "fly", "warp")
        if getattr(sheet.movement, mode)
    ]
    embed.add_field(name="Movement", value=fit_lines(moves, FIELD_MAX, empty="Cannot move"))
    types = sorted({*sheet.armor, *sheet.defense})
    protection = [
        f"{shown_name(t)}: Armor {sheet.armor.get(t, 0)}, Defense {sheet.defense.get(t, 0)}"
        for t in types
    ]
    embed.add_field(
        name="Armor and Defense", value=fit_lines(protection, FIELD_MAX, empty="None"), inline=False
    )
    embed.add_field(
        name="Stances",
        value=fit_lines(
            [shown_names(sheet.stances)] if sheet.stances else [], FIELD_MAX, empty="None"
        ),
    )
    if sheet.skills:
        skills = [f"{shown_name(name)} {dice}d6" for name, dice in sheet.skills.items()]
        embed.add_field(name="Skills", value=fit_lines(skills, FIELD_MAX))
    for title, count, line in (
        ("Weapons", len(sheet.weapons), _weapon_line),
        ("Powers", len(sheet.powers), _power_line),
        ("Martial arts and counters", len(sheet.martial_arts), _martial_line),
    ):
        if count:
            lines = [line(sheet, i) for i in range(count)]
            embed.add_field(
                name=f"{title} ({count})", value=fit_lines(lines, FIELD_MAX), inline=False
            )
    if sheet.extra_limbs:
        limbs = [
            f"{shown_name(limb.name)}{' (arm)' if limb.is_arm else ''}"
            for limb in sheet.extra_limbs
        ]
        embed.add_field(name="Extra limbs", value=fit_lines(limbs, FIELD_MAX))
    embed.set_footer(text=_footer(row))
    return fit_total(embed)


def uttas_public(sheet: UttasSheet, row: SheetRow) -> discord.Embed:
    """What a player sees of another player's character: names, no numbers."""
    embed = discord.Embed(
        title=shown_name(sheet.name)[:256],
        description=_owner_line(row),
        colour=discord.Colour.blurple(),
    )
    for title, names in (
        ("Stances", list(sheet.stances)),
        ("Weapons", [w.name for w in sheet.weapons]),
        ("Powers", [p.name for p in sheet.powers]),
        ("Martial arts and counters", [m.name for m in sheet.martial_arts]),
    ):
        embed.add_field(
            name=title,
            value=fit_lines([shown_names(names)] if names else [], FIELD_MAX, empty="None"),
            inline=False,
        )
    embed.set_footer(text="You see what a player would see of another player's character.")
    return fit_total(embed)


def generic(model: BaseModel, row: SheetRow, full: bool) -> discord.Embed:
    """Fallback for a ruleset without its own layout: the name, and (owner) the raw fields."""
    embed = discord.Embed(title=shown_name(row.name)[:256], description=_owner_line(row))
    if full:
        lines = [f"{key}: {value}" for key, value in model.model_dump(mode="json").items()]
        embed.add_field(name="Sheet", value=fit_lines(lines, FIELD_MAX), inline=False)
    embed.set_footer(text=_footer(row))
    return fit_total(embed)


def _footer(row: SheetRow) -> str:
    return f"Sheet {row.id} · updated {row.updated_at:%Y-%m-%d %H:%M} UTC"


def sheet_embed(view: SheetView) -> discord.Embed:
    """The embed for ``/character show`` and ``/npc show``."""
    sheet, row = view.sheet.model, view.sheet.row
    if isinstance(sheet, UttasSheet):
        return (
            uttas_full(sheet, row, uttas_derived(sheet)) if view.full else uttas_public(sheet, row)
        )
    return generic(sheet, row, view.full)


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:R>"


def sheet_list(
    rows: list[SheetRow], *, kind: SheetKind, owner_id: int | None, limit: int, mine: bool
) -> discord.Embed:
    """``/character list`` and ``/npc list``: names, rulesets, when each was last changed."""
    if kind == "npc":
        title = f"NPC templates ({len(rows)}/{limit})"
        empty = "No NPC templates yet. Add one with `/npc create` or `/npc import`."
    elif mine:
        title = f"Your characters ({len(rows)}/{limit})"
        empty = "No characters yet. Start with `/character create` or `/character import`."
    else:
        title = f"Characters ({len(rows)}/{limit})"
        empty = "No characters."
    lines = [
        f"**{shown_name(row.name)}** · {ruleset_title(row.ruleset)} · "
        f"updated {_when(row.updated_at)}"
        for row in rows
    ]
    description = fit_lines(lines, DESCRIPTION_MAX, empty=empty)
    if owner_id is not None and not mine and kind == "character":
        description = f"Characters of <@{owner_id}>\n" + description
    return discord.Embed(title=title, description=description[:DESCRIPTION_MAX])
