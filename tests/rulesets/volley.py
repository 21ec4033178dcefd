"""A test variant of UTTAS with one extra action, **Volley**: the turn holder attacks every
standing enemy at once with one weapon, so one decision per target opens at the same time
(the shipped UTTAS never has two open at once; Uune's approvals and Utopia's Block and Dodge
will). Each target answers its own decision, in any order; the turn passes once all are
settled. A volley costs nothing (it is a test of decisions, not of UTTAS's costs).

It plugs in as a new ruleset would: a subclass, its own command, its own ``/act`` entry and
handler — no change to the core, the services, the store or the cogs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar, Literal

from pydantic import TypeAdapter

from bot.engine.core.commands import CommandBase, Dated, Id
from bot.engine.core.contract import command_adapter
from bot.engine.core.state import Name
from bot.engine.core.verbs import ActInput, ActionSpec
from bot.engine.registry import REGISTRY
from bot.engine.uttas import attacks
from bot.engine.uttas import commands as cmd
from bot.engine.uttas.core import TURN_ORDER, Tx
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.state import PendingAttack, UttasState


class Volley(Dated):
    """The turn holder ``actor`` attacks every standing enemy with ``attack``."""

    kind: Literal["volley"] = "volley"
    actor: Id
    attack: Name


VOLLEY = ActionSpec(
    key="volley",
    label="Volley",
    cost="free (a test action); each target reacts on its own",
    detail="the weapon",
)


def volley(tx: Tx, command: Volley) -> None:
    a = tx.view(command.actor)
    tx.require_turn(a)
    profile = tx.profile(a.id, command.attack)
    for t in list(tx.state.combatants):
        if t.side == a.side or tx.is_out(t):
            continue
        p = PendingAttack(attacker=a.id, target=t.id, attack=profile.name, on_turn=True)
        attacks.open_or_resolve(tx, p)


class VolleyRuleset(UttasRuleset):
    """UTTAS plus the Volley action (tests only)."""

    command_adapter: ClassVar[TypeAdapter[CommandBase]] = command_adapter(
        (*cmd.OWN_COMMANDS, Volley), TURN_ORDER
    )
    handlers: ClassVar[Any] = {**UttasRuleset.handlers, "volley": volley}

    def actions(self, state: UttasState, combatant: Any) -> list[ActionSpec]:
        return [*super().actions(state, combatant), VOLLEY]

    def act(self, state: UttasState, combatant: Any, given: ActInput) -> CommandBase:
        if given.key.strip().casefold() == "volley":
            return Volley(actor=combatant.id, attack=given.detail or "")
        return super().act(state, combatant, given)


@contextmanager
def playing_volleys() -> Iterator[None]:
    """While inside, encounters of the ``uttas`` key play by :class:`VolleyRuleset`."""
    classes, cache, thawed = REGISTRY._classes, REGISTRY._cache, REGISTRY._thawed
    REGISTRY._classes = {**classes, "uttas": VolleyRuleset}
    REGISTRY._cache, REGISTRY._thawed = {}, {}
    try:
        yield
    finally:
        REGISTRY._classes, REGISTRY._cache, REGISTRY._thawed = classes, cache, thawed
