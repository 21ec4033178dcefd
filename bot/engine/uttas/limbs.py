"""UTTAS "Disabled Limb" and "Grappled": which limbs exist, which work, and what that changes."""

from __future__ import annotations

from bot.engine.uttas.sheet import MovementMode
from bot.engine.uttas.state import Combatant
from bot.engine.uttas.tables import UttasTables

LIMBS = ("head", "body", "left arm", "right arm", "left leg", "right leg")
ARMS = ("left arm", "right arm")
LEGS = ("left leg", "right leg")


def valid_limbs(c: Combatant) -> tuple[str, ...]:
    """The standard limbs plus the sheet's extra limbs (lower case)."""
    return LIMBS + tuple(e.name.casefold() for e in c.sheet.extra_limbs)


def disabled(c: Combatant, source: str | None = None) -> set[str]:
    return {d.limb for d in c.disabled_limbs if source is None or d.source == source}


def arm_count(c: Combatant) -> int:
    """Two arms plus extra arms (Extra Limbs power)."""
    extra = c.sheet.extra_limbs
    if not extra:  # most sheets (every attack asks): no generator for nothing
        return 2
    return 2 + sum(1 for e in extra if e.is_arm)


def usable_arms(c: Combatant) -> int:
    """UTTAS "Arms/Hands": a disabled arm cannot be used for any action."""
    if not c.disabled_limbs:  # the common case (every attack asks): every arm works
        return arm_count(c)
    extra_arms = {e.name.casefold() for e in c.sheet.extra_limbs if e.is_arm}
    off = disabled(c)
    return arm_count(c) - sum(1 for limb in off if limb in ARMS or limb in extra_arms)


def head_disabled(c: Combatant) -> bool:
    """UTTAS "Head": no Triggered actions; Disadvantage on Accuracy rolls and skill checks."""
    return "head" in disabled(c)


def body_disabled(c: Combatant) -> bool:
    """UTTAS "Body": no breather and no Stamina from a short rest."""
    return "body" in disabled(c)


def blocked_limitation(c: Combatant, limitations: tuple[str, ...]) -> str | None:
    """UTTAS "Arms/Hands", "Head": arms held in a grapple block Gestures powers, a held head
    blocks Incantation powers. Returns the blocking limitation or None."""
    if not limitations:  # the common case: nothing a held limb could block
        return None
    held = disabled(c, "grapple")
    if "gestures" in limitations and held & {*ARMS}:
        return "gestures"
    if "incantation" in limitations and "head" in held:
        return "incantation"
    return None


def speed(c: Combatant, mode: MovementMode, tables: UttasTables) -> float:
    """Movement speed in meters after stance and legs (UTTAS "Feet/Legs": one leg disabled
    halves Run and forbids Leap; both forbid Run)."""
    base = float(getattr(c.sheet.movement, mode))
    stance = tables.stances.get(c.stance or "")
    if stance is not None and mode != "warp":
        base *= stance.movement_multiplier
    legs = sum(1 for limb in disabled(c) if limb in LEGS)
    if mode == "run":
        base = 0.0 if legs >= 2 else base / 2 if legs == 1 else base
    if mode == "leap" and legs:
        base = 0.0
    return base
