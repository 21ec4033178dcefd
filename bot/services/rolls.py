"""Free-form dice expressions (``/roll``, ``/gm hp``) through the ``d20`` package, with limits.

What a member may type, in every field that takes dice:

* a ``d20`` expression in any letter case (``1d20``, ``1D20``, ``2D6+1D4``, ``4d6kh3``);
* ``d%`` for a hundred-sided die (``1d%`` is ``1d100``; d20's own ``%`` die would roll 0–90 in
  tens);
* text after the expression, which becomes the roll's label: ``1d20+6 dex save`` and
  ``3d6 # attack`` are labelled ``dex save`` and ``attack`` (d20's ``allow_comments``; a leading
  ``#`` or ``:`` is dropped).

A label is separated from the expression by whitespace, ``#`` or ``:``: text glued to the dice
(``1d6d6``, ``1e3``) is not a label but a mistake, refused as such. A label after whitespace
must not start with a word that itself reads as dice or a number (``1 d20``, ``1d20 2d6``,
``1d20 12``): that is refused with a hint (did you mean ``1d20``?) rather than silently rolling
the first part. A label may hold anything else, mentions included (``1d20 <@123>``, ``1d20
@everyone``): it is shown escaped and pings nobody (the reply allows no mentions).

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
    (``1d20 (14) + 6 = `20```); ``total`` the integer result (d20 truncates a fractional
    total); ``decimal`` the first decimal number typed in the expression (``2.7``), if any."""

    expression: str
    label: str | None
    text: str
    total: int
    decimal: str | None = None

    @property
    def summary(self) -> str:
        """``label: text`` (or ``text``): the roll as one line for the log."""
        return f"{self.label}: {self.text}" if self.label else self.text


@dataclass(frozen=True)
class Parsed:
    """A checked expression: the dice part, its label, d20's tree (``d%`` already d100) and the
    first decimal number typed in it (``None`` when every number is whole)."""

    expression: str
    label: str | None
    tree: diceast.Expression
    decimal: str | None = None


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


def _comment_start(lowered: str, comment: str) -> int:
    """Where d20's comment (the rest of the text) starts in ``lowered``."""
    start = len(lowered) - len(comment) if lowered.endswith(comment) else lowered.rfind(comment)
    if start < 0:  # pragma: no cover - d20's comment is always the rest of the text
        start = len(lowered) - len(comment)
    return start


def _reads_as_dice(word: str) -> bool:
    """Whether ``word`` (lower-cased) is by itself a dice expression or a number."""
    try:
        d20.parse(word, allow_comments=False)
    except d20.RollSyntaxError:
        return False
    return True


def _label_after_error(lowered: str, error: d20.RollSyntaxError) -> int | None:
    """Where a label starts when d20 refused the text only because the label began like an
    operator (``1d20 <@123>``: ``<`` reads as "less than"): the last space before the error
    after which the text before it parses and the rest does not continue an arithmetic
    expression. ``None`` when there is no such place (a real syntax error)."""
    error_at = max(0, int(getattr(error, "col", 1) or 1) - 1)
    for index in range(min(error_at, len(lowered)) - 1, 0, -1):
        if not lowered[index].isspace():
            continue
        rest = lowered[index:].lstrip()
        if not rest or rest[0] in "+-*/%(),.0123456789":
            continue
        if _reads_as_dice(lowered[:index].rstrip()):
            return len(lowered) - len(rest)
    return None


def _decimal(node: diceast.Node) -> str | None:
    """The first decimal number (``2.7``) in d20's tree, if any."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, diceast.Literal) and isinstance(current.value, float):
            return str(current.value)
        stack.extend(reversed(current.children))
    return None


def _split(text: str, lowered: str) -> tuple[diceast.Expression, str, str | None]:
    """``(tree, dice part, label)`` of a normalised text; refuses a label glued to the dice or
    starting with a word that reads as dice or a number."""
    try:
        tree = d20.parse(lowered, allow_comments=True)
    except d20.RollSyntaxError as error:
        start = _label_after_error(lowered, error)
        if start is None:
            raise _syntax_error(text, error) from None
        tree = d20.parse(lowered[:start].rstrip(), allow_comments=False)
    else:
        if not tree.comment:
            return tree, text, None
        start = _comment_start(lowered, tree.comment)
    dice_part, rest = text[:start].strip(), text[start:].strip()
    marked = rest[:1] in ("#", ":")
    if not marked and start > 0 and not text[start - 1].isspace():
        glued = rest.split()[0]
        raise InvalidInput(
            f"`{_shown(text)}` is not a dice expression I understand (`{_shown(glued)}` at "
            f"position {start + 1} was unexpected). Try something like {EXAMPLES}; a label "
            f"goes after a space."
        )
    label = rest.lstrip("#:").strip()
    if label and not marked:
        word = label.split()[0].rstrip(",.;!?")
        if word and _reads_as_dice(word.translate(_ASCII_LOWER)):
            raise InvalidInput(_label_hint(text, dice_part, word))
    if label:
        try:
            label = names.clean(label, max_length=EXPRESSION_MAX)
        except names.InvalidName as error:
            raise InvalidInput(f"The roll's label {error}.") from None
    return tree, dice_part, label or None


def _label_hint(text: str, dice_part: str, word: str) -> str:
    """The refusal of a label that starts with dice or a number, with what was probably meant."""
    what = (
        f"the number {dice_part}" if dice_part.isdecimal() else f"the dice {names.code(dice_part)}"
    )
    said = f"`{_shown(text)}` reads as {what} then the label '{_shown(word)}'"
    joined = f"{dice_part}{word}"
    number = dice_part.isdecimal()
    if number and word[:1] in "dD" and _reads_as_dice(joined.translate(_ASCII_LOWER)):
        return f"{said} — did you mean `{_shown(joined)}`?"
    return (
        f"{said} — did you mean `{_shown(dice_part + '+' + word)}`? A label can't start with "
        f"dice or a number: put a word first, or mark the label with `#` "
        f"(`{_shown(dice_part)} # {_shown(word)}`)."
    )


def parse(expression: str) -> Parsed:
    """Check ``expression`` against the limits and split off its label (nothing is rolled).

    Raises :class:`InvalidInput` naming the problem: empty, too long, control characters, not
    an expression, a label glued to the dice or starting with dice or a number, too many dice,
    too many sides, a die with no sides."""
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
    tree, dice_part, label = _split(text, text.translate(_ASCII_LOWER))
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
    return Parsed(expression=dice_part, label=label, tree=tree, decimal=_decimal(tree))


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


def roll(expression: str | Parsed) -> Roll:
    """Roll ``expression`` (typed text, checked by :func:`parse`, or what :func:`parse`
    returned). Raises :class:`InvalidInput` for anything malformed, too large, or whose total
    is absurd."""
    parsed = parse(expression) if isinstance(expression, str) else expression
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
    return Roll(
        expression=parsed.expression,
        label=parsed.label,
        text=text,
        total=total,
        decimal=parsed.decimal,
    )
