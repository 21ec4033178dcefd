"""Import a Utopia character from a Foundry VTT actor export (issue 12, "Bring characters from
where Utopia players keep them").

The game's official virtual-tabletop system is ``VoltaicGRiD/utopia-foundryvtt``; its actor
data model is read at the commit :data:`FOUNDRY_COMMIT` (``models/base-actor.mjs``; the
character model ``models/actor/character.mjs``, the items ``models/item/gear.mjs`` and
``models/item/feature-options/*.mjs``, the world's default trait and damage-type settings
``system/config.mjs``: the versions ``docs/rules/utopia.md`` names). Foundry's "Export Data"
writes the actor's *source* data: ``name``, ``type``, ``system`` and ``items``; everything
Foundry derives at run time (trait totals, the pools' maxima, defenses) is derived here the way
that model derives it. :func:`from_foundry` is pure: a parsed JSON object in, sheet data and the
list of what it could not map out — nothing is dropped silently. The field-by-field table is in
``docs/rules/utopia.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bot import names
from bot.engine.core.json_words import said
from bot.engine.utopia import foundry_items as items
from bot.engine.utopia.foundry_items import (
    SUBTRAIT_KEYS,
    TRAIT_KEYS,
    Notes,
    mapping,
    number,
)
from bot.engine.utopia.sheet import DAMAGE_TYPES, SIZES, UtopiaSheet
from bot.errors import InvalidInput

FOUNDRY_REPOSITORY = "VoltaicGRiD/utopia-foundryvtt"
FOUNDRY_COMMIT = "0231ac97b6e7cdc172a46db05ddc4383eebb1bf7"
"""The pinned commit of ``models/base-actor.mjs`` (the actor schema this import reads)."""
ACTOR_TYPES = ("character", "npc")
SIZE_ALIASES = {"sm": "small", "med": "medium", "lg": "large"}
DEFAULT_TA, DEFAULT_IA = 6, 2  # the system's turnActionsMax / interruptActionsMax defaults
_READ = {
    "subtraits",
    "traits",
    "hitpoints",
    "stamina",
    "block",
    "dodge",
    "innateDefenses",
    "armorDefenses",
    "innateTravel",
    "size",
    "turnActions",
    "interruptActions",
    "equipmentSlots",
    "augmentSlots",
    "handheldSlots",
    "level",
    "body",
    "mind",
    "soul",
    "constitution",
    "endurance",
    "effervescence",
}


@dataclass(frozen=True)
class FoundryImport:
    """The result of an import: ``data`` (valid :class:`UtopiaSheet` data, a JSON object),
    the ``sheet`` it validates to, and ``unmapped``: one line per thing of the export the sheet
    does not hold or holds differently, to show the player."""

    data: dict[str, Any]
    sheet: UtopiaSheet
    unmapped: tuple[str, ...]


def is_foundry_export(data: Any) -> bool:
    """Whether a parsed JSON object looks like a Foundry actor export (a ``system`` object and
    a Foundry actor ``type``) rather than one of our own sheets."""
    return (
        isinstance(data, Mapping)
        and isinstance(data.get("system"), Mapping)
        and data.get("type") in (*ACTOR_TYPES, "creature")
    )


def from_foundry(export: Any) -> FoundryImport:
    """Map a Foundry VTT Utopia actor export (the parsed JSON of "Export Data") to Utopia sheet
    data.

    Raises :class:`InvalidInput` with a specific message for malformed input: not an object,
    no ``system`` object, an actor type other than ``character`` or ``npc``, no name, a number
    that is not a number, and values our sheet refuses (e.g. a subtrait above 50) — naming
    the field. Returns a :class:`FoundryImport`."""
    if not isinstance(export, Mapping):
        raise InvalidInput("A Foundry VTT actor export is a JSON object (`{ ... }`).")
    system = export.get("system")
    if not isinstance(system, Mapping):
        raise InvalidInput(
            "This is not a Foundry VTT actor export: it has no `system` object (export the "
            "actor with Foundry's Export Data)."
        )
    kind = export.get("type")
    if kind not in ACTOR_TYPES:
        hint = " (a creature is built from a body, class and kit)" if kind == "creature" else ""
        raise InvalidInput(
            f"A Foundry actor of type {names.quoted(str(kind))} cannot be imported{hint}: export a "
            "character or an NPC."
        )
    name = export.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("The Foundry export has no actor `name`.")
    raw_items = export.get("items", [])
    if not isinstance(raw_items, list):
        raise InvalidInput("`items` is not a list: this export is malformed.")
    for index, item in enumerate(raw_items):
        mapping(item, f"items[{index}]")

    notes = Notes()
    data: dict[str, Any] = {"system": "utopia", "name": name}
    data["subtraits"], data["gifted"] = _subtraits(system, notes)
    _traits(system, notes)
    data.update(_pools(system, raw_items, notes))
    data.update(_ratings(system, raw_items, notes))
    data["defenses"] = _defenses(system, notes)
    data["travel"] = _travel(system, notes)
    data["size"] = _size(system, notes)
    data.update(_actions(system, notes))
    data.update(_gear(system, raw_items, notes))
    ignored = sorted(k for k in system if k not in _READ)
    if ignored:
        notes.add("not used by the Utopia sheet: system." + items.listed(ignored, ", system."))
    try:
        sheet = UtopiaSheet.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(the sheet)"
        message = said(first)
        more = len(error.errors()) - 1
        raise InvalidInput(
            f"The Foundry export does not make a valid Utopia sheet: {names.code(where)}: {message}"
            + (f" (and {more} more)" if more else "")
        ) from None
    return FoundryImport(data=data, sheet=sheet, unmapped=tuple(notes.lines))


def _subtraits(system: Mapping[str, Any], notes: Notes) -> tuple[dict[str, int], list[str]]:
    """Each subtrait's score is its ``value`` + ``bonus`` (Foundry ``_prepareTraits``; a total
    of 0 counts as 1); ``gifted`` flags are kept."""
    raw = mapping(system.get("subtraits"), "system.subtraits")
    scores: dict[str, int] = {}
    gifted: list[str] = []
    for key, ours in SUBTRAIT_KEYS.items():
        entry = raw.get(key)
        if entry is None:
            notes.add(f"subtrait {key} ({ours}) missing: score 1")
            continue
        entry = mapping(entry, f"system.subtraits.{key}")
        value = number(entry.get("value", 0), f"system.subtraits.{key}.value")
        bonus = number(entry.get("bonus", 0), f"system.subtraits.{key}.bonus")
        total = int(value + bonus)
        scores[ours] = total if total != 0 else 1
        if entry.get("gifted") is True:
            gifted.append(ours)
    for key in sorted(set(raw) - set(SUBTRAIT_KEYS)):
        notes.add(f"subtrait {key}: not one of Utopia's twelve (a world setting?); not imported")
    return scores, gifted


def _traits(system: Mapping[str, Any], notes: Notes) -> None:
    """A trait's score is the sum of its subtraits here; a trait's own value or bonus in
    Foundry has no field of ours, so it is noted."""
    raw = system.get("traits")
    if raw is None:
        return
    for key, entry in mapping(raw, "system.traits").items():
        entry = mapping(entry, f"system.traits.{key}")
        extra = number(entry.get("value", 0), f"system.traits.{key}.value") + number(
            entry.get("bonus", 0), f"system.traits.{key}.bonus"
        )
        ours = TRAIT_KEYS.get(key, key)
        if extra:
            notes.add(f"trait {ours}: its own {extra:+g} is not kept (a trait is its subtraits)")


def _talent_points(system: Mapping[str, Any], raw_items: list[Any]) -> dict[str, float]:
    """Body, mind and soul: the actor's own plus every talent's (``_prepareTalents``)."""
    points = {p: number(system.get(p, 0), f"system.{p}") for p in ("body", "mind", "soul")}
    for index, item in enumerate(raw_items):
        if item.get("type") == "talent":
            talent = mapping(item.get("system", {}), f"items[{index}].system")
            for p in points:
                points[p] += number(talent.get(p, 0), f"items[{index}].system.{p}")
    return points


def _pools(system: Mapping[str, Any], raw_items: list[Any], notes: Notes) -> dict[str, int]:
    """SHP max = stored max + body × constitution + level; DHP: soul × effervescence;
    Stamina: mind × endurance (Foundry ``_prepareAttributes``)."""
    points = _talent_points(system, raw_items)
    level = number(system.get("level", 0), "system.level")
    hitpoints = mapping(system.get("hitpoints", {}), "system.hitpoints")
    pools = {
        "shp": (hitpoints.get("surface", {}), "system.hitpoints.surface", "body", "constitution"),
        "dhp": (hitpoints.get("deep", {}), "system.hitpoints.deep", "soul", "effervescence"),
        "stamina": (system.get("stamina", {}), "system.stamina", "mind", "endurance"),
    }
    out: dict[str, int] = {}
    for ours, (raw, where, point, factor) in pools.items():
        pool = mapping(raw, where)
        stored = number(pool.get("max", 0), f"{where}.max")
        per = number(system.get(factor, 0), f"system.{factor}")
        maximum = int(stored + points[point] * per + level)
        current = pool.get("value")
        if maximum < 1:
            raise InvalidInput(
                f"The Foundry export gives {ours.upper()} no maximum (`{where}.max` + "
                f"{point} × {factor} + level = {maximum}); a sheet needs at least 1."
            )
        if current is not None and number(current, f"{where}.value") != maximum:
            notes.add(
                f"{ours.upper()} now {number(current, f'{where}.value'):g} of {maximum}: "
                "the sheet keeps the maximum only"
            )
        out[ours] = maximum
    return out


def _species(raw_items: list[Any]) -> Mapping[str, Any] | None:
    for index, item in enumerate(raw_items):
        if item.get("type") == "species":
            return mapping(item.get("system", {}), f"items[{index}].system")
    return None


def _ratings(system: Mapping[str, Any], raw_items: list[Any], notes: Notes) -> dict[str, int]:
    """Block and Dodge Ratings: the species item's ``block.quantity`` / ``dodge.quantity`` when
    the actor has a species (it sets them: ``prepareSpeciesData``), else the actor's own."""
    species = _species(raw_items)
    out: dict[str, int] = {}
    for ours, key, sides in (("block_rating", "block", 4), ("dodge_rating", "dodge", 12)):
        own = mapping(system.get(key, {}), f"system.{key}")
        quantity = number(own.get("quantity", 1), f"system.{key}.quantity")
        source = species.get(key) if species is not None else None
        if isinstance(source, Mapping) and "quantity" in source:
            quantity = number(source["quantity"], f"species {key}.quantity")
        size = own.get("size", sides)
        if number(size, f"system.{key}.size") != sides:
            notes.add(f"{key.title()} dice d{size:g}: Utopia's {key.title()} is d{sides}")
        out[ours] = int(quantity)
    return out


