"""Free-form dice expressions (``/roll``, ``/gm hp``) through the ``d20`` package, with limits.

The expression is parsed first and refused before anything is rolled when it asks for too many
dice, dice with too many sides, or is too long; d20's own roll counter caps dice added while
rolling (exploding and rerolled dice).
"""

from __future__ import annotations

from dataclasses import dataclass

import d20
from d20 import diceast

from bot.errors import InvalidInput

EXPRESSION_MAX = 200  # characters
DICE_MAX = 100  # dice per expression, counting every term (and rerolls while rolling)
SIDES_MAX = 1000  # sides per die
RESULT_MAX = 10**12  # absolute value of the total


@dataclass(frozen=True)
class Roll:
    """A rolled expression: ``text`` is d20's rendering with every die (Markdown), ``total`` the
    integer result."""

    expression: str
    text: str
    total: int


def _dice_terms(node: diceast.Node) -> list[diceast.Dice]:
    found: list[diceast.Dice] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, diceast.Dice):
            found.append(current)
        stack.extend(current.children)
    return found


def check(expression: str) -> diceast.Expression:
    """Parse ``expression`` and enforce the limits. Raises :class:`InvalidInput` naming the
    problem (syntax, too long, too many dice, too many sides)."""
    text = expression.strip()
    if not text:
        raise InvalidInput("Give a dice expression, e.g. `3d6+2`.")
    if len(text) > EXPRESSION_MAX:
        raise InvalidInput(
            f"That dice expression is {len(text)} characters long; the limit is {EXPRESSION_MAX}."
        )
    try:
        parsed = d20.parse(text)
    except d20.RollSyntaxError as error:
        raise InvalidInput(
            f"`{text[:50]}` is not a dice expression I understand ({error.got!s:.30} at "
            f"position {error.col}). Try something like `3d6+2` or `1d20`."
        ) from None
    terms = _dice_terms(parsed)
    count = sum(term.num for term in terms)
    if count > DICE_MAX:
        raise InvalidInput(
            f"That asks for {count:,} dice; at most {DICE_MAX} dice can be rolled at once."
        )
    for term in terms:
        if term.size > SIDES_MAX:
            raise InvalidInput(
                f"A d{term.size:,} is too big; dice can have at most {SIDES_MAX} sides."
            )
        if term.size < 1:
            raise InvalidInput("Dice need at least one side.")
    return parsed


def roll(expression: str) -> Roll:
    """Roll ``expression`` after :func:`check`. Raises :class:`InvalidInput` for anything
    malformed, too large, or whose total is absurd."""
    parsed = check(expression)
    roller = d20.Roller(d20.RollContext(max_rolls=DICE_MAX))
    try:
        result = roller.roll(parsed, stringifier=d20.MarkdownStringifier())
        total, text = int(result.total), str(result)
    except d20.TooManyRolls:
        raise InvalidInput(
            f"That roll would need more than {DICE_MAX} dice (rerolls and explosions count)."
        ) from None
    except (d20.RollError, ZeroDivisionError) as error:
        reason = str(error).rstrip(".")
        raise InvalidInput(f"That dice expression cannot be rolled: {reason}.") from None
    if abs(total) > RESULT_MAX:
        raise InvalidInput("That roll's result is too large to use.")
    return Roll(expression=expression.strip(), text=text, total=total)
