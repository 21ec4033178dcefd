"""Pure UTTAS rule functions: numbers in, numbers out. Each cites the section it implements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bot import names
from bot.engine.core.scale import METERS
from bot.engine.uttas.sheet import (
    CHARACTERISTICS,
    Characteristic,
    MartialArt,
    MovementMode,
    Power,
    Target,
    UttasSheet,
    Weapon,
)
from bot.engine.uttas.state import SPRINTING, Combatant
from bot.engine.uttas.tables import BasicManeuver, UttasTables
from bot.errors import NotFound


def characteristic_dice(value: int, tables: UttasTables) -> int:
    """Dice (d6) a characteristic value gives. The text is silent; default ``value // 5``, at
    least the table's minimum. Returns a dice count (0–100)."""
    cd = tables.characteristic_dice
    return max(cd.minimum, min(100, value // cd.divisor))


def change_effect(effect: str, characteristic: str) -> str:
    """The effect an Aid or Drain power leaves on ``characteristic`` ("Aided Strength"); its
    level is the points added or taken (:mod:`bot.engine.uttas.power_effects`)."""
    return f"{'Aided' if effect == 'aid' else 'Drained'} {characteristic.title()}"


_CHANGES: dict[str, tuple[str, int]] = {
    change_effect(kind, ch): (ch, sign)
    for kind, sign in (("aid", 1), ("drain", -1))
    for ch in ("agility", "body", "charisma", "dexterity", "ego", "intelligence", "strength")
}


def effective(c: Combatant, characteristic: Characteristic) -> int:
    """Characteristic after the GM's Aid/Drain (``characteristic_mods``), Aid and Drain powers
    (their effects, :func:`change_effect`) and Sprint (Dexterity halved, UTTAS "Full Move"),
    clamped to 0–100."""
    value = c.sheet.value(characteristic) + c.characteristic_mods.get(characteristic, 0)
    effects = c.effects
    if effects:  # usually none (the hot path: six calls per attack and reaction)
        for e in effects:
            change = _CHANGES.get(e.name)
            if change is not None and change[0] == characteristic:
                value += change[1] * e.level
        if characteristic == "dexterity" and c.has(SPRINTING):
            value //= 2
    return 0 if value < 0 else 100 if value > 100 else value


def dice_of(
    c: Combatant, characteristic: Characteristic, tables: UttasTables, *, natural: bool = False
) -> int:
    """Dice of a characteristic: the sheet's override, else derived from the (effective, or with
    ``natural`` the sheet's) value. Aid/Drain change the dice, never a natural override count."""
    override = c.sheet.characteristic_dice.get(characteristic)
    if natural:
        return (
            override
            if override is not None
            else characteristic_dice(c.sheet.value(characteristic), tables)
        )
    delta = c.characteristic_mods.get(characteristic, 0)
    if override is not None:
        base = characteristic_dice(c.sheet.value(characteristic), tables)
        shifted = characteristic_dice(max(0, c.sheet.value(characteristic) + delta), tables)
        return max(0, min(100, override + shifted - base))
    return characteristic_dice(effective(c, characteristic), tables)


def derived_defence(c: Combatant, stat: Target, tables: UttasTables) -> int:
    """Dodge or Discipline before stance/reaction bonuses. Text silent on the formula; default
    ``10 + floor((Agility + Dexterity) / 2)`` for Dodge, ``10 + floor((Ego + Intelligence) / 2)``
    for Discipline, plus the sheet's bonus (``data/uttas/tables.json``)."""
    d = tables.dodge if stat == "dodge" else tables.discipline
    total = 0
    for ch in d.characteristics:  # a plain loop: a generator costs more here (every hit)
        total += effective(c, ch)
    bonus = c.sheet.dodge_bonus if stat == "dodge" else c.sheet.discipline_bonus
    return d.base + total // d.divisor + bonus


def accuracy_bonus(c: Combatant, key: Characteristic) -> int:
    """UTTAS "Accuracy Checks": ``floor((key characteristic + Dexterity) / 2)``, added to 3d6."""
    return (effective(c, key) + effective(c, "dexterity")) // 2


def hits(accuracy_total: int, target_number: int) -> bool:
    """UTTAS "Accuracy Checks": the attack succeeds only if strictly higher than the defence."""
    return accuracy_total > target_number


def health_damage(dice_count: int, armor: int) -> int:
    """UTTAS "Damage", Health: one point per damage die, minus Armor, never below 0."""
    return max(0, dice_count - armor)


def stamina_damage(rolled_total: int, defense: int) -> int:
    """UTTAS "Damage", Stamina: the rolled total minus Defense, never below 0."""
    return max(0, rolled_total - defense)


def range_increment_bounds(tables: UttasTables, upto_m: float) -> list[int]:
    """Upper bounds (meters) of the range increments, extended past the table by widening each
    increment ``width_step_m`` more than the one before (UTTAS "Range Modifiers": 281–360 is 80 m,
    so the next is 361–450)."""
    bounds = list(tables.range.increments_m)
    while bounds[-1] < upto_m and len(bounds) < 1000:
        width = bounds[-1] - (bounds[-2] if len(bounds) > 1 else 0)
        bounds.append(bounds[-1] + width + tables.range.width_step_m)
    return bounds


def range_increment(distance_m: float, tables: UttasTables) -> int:
    """Index (0-based) of the increment containing ``distance_m`` meters (0–10 m is 0)."""
    bounds = range_increment_bounds(tables, distance_m)
    for i, upper in enumerate(bounds):
        if distance_m <= upper:
            return i
    return len(bounds)  # pragma: no cover - bounds always extend far enough


def increments_beyond(distance_m: float, normal_range_m: float, tables: UttasTables) -> int:
    """How many range increments ``distance_m`` lies beyond the normal range (0 if within).
    UTTAS "Range Modifiers": 1 → a Disadvantage, 2 → 2d6 off, 3 → automatic failure."""
    if distance_m <= normal_range_m:
        return 0
    return max(0, range_increment(distance_m, tables) - range_increment(normal_range_m, tables))


def meters_from_spaces(spaces: int, tables: UttasTables) -> float:
    """UTTAS "Game Scale": a grid space is 2 meters."""
    return spaces * tables.range.meters_per_space


def even_floor(meters: float) -> int:
    """UTTAS "Full Move": an odd movement speed moves up to the last even number."""
    whole = int(meters)
    return whole - (whole % 2)


def move_stamina(meters: float, mode: MovementMode, sheet: UttasSheet, tables: UttasTables) -> int:
    """UTTAS "Stamina Costs", full move or Sprint: 1 per 10 m moved (minimum 1); Leap and Swim
    1 per 5 m (minimum 1) unless a power boosts them; a movement power costs the higher of its
    activation cost and 1 per 10 m. ``meters`` > 0."""
    st = tables.stamina
    power = sheet.movement_power(mode)
    per = st.meters_per_stamina
    if mode in ("leap", "swim") and power is None:
        per = st.meters_per_stamina_leap_swim
    cost = max(1, int(meters // per))
    if power is not None:
        cost = max(cost, power_stamina(power, tables))
    return cost


def power_stamina(power: Power, tables: UttasTables) -> int:
    """UTTAS "Activating Powers": 1 Stamina per 5 Active Points; maintained powers double."""
    base = power.active_points // tables.stamina.active_points_per_stamina
    return base * 2 if power.maintained else base


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """Everything needed to resolve an attack, whatever its source."""

    name: str
    source: Literal["weapon", "power", "martial_art", "maneuver"]
    kind: Literal["melee", "thrown", "mechanical", "power"]
    key: Characteristic
    targets: Target
    strength_dice: int
    extra_dice: int
    damage_type: str
    range_m: float
    max_hits: int
    stamina: int
    hands: int = 0
    light: bool = False
    grab: bool = False
    grapple: bool = False
    triggered: bool = False
    limitations: tuple[str, ...] = ()
    inflicts: tuple[str, ...] = ()
    maintained: bool = False
    drains: Characteristic | None = None
    active_points: int = 0

    @property
    def dice(self) -> int:
        return self.strength_dice + self.extra_dice


def weapon_stamina(weapon: Weapon, strength_dice: int, tables: UttasTables) -> int:
    """UTTAS "Stamina Costs", Attacking: melee and thrown: 1 per Strength die + 1 per 5 required
    Strength; bows, guns and other mechanical weapons: 1 per 5 required Strength."""
    per = weapon.required_strength // tables.stamina.strength_per_stamina
    return per if weapon.kind == "mechanical" else strength_dice + per


_PROFILES: dict[tuple[int, int, str, int], tuple[UttasSheet, UttasTables, AttackProfile]] = {}
_PROFILES_KEPT = 512


def attack_profile(c: Combatant, name: str, tables: UttasTables) -> AttackProfile:
    """Find ``name`` (case-insensitive) among the sheet's weapons, attack powers, attacking martial
    arts and the table's Basic Maneuvers. Raises :class:`NotFound` listing what exists.

    A profile depends only on the (frozen) sheet, the name, the Strength dice and the (frozen)
    tables, so it is kept across commands: an attack and its reaction find it once
    (``benchmarks/engine_attack.py``). The entry holds the sheet and tables it was made from and
    is used only for those very objects (an id is never reused while they live)."""
    sheet = c.sheet
    str_dice = dice_of(c, "strength", tables)
    key = (id(sheet), id(tables), name, str_dice)
    kept = _PROFILES.get(key)
    if kept is not None and kept[0] is sheet and kept[1] is tables:
        return kept[2]
    found = _find_profile(c, name, tables, str_dice)
    if len(_PROFILES) >= _PROFILES_KEPT:
        _PROFILES.clear()
    _PROFILES[key] = (sheet, tables, found)
    return found


def _find_profile(c: Combatant, name: str, tables: UttasTables, str_dice: int) -> AttackProfile:
    folded = name.strip().casefold()
    sheet = c.sheet
    for w in sheet.weapons:
        if w.name.casefold() == folded:
            sd = str_dice if w.kind != "mechanical" else 0
            return AttackProfile(
                name=w.name,
                source="weapon",
                kind=w.kind,
                key=tables.weapon_key_characteristic[w.kind],
                targets="dodge",
                strength_dice=sd,
                extra_dice=w.damage_dice,
                damage_type=w.damage_type,
                range_m=w.range_m,
                max_hits=w.max_hits,
                stamina=weapon_stamina(w, sd, tables),
                hands=w.hands,
                light=w.light,
            )
    for p in sheet.powers:
        if p.name.casefold() == folded and p.targets is not None:
            return AttackProfile(
                name=p.name,
                source="power",
                kind="power",
                key=p.key_characteristic,
                targets=p.targets,
                strength_dice=0,
                extra_dice=p.damage_dice,
                damage_type=p.damage_type,
                range_m=p.range_m,
                max_hits=p.max_hits,
                stamina=power_stamina(p, tables),
                triggered=p.triggered,
                limitations=p.limitations,
                inflicts=p.inflicts,
                maintained=p.maintained,
                drains=p.characteristic if p.effect == "drain" else None,
                active_points=p.active_points,
            )
    for m in sheet.martial_arts:
        if m.name.casefold() == folded and m.maneuver in ("attack", "counter"):
            return martial_profile(c, m, tables)
    for b in tables.basic_maneuvers:
        if b.name.casefold() == folded:
            return maneuver_profile(b, str_dice)
    known = [w.name for w in sheet.weapons] + [p.name for p in sheet.powers if p.targets]
    known += [m.name for m in sheet.martial_arts if m.maneuver in ("attack", "counter")]
    known += [b.name for b in tables.basic_maneuvers]
    listed = ", ".join(names.unique(known))
    raise NotFound(
        f"{names.escaped(c.name)} has no attack called {names.quoted(name)}. Known: {listed}."
    )


def martial_profile(c: Combatant, m: MartialArt, tables: UttasTables) -> AttackProfile:
    """A martial-art strike: Strength dice + its bonus dice; only the Strength dice cost Stamina
    (UTTAS "Stamina Costs": "Additional damage dice added through Martial Arts ... do not add to
    the Stamina Cost"). A ranged one (``range_m`` set) is a thrown strike: the same dice and
    cost ("Damage added through ranged Martial Arts do not add to the Stamina cost"), its range
    the sheet's, with the range penalties of any ranged attack ("Range Modifiers"); a melee one
    reaches 2 m."""
    sd = dice_of(c, "strength", tables)
    ranged = m.range_m is not None
    return AttackProfile(
        name=m.name,
        source="martial_art",
        kind="thrown" if ranged else "melee",
        key=m.key_characteristic,
        targets="dodge",
        strength_dice=sd,
        extra_dice=m.bonus_dice,
        damage_type=m.damage_type,
        range_m=m.range_m if m.range_m is not None else 2,
        max_hits=1,
        stamina=sd,
        grab=m.grab,
        triggered=m.triggered,
    )


def maneuver_profile(b: BasicManeuver, strength_dice: int) -> AttackProfile:
    """A Basic Maneuver (UTTAS "Attack"): costs Stamina like an unarmed melee attack."""
    sd = strength_dice if b.uses_strength else 0
    return AttackProfile(
        name=b.name,
        source="maneuver",
        kind=b.kind,
        key=b.key_characteristic,
        targets=b.targets,
        strength_dice=sd,
        extra_dice=b.damage_dice,
        damage_type=b.damage_type,
        range_m=b.range_m,
        max_hits=1,
        stamina=sd,
        grapple=b.grapple,
        inflicts=b.inflicts,
    )


def check_half_move(
    used: dict[str, float], speeds: dict[str, float], show: Callable[[float], str] = METERS.show
) -> str | None:
    """UTTAS "Moving": a free half move; split over two or more types, only a quarter of each.
    ``used`` maps mode → meters already moved (including the new move). Returns an English
    reason when over budget (distances as ``show`` writes meters), else None."""
    modes = [m for m, v in used.items() if v > 0]
    share, word = (4, "a quarter") if len(modes) > 1 else (2, "half")
    for m in modes:
        limit = speeds.get(m, 0) / share
        if used[m] > limit + 1e-9:
            return (
                f"a free move allows {word} of the {m} speed ({show(limit)}); "
                f"that would be {show(used[m])}"
            )
    return None


def all_characteristics(c: Combatant) -> dict[str, int]:
    """Effective values of every characteristic (for display)."""
    return {ch: effective(c, ch) for ch in CHARACTERISTICS}