def _defenses(system: Mapping[str, Any], notes: Notes) -> dict[str, int]:
    """Defenses on top of the innate ones: the stored ``innateDefenses`` (the world setting's
    ``initialDefense`` of 1 is added at run time, as our tables add it) plus ``armorDefenses``."""
    out: dict[str, int] = {}
    for field in ("innateDefenses", "armorDefenses"):
        for key, value in mapping(system.get(field, {}), f"system.{field}").items():
            amount = int(number(value, f"system.{field}.{key}"))
            if key not in DAMAGE_TYPES:
                if amount:
                    notes.add(f"{field}.{key} ({amount}): not a damage type of ours")
                continue
            if amount:
                out[key] = out.get(key, 0) + amount
    return out


def _travel(system: Mapping[str, Any], notes: Notes) -> dict[str, Any]:
    """Innate travel: a formula ``@spd.total`` is the Speed score (our default), a number is
    meters; anything else is noted and left to the default."""
    raw = mapping(system.get("innateTravel", {}), "system.innateTravel")
    out: dict[str, Any] = {}
    for mode in ("land", "water", "air"):
        entry = raw.get(mode)
        if entry is None:
            continue
        speed = mapping(entry, f"system.innateTravel.{mode}").get("speed")
        text = str(speed).strip() if speed is not None else ""
        if mode == "land" and text in ("@spd.total", ""):
            continue
        try:
            meters = float(text or 0)
        except ValueError:
            notes.add(f"{mode} travel {text!r}: a formula; the default used")
            continue
        out[mode] = max(meters, 0.0)
        if entry.get("stamina"):
            notes.add(f"{mode} travel costs {entry['stamina']} Stamina in Foundry: not modelled")
    return out


