"""The items of a Foundry VTT Utopia actor export: weapons, armor and spells (a part of
:mod:`bot.engine.utopia.foundry`, kept apart so each module stays small).

A Foundry weapon or armor is a ``gear`` item whose numbers come from its *features*
(``system.features``: id → a feature document whose ``system.classifications`` hold the
attributes per gear classification, ``shared`` ones applying to every classification), each
taken ``featureSettings[id].stacks.value`` times — the pinned system's ``Gear._prepareFeatures``
and ``processStacks`` (``models/item/gear.mjs``): numbers add up times the stacks, a damage
formula's dice are multiplied by the stacks and formulas are joined with ``+``, a flag is set
(except ``hands``: the largest, since a weapon held in two hands twice over still takes two).
A gear item that already carries a number itself (``system.damage``, ``system.closeRange``…)
keeps it. Pure: a dict in, sheet data and notes out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot import names
from bot.engine.utopia.terms import DAMAGE_TYPES, check_damage
from bot.errors import InvalidInput

WEAPON_TA = {"fastWeapon": 1, "moderateWeapon": 2, "slowWeapon": 3, "fast": 1}
"""Foundry's ``weaponType`` → TA per attack (issue 12: fast 1, moderate 2, slow 3; ``fast`` is
the name the system's ``migrateData`` renames)."""
ARMOR_SLOT = {
    "headArmor": "head",
    "neckArmor": "neck",
    "chestArmor": "chest",
    "backArmor": "back",
    "waistArmor": "waist",
    "ringArmor": "ring",
    "handsArmor": "hands",
    "feetArmor": "feet",
    "head": "head",
}
SUBTRAIT_KEYS = {
    "dex": "dexterity",
    "spd": "speed",
    "pow": "power",
    "for": "fortitude",
    "eng": "engineering",
    "mem": "memory",
    "res": "resolve",
    "awa": "awareness",
    "por": "portrayal",
    "stu": "stunt",
    "app": "appeal",
    "lan": "language",
}
"""Foundry's default subtrait keys (``system/config.mjs`` ``CONFIG.UTOPIA.SUBTRAITS``)."""
TRAIT_KEYS = {
    "agi": "agility",
    "str": "strength",
    "int": "intellect",
    "wil": "will",
    "dis": "display",
    "cha": "charm",
}
"""Foundry's default trait keys (``CONFIG.UTOPIA.TRAITS``)."""
_NOT_STACKED = {"hands"}
"""Numbers a feature's stacks do not multiply and features do not add up (the larger wins)."""
_MOD_REFERENCE = re.compile(r"\s*([+-])?\s*@(\w+)\.mod\b")
_DICE = re.compile(r"(\d*)d(\d+)")


@dataclass
class Notes:
    """What an import could not map, in the order it was found."""

    lines: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.lines.append(text)


LISTED_MAX = 12
"""Names one note lists before it counts the rest ("… and 9,988 more")."""


def listed(found: list[str], separator: str = ", ") -> str:
    """``found`` joined, the first :data:`LISTED_MAX` of them (each cut to 60 characters) and
    then how many more: a note stays short and never drops a name silently."""
    shown = separator.join(name[:60] for name in found[:LISTED_MAX])
    rest = len(found) - LISTED_MAX
    return f"{shown} and {rest:,} more" if rest > 0 else shown


def number(value: Any, where: str) -> float:
    """A JSON number (not a boolean). Raises :class:`InvalidInput` naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"`{where}` is {_shown(value)}, not a number: this export is malformed.")
    return float(value)


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    """A JSON object. Raises :class:`InvalidInput` naming ``where``."""
    if not isinstance(value, Mapping):
        raise InvalidInput(
            f"`{where}` is {_shown(value)}, not an object: this export is malformed."
        )
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _stacks(settings: Mapping[str, Any], feature_id: str, where: str) -> int:
    entry = settings.get(feature_id)
    if not isinstance(entry, Mapping):
        return 1
    stacks = entry.get("stacks")
    if isinstance(stacks, Mapping) and "value" in stacks:
        return max(1, int(number(stacks["value"], f"{where}.featureSettings.{feature_id}")))
    return 1


def _scaled(formula: str, stacks: int) -> str:
    """Foundry's ``Roll.alter(stacks, 0)``: every dice count multiplied by ``stacks``."""
    if stacks == 1:
        return formula
    return _DICE.sub(lambda m: f"{int(m.group(1) or 1) * stacks}d{m.group(2)}", formula)


