"""Free-form dice expressions (``/roll``, ``/gm hp``) through the ``d20`` package, with limits.

What a member may type, in every field that takes dice:

* a ``d20`` expression in any letter case (``1d20``, ``1D20``, ``2D6+1D4``, ``4d6kh3``);
* ``d%`` for a hundred-sided die (``1d%`` is ``1d100``; d20's own ``%`` die would roll 0–90 in
  tens);
* text after the expression, which becomes the roll's label: ``1d20+6 dex save`` and
  ``3d6 # attack`` are labelled ``dex save`` and ``attack`` (d20's ``allow_comments``; a leading
  ``#`` or ``:`` is dropped).

The whole text — label included — is at most :data:`EXPRESSION_MAX` characters; it is parsed
and refused before anything is rolled when it asks for more than :data:`DICE_MAX` dice or dice
of more than :data:`SIDES_MAX` sides, and d20's roll counter caps dice added while rolling
(exploding and rerolled dice). Every refusal is an :class:`~bot.errors.InvalidInput` naming the
problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import d20
from d20 import diceast

from bot import names
from bot.errors import InvalidInput

EXPRESSION_MAX = 200  # characters, the label included
DICE_MAX = 100  # dice per expression, counting every term (and rerolls while rolling)
SIDES_MAX = 1000  # sides per die
RESULT_MAX = 10**12  # absolute value of the total
PERCENT_SIDES = 100  # what d% means here
EXAMPLES = "`3d6+2`, `1d20+6 dex save` or `1d%`"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()<@:])")


@dataclass(frozen=True)
class Roll:
    """A rolled expression.

    ``expression`` is the dice part as typed (``1D20+6``); ``label`` the text after it
    (``dex save``), normalised like a name (:mod:`bot.names`) but *not* escaped — show it with
    :func:`bot.ui.text.shown_name`; ``text`` is d20's Markdown rendering with every die
    (``1d20 (14) + 6 = `20```); ``total`` the integer result."""

    expression: str
    label: str | None
    text: str
    total: int

    @property
    def summary(self) -> str:
        """``label: text`` (or ``text``): the roll as one line for the log."""
        return f"{self.label}: {self.text}" if self.label else self.text


@dataclass(frozen=True)
class Parsed:
    """A checked expression: the dice part, its label and d20's tree (``d%`` already d100)."""

    expression: str
    label: str | None
    tree: diceast.Expression


def _dice_terms(node: diceast.Node) -> list[diceast.Dice]:
    found: list[diceast.Dice] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, diceast.Dice):
            found.append(current)
        stack.extend(current.children)
    return found


def _shown(text: str) -> str:
    """Typed text quoted back in an error: one line, at most 50 characters, no backticks."""
    flat = text.replace("`", "'")
    return flat if len(flat) <= 50 else flat[:49] + "…"


def _syntax_error(text: str, error: d20.RollSyntaxError) -> InvalidInput:
    got = str(error.got)
    where = (
        "it stops too early"
        if not got.strip()
        else f"`{_shown(got.split()[0])}` at position {error.col} was unexpected"
    )
    return InvalidInput(
        f"`{_shown(text)}` is not a dice expression I understand ({where}). Try something "
        f"like {EXAMPLES}."
    )


def _split_label(text: str, lowered: str, comment: str | None) -> tuple[str, str | None]:
    """``(dice part, label)``: d20 gives the comment of the lower-cased text; the label keeps the
    case the member typed (lower-casing ASCII letters keeps every position)."""
    if not comment:
        return text, None
    start = len(lowered) - len(comment) if lowered.endswith(comment) else lowered.rfind(comment)
    if start < 0:  # pragma: no cover - d20's comment is always the rest of the text
        start = len(lowered) - len(comment)
    label = text[start:].strip().lstrip("#:").strip()
    return text[:start].strip(), label or None


def parse(expression: str) -> Parsed:
    """Check ``expression`` against the limits and split off its label (nothing is rolled).

    Raises :class:`InvalidInput` naming the problem: empty, too long, control characters, not
    an expression, too many dice, too many sides, a die with no sides."""
    raw = expression.strip()
    if len(raw) > EXPRESSION_MAX:
        raise InvalidInput(
            f"That dice expression is {len(raw)} characters long (its label included); the "
            f"limit is {EXPRESSION_MAX}."
        )
    try:
        text = names.clean(raw, max_length=EXPRESSION_MAX) if raw else ""
    except names.InvalidName as error:
        message = str(error)
        if message.startswith("is blank"):
            text = ""
        else:
            raise InvalidInput(f"A dice expression {message}.") from None
    if not text:
        raise InvalidInput(f"Give a dice expression, e.g. {EXAMPLES}.")
    lowered = text.translate(_ASCII_LOWER)
    try:
        tree = d20.parse(lowered, allow_comments=True)
    except d20.RollSyntaxError as error:
        raise _syntax_error(text, error) from None
    dice_part, label = _split_label(text, lowered, tree.comment)
    terms = _dice_terms(tree)
    count = sum(term.num for term in terms)
    if count > DICE_MAX:
        raise InvalidInput(
            f"That asks for {count:,} dice; at most {DICE_MAX} dice can be rolled at once."
        )
    for term in terms:
        if term.size == "%":
            term.size = PERCENT_SIDES
        if term.size > SIDES_MAX:
            raise InvalidInput(
                f"A d{term.size:,} is too big; dice can have at most {SIDES_MAX} sides."
            )
        if term.size < 1:
            raise InvalidInput(f"A d{term.size} has no sides to roll; dice need at least one.")
    return Parsed(expression=dice_part, label=label, tree=tree)


def check(expression: str) -> diceast.Expression:
    """Parse ``expression`` and enforce the limits; return d20's tree. Raises
    :class:`InvalidInput` (see :func:`parse`)."""
    return parse(expression).tree


def _escape_annotations(node: Any) -> None:
    """d20 shows a term's ``[annotation]`` as typed: escape its Markdown and mentions."""
    stack = [node]
    while stack:
        current = stack.pop()
        if getattr(current, "annotation", None):
            current.annotation = _MARKDOWN.sub(r"\\\1", current.annotation)
        stack.extend(getattr(current, "children", ()))


def roll(expression: str) -> Roll:
    """Roll ``expression`` after :func:`parse`. Raises :class:`InvalidInput` for anything
    malformed, too large, or whose total is absurd."""
    parsed = parse(expression)
    roller = d20.Roller(d20.RollContext(max_rolls=DICE_MAX))
    try:
        result = roller.roll(parsed.tree, stringifier=d20.MarkdownStringifier())
        _escape_annotations(result.expr)
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
    return Roll(expression=parsed.expression, label=parsed.label, text=text, total=total)
