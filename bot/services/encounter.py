"""An encounter as the services hand it around: its stored row with its engine state parsed,
the rules it plays by, and who its GMs are."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.engine import get_ruleset
from bot.engine.core.contract import Ruleset
from bot.engine.core.state import AnyState
from bot.errors import RulesVersionUnknown
from bot.services.actor import Actor
from bot.services.issue_marks import Began
from bot.store.away import AwayRow
from bot.store.encounters import EncounterRow


@dataclass(frozen=True)
class Encounter:
    """A stored encounter with its engine state loaded, and the members of its server who
    are away (``/away``; by user id) when it was read — who may act and who is pinged for a
    combatant depend on them (:mod:`bot.services.acting`)."""

    row: EncounterRow
    state: AnyState
    away: Mapping[int, AwayRow] = field(default_factory=dict)
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
        (:meth:`EncounterService.change` refuses)."""
        try:
            return self.playing_rules()
        except RulesVersionUnknown:
            return get_ruleset(self.row.ruleset)

    def playing_rules(self) -> Ruleset[Any]:
        """The rules frozen when the encounter started; for one not frozen yet (see
        :meth:`EncounterService.freeze_rules`), rules version 1 with the shipped tables and its
        server changes. Raises :class:`~bot.errors.RulesVersionUnknown` for rules a newer bot
        froze."""
        if self.row.rules is None:
            return get_ruleset(self.row.ruleset, self.row.rules_overrides)
        return get_ruleset(self.row.ruleset, frozen=self.row.rules)

    def is_gm(self, actor: Actor) -> bool:
        """GM of this encounter: manages the server or channel, holds the server's GM role
        (``/gm seat role``), or holds the encounter's GM seat (its starter, unless it was handed on
        with ``/gm seat transfer``)."""
        return (
            actor.manages_channel
            or actor.user_id == self.row.gm_id
            or (self.row.gm_role_id is not None and self.row.gm_role_id in actor.role_ids)
        )