def _size(system: Mapping[str, Any], notes: Notes) -> str:
    raw = system.get("size", "medium")
    size = SIZE_ALIASES.get(str(raw), str(raw))
    if size not in SIZES:
        notes.add(f"size {raw!r}: not a size of ours; medium")
        return "medium"
    return size


def _actions(system: Mapping[str, Any], notes: Notes) -> dict[str, int]:
    """``turnActions.max`` / ``interruptActions.max`` other than the defaults (6, 2)."""
    out: dict[str, int] = {}
    for key, ours, default, cap in (
        ("turnActions", "turn_actions", DEFAULT_TA, 9),
        ("interruptActions", "interrupt_actions", DEFAULT_IA, 3),
    ):
        raw = system.get(key)
        if raw is None:
            continue
        maximum = int(
            number(mapping(raw, f"system.{key}").get("max", default), f"system.{key}.max")
        )
        if maximum == default:
            continue
        if 1 <= maximum <= cap:
            out[ours] = maximum
        else:
            notes.add(f"{key}.max {maximum}: outside 1–{cap}; the default used")
    return out


def _worn_ids(system: Mapping[str, Any]) -> set[str]:
    worn: set[str] = set()
    for field in ("equipmentSlots", "augmentSlots"):
        slots = system.get(field)
        if not isinstance(slots, Mapping):
            continue
        equipped = slots.get("equipped", slots)
        if isinstance(equipped, Mapping):
            for ids in equipped.values():
                if isinstance(ids, list):
                    worn.update(str(i) for i in ids)
    hand = system.get("handheldSlots")
    if isinstance(hand, Mapping) and isinstance(hand.get("equipped"), list):
        worn.update(str(i) for i in hand["equipped"])
    return worn


