"""Uune's dice, pure, on the core's pools (:mod:`bot.engine.core.pools`) and roller.

Sources (Uune SRD headings): "Actions" (1d6 plus 1d6 per approved resource; 5s and 6s hit; meet
or beat the required hits), "Help" (another PC's hits added), "What are Passive Actions?" (1/3
of the available resources as hits), "Luck Checks" (advantage and disadvantage; both cancel),
"Focus" (force a resource to hit; reroll 2 resources), "Vitality" (5 to reroll a die; 10 to
bump one by 1), "General NPC Guideines" (an NPC spends vitality to force a PC's reroll of a hit
die), "Effect: Intoxicated" (reroll all 6s) and "Effect: Impared" (+1 hit required). Every
number is read from :class:`~bot.engine.uune.tables.UuneTables`.

The base die is die 0 of a roll and is labelled ``action``; resource dice follow in the order
the resources were given, labelled with the resource's name. A spend returns a
:class:`Spend`: the new roll and what it costs; paying it (focus, vitality) is the caller's
(:func:`bot.engine.uune.health.spend`). Nothing here mutates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot import names
from bot.engine.core.dice import DiceRoller
from bot.engine.core.pools import DiceGroup, Pool, PoolRoll
from bot.engine.uune.tables import UuneTables
from bot.engine.uune.terms import BASE_DIE
from bot.errors import InvalidInput


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Resource(_Frozen):
    """An approved resource: its ``name`` and how many dice it gives (1 plus its proficiency
    points, :meth:`bot.engine.uune.sheet.UuneSheet.resource_dice`)."""

    name: Annotated[str, Field(min_length=1, max_length=names.NAME_MAX)]
    dice: Annotated[int, Field(ge=1, le=50)] = 1


class ActionRoll(_Frozen):
    """An action roll: the dice (``roll``), the ``difficulty`` named, the extra hits
    ``impaired`` adds to it, and ``help`` hits another PC added ("Help")."""

    roll: PoolRoll
    difficulty: Annotated[int, Field(ge=0, le=100)]
    impaired: Annotated[int, Field(ge=0, le=100)] = 0
    help: Annotated[int, Field(ge=0, le=100)] = 0

    @property
    def required(self) -> int:
        """Hits needed: the difficulty plus Impaired's extra hits."""
        return self.difficulty + self.impaired

    @property
    def hits(self) -> int:
        """The roll's hits plus the hits a helper added."""
        return self.roll.hits + self.help

    @property
    def success(self) -> bool:
        """ "If you have enough hits to meet or beat the number … your character completes
        their action"."""
        return self.hits >= self.required

    @property
    def margin(self) -> int:
        """Hits over (≥ 0) or short of (< 0) the required number."""
        return self.hits - self.required

    def shown(self) -> str:
        """The dice as players see them, then the hits against the hits required."""
        helped = f" + {self.help} from help" if self.help else ""
        verdict = "success" if self.success else "failure"
        return f"{self.roll.shown()}{helped} vs {self.required} needed: {verdict}"


def action_pool(resources: Sequence[Resource], tables: UuneTables, *, base: bool = True) -> Pool:
    """The pool of an action: ``tables.dice.base_dice`` (1) d6 labelled ``action``, then
    ``dice_per_resource`` (1) d6 per die of each resource, hits on ``hit_on`` (5) or more.
    ``base`` False: the resources' dice only (a helper's, "Help": "Roll your own resources").
    """
    d = tables.dice
    groups = [DiceGroup(count=d.base_dice, sides=d.sides, label=BASE_DIE)] if base else []
    groups += [
        DiceGroup(count=r.dice * d.dice_per_resource, sides=d.sides, label=r.name)
        for r in resources
    ]
    return Pool(groups=tuple(groups), hit_on=d.hit_on)


def roll_action(
    roller: DiceRoller,
    resources: Sequence[Resource],
    difficulty: int,
    tables: UuneTables,
    *,
    impaired: int = 0,
    intoxicated: int = 0,
    help_hits: int = 0,
    base: bool = True,
) -> ActionRoll:
    """Roll an action ("Actions"). ``difficulty`` is a rung of the ladder (0–10, else
    :class:`InvalidInput`); ``impaired`` levels add ``tables.impaired.extra_hits`` each to the
    hits required; each level of ``intoxicated`` rerolls every die showing
    ``tables.intoxicated.reroll_face`` (6) or more once, in order ("must reroll all 6s";
    "Effects": a stacked effect's "mechanics will apply multiple times"): with one level a
    rerolled 6 stands, with two it is rerolled again, and so on (the caller passes 1 for any
    level in a fight before rules version 5);
    ``help_hits`` are a helper's hits ("Help"); ``base`` False rolls the resources' dice only
    (:func:`action_pool`). Raises :class:`InvalidInput` past the dice limits."""
    tables.rung(difficulty)
    if min(impaired, intoxicated, help_hits) < 0:
        raise InvalidInput("Effect levels and help hits cannot be negative.")
    rolled = action_pool(resources, tables, base=base).roll(roller)
    for _ in range(intoxicated):
        sixes = [i for i, d in enumerate(rolled.dice) if d.value >= tables.intoxicated.reroll_face]
        if not sixes:
            break
        rolled = rolled.reroll(sixes, roller)
    return ActionRoll(
        roll=rolled,
        difficulty=difficulty,
        impaired=impaired * tables.impaired.extra_hits,
        help=help_hits,
    )


def with_help(action: ActionRoll, helper: ActionRoll) -> ActionRoll:
    """ "Help": the helper rolls their own resources "as they apply to the action" and adds
    their hits to the other PC's (only the helper's own dice count, not help they received)."""
    return action.model_copy(update={"help": action.help + helper.roll.hits})


