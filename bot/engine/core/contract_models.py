"""The plain models the ruleset contract (:mod:`bot.engine.core.contract`) passes around: a
choice on a decision (:class:`ReactionOption`), a sheet as shown (:class:`SheetSection`), a
create form (:class:`SheetForm`, :class:`FormBox`), another tool's sheet translated
(:class:`ForeignSheet`), and the one-line message of a validation error."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot import names
from bot.engine.core.json_words import said


class ReactionOption(BaseModel):
    """One choice a combatant can afford right now on a pending decision (one button): a
    reaction to an attack, an approval, a spend…

    ``choice``/``maneuver``/``stance`` are what the ruleset's :meth:`Ruleset.answer` puts into
    its command; ``actions`` and ``stamina`` its cost in those pools, ``costs`` in any other
    (pool name → amount, e.g. ``{"vitality": 5}``); ``label`` a button label (≤ 80
    characters); ``gm``: only the GM may take it, whoever the decider's controller is (Uune's
    approval of a resource, an NPC forcing a reroll) — a player pressing it is refused by
    name."""

    model_config = ConfigDict(frozen=True)

    choice: str
    label: str
    maneuver: str | None = None
    stance: str | None = None
    actions: int = 0
    stamina: int = 0
    costs: dict[str, int] = Field(default_factory=dict)
    gm: bool = False


class SheetSection(BaseModel):
    """One part of a sheet as shown (``/character show``): a title and its lines of text
    (Markdown; names already passed through the caller's formatter); ``inline`` when it fits
    beside others."""

    model_config = ConfigDict(frozen=True)

    title: str
    lines: list[str]
    inline: bool = False


class ForeignSheet(BaseModel):
    """A sheet from another tool, translated by :meth:`Ruleset.foreign_sheet`: ``data`` (this
    ruleset's sheet data, still to be validated), ``source`` (the tool, e.g. "Foundry VTT
    actor export") and ``unmapped`` (one line per thing of the original the sheet does not hold
    or holds differently, to show the member instead of dropping it silently)."""

    model_config = ConfigDict(frozen=True)

    data: dict[str, Any]
    source: str
    unmapped: tuple[str, ...] = ()


class FormBox(BaseModel):
    """One box of a ruleset's sheet create form (``/character create``; Discord allows five).

    ``key``: the box's id, and the sheet field it fills when ``scores`` is None (its text, for
    the sheet model to check); ``scores``: the box holds several numbers, for these sheet fields
    in this order (all numbers in order, or each after its name), put into the ``into`` field
    (None: the sheet's top level); ``label`` (≤ 45 characters), ``default``, ``placeholder``
    (≤ 100), ``max_length`` and ``required`` as Discord shows them; ``lower``: the text is
    lower-cased (a choice such as a size)."""

    model_config = ConfigDict(frozen=True)

    key: str
    label: Annotated[str, Field(max_length=45)]
    default: str = ""
    placeholder: Annotated[str, Field(max_length=100)] = ""
    max_length: int = Field(default=100, ge=1, le=4000)
    required: bool = True
    scores: tuple[str, ...] | None = None
    into: str | None = None
    lower: bool = False


class SheetForm(BaseModel):
    """A ruleset's sheet create form: its ``boxes`` (the first is the name) and ``rest``, what
    the form leaves to ``/character edit`` or an import (e.g. "weapons, powers")."""

    model_config = ConfigDict(frozen=True)

    boxes: tuple[FormBox, ...] = Field(min_length=1, max_length=5)
    rest: str


def validation_message(exc: ValidationError, what: str) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or what
    return f"Invalid {what} ({names.code(where)}): {said(first)}"
