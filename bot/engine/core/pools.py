"""Dice pools every ruleset can describe, roll, adjust and reason about.

A :class:`Pool` is one description of a roll: groups of dice of any sizes (mixed in one pool),
a modifier, which dice count (all, the highest *n*, the lowest *n*) and how they count (their
sum, or the number of "hits" — dice showing at least a face). The same description is rolled
(:meth:`Pool.roll`, every die kept for display) and measured: :meth:`Pool.distribution` is the
exact probability of every result, computed with ``icepool`` (issue 10 decision F), so the
roller and the odds a player sees before committing read one description.

A rolled pool (:class:`PoolRoll`) can still change before it is final, as the rulesets' spends
need: reroll chosen dice (Uune: a focus point rerolls two resources; 5 vitality rerolls one),
bump one (Uune: 10 vitality adds 1), or set one to a face (Uune: a focus point forces a
resource to hit). Each die remembers its history and is shown die by die
(:meth:`PoolRoll.shown`). :func:`opposed` compares two results with a system's tie rule, and a
:class:`FavorPolicy` turns points of favor and disfavor into dice (:class:`ExtraDice`, Utopia's
odds; :class:`KeepBest`: roll extra dice and keep the best — planned for the systems that need
it). UTTAS rolls its Advantage dice through :func:`~bot.engine.core.dice.roll_pool`.

Limits: at most :data:`~bot.engine.core.dice.MAX_DICE` dice in a pool and
:data:`~bot.engine.core.dice.MAX_SIDES` sides a die; a pool beyond them raises
:class:`~bot.errors.InvalidInput` before anything is rolled or computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Annotated, Literal, Protocol

import icepool
from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot import names
from bot.engine.core.dice import MAX_DICE, MAX_SIDES, DiceRoller, net_dice
from bot.errors import InvalidInput

Count = Annotated[int, Field(ge=0, le=MAX_DICE)]
Sides = Annotated[int, Field(ge=2, le=MAX_SIDES)]
Modifier = Annotated[int, Field(ge=-10_000, le=10_000)]
Label = Annotated[str, Field(max_length=names.NAME_MAX)]
"""A dice group's label: a weapon's, a resource's name — as long as a sheet lets a name be."""


class DiceGroup(BaseModel):
    """``count`` dice of ``sides`` sides, labelled for display (``"Sword"``, ``"favor"``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    count: Count
    sides: Sides
    label: Label = ""


class Pool(BaseModel):
    """A roll's description (see the module docstring).

    ``keep``/``keep_count``: which dice count — all of them, or the ``keep_count`` highest or
    lowest. ``hit_on``: when set, the result is the number of counted dice showing at least
    that face (Uune: 5); else it is their sum. ``modifier`` is added to either. Raises
    :class:`pydantic.ValidationError` for a malformed pool and :class:`InvalidInput` (from
    :meth:`check`) for one over the limits."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    groups: tuple[DiceGroup, ...] = ()
    modifier: Modifier = 0
    keep: Literal["all", "highest", "lowest"] = "all"
    keep_count: Count = 0
    hit_on: Sides | None = None

    @model_validator(mode="after")
    def _keep_needs_a_count(self) -> Pool:
        if self.keep != "all" and self.keep_count < 1:
            raise ValueError("keeping the highest or lowest dice needs keep_count of 1 or more")
        return self

    @property
    def size(self) -> int:
        """How many dice the pool rolls."""
        return sum(group.count for group in self.groups)

    def check(self) -> None:
        """Raise :class:`InvalidInput` when the pool holds more than ``MAX_DICE`` dice."""
        if self.size > MAX_DICE:
            raise InvalidInput(f"A roll can hold at most {MAX_DICE} dice, not {self.size}.")

    def plus(self, group: DiceGroup) -> Pool:
        """The pool with ``group`` added (one more kind of die, or more of one)."""
        return self.model_copy(update={"groups": (*self.groups, group)})

    def roll(self, roller: DiceRoller) -> PoolRoll:
        """Roll every group in order (one ``roller.roll(count, sides)`` call each, so scripted
        dice replay exactly). Raises :class:`InvalidInput` past the limits."""
        self.check()
        dice: list[RolledDie] = []
        for group in self.groups:
            if group.count:
                for value in roller.roll(group.count, group.sides):
                    dice.append(RolledDie(sides=group.sides, value=value, label=group.label))
        return PoolRoll(pool=self, dice=_keep(self, dice))

    def distribution(self) -> dict[int, Fraction]:
        """The exact probability of every result (hits or total, modifier included), in
        increasing order of result. Raises :class:`InvalidInput` past the limits."""
        self.check()
        dice = [
            _counted_die(group.sides, self.hit_on)
            for group in self.groups
            for _ in range(group.count)
        ]
        if not dice:
            return {self.modifier: Fraction(1)}
        pool = icepool.Pool(dice)
        if self.keep == "highest":
            kept = pool.highest(min(self.keep_count, len(dice)))
        elif self.keep == "lowest":
            kept = pool.lowest(min(self.keep_count, len(dice)))
        else:
            kept = pool
        result = kept.sum() + self.modifier
        return {
            int(outcome): Fraction(quantity, result.denominator())
            for outcome, quantity in sorted(result.items())
        }

    def chance(self, at_least: int) -> Fraction:
        """The probability that the result is ``at_least`` or more."""
        return sum(
            (p for outcome, p in self.distribution().items() if outcome >= at_least),
            Fraction(0),
        )


