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
    events say which. Allowed in any phase (a scene may end mid-fight). The end of a day (or
    of a quest or an arc, which end the day with them) moves the fight's clock to when the next
    day begins, in the rules versions that play ``"new_day_moves_clock"``
    (:meth:`~bot.engine.core.tx.CoreTx.begin_next_day`); earlier ones left it."""
    gone = tx.end_period(cmd.period)
    if cmd.period != "scene" and tx.plays("new_day_moves_clock"):
        tx.begin_next_day()
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
