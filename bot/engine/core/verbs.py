"""The command surface a ruleset declares as data (issue 10, decision D): the actions a
combatant can take with ``/act``, each with its cost in the system's own words, and the skills
``/check`` rolls. Discord's slash commands are one fixed set for every system (``/attack``,
``/move``, ``/act``, ``/check``, ``/endturn``, the reaction buttons); what differs per system is
data here, validated against the encounter's ruleset when a member uses it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from bot import names
from bot.errors import InvalidInput

TargetUse = Literal["none", "optional", "required"]


class ActionSpec(BaseModel):
    """One action of a ruleset, as ``/act`` offers it. ``key``: what ``action:`` takes (stable,
    lower-case, hyphenated); ``label``: its name in the rules text; ``cost``: what it costs, in
    the system's words ("1 action + Stamina; ends the turn"); ``target``: whether it takes a
    ``target:`` combatant; ``detail``/``amount``: what the ``detail:`` text and the ``amount:``
    number mean for it (None: not used); ``rule``: the rules-text section; ``aliases``: other
    words ``action:`` takes for it (the README's short names, "put away" for "Put a weapon
    away")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    label: str
    cost: str
    target: TargetUse = "none"
    detail: str | None = None
    amount: str | None = None
    rule: str = ""
    aliases: tuple[str, ...] = ()

    def choice_name(self) -> str:
        """The autocomplete entry (≤ 100 characters): "Take a Breather — 1 action; …"."""
        text = f"{self.label} — {self.cost}"
        return text if len(text) <= 100 else text[:99] + "…"


class ActInput(BaseModel):
    """What a member gave ``/act``: the action's key and its options (combatant ids resolved)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    target: str | None = None
    detail: str | None = None
    amount: float | None = None

    @field_validator("detail")
    @classmethod
    def _detail_shows(cls, detail: str | None) -> str | None:
        """A detail that shows as nothing (spaces, zero-width or other invisible characters)
        names nothing: refused as blank (:data:`bot.names.BLANK`) before any action reads it.
        Every action matched words by their start or quoted them, so a pasted zero-width
        character claimed a Uune PC's first bond, named an Action roll "" and read "Luck
        check for Mira Quell ():"."""
        if detail is not None and names.blank(detail):
            raise ValueError(names.BLANK)
        return detail


def spec_for(specs: Iterable[ActionSpec], typed: str) -> ActionSpec | None:
    """The action ``typed`` in ``/act``'s ``action:`` names: by its key (spaces for hyphens),
    by its label as the action list shows it ("Sheath a weapon"), by that label without its
    aside in brackets ("Act now" for "Act now (held action)") or by one of its aliases
    ("put away"), case-insensitive and ignoring runs of spaces; None when it names none of
    ``specs``. The key is tried first, so a label's short form never hides another action's
    key ("Move (same position)" is ``shift``; ``move`` stays Move)."""
    wanted = " ".join(typed.split()).casefold()
    listed = list(specs)
    by_key = next((s for s in listed if s.key == wanted.replace(" ", "-")), None)
    return by_key or next((s for s in listed if wanted in _names(s)), None)


def require_options(spec: ActionSpec, given: ActInput) -> None:
    """Refuse an option ``spec`` does not take (its list entry's ``target``, ``detail`` and
    ``amount``), naming it: a typed option the action would drop unsaid (``/act
    action:exchange amount:99`` exchanging one) is a member misled. Raises
    :class:`InvalidInput`."""
    unused = [
        option
        for option, given_it, takes_it in (
            ("target", given.target is not None, spec.target != "none"),
            ("detail", given.detail is not None, spec.detail is not None),
            ("amount", given.amount is not None, spec.amount is not None),
        )
        if given_it and not takes_it
    ]
    if unused:
        raise InvalidInput(f"**{spec.label}** takes no `{unused[0]}:`.")


def _names(spec: ActionSpec) -> set[str]:
    """What ``action:`` may type for ``spec`` besides its key (see :func:`spec_for`)."""
    label = spec.label.casefold()
    short = label.split(" (", 1)[0].strip() if label.endswith(")") else label
    return {label, short, *(alias.casefold() for alias in spec.aliases)}


def split_named(text: str, known: Iterable[str], separators: str = ",") -> list[str]:
    """A ``detail:`` list (``Rope, Grit``) as its parts, stripped, blank parts dropped, where a
    name in ``known`` that itself contains a separator (a resource ``Rope, 30 ft``, a weapon
    ``Knife +1``) stays one part: at each part the longest run of parts that spells a known
    name (by :func:`bot.names.key`) is taken whole."""
    pieces = re.split(f"([{re.escape(separators)}])", text)
    parts, seps = pieces[0::2], pieces[1::2]
    wanted = {names.key(name) for name in known}
    found: list[str] = []
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            whole = "".join(p + s for p, s in zip(parts[i:j], (*seps[i : j - 1], ""), strict=True))
            if j == i + 1 or names.key(whole.strip()) in wanted:
                break
        if whole.strip():
            found.append(whole.strip())
        i = j
    return found


DETAIL_CHOICES_MAX = 25
"""Discord's most autocomplete choices a field shows."""
DETAIL_CHOICE_MAX = 100
"""Discord's longest autocomplete choice name and value, in characters."""

DetailChoice = tuple[str, str]
"""One ``detail:`` suggestion for ``/act``: ``(what the list shows, the value it fills in)``."""


def completions(typed: str, options: Iterable[str], *, listed: bool = False) -> list[DetailChoice]:
    """``detail:`` suggestions (:meth:`bot.engine.core.contract.Ruleset.detail_choices`): each
    of ``options`` whose words contain what is typed (case-insensitive), as ``options`` spell
    it. ``listed``: ``detail:`` is a comma-separated list, so only the part after the last comma
    is completed, the parts before are kept, and an option already listed is not offered again.
    At most :data:`DETAIL_CHOICES_MAX`; a suggestion longer than :data:`DETAIL_CHOICE_MAX`
    characters is left out (Discord refuses it). An option whose name has a comma in it is
    kept whole, listed or being typed (:func:`split_named`)."""
    unique = list(dict.fromkeys(options))
    kept, last = _listed_so_far(typed, unique) if listed else ("", typed)
    before = split_named(kept, unique)
    taken = {names.key(part) for part in before}
    lead = "".join(f"{part}, " for part in before)
    wanted = last.strip().casefold()
    found: list[DetailChoice] = []
    for option in unique:
        if wanted not in option.casefold() or names.key(option) in taken:
            continue
        value = lead + option
        if len(value) <= DETAIL_CHOICE_MAX:
            found.append((value, value))
        if len(found) == DETAIL_CHOICES_MAX:
            break
    return found


def _listed_so_far(typed: str, options: Sequence[str]) -> tuple[str, str]:
    """``typed`` as (the list so far, the part being typed): the part being typed starts at the
    earliest comma after which the rest is still part of an option's name (so ``Bow, lo``
    completes the weapon ``Bow, long`` instead of listing ``Bow``), else after the last comma."""
    cuts = [0, *(m.end() for m in re.finditer(",", typed))]
    for cut in cuts:
        rest = typed[cut:].strip().casefold()
        if any(rest in option.casefold() for option in options):
            return typed[: max(cut - 1, 0)], typed[cut:]
    return typed[: max(cuts[-1] - 1, 0)], typed[cuts[-1] :]


def after_colon(typed: str, options: Iterable[str]) -> list[DetailChoice]:
    """Suggestions for a ``detail:`` written "what, then a list after a colon" (Uune's "climb
    the wall: Rope, Grit"): what is before the colon is kept as typed, the list after it is
    completed as :func:`completions` completes a list. Nothing typed yet: nothing to suggest
    (what comes before the colon is the member's own words)."""
    head, colon, tail = typed.partition(":")
    if not head.strip():
        return []
    lead = f"{head.strip()}: "
    return [
        (lead + shown, lead + value)
        for shown, value in completions(tail if colon else "", options, listed=True)
        if len(lead + value) <= DETAIL_CHOICE_MAX
    ]