def _counted_die(sides: int, hit_on: int | None) -> icepool.Die[int]:
    """One die as it counts: its face, or 1 for a hit and 0 for a miss. Counting is monotone in
    the face, so keeping the highest counted dice keeps the same dice as the faces would."""
    if hit_on is None:
        return icepool.d(sides)
    return icepool.d(sides).map(lambda face: 1 if face >= hit_on else 0)


class RolledDie(BaseModel):
    """One die of a rolled pool: its face now (``value``), the faces it showed before each
    reroll (``history``, oldest first), how much it was bumped (``bumped``; included in
    ``value``) and whether it counts (``kept``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sides: Sides
    value: int
    label: Label = ""
    kept: bool = True
    history: tuple[int, ...] = ()
    bumped: int = 0

    def face(self) -> str:
        """The die as shown: ``4``, ``1→5`` (rerolled), ``4+1`` (bumped)."""
        before = "→".join(str(v) for v in self.history)
        now = f"{self.value - self.bumped}+{self.bumped}" if self.bumped else str(self.value)
        return f"{before}→{now}" if before else now


class PoolRoll(BaseModel):
    """A rolled :class:`Pool`: every die, in the order rolled. Changing it (reroll, bump, set)
    returns a new roll with the kept dice chosen again."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pool: Pool
    dice: tuple[RolledDie, ...]

    @property
    def hits(self) -> int:
        """Counted dice showing at least ``pool.hit_on`` (0 when the pool sums)."""
        hit_on = self.pool.hit_on
        if hit_on is None:
            return 0
        return sum(1 for die in self.dice if die.kept and die.value >= hit_on)

    @property
    def total(self) -> int:
        """The sum of the counted dice plus the modifier."""
        return sum(die.value for die in self.dice if die.kept) + self.pool.modifier

    @property
    def result(self) -> int:
        """What the pool is rolled for: hits plus the modifier when it counts hits, else the
        total."""
        if self.pool.hit_on is None:
            return self.total
        return self.hits + self.pool.modifier

    def reroll(self, indices: Sequence[int], roller: DiceRoller) -> PoolRoll:
        """Roll the dice at ``indices`` again (in that order, one ``roller.roll(1, sides)``
        each), keeping the new faces. Raises :class:`InvalidInput` for an index out of range
        or given twice."""
        chosen = _indices(self, indices)
        dice = list(self.dice)
        for index in chosen:
            die = dice[index]
            (value,) = roller.roll(1, die.sides)
            dice[index] = die.model_copy(
                update={"value": value, "history": (*die.history, die.value), "bumped": 0}
            )
        return self.model_copy(update={"dice": _keep(self.pool, dice)})

    def bump(self, index: int, by: int = 1) -> PoolRoll:
        """Raise the die at ``index`` by ``by`` (never past its highest face). Raises
        :class:`InvalidInput` for an index out of range or a die already showing its highest
        face."""
        (index,) = _indices(self, [index])
        die = self.dice[index]
        if die.value >= die.sides:
            raise InvalidInput(f"That die already shows {die.sides}, its highest face.")
        step = min(by, die.sides - die.value)
        dice = list(self.dice)
        dice[index] = die.model_copy(
            update={"value": die.value + step, "bumped": die.bumped + step}
        )
        return self.model_copy(update={"dice": _keep(self.pool, dice)})

    def set_face(self, index: int, value: int) -> PoolRoll:
        """Turn the die at ``index`` to ``value`` (a rule that forces a result, e.g. Uune's
        focus forcing a resource to hit); its old face goes to its history. Raises
        :class:`InvalidInput` for an index out of range or a face the die does not have."""
        (index,) = _indices(self, [index])
        die = self.dice[index]
        if not 1 <= value <= die.sides:
            raise InvalidInput(f"A d{die.sides} has no face {value}.")
        dice = list(self.dice)
        dice[index] = die.model_copy(
            update={"value": value, "history": (*die.history, die.value), "bumped": 0}
        )
        return self.model_copy(update={"dice": _keep(self.pool, dice)})

    def shown(self, purpose: str = "") -> str:
        """Every die as players see it, e.g. ``"Sword 2d6 [4] [1→5] ~~[2]~~ + 1 = 10"``:
        dropped dice struck through; ``hits`` instead of a total for a pool that counts hits.
        At most about 12 characters per die (100 dice fit a Discord embed field twice over)."""
        groups: list[str] = []
        for group in self.pool.groups:
            if group.count:
                groups.append(
                    f"{group.label + ' ' if group.label else ''}{group.count}d{group.sides}"
                )
        faces = " ".join(
            f"[{die.face()}]" if die.kept else f"~~[{die.face()}]~~" for die in self.dice
        )
        mod = self.pool.modifier
        modifier = f" {'+' if mod >= 0 else '-'} {abs(mod)}" if mod else ""
        outcome = (
            f"{self.result} hit{'s' if self.result != 1 else ''}"
            if self.pool.hit_on is not None
            else str(self.total)
        )
        head = f"{purpose}: " if purpose else ""
        return f"{head}{' + '.join(groups) or '0 dice'} {faces}{modifier} = {outcome}".replace(
            "  ", " "
        )


