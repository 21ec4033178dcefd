"""The words of a Utopia sheet: traits and subtraits, damage types, sizes, armor slots, and
damage expressions checked with the ``d20`` parser. Shared by the sheet
(:mod:`bot.engine.utopia.sheet`) and the tables (:mod:`bot.engine.utopia.tables`).

Sources: issue 12's documented defaults (the traits and subtraits, the damage types) and
``utopia-actions.txt``; the traits' order and keys follow Foundry's default settings.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import d20
from pydantic import AfterValidator, Field

from bot.engine.core.dice import MAX_DICE, MAX_SIDES

Trait = Literal["agility", "strength", "intellect", "will", "display", "charm"]
Subtrait = Literal[
    "dexterity",
    "speed",
    "power",
    "fortitude",
    "engineering",
    "memory",
    "resolve",
    "awareness",
    "portrayal",
    "stunt",
    "appeal",
    "language",
]
SUBTRAITS_OF: dict[Trait, tuple[Subtrait, Subtrait]] = {
    "agility": ("dexterity", "speed"),
    "strength": ("power", "fortitude"),
    "intellect": ("engineering", "memory"),
    "will": ("resolve", "awareness"),
    "display": ("portrayal", "stunt"),
    "charm": ("appeal", "language"),
}
"""The six traits and their subtraits (issue 12, documented defaults; Foundry's default
``advancedSettings.traits``)."""
TRAITS: tuple[Trait, ...] = tuple(SUBTRAITS_OF)
SUBTRAITS: tuple[Subtrait, ...] = tuple(s for pair in SUBTRAITS_OF.values() for s in pair)
TRAIT_OF: dict[Subtrait, Trait] = {s: t for t, pair in SUBTRAITS_OF.items() for s in pair}

DamageType = Literal["physical", "energy", "heat", "chill", "psyche", "kinetic", "stamina"]
DAMAGE_TYPES: tuple[DamageType, ...] = (
    "physical",
    "energy",
    "heat",
    "chill",
    "psyche",
    "kinetic",
    "stamina",
)
Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]
SIZES: tuple[Size, ...] = ("tiny", "small", "medium", "large", "huge", "gargantuan")
Slot = Literal["head", "neck", "back", "chest", "waist", "hands", "ring", "feet"]
TravelMode = Literal["land", "water", "air"]

Meters = Annotated[float, Field(ge=0, le=10_000)]

MAX_NUMBER = 1000
"""The largest whole number a damage expression may hold (a pool is at most 10,000)."""


def check_damage(expression: str) -> str:
    """A damage expression, checked with the ``d20`` parser: dice (``NdM``) and whole numbers
    (at most :data:`MAX_NUMBER` each) added or subtracted (``2d6+1``, ``1d8 - 1``), at most
    :data:`MAX_DICE` dice in all and dice of at most :data:`MAX_SIDES` sides. Returns it with
    its spacing normalised (``2d6 + 1``). Raises ``ValueError`` naming what is wrong."""
    try:
        parsed = d20.parse(expression)
    except d20.RollSyntaxError as error:
        raise ValueError(f"{expression!r} is not a dice expression ({error})") from None
    dice = 0
    stack: list[Any] = [parsed]
    while stack:
        node = stack.pop()
        dice += _dice_in(node, expression)
        stack.extend(node.children)
    if dice > MAX_DICE:
        raise ValueError(f"at most {MAX_DICE} dice, not {dice}")
    return str(parsed)


def _dice_in(node: Any, expression: str) -> int:
    """The dice one node of a parsed expression rolls; ``ValueError`` for a node damage may not
    hold (keep/drop, sets, comments, multiplication, fractions)."""
    kind = type(node).__name__
    if kind == "Dice":
        if node.size < 1 or node.size > MAX_SIDES:
            raise ValueError(f"dice have 1 to {MAX_SIDES} sides, not {node.size}")
        return int(node.num)
    if kind == "Literal" and not isinstance(node.value, int):
        raise ValueError(f"{node.value} is not a whole number")
    if kind == "Literal" and abs(node.value) > MAX_NUMBER:
        raise ValueError(f"a number in damage is at most {MAX_NUMBER:,}, not {node.value:,}")
    if kind == "BinOp" and node.op not in ("+", "-"):
        raise ValueError(f"damage adds or subtracts; {node.op!r} is not allowed")
    if kind not in ("Literal", "BinOp", "Expression"):
        raise ValueError(
            f"{expression!r}: damage is dice and whole numbers added or subtracted "
            "(e.g. 2d6+1), without keep/drop, sets or comments"
        )
    return 0


DamageText = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(check_damage)]
"""A damage expression (:func:`check_damage`), stored with its spacing normalised."""