def gear_attributes(item: Mapping[str, Any], classification: str, where: str) -> dict[str, Any]:
    """The attributes of a gear item for its ``classification`` (``fastWeapon``,
    ``chestArmor``, ``shield``…): its features merged as the pinned system merges them, then
    whatever the item itself carries."""
    system = mapping(item.get("system", {}), f"{where}.system")
    features = mapping(system.get("features") or {}, f"{where}.system.features")
    settings = mapping(system.get("featureSettings") or {}, f"{where}.system.featureSettings")
    merged: dict[str, Any] = {}
    for feature_id, feature in features.items():
        at = f"{where}.system.features.{feature_id}"
        body = mapping(mapping(feature, at).get("system", {}), f"{at}.system")
        classes = mapping(body.get("classifications") or {}, f"{at}.system.classifications")
        attrs = {
            **mapping(classes.get("shared") or {}, f"{at}.classifications.shared"),
            **mapping(classes.get(classification) or {}, f"{at}.classifications"),
        }
        stacks = _stacks(settings, feature_id, f"{where}.system")
        for key, value in attrs.items():
            _merge(merged, key, value, stacks)
    for key in ("damage", "damageType", "closeRange", "farRange", "reach", "hands", "ignoreSHP"):
        if key in system and system[key] not in (None, ""):
            merged[key] = system[key]
    return merged


def _merge(merged: dict[str, Any], key: str, value: Any, stacks: int) -> None:
    if key in _NOT_STACKED:  # a weapon held in two hands twice over is still two-handed
        merged[key] = max(merged.get(key, 0), value) if isinstance(value, int | float) else value
    elif isinstance(value, bool):
        merged[key] = value
    elif isinstance(value, int | float):
        merged[key] = merged.get(key, 0) + value * stacks
    elif isinstance(value, str) and key == "damage":
        part = _scaled(value, stacks)
        merged[key] = f"{merged[key]} + {part}" if merged.get(key) else part
    elif isinstance(value, Mapping):
        inner = merged.setdefault(key, {})
        if isinstance(inner, dict):
            for k, v in value.items():
                _merge(inner, k, v, stacks)
    elif value not in (None, ""):
        merged[key] = value


def _modifier_of(key: Any) -> str | None:
    if not isinstance(key, str):
        return None
    return SUBTRAIT_KEYS.get(key) or TRAIT_KEYS.get(key)


def weapon(item: Mapping[str, Any], where: str, notes: Notes) -> dict[str, Any] | None:
    """One weapon's sheet data, or None (with the reason noted) when it cannot be one."""
    name = str(item.get("name") or "Weapon")
    system = mapping(item.get("system", {}), f"{where}.system")
    kind = system.get("weaponType")
    ta = WEAPON_TA.get(kind) if isinstance(kind, str) else None
    if ta is None:
        why = "has no weaponType" if kind is None else f"weaponType {_shown(kind)} has no TA cost"
        notes.add(f"weapon {name}: {why}; not imported")
        return None
    attrs = gear_attributes(item, str(kind), where)
    damage, modifier = _damage(attrs.get("damage"), name, notes)
    if damage is None:
        notes.add(f"weapon {name}: no damage formula; not imported")
        return None
    damage_type = str(attrs.get("damageType") or "physical").lower()
    if damage_type not in DAMAGE_TYPES:
        notes.add(f"weapon {name}: damage type {damage_type!r} is not one of ours; not imported")
        return None
    data: dict[str, Any] = {
        "name": name,
        "ta_cost": ta,
        "damage": damage,
        "damage_type": damage_type,
        "ignores_shp": bool(attrs.get("ignoreSHP", False)),
    }
    trait_key = _reach(data, attrs, name, where, notes)
    chosen = _modifier_of(attrs.get(trait_key)) or modifier
    if chosen is not None:
        data["damage_modifier"] = chosen
    if "hands" in attrs:
        hands = int(number(attrs["hands"], f"{where} hands"))
        if not 0 <= hands <= 2:
            notes.add(f"weapon {name}: {hands} hands read as 2")
        data["hands"] = min(max(hands, 0), 2)
    for unused in sorted(k for k in set(attrs) & _WEAPON_EXTRAS if attrs[k]):
        notes.add(f"weapon {name}: {unused} not modelled")
    return data


def _reach(
    data: dict[str, Any], attrs: Mapping[str, Any], name: str, where: str, notes: Notes
) -> str:
    """Sets a weapon's ranges (ranged: close/far; melee: reach); returns the Foundry key of the
    trait whose modifier its damage adds (melee or ranged)."""
    close = float(number(attrs.get("closeRange", 0), f"{where} closeRange"))
    far = float(number(attrs.get("farRange", 0), f"{where} farRange"))
    trait_key = "meleeDamageModifierTrait"
    if far > 0 or close > 0:
        if not 0 < close <= far:
            fixed_far = max(close, far)
            fixed_close = min(close, far) if min(close, far) > 0 else fixed_far / 2
            notes.add(
                f"weapon {name}: range {close:g}/{far:g} read as {fixed_close:g}/{fixed_far:g}"
            )
            close, far = fixed_close, fixed_far
        data.update(kind="ranged", close_m=close, far_m=far)
        trait_key = "rangedDamageModifierTrait"
    elif "reach" in attrs:
        data["reach_m"] = max(1.0, number(attrs["reach"], f"{where} reach"))
    return trait_key