def _gear(system: Mapping[str, Any], raw_items: list[Any], notes: Notes) -> dict[str, Any]:
    """Weapons, armor and spells from the items; other item types are counted in a note."""
    worn = _worn_ids(system)
    weapons: list[dict[str, Any]] = []
    armor: list[dict[str, Any]] = []
    spells: list[dict[str, Any]] = []
    other: dict[str, list[str]] = {}
    for index, item in enumerate(raw_items):
        where = f"items[{index}]"
        kind = item.get("type")
        body = mapping(item.get("system", {}), f"{where}.system")
        gear_type = body.get("type") if kind == "gear" else None
        if gear_type == "weapon":
            found = items.weapon(item, where, notes)
            if found is not None:
                weapons.append(found)
        elif gear_type in ("armor", "shield"):
            armor.append(items.armor(item, worn, where, notes))
        elif kind == "spell":
            spells.append(items.spell(item, where, notes))
        else:
            label = f"{kind} ({gear_type})" if gear_type else str(kind)
            other.setdefault(label, []).append(str(item.get("name") or "?"))
    used_for = {
        "talent": "only their body, mind and soul points count (SHP, DHP, Stamina maxima)",
        "species": "only its Block and Dodge Ratings count",
    }
    for label, found_names in sorted(other.items()):
        why = used_for.get(label, "not imported")
        notes.add(f"{label} items ({items.listed(found_names)}): {why}")
    taken: set[str] = set()
    return {
        "weapons": items.unique_names(weapons, notes, taken),
        "spells": items.unique_names(spells, notes, taken),
        "armor": items.unique_names(armor, notes, taken),
    }
