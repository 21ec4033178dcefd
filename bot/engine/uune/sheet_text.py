"""How a Uune sheet reads (``/character show``, ``/npc show``): a PC's level and what is left
to place, vitality, focus, money and income, each resource with the dice it adds (an item's
special beside it), the bonds, and the items that are not resources; an NPC's statblock whole —
its Scores, Wellbeing (vitality as it stands, wounds, stress), each attack with its specials,
its incentives, objections and notes. Another player's character shows its level."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core.contract import SheetSection
from bot.engine.uune.health import Health
from bot.engine.uune.sheet import UuneSheet, UuneStatblock, to_place
from bot.engine.uune.tables import UuneTables

Name = Callable[[str], str]


def vitals(h: Health, t: UuneTables) -> list[str]:
    """ "Vitality 50/50", "Wounds 0/1/0" (lethal/heavy/light), "Stress 0/0/0"
    (traumatic/heavy/light)."""
    w = "/".join(str(n) for n in (h.wounds.lethal, h.wounds.heavy, h.wounds.light))
    s = "/".join(str(n) for n in (h.stress.traumatic, h.stress.heavy, h.stress.light))
    return [f"Vitality {h.now(t)}/{h.maximum(t)}", f"Wounds {w}", f"Stress {s}"]


def statblock_sections(
    sheet: UuneStatblock, t: UuneTables, *, full: bool, name: Name
) -> list[SheetSection]:
    """An NPC's statblock, whole for a GM (``full``); nothing of it for a player."""
    if not full:
        return [SheetSection(title=name(sheet.name), lines=[])]
    health = Health(
        base=sheet.vitality, current=sheet.vitality_now, wounds=sheet.wounds, stress=sheet.stress
    )
    lines = [
        f"Social {sheet.social} · Perceptiveness {sheet.perceptiveness} · "
        f"Defensiveness {sheet.defensiveness}",
        " · ".join(vitals(health, t)),
    ]
    for a in sheet.attacks:
        specials = "".join(f" — {name(s)}" for s in a.specials)
        lines.append(f"{name(a.name)}: difficulty {a.difficulty}, {a.reach}{specials}")
    out = [SheetSection(title=name(sheet.name), lines=lines)]
    roleplay = [
        *(f"Incentive: {name(i)}" for i in sheet.incentives),
        *(f"Objection: {name(o)}" for o in sheet.objections),
    ]
    if sheet.notes:
        roleplay.append(f"Notes: {name(sheet.notes)}")
    out.append(SheetSection(title="Roleplay", lines=roleplay))
    return out


def character_sections(
    sheet: UuneSheet, t: UuneTables, *, full: bool, name: Name
) -> list[SheetSection]:
    """A PC's sheet, whole for its owner or a GM (``full``), else its level."""
    if not full:
        return [SheetSection(title=name(sheet.name), lines=[f"Level {sheet.level}"])]
    specials = {i.name: i.special for i in sheet.items if i.resource and i.special}
    resources = [
        f"{name(r)} ({sheet.resource_dice(r)}d6)"
        + (f" — {name(specials[r])}" if specials.get(r) else "")
        for r in sheet.resources()
    ]
    purse = f"Money {sheet.money}" + (f" · income {sheet.income}" if sheet.income else "")
    out = [
        SheetSection(
            title="Level",
            lines=[f"Level {sheet.level} · to place: {to_place(sheet, t)}"],
            inline=True,
        ),
        SheetSection(
            title="Vitals",
            lines=[f"Vitality {sheet.vitality} · focus {sheet.focus}", purse],
            inline=True,
        ),
        SheetSection(title="Resources", lines=resources or ["none"]),
    ]
    if sheet.bonds:
        out.append(
            SheetSection(title="Bonds", lines=[f"{b.kind}: {name(b.text)}" for b in sheet.bonds])
        )
    others = [
        name(i.name) + (f" — {name(i.special)}" if i.special else "")
        for i in sheet.items
        if not i.resource
    ]
    if others:
        out.append(SheetSection(title="Other items (not resources)", lines=others))
    return out
