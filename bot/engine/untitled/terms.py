"""The words of an Untitled sheet: skill levels, tiers, armor weight classes, how a weapon
reloads, and dice expressions checked with the ``d20`` parser (the Storyteller's Legendary and
high-level armor dice). Shared by the sheet (:mod:`bot.engine.untitled.sheet`), the tables
(:mod:`bot.engine.untitled.tables`) and the dice (:mod:`bot.engine.untitled.dice`).

Sources: ``untitled-combat.txt`` (the skill ladder, the skills it names: "Weapon or Weapon
Family", "Combat Form", "Combat Defense", "parry", "shield", armor "Light Armor") and issue 13's
documented defaults (armor dice by weight class light / medium / heavy).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import d20
from pydantic import AfterValidator, Field

from bot.engine.core.dice import MAX_DICE, MAX_SIDES
from bot.engine.core.pools import DiceGroup, Pool

LEVEL_MAX = 30
"""The highest skill level a sheet may hold (the ladder's Legendary tier is "21+"; the bot caps
it so no sheet holds an absurd number)."""

Level = Annotated[int, Field(ge=1, le=LEVEL_MAX)]
"""A skill level, 1–30 ("Skill Level 1-4 5-10 11-15 16-18 19-20 21+")."""

Tier = Literal["novice", "journeyman", "expert", "master", "grandmaster", "legendary"]
TIERS: tuple[Tier, ...] = ("novice", "journeyman", "expert", "master", "grandmaster", "legendary")
"""The ladder's tiers in order ("Skill Tier Novice Journeyman Expert Master Grandmaster
Legendary")."""

WeightClass = Literal["light", "medium", "heavy"]
WEIGHT_CLASSES: tuple[WeightClass, ...] = ("light", "medium", "heavy")
"""Armor weight classes (issue 13: "Light 1d4 / Medium 1d6 / Heavy 1d8"; the text: "Light
Armor")."""

Reload = Literal["none", "move", "full_round"]
"""What reloading a weapon takes: nothing (a sword), a move action (the text's archer "their
second move action to reload"), or a full-round action ("reloading a complex weapon")."""

MODIFIER_MAX = 1000
"""The most the whole numbers of a dice expression may add (``3d12 + 1000``): beyond it a
roll means nothing at the table (a pool holds at most 10,000)."""

Meters = Annotated[float, Field(ge=0, le=10_000)]


def check_dice(expression: str) -> str:
    """A dice expression, checked with the ``d20`` parser: dice (``NdM``) and whole numbers
    added (``3d12``, ``2d10 + 1d6``, ``4d10+2``), at most :data:`MAX_DICE` dice in all (at least
    one in each group), dice of 2 to :data:`MAX_SIDES` sides, whole numbers adding up to at most
    :data:`MODIFIER_MAX`, never a negative part. Returns it with its spacing normalised
    (``2d10 + 1d6``). Raises ``ValueError`` naming what is wrong."""
    try:
        parsed = d20.parse(expression)
    except d20.RollSyntaxError as error:
        raise ValueError(f"{expression!r} is not a dice expression ({error})") from None
    pool = _pool_of(parsed, expression)
    if pool.size > MAX_DICE:
        raise ValueError(f"at most {MAX_DICE} dice, not {pool.size}")
    return str(parsed)


def dice_pool(expression: str, label: str = "") -> Pool:
    """The :class:`~bot.engine.core.pools.Pool` a checked expression describes: one group per
    ``NdM`` (labelled ``label``) and the whole numbers as its modifier. Raises ``ValueError``
    as :func:`check_dice`."""
    check_dice(expression)
    return _pool_of(d20.parse(expression), expression, label)


def _pool_of(parsed: Any, expression: str, label: str = "") -> Pool:
    """Walk a parsed expression: only sums of dice and whole numbers."""
    groups: list[DiceGroup] = []
    modifier = 0
    stack: list[Any] = [parsed]
    while stack:
        node = stack.pop()
        kind = type(node).__name__
        if kind == "Dice":
            groups.append(_group(node, expression, label))
            continue
        if kind == "Literal" and isinstance(node.value, int):
            modifier += node.value
            if modifier > MODIFIER_MAX:
                raise ValueError(f"the whole numbers add up to at most {MODIFIER_MAX}")
            continue
        if kind == "BinOp" and node.op == "+":
            stack.extend(reversed(node.children))
            continue
        if kind == "Expression":
            stack.extend(node.children)
            continue
        raise ValueError(
            f"{expression!r}: dice are added dice and whole numbers (e.g. 3d12 or 2d10 + 1d6), "
            "without subtraction, keep/drop, sets or comments"
        )
    if not groups:
        raise ValueError(f"{expression!r} rolls no dice")
    return Pool(groups=tuple(groups), modifier=modifier)


def _group(node: Any, expression: str, label: str) -> DiceGroup:
    """One ``NdM`` of a parsed expression: 1 to :data:`MAX_DICE` dice of 2 to
    :data:`MAX_SIDES` sides (``ValueError`` otherwise)."""
    if not isinstance(node.size, int) or not 2 <= node.size <= MAX_SIDES:
        raise ValueError(f"dice have 2 to {MAX_SIDES} sides, not {node.size}")
    if node.num > MAX_DICE:
        raise ValueError(f"at most {MAX_DICE} dice, not {node.num}")
    if node.num < 1:
        raise ValueError(f"{expression!r} rolls no dice in its {node.num}d{node.size}")
    return DiceGroup(count=node.num, sides=node.size, label=label)


DiceText = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(check_dice)]
"""A dice expression (:func:`check_dice`), stored with its spacing normalised."""
