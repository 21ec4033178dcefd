"""Utopia's optional interleaved turn order (``utopia-actions.txt`` "Turn order": "each
creature goes after each action …, and turn round ends only after each creature expended it's
TA"), on the core's go cycle (:mod:`bot.engine.core.interleave`).

The readings the bot takes (``docs/rules/utopia.md``, "Interleaved turn order"):

* **TA** refill once per round, at its start — not each time a creature's go comes back. A
  creature *has a go* while it has TA left and is not out of the fight.
* **A go** ends after each paid action (any command that spent TA on it — a Block paid with
  TA on the creature's own go too), once no damage waits for a defense; the turn passes to the
  next creature in the order that has a go, wrapping round within the round. ``/endturn`` (and
  the GM's ``/gm next`` or ``/gm skip``) gives up the rest of the creature's TA for the round.
  The round ends when every creature has spent or given up its TA.
* **IA** ("resets at the beginning of each other creature's turn") reset once per round, at its
  start, with the TA: with a go per action, a reset at each go would hand out 2 IA per enemy
  action. Off its go a creature pays with IA (2 IA for 1 TA), never with the TA it keeps for
  its next go.
* **Hold** ("depleted if not used by the creature's following turn"): a creature's turn is its
  round, so a held IA (or a TA turned into an IA) is usable through the next round and lapses
  at the start of the one after.
* **Aim** ("lost if you take any other action first"): a pass is not an action of the aimer's,
  so the favor waits across other creatures' goes until its own next action.
* **open_guard** ("cannot defend, until it's the next creature's turn"): lifted when the next
  go starts.
* **Take Cover** ("for the rest of the turn"): ends with the go it was taken in. A **run-up**
  for Leap survives the passes (Travel and Leap are two goes apart) and ends with the round or
  any other paid action.
* **Choosing to go later** moves the creature for good and passes its go, keeping its TA.
"""

from __future__ import annotations

from typing import Any

from bot import names
from bot.engine.core import order
from bot.engine.core.commands import DelayTurn
from bot.engine.core.events import TurnEnded, TurnStarted
from bot.errors import RuleViolation

Tx = Any  # bot.engine.utopia.core.Tx (which imports this module)


def has_go(c: Any) -> bool:
    """Whether ``c`` may still act this round: TA left."""
    return bool(c.pools.get("turn", 0) > 0)


def start_round(tx: Tx) -> None:
    """A new round: every creature's TA and IA refill; IA held last round become usable and
    older ones lapse; run-ups end."""
    for c in tx.state.combatants:
        ta, ia = tx.economy.split(tx.capacity(c))
        p = c.pools
        pools = {**p, "turn": ta, "interrupt": ia, "held": p.get("held_new", 0), "held_new": 0}
        if pools != p or c.run_up_m:
            m = tx.c(c.id)
            m.pools, m.run_up_m = pools, 0


def start_go(tx: Tx, cid: str, start: Any) -> bool:
    """Start ``cid``'s go with the core's ``start`` (its pools untouched); a creature with no
    go left this round does not start one. Returns True if it now holds the turn."""
    if not has_go(tx.view(cid)):
        return False
    if not start(cid):
        return False
    event = tx.events[-1]
    if isinstance(event, TurnStarted):
        c = tx.view(cid)
        text = f"Round {event.round}: {c.name} acts ({event.actions_left} TA left)."
        tx.events[-1] = event.model_copy(update={"text": text})
    return True


def end_go(tx: Tx, cid: str) -> None:
    """``cid``'s go ends: cover ends with it ("Take Cover": "for the rest of the turn"); the
    pools stay as they are for its next go."""
    for other in tx.state.combatants:
        if other.cover:
            tx.c(other.id).cover = False
    c = tx.view(cid)
    left = c.pools.get("turn", 0)
    tx.emit(
        TurnEnded(
            combatant=cid,
            actions_left=left,
            text=f"{c.name}'s action is done ({left} TA left this round).",
        )
    )
    tx.tick_effects("turn_end", cid)


def give_up(tx: Tx, cid: str) -> None:
    """``cid`` ends its turn: the TA it has left are given up for the round."""
    c = tx.view(cid)
    left = c.pools.get("turn", 0)
    if left:
        m = tx.c(cid)
        m.pools = {**m.pools, "turn": 0}
        tx.note(
            f"{c.name} is done for the round (gives up {left} TA).",
            cid,
            secret=True,  # an NPC's TA are hidden from players
            public=f"{c.name} is done for the round.",
        )


def leaving(tx: Tx, cid: str) -> None:
    """``cid`` leaves the fight on its go: it has no go left to come back to."""
    if tx.state.settings.interleaved and tx.view(cid).pools.get("turn", 0):
        m = tx.c(cid)
        m.pools = {**m.pools, "turn": 0}


def after_command(tx: Tx) -> None:
    """Once the creature holding the turn has spent TA on its go and no damage waits for a
    defense, its go ends and the turn passes on."""
    st = tx.state
    if not st.settings.interleaved or st.phase != "active" or st.turn is None:
        return
    if st.decisions or not st.turn_spent:
        return
    holder = st.turn
    end_go(tx, holder)
    tx.next_turn(holder)
    tx.check_end()


def delay(tx: Tx, cmd: DelayTurn) -> None:
    """Choosing to go later (:func:`bot.engine.core.order.delay_turn`); in the interleaved
    order the creature keeps its TA for its go at the new place."""
    if tx.state.settings.interleaved:
        tx.keep_actions = True
    order.delay_turn(tx, cmd)


def off_go_refusal(tx: Tx, c: Any, reason: str, short: str) -> RuleViolation | None:
    """The refusal of an action off ``c``'s go that its IA cannot pay, naming whose go it is
    and the TA ``c`` keeps for its own (None outside the interleaved order)."""
    st = tx.state
    left = c.pools.get("turn", 0)
    if not st.settings.interleaved or st.turn is None or st.turn == c.id or left <= 0:
        return None
    return RuleViolation(
        f"It is {names.escaped(tx.view(st.turn).name)}'s action, not {names.escaped(c.name)}'s "
        f"(interleaved turn order): {names.escaped(c.name)} cannot {names.escaped(reason)} now "
        f"({short}); their {left} TA wait for their next action."
    )


def turn_words(state: Any, c: Any, *, revealed: bool) -> str | None:
    """How the tracker and the turn ping say it is ``c``'s go: "acts (4 TA left)" (the
    number where the audience may see it); None outside the interleaved order."""
    if not state.settings.interleaved:
        return None
    return f"acts ({c.pools.get('turn', 0)} TA left)" if revealed else "acts"