def _indices(roll: PoolRoll, indices: Sequence[int]) -> list[int]:
    chosen = list(indices)
    if len(set(chosen)) != len(chosen):
        raise InvalidInput("Choose each die once.")
    for index in chosen:
        if not 0 <= index < len(roll.dice):
            raise InvalidInput(f"There is no die {index + 1}: the roll has {len(roll.dice)}.")
    return chosen


def _keep(pool: Pool, dice: Sequence[RolledDie]) -> tuple[RolledDie, ...]:
    """Mark which dice count: all, or the ``keep_count`` highest or lowest (ties: the first
    rolled)."""
    if pool.keep == "all":
        return tuple(die if die.kept else die.model_copy(update={"kept": True}) for die in dice)
    order = sorted(
        range(len(dice)),
        key=lambda i: (-dice[i].value if pool.keep == "highest" else dice[i].value, i),
    )
    counted = set(order[: pool.keep_count])
    return tuple(
        die if die.kept == (i in counted) else die.model_copy(update={"kept": i in counted})
        for i, die in enumerate(dice)
    )


TieRule = Literal["first", "second", "tie"]
"""Who wins an opposed roll on equal results: the first roller (e.g. the one acting), the
second (e.g. the defender), or nobody (a tie the rule resolves otherwise)."""


def opposed(first: int, second: int, tie: TieRule) -> Literal["first", "second", "tie"]:
    """Compare two results: the higher wins; equal results go by ``tie``."""
    if first != second:
        return "first" if first > second else "second"
    return tie


class FavorPolicy(Protocol):
    """How a system turns points of favor and disfavor (advantage, disadvantage) into dice."""

    def apply(self, pool: Pool, favor: int, disfavor: int) -> Pool:
        """``pool`` as rolled with ``favor`` and ``disfavor`` points (each ≥ 0)."""
        ...


class ExtraDice:
    """Favor and disfavor cancel pairwise; each point left adds (favor) or takes away
    (disfavor) one die of ``sides`` sides (never below no dice). UTTAS "Advantage and
    Disadvantage": ``ExtraDice(6)``."""

    def __init__(self, sides: int = 6) -> None:
        self.sides = sides

    def apply(self, pool: Pool, favor: int, disfavor: int) -> Pool:
        if favor < 0 or disfavor < 0:
            raise InvalidInput("Favor and disfavor cannot be negative.")
        more, fewer = net_dice(favor, disfavor)
        if more:
            return pool.plus(DiceGroup(count=more, sides=self.sides, label="favor"))
        groups = list(pool.groups)
        while fewer and groups:  # take dice off the last groups first
            last = groups.pop()
            taken = min(fewer, last.count)
            fewer -= taken
            if last.count - taken:
                groups.append(last.model_copy(update={"count": last.count - taken}))
        return pool.model_copy(update={"groups": tuple(groups)})


class KeepBest:
    """Favor and disfavor cancel pairwise; each point left rolls one more die of ``sides``
    sides and the pool (one that counts all its dice) keeps as many dice as it had — the
    highest for favor, the lowest for disfavor."""

    def __init__(self, sides: int) -> None:
        self.sides = sides

    def apply(self, pool: Pool, favor: int, disfavor: int) -> Pool:
        if favor < 0 or disfavor < 0:
            raise InvalidInput("Favor and disfavor cannot be negative.")
        if pool.keep != "all":
            raise InvalidInput("Favor of this kind applies to a pool that counts all its dice.")
        more, fewer = net_dice(favor, disfavor)
        extra = more or fewer
        if not extra:
            return pool
        keep: Literal["highest", "lowest"] = "highest" if more else "lowest"
        return pool.plus(
            DiceGroup(count=extra, sides=self.sides, label="favor" if more else "disfavor")
        ).model_copy(update={"keep": keep, "keep_count": max(1, pool.size)})
