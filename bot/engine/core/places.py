"""The core's commands on positions, for every ruleset's dispatch table: the Game Master
declares a distance, an engagement or its end (:mod:`bot.engine.core.positions`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import names
from bot.engine.core.commands import Disengage, Engage, SetDistance
from bot.engine.core.events import PositionsChanged
from bot.errors import InvalidInput

Tx = Any  # a ruleset's CoreTx subclass


def _two(tx: Tx, a: str, b: str) -> tuple[Any, Any]:
    first, second = tx.view(a), tx.view(b)
    if first.id == second.id:
        raise InvalidInput("Name two different combatants.")
    return first, second


def set_distance(tx: Tx, cmd: SetDistance) -> None:
    """``a`` and ``b`` are ``meters`` apart; within 1 m they are engaged. Any phase."""
    a, b = _two(tx, cmd.a, cmd.b)
    st = tx.state
    st.positions = st.positions.with_distance(a.id, b.id, cmd.meters)
    engaged = st.positions.are_engaged(a.id, b.id)
    tail = " and engaged" if engaged else ""
    text = f"{a.name} and {b.name} are {tx.scale.show(cmd.meters)} apart{tail}."
    tx.emit(
        PositionsChanged(combatant=a.id, other=b.id, meters=cmd.meters, engaged=engaged, text=text)
    )


def engage(tx: Tx, cmd: Engage) -> None:
    """``a`` and ``b`` are in melee (with everyone already engaged with either)."""
    a, b = _two(tx, cmd.a, cmd.b)
    st = tx.state
    st.positions = st.positions.engage(a.id, b.id)
    tx.emit(
        PositionsChanged(
            combatant=a.id, other=b.id, engaged=True, text=f"{a.name} and {b.name} are engaged."
        )
    )


def disengage(tx: Tx, cmd: Disengage) -> None:
    """``combatant`` is out of melee."""
    c = tx.view(cmd.combatant)
    st = tx.state
    if not st.positions.group_of(c.id):
        raise InvalidInput(f"{names.escaped(c.name)} is not engaged with anyone.")
    st.positions = st.positions.disengage(c.id)
    tx.emit(PositionsChanged(combatant=c.id, text=f"{c.name} is no longer engaged."))


Handler = Callable[[Tx, Any], None]
HANDLERS: dict[str, Handler] = {
    "set_distance": set_distance,
    "engage": engage,
    "disengage": disengage,
}
"""The core's position commands, for every ruleset's dispatch table."""
