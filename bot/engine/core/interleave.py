"""The interleaved turn order: one action at a time, round after round (Utopia "Turn order":
"There is an optional rule about turn orders, where each creature goes after each action …,
and turn round ends only after each creature expended it's TA").

An encounter setting (``EncounterSettings.interleaved``) the GM turns on or off with ``/gm
settings interleaved:``, accepted only where the ruleset's turn order allows it
(``TurnOrder.allows_interleave``: Utopia's :class:`~bot.engine.core.order.Rolled`) and only
before the fight begins (:func:`check_setting`; the bot's choice: a round never changes shape
part-way, and the pools a creature got at the start of the round stay meaningful).

With it on, a *go* is one creature's hold of the turn (``state.turn``, ``turn_seq`` counting
goes): the go ends after each paid action and passes to the next creature in the order that
still has a go (:func:`next_go`); the round ends when nobody has one, and the next starts from
the top of the order. What "has a go" means and what a round's start refills are the
ruleset's (the transaction's ``has_go`` and ``start_interleaved_round``; Utopia:
:mod:`bot.engine.utopia.interleave`).
"""

from __future__ import annotations

from typing import Any

from bot.engine.core.commands import ChangeSettings, describe_settings
from bot.engine.core.events import RoundStarted
from bot.errors import InvalidInput, NotAllowed, RuleViolation

Tx = Any  # a CoreTx of a ruleset whose turn order allows interleaving


def is_on(tx: Tx) -> bool:
    """Whether this encounter uses the interleaved order."""
    return bool(tx.state.settings.interleaved)


def check_setting(tx: Tx, cmd: ChangeSettings) -> None:
    """Refuse ``interleaved`` in ``cmd`` where the ruleset's turn order has no such option, or
    once the fight has begun; nothing when the command does not name it. Raises
    :class:`NotAllowed` or :class:`RuleViolation`."""
    if cmd.interleaved is None:
        return
    if not getattr(tx.order, "allows_interleave", False):
        raise NotAllowed(
            "This game system has no interleaved turn order (it is Utopia's optional rule): "
            "every combatant takes its whole turn in order."
        )
    if tx.state.phase != "setup":
        raise RuleViolation(
            "The interleaved turn order is turned on or off before the fight begins (while "
            "the encounter is in setup), so a round never changes shape part-way."
        )


def change_settings(tx: Tx, cmd: ChangeSettings) -> None:
    """The GM's ``/gm settings`` in a system without UTTAS's initiative modes: the settings
    named change, the rest keep their values. ``interleaved`` goes through
    :func:`check_setting` where the turn order allows it (else it is not stored; the system
    refuses it first in its own words); ``initiative:`` alone is refused with the turn order's
    words, how the system orders a fight (``TurnOrder.words``, which ``/encounter begin``
    refuses it with too). Raises ``InvalidInput`` when nothing is left to change."""
    left_out = {"kind", "initiative_mode"}
    if getattr(tx.order, "allows_interleave", False):
        check_setting(tx, cmd)
    else:
        left_out.add("interleaved")
    changes = cmd.model_dump(exclude_none=True, exclude=left_out)
    if not changes:
        raise InvalidInput(
            f"{tx.order.words}: `initiative:` is UTTAS's. Name a setting to change."
            if cmd.initiative_mode is not None
            else "Name at least one setting to change."
        )
    tx.state.settings = tx.state.settings.model_copy(update=changes)
    tx.note(f"Settings changed: {describe_settings(changes)}")


def next_go(tx: Tx, after: str | None) -> None:
    """Give the turn to the next creature after ``after`` in the order (wrapping round to the
    top, within the same round) that still has a go; when nobody has one, the round ends and
    the next starts from the top of the order (``start_interleaved_round``). Ends the fight
    when nobody can act at all."""
    order = tx.state.order
    if not order:
        tx.state.turn = None
        return
    if _pass_within_round(tx, after):
        return
    _start_round(tx)
    if _pass_within_round(tx, None):
        return
    tx.state.turn = None
    tx.end_fight(None, "nobody is able to act")


def _pass_within_round(tx: Tx, after: str | None) -> bool:
    """Start the go of the first creature after ``after`` (``after`` itself last) that has a
    go this round; True if one started."""
    order = tx.state.order
    i = order.index(after) if after in order else -1
    n = len(order)
    for step in range(1, n + 1):
        cid = order[(i + step) % n]
        c = tx.view(cid)
        if tx.cannot_act(c) is None and tx.has_go(c) and tx.start_turn(cid):
            return True
    return False


def _start_round(tx: Tx) -> None:
    st = tx.state
    st.round += 1
    st.game_time_s += tx.ROUND_SECONDS
    tx.emit(RoundStarted(round=st.round, text=f"Round {st.round} begins."))
    tx.tick_effects("round_start", None)
    tx.start_interleaved_round()