_WEAPON_EXTRAS = {
    "accuracyFavor",
    "ignoreDefense",
    "nonLethal",
    "returnDamage",
    "rechargeAfter",
    "blindingActions",
    "confusingActions",
    "shpPercentage",
    "dhpPercentage",
}


def _damage(formula: Any, name: str, notes: Notes) -> tuple[str | None, str | None]:
    """A Foundry damage formula → (our expression, the trait whose modifier it adds). Refers
    like ``@pow.mod`` become ``damage_modifier``; a formula the ``d20`` check refuses is noted."""
    if not isinstance(formula, str) or not formula.strip():
        return None, None
    modifier: str | None = None
    refs = _MOD_REFERENCE.findall(formula)
    if refs:
        sign, key = refs[0]
        modifier = _modifier_of(key) if sign != "-" else None
        if len(refs) > 1 or modifier is None:
            notes.add(f"weapon {name}: damage {formula!r}: only one added @trait.mod is kept")
        formula = _MOD_REFERENCE.sub("", formula).strip().lstrip("+").strip()
    try:
        return check_damage(formula), modifier
    except ValueError as error:
        notes.add(f"weapon {name}: damage {formula!r} not usable ({error})")
        return None, None


def armor(item: Mapping[str, Any], worn_ids: set[str], where: str, notes: Notes) -> dict[str, Any]:
    """One armor piece or shield: its slot, its defenses per damage type, whether it is worn
    (equipped in a slot, or ``system.equipped``)."""
    name = str(item.get("name") or "Armor")
    system = mapping(item.get("system", {}), f"{where}.system")
    gear_type = system.get("type")
    classification = "shield" if gear_type == "shield" else str(system.get("armorType"))
    slot = "hands" if gear_type == "shield" else ARMOR_SLOT.get(classification)
    if slot is None:
        notes.add(f"armor {name}: armorType {_shown(classification)} read as chest")
        slot = "chest"
    attrs = gear_attributes(item, classification, where)
    defenses: dict[str, int] = {}
    raw = attrs.get("armorDefenses") or system.get("defenses") or {}
    for damage_type, value in mapping(raw, f"{where} armorDefenses").items():
        amount = int(number(value, f"{where} armorDefenses.{damage_type}"))
        if damage_type not in DAMAGE_TYPES:
            notes.add(f"armor {name}: {damage_type} defense {amount} has no damage type of ours")
        elif amount:
            defenses[damage_type] = amount
    for extra in ("block", "dodge"):
        if attrs.get(extra):
            notes.add(f"armor {name}: +{attrs[extra]} {extra.title()} not modelled")
    worn = str(item.get("_id")) in worn_ids or system.get("equipped") is True
    return {"name": name, "slot": slot, "defenses": defenses, "worn": worn}


def spell(item: Mapping[str, Any], where: str, notes: Notes) -> dict[str, Any]:
    """A spell: its name and Stamina cost. Its features are references into the Foundry
    world (``system.features``: UUIDs), so damage and range cannot be read from an export."""
    name = str(item.get("name") or "Spell")
    system = mapping(item.get("system", {}), f"{where}.system")
    data: dict[str, Any] = {"name": name}
    cost = system.get("cost")
    if cost is not None:
        data["stamina"] = max(0, int(number(cost, f"{where}.system.cost")))
    if system.get("features"):
        notes.add(
            f"spell {name}: its features (damage, range, area) are references into the "
            "Foundry world; add them by hand"
        )
    return data


def unique_names(
    items: list[dict[str, Any]], notes: Notes, taken: set[str]
) -> list[dict[str, Any]]:
    """Items whose names equal one in ``taken`` (keys by :func:`bot.names.key`, updated) or
    an earlier item's get a number, noted: weapon, spell and armor names are one namespace."""
    out: list[dict[str, Any]] = []
    for item in items:
        name = item["name"]
        if names.key(name) in taken:
            renamed = names.numbered(name, taken)
            notes.add(f"{name}: a second item of that name renamed {renamed}")
            item = {**item, "name": renamed}
        taken.add(names.key(item["name"]))
        out.append(item)
    return out
