"""Small Uune rules read from the tables, pure: the starting money of "Level 1", the numbers of
"Stealth", what "Insight" and "Observe" give for the hits rolled.

Sources (Uune SRD headings): "Level 1" ("roll 5d6 and multiply by one of the choices"),
"Stealth" (the highest perceptiveness in the room, +0 one person … +3 a crowd; Observed 0,
Hidden +1, Undetected +2 resources), "Insight" (hits meet or exceed the NPC's Social score),
"Observe" (meet: one sense; 1 over: two; 2 over: three).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import names
from bot.engine.core.dice import DiceRoller
from bot.engine.uune.tables import UuneTables
from bot.errors import InvalidInput


def starting_money(roller: DiceRoller, income: str, tables: UuneTables) -> tuple[list[int], int]:
    """ "Level 1": ``income_dice`` d ``income_sides`` (5d6) times the income's multiplier
    (Destitute 1 … Rich 50). Returns the dice and the money. Raises :class:`InvalidInput` for
    an income not in the tables."""
    c = tables.creation
    multiplier = c.income.get(income.strip().casefold())  # type: ignore[call-overload]
    if multiplier is None:
        raise InvalidInput(
            f"Starting income is one of {', '.join(c.income)}, not {names.quoted(income)}."
        )
    dice = roller.roll(c.income_dice, c.income_sides)
    return dice, sum(dice) * int(multiplier)


def stealth_difficulty(perceptiveness: Sequence[int], crowd: str, tables: UuneTables) -> int:
    """ "Stealth": the highest perceptiveness score in the room plus the crowd's number (one
    person +0, a few +1, a group +2, a crowd +3), at most the top of the ladder. An empty room
    is 0 plus the crowd. Raises :class:`InvalidInput` for an unknown crowd size."""
    extra = tables.stealth.crowd.get(crowd.strip().casefold())  # type: ignore[call-overload]
    if extra is None:
        raise InvalidInput(
            f"A crowd is one of {', '.join(tables.stealth.crowd)}, not {names.quoted(crowd)}."
        )
    top = len(tables.difficulty) - 1
    return min(top, max(perceptiveness, default=0) + int(extra))


def stealth_resources(level: str, tables: UuneTables) -> int:
    """ "Stealth": resources a stealth level gives (Observed 0, Hidden +1, Undetected +2)."""
    found = tables.stealth.levels.get(level.strip().casefold())  # type: ignore[call-overload]
    if found is None:
        raise InvalidInput(
            f"A stealth level is one of {', '.join(tables.stealth.levels)}, not "
            f"{names.quoted(level)}."
        )
    return int(found)


def insight_reads(hits: int, social: int) -> bool:
    """ "Insight": the facilitator gives a rough emotion when the hits "meet or exceed an NPC's
    social score"."""
    return hits >= social


def observe_senses(hits: int, difficulty: int, tables: UuneTables) -> int:
    """ "Observe": senses that notice something odd — none below the difficulty, then
    ``tables.observe.senses_at_margin`` by hits over it (meet 1, 1 over 2, 2 or more over
    3)."""
    margin = hits - difficulty
    if margin < 0:
        return 0
    steps = tables.observe.senses_at_margin
    return steps[min(margin, len(steps) - 1)]
