"""An encounter as the services hand it around: its stored row with its engine state parsed,
the rules it plays by, and who its GMs are."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from bot.engine import get_ruleset
from bot.engine.core.compact import compact
from bot.engine.core.contract import Ruleset
from bot.engine.core.state import AnyState
from bot.errors import InvalidInput, RulesVersionUnknown
from bot.services.actor import Actor
from bot.services.issue_marks import Began
from bot.store.away import AwayRow
from bot.store.encounters import EncounterRow

NOBODY_AWAY: Mapping[int, AwayRow] = MappingProxyType({})


def playing_rules(row: EncounterRow) -> Ruleset[Any]:
    """The rules encounter ``row`` plays by: those frozen when it started (decision C); for one
    not frozen yet (see :meth:`EncounterService.freeze_rules`), rules version 1 with the shipped
    tables and its server changes. Raises :class:`~bot.errors.RulesVersionUnknown` for rules a
    newer bot froze."""
    if row.rules is None:
        return get_ruleset(row.ruleset, row.rules_overrides)
    return get_ruleset(row.ruleset, frozen=row.rules)


def read_state(row: EncounterRow, text: str) -> AnyState:
    """``text``, a state of encounter ``row``, parsed by its system's models. Raises
    :class:`~bot.errors.RulesVersionUnknown` when it does not parse and the rules ``row``
    plays by were frozen by a newer bot (a version this one does not know): that bot's state
    may hold what this one's models do not, and the GM (and whoever hosts the bot) must read
    why and what to do — not a validation error about a field. Raises
    :class:`~bot.errors.InvalidInput` for any other state that does not parse."""
    rules = get_ruleset(row.ruleset)
    try:
        state: AnyState = rules.load_state(text)
    except InvalidInput:
        known = type(rules).known_versions
        if row.rules is None or row.rules_version in known:
            raise
        versions = ", ".join(str(v) for v in known)
        raise RulesVersionUnknown(
            f"This encounter was saved by a newer version of the bot: it plays by {rules.title} "
            f"rules version {row.rules_version}, which this version does not know (it knows "
            f"{versions}), and its fight cannot be read here. Run the newer version of the bot "
            "to go on with it; `/encounter end` ends it here unread (no summary)."
        ) from None
    return state


def row_gm(row: EncounterRow, actor: Actor) -> bool:
    """``actor`` is a GM of encounter ``row``: manages the server or channel, holds the server's
    GM role (``/gm seat role``), or holds the encounter's GM seat (its starter, unless it was
    handed on with ``/gm seat transfer``). Read from the row alone, not the fight."""
    return (
        actor.manages_channel
        or actor.user_id == row.gm_id
        or (row.gm_role_id is not None and row.gm_role_id in actor.role_ids)
    )


@dataclass(frozen=True)
class UnreadEncounter:
    """A live encounter whose fight this bot cannot read: a newer bot froze its rules
    (:class:`~bot.errors.RulesVersionUnknown`; a rollback after an upgrade). It can still be
    ended (:meth:`EncounterService.confirm_end`) — its row alone says who may — but nothing is
    read from its fight: ``reason`` is the refusal its other commands get."""

    row: EncounterRow
    reason: str

    @property
    def id(self) -> int:
        return self.row.id

    def is_gm(self, actor: Actor) -> bool:
        """GM of this encounter (:func:`row_gm`)."""
        return row_gm(self.row, actor)


def held(row: EncounterRow) -> EncounterRow:
    """``row`` as an :class:`Encounter` holds it beside its parsed state (issue 15, "Memory"):
    without the state text (``state_json`` None; the parsed state is the state, and
    :attr:`Encounter.state_json` writes it again when asked), its frozen rules text shared with
    every row that has the same (interned), the rest compact (:mod:`bot.engine.core.compact`).
    A row held already is returned as it is."""
    if row.state_json is None:
        return row
    rules = None if row.rules is None else sys.intern(row.rules)
    return compact(row.model_copy(update={"state_json": None, "rules": rules}))


@dataclass(frozen=True)
class Encounter:
    """A stored encounter with its engine state loaded, and the members of its server who
    are away (``/away``; by user id) when it was read — who may act and who is pinged for a
    combatant depend on them (:mod:`bot.services.acting`).

    ``row`` is held without its state text (:func:`held`: a busy channel's encounter stays in
    memory, and the text of a five-combatant fight is ~12 KB beside the parsed state);
    :attr:`state_json` gives the text."""

    row: EncounterRow
    state: AnyState
    away: Mapping[int, AwayRow] = field(default_factory=lambda: NOBODY_AWAY)
    began: Began = field(default_factory=Began)
    """When its turn and open decisions began as far as this process knows beyond the marks
    stored in its state (see :class:`~bot.services.issue_marks.Began`)."""

    def turn_mark(self, state: AnyState | None = None) -> int:
        """The issue mark of the beginning of the turn running in ``state`` (default: this
        encounter's): a command issued no later was meant for an earlier turn. The state's
        ``turn_marker``, or later when this process committed that turn's beginning later."""
        state = self.state if state is None else state
        if self.began.turn_seq == state.turn_seq:
            return max(state.turn_marker, self.began.turn)
        return state.turn_marker

    def decision_mark(self, decision: Any) -> int:
        """The issue mark of the opening of ``decision`` (an open decision of the state): its
        ``marker``, or later when this process committed its opening later."""
        return max(int(decision.marker), self.began.decisions.get(decision.id, 0))

    def __post_init__(self) -> None:
        object.__setattr__(self, "row", held(self.row))

    @property
    def state_json(self) -> str:
        """The state at this version as JSON text, in the form the store writes it
        (``model_dump_json``; the row's stored state may be older: ``state_version``)."""
        return self.state.model_dump_json()

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @cached_property
    def rules(self) -> Ruleset[Any]:
        """The encounter's ruleset, playing by the rules frozen when it started (decision C,
        :meth:`playing_rules`). Rules a newer bot froze are shown through this version's
        ruleset, so the encounter can still be read and ended; nothing is applied with them
        (:meth:`EncounterService.change` refuses), nor worked out by them (``/odds``,
        ``/rehearse`` and the turn's Attack button read :meth:`playing_rules`) — nor replayed:
        one whose stored state is behind its row is refused when read
        (:func:`bot.services.encounters.state_of`; it can still be ended, unread:
        :class:`UnreadEncounter`)."""
        try:
            return self.playing_rules()
        except RulesVersionUnknown:
            return get_ruleset(self.row.ruleset)

    def playing_rules(self) -> Ruleset[Any]:
        """The rules frozen when the encounter started (:func:`playing_rules`). Raises
        :class:`~bot.errors.RulesVersionUnknown` for rules a newer bot froze."""
        return playing_rules(self.row)

    def is_gm(self, actor: Actor) -> bool:
        """GM of this encounter (:func:`row_gm`)."""
        return row_gm(self.row, actor)