def passive_hits(resources: int, tables: UuneTables) -> int:
    """ "What are Passive Actions?": 1/``tables.passive.divisor`` (1/3) of the available
    resources count as hits, rounded ``tables.passive.rounding`` (default down: 5 resources
    give 1 hit). The base die is not a resource."""
    if resources < 0:
        raise InvalidInput("A count of resources cannot be negative.")
    whole, part = divmod(resources, tables.passive.divisor)
    rounding = tables.passive.rounding
    if part and (
        rounding == "up" or (rounding == "nearest" and 2 * part >= tables.passive.divisor)
    ):
        return whole + 1
    return whole


class LuckCheck(_Frozen):
    """A luck check: every die rolled, the one that counts (``kept``) and ``success``."""

    dice: tuple[int, ...]
    kept: int
    success: bool
    mode: Literal["normal", "advantage", "disadvantage"]


def luck_check(
    roller: DiceRoller, tables: UuneTables, *, advantage: bool = False, disadvantage: bool = False
) -> LuckCheck:
    """ "Luck Checks": a 50/50 — a d``tables.luck.sides`` succeeding on ``success_on`` or more
    (4–6 on a d6). With advantage roll twice and keep the better, with disadvantage the worse,
    with both (or neither) roll once ("If you have both, make the check as normal")."""
    mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    if advantage != disadvantage:
        mode = "advantage" if advantage else "disadvantage"
    dice = tuple(roller.roll(1 if mode == "normal" else 2, tables.luck.sides))
    kept = max(dice) if mode == "advantage" else min(dice)
    return LuckCheck(dice=dice, kept=kept, success=kept >= tables.luck.success_on, mode=mode)


# --- spends before the roll is final -------------------------------------------------------


class Spend(_Frozen):
    """A spend's result: the new roll and its cost in ``focus`` and ``vitality``."""

    action: ActionRoll
    focus: int = 0
    vitality: int = 0


def _resource_die(action: ActionRoll, index: int) -> None:
    if not 0 <= index < len(action.roll.dice):
        raise InvalidInput(f"There is no die {index + 1}: the roll has {len(action.roll.dice)}.")
    if action.roll.dice[index].label == BASE_DIE:
        raise InvalidInput("Focus works on resource dice, not the base action die.")


def focus_force(action: ActionRoll, index: int, tables: UuneTables) -> Spend:
    """ "Focus": "spend a point of focus to force a resource to hit" — the resource die at
    ``index`` turns to ``tables.dice.hit_on`` (the lowest hit face). Raises
    :class:`InvalidInput` for the base die, a die out of range or one already hitting."""
    _resource_die(action, index)
    if action.roll.dice[index].value >= tables.dice.hit_on:
        raise InvalidInput("That die is already a hit.")
    rolled = action.roll.set_face(index, tables.dice.hit_on)
    return Spend(action=action.model_copy(update={"roll": rolled}), focus=tables.focus.force_cost)


def focus_reroll(
    action: ActionRoll, indices: Sequence[int], roller: DiceRoller, tables: UuneTables
) -> Spend:
    """ "Focus": "spend a point of focus to reroll 2 resources, using the new results" — up to
    ``tables.focus.reroll_dice`` (2) resource dice (1 when the pool has only one). Raises
    :class:`InvalidInput` for the base die, too many dice, or a die given twice."""
    chosen = list(indices)
    if not 1 <= len(chosen) <= tables.focus.reroll_dice:
        raise InvalidInput(f"Choose 1 to {tables.focus.reroll_dice} resource dice to reroll.")
    for index in chosen:
        _resource_die(action, index)
    rolled = action.roll.reroll(chosen, roller)
    return Spend(action=action.model_copy(update={"roll": rolled}), focus=tables.focus.reroll_cost)


def vitality_reroll(
    action: ActionRoll, index: int, roller: DiceRoller, tables: UuneTables
) -> Spend:
    """ "Vitality": "spend 5 vitality to reroll a die in your pool, using the new result" — any
    die, the base die included."""
    rolled = action.roll.reroll([index], roller)
    return Spend(
        action=action.model_copy(update={"roll": rolled}), vitality=tables.vitality.reroll_cost
    )


def vitality_bump(action: ActionRoll, index: int, tables: UuneTables) -> Spend:
    """ "Vitality": "spend 10 vitality to bump a die, increasing it's roll by 1". Raises
    :class:`InvalidInput` for a die already on its highest face."""
    rolled = action.roll.bump(index, tables.vitality.bump_by)
    return Spend(
        action=action.model_copy(update={"roll": rolled}), vitality=tables.vitality.bump_cost
    )


def npc_force_reroll(
    action: ActionRoll, index: int, roller: DiceRoller, tables: UuneTables
) -> Spend:
    """ "General NPC Guideines": "NPCs can spend vitality to force a PC to reroll a hit die,
    using the new roll". ``vitality`` is the NPC's cost (``tables.npc_forced_reroll``: the
    text gives none; 10 by default). Raises :class:`InvalidInput` for a die that is not a
    hit."""
    if not 0 <= index < len(action.roll.dice):
        raise InvalidInput(f"There is no die {index + 1}: the roll has {len(action.roll.dice)}.")
    if action.roll.dice[index].value < tables.dice.hit_on:
        raise InvalidInput("An NPC forces a reroll of a hit die only.")
    rolled = action.roll.reroll([index], roller)
    return Spend(
        action=action.model_copy(update={"roll": rolled}),
        vitality=tables.npc_forced_reroll.vitality,
    )
