"""How a cost would be paid now, in words for a button (``utopia-actions.txt``
"Interchanging Actions": "You may spend 2 interrupt actions as if they were 1 turn action. You
may spend 1 turn action as if it was 1 interrupt action"; "Hold Action": a held interrupt
action).

``paid_with`` simulates the economy's payment and names what it takes: ``1 IA``, ``1 TA as 1
IA`` (an IA cost on the creature's own turn), ``1 held IA``, ``2 IA as 1 TA`` (a TA cost off
turn), ``1 TA`` — at the encounter's rates (the tables', from rules version 3)."""

from __future__ import annotations

from bot.engine.core.contract import ReactionOption
from bot.engine.core.economy import Cost
from bot.engine.utopia.core import Tx
from bot.engine.utopia.defenses import defense_cost, defense_options
from bot.engine.utopia.state import DamageDecision, UtopiaCombatant
from bot.errors import RuleViolation


def paid_with(tx: Tx, c: UtopiaCombatant, cost: Cost) -> dict[str, int]:
    """What ``c`` would spend on ``cost`` now, as a button's costs (pool words → amount):
    ``{"IA": 1}``, ``{"held IA": 1}``, ``{"TA as 1 IA": 1}``, ``{"IA as 1 TA": 2}``,
    ``{"TA": 1}``; empty when it cannot pay (the caller offers only what it can)."""
    try:
        after = tx.economy.pay(c.pools, cost, tx.timing(c.id), tx.capacity(c))
    except RuleViolation:
        return {}
    spent = {k: c.pools.get(k, 0) - after.get(k, 0) for k in c.pools}
    ta, ia, held = spent.get("turn", 0), spent.get("interrupt", 0), spent.get("held", 0)
    if cost.kind == "interrupt":
        words = {
            "IA": ia,
            "held IA": held,
            f"TA as {ta // tx.economy.turn_per_interrupt_action} IA": ta,
        }
    else:
        words = {"TA": ta, f"IA as {ia // tx.economy.interrupt_per_turn_action} TA": ia}
    return {k: n for k, n in words.items() if n > 0}


_LABELS = {"block": "Block", "dodge": "Dodge", "cover": "Take Cover behind an obstacle"}


def defense_buttons(tx: Tx, p: DamageDecision, t: UtopiaCombatant) -> list[ReactionOption]:
    """``t``'s buttons against ``p``: each defense it can afford now, labelled with what it
    would spend ("Block (1 IA)", on its turn "Block (1 TA as 1 IA)", "Dodge (1 held IA)"), and
    no defense; none at all while it is out or has attacked with interrupt actions."""
    if tx.is_out(t) or t.open_guard:
        return []
    found = []
    for choice in defense_options(tx, t, covered=p.covered, against=p.attacker):
        cost = defense_cost(tx, t, choice, against=p.attacker)
        found.append(
            ReactionOption(choice=choice, label=_LABELS[choice], costs=paid_with(tx, t, cost))
        )
    return [*found, ReactionOption(choice="none", label="No defense")]
