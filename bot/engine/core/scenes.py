"""The core's commands on effects, for every ruleset's dispatch table: the Game Master ends a
scene, a day, a quest or an arc (:mod:`bot.engine.core.effects`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.core.commands import EndPeriod
from bot.words import counted

Tx = Any  # a ruleset's CoreTx subclass


def end_period(tx: Tx, cmd: EndPeriod) -> None:
    """Every effect of the period's scope or a shorter one ends, for every combatant; the
    events say which. Allowed in any phase (a scene may end mid-fight)."""
    gone = tx.end_period(cmd.period)
    if not gone:
        tx.note(f"The {cmd.period} ends; no effect lasted only that long.")
    else:
        verb = "ends" if len(gone) == 1 else "end"
        tx.note(f"The {cmd.period} ends: {counted(len(gone), 'effect')} {verb} with it.")
    tx.on_period_end(cmd.period)
    tx.check_end(force=True)


Handler = Callable[[Tx, Any], None]
HANDLERS: dict[str, Handler] = {"end_period": end_period}
"""The core's effect commands, for every ruleset's dispatch table."""
