"""Dice: N dice of S sides from an injected roller, every die kept for display.

Users' typed dice *expressions* are parsed elsewhere with the ``d20`` package; this module only
rolls pools (``count`` dice of ``sides`` sides) for the rules engine. Randomness is injected
through the :class:`DiceRoller` protocol so tests replay exact rolls.

UTTAS "Advantage and Disadvantage": an Advantage adds 1d6 to a roll, a Disadvantage takes 1d6
off; several may apply and they cancel pairwise (:func:`net_dice`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.built import built
from bot.errors import InvalidInput
from bot.words import counted

MAX_DICE = 100
"""Most dice one roll may hold; a larger request raises :class:`InvalidInput`."""
MAX_SIDES = 1000
"""Most sides a die may have."""


def check_dice(count: int, sides: int) -> None:
    """Refuse a roll that is malformed or too expensive.

    Raises :class:`InvalidInput` when ``count`` is outside 0..MAX_DICE or ``sides`` outside
    2..MAX_SIDES.
    """
    if count < 0 or count > MAX_DICE:
        raise InvalidInput(f"A roll can hold 0 to {MAX_DICE} dice, not {count}.")
    if sides < 2 or sides > MAX_SIDES:
        raise InvalidInput(f"A die needs 2 to {MAX_SIDES} sides, not {sides}.")


@runtime_checkable
class DiceRoller(Protocol):
    """Source of dice. ``roll(count, sides)`` returns ``count`` integers in ``1..sides``."""

    def roll(self, count: int, sides: int) -> list[int]: ...


class RandomRoller:
    """A :class:`DiceRoller` over a ``random.Random`` (seed it for reproducible fights)."""

    __slots__ = ("_rng",)

    def __init__(self, rng: random.Random | None = None, *, seed: int | None = None) -> None:
        self._rng = rng if rng is not None else random.Random(seed)

    def roll(self, count: int, sides: int) -> list[int]:
        """Roll ``count`` dice of ``sides`` sides. Raises :class:`InvalidInput` past the limits."""
        check_dice(count, sides)
        randint = self._rng.randint
        return [randint(1, sides) for _ in range(count)]


EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
"""The clock of a read-only question (it dates nothing)."""


class NoDice:
    """A :class:`DiceRoller` for read-only questions asked through a transaction (what a
    refusal would say): it never rolls."""

    __slots__ = ()

    def roll(self, count: int, sides: int) -> list[int]:
        raise AssertionError("a read-only question rolled dice")


class DiceScriptExhausted(InvalidInput):
    """A :class:`ScriptedRoller` was asked for more dice than it was given."""


class ScriptedRoller:
    """A :class:`DiceRoller` that hands out pre-set values in order (tests, replays).

    Raises :class:`DiceScriptExhausted` when it runs out and :class:`InvalidInput` when a scripted
    value cannot appear on the die asked for.
    """

    __slots__ = ("_pos", "_values")

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._pos = 0

    @property
    def remaining(self) -> int:
        """How many scripted values are still unused."""
        return len(self._values) - self._pos

    def roll(self, count: int, sides: int) -> list[int]:
        check_dice(count, sides)
        if self._pos + count > len(self._values):
            raise DiceScriptExhausted(
                f"The scripted dice ran out: {count}d{sides} asked, "
                f"{counted(self.remaining, 'value')} left (used {self._pos})."
            )
        out = self._values[self._pos : self._pos + count]
        for value in out:
            if not 1 <= value <= sides:
                raise InvalidInput(f"Scripted value {value} cannot appear on a d{sides}.")
        self._pos += count
        return out


class RecordingRoller:
    """A :class:`DiceRoller` that passes every roll through to ``inner`` and keeps each die it
    returned, in order (``rolled``). Handing ``rolled`` to a :class:`ScriptedRoller` replays
    the same change exactly, nothing re-rolled (issue 15: the log keeps every die rolled)."""

    __slots__ = ("_inner", "rolled")

    def __init__(self, inner: DiceRoller) -> None:
        self._inner = inner
        self.rolled: list[int] = []

    def roll(self, count: int, sides: int) -> list[int]:
        """Roll through ``inner`` (its limits and errors) and record the dice."""
        out = self._inner.roll(count, sides)
        self.rolled.extend(out)
        return out


def net_dice(advantage: int, disadvantage: int) -> tuple[int, int]:
    """Cancel Advantages against Disadvantages pairwise (UTTAS "Advantage and Disadvantage").

    Returns ``(advantage_left, disadvantage_left)``; at most one of them is non-zero.
    """
    common = min(advantage, disadvantage)
    return advantage - common, disadvantage - common


class Roll(BaseModel):
    """One roll as shown to players: what was rolled, why, and every die.

    ``base_dice`` is the pool before Advantage/Disadvantage; ``advantage``/``disadvantage`` are
    the counts that applied (before cancelling); ``dice`` the faces actually rolled;
    ``total = sum(dice) + modifier``. ``terms``: the ruleset's words for the extra and fewer
    dice — ``adv`` (UTTAS's Advantage and Disadvantage) or ``favor`` (Utopia's favor and
    disfavor).
    """

    model_config = ConfigDict(frozen=True)

    purpose: str
    sides: int = 6
    base_dice: int
    advantage: int = 0
    disadvantage: int = 0
    dice: tuple[int, ...]
    modifier: int = 0
    total: int
    terms: Literal["adv", "favor"] = Field(default="adv", exclude_if=lambda t: t == "adv")
    formula: str = Field(default="", max_length=120, exclude_if=lambda f: not f)
    """What was rolled as its owner's sheet writes it (``1d6 - 2``: a weapon's damage and the
    modifier): the owner's numbers, shown in :attr:`text` only, never in the faces-only form
    audiences that may not see them get."""

    @property
    def text(self) -> str:
        """E.g. ``"accuracy: 3d6 +1 adv [4, 2, 6, 5] + 11 = 28"``; a roll of no dice at all (a
        fixed amount) is ``"Spark damage (5): 5"``."""
        label = f"{self.purpose} ({self.formula})" if self.formula else self.purpose
        if not (self.dice or self.base_dice or self.advantage or self.disadvantage):
            return f"{label}: {self.total}"
        notes = ""
        plus, minus = ("favor", "disfavor") if self.terms == "favor" else ("adv", "disadv")
        if self.advantage:
            notes += f" +{self.advantage} {plus}"
        if self.disadvantage:
            notes += f" -{self.disadvantage} {minus}"
        mod = f" {'+' if self.modifier >= 0 else '-'} {abs(self.modifier)}" if self.modifier else ""
        faces = ", ".join(str(d) for d in self.dice)
        return f"{label}: {self.base_dice}d{self.sides}{notes} [{faces}]{mod} = {self.total}"


def roll_pool(
    roller: DiceRoller,
    purpose: str,
    base_dice: int,
    *,
    sides: int = 6,
    advantage: int = 0,
    disadvantage: int = 0,
    modifier: int = 0,
    terms: Literal["adv", "favor"] = "adv",
) -> Roll:
    """Roll ``base_dice`` d``sides``, plus one die per net Advantage, minus one per net
    Disadvantage (never below 0 dice), and add ``modifier``; ``terms`` names them
    (:attr:`Roll.terms`).

    Raises :class:`InvalidInput` if the resulting pool exceeds :data:`MAX_DICE` or is malformed.
    """
    if advantage < 0 or disadvantage < 0 or base_dice < 0:
        raise InvalidInput("Dice counts cannot be negative.")
    adv, dis = net_dice(advantage, disadvantage)
    count = max(0, base_dice + adv - dis)
    check_dice(count, sides)
    dice = tuple(roller.roll(count, sides)) if count else ()
    return built(  # the engine's own values: not validated again (bot.engine.core.built)
        Roll,
        purpose=purpose,
        sides=sides,
        base_dice=base_dice,
        advantage=advantage,
        disadvantage=disadvantage,
        dice=dice,
        modifier=modifier,
        total=sum(dice) + modifier,
        terms=terms,
    )
