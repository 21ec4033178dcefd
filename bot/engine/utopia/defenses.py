"""Which defenses a creature can take against damage now, what each costs, and why it cannot
(``utopia-actions.txt`` "Block", "Dodge", "Take Cover": "1 turn action or 1 interrupt action";
"Interchanging Actions"; "if you spend your IA on an attack, you cannot defend, until it's the
next creature's turn")."""

from __future__ import annotations

from bot.engine.core.economy import Cost
from bot.engine.utopia.core import Tx
from bot.engine.utopia.grapple import cost_factor
from bot.engine.utopia.state import UtopiaCombatant
from bot.engine.utopia.tables import Defence, TakeCover


def can_defend(tx: Tx, t: UtopiaCombatant, against: str | None = None) -> bool:
    """Whether ``t`` may be asked to Block, Dodge or Take Cover against ``against``'s attack:
    in the fight, not having attacked with interrupt actions since this creature's turn
    began, able to pay the cost."""
    if tx.is_out(t) or t.open_guard:
        return False
    return bool(defense_options(tx, t, covered=False, against=against))


def defense_cost(tx: Tx, t: UtopiaCombatant, choice: str, against: str | None = None) -> Cost:
    """What a Block, Dodge or Take Cover against ``against``'s attack costs ``t`` now: the
    table's TA on its turn (its IA once its TA are spent), IA off it (:meth:`Tx.either`); a
    grappled ``t`` pays double to Block or Dodge an attack from anyone but its grappler
    ("Grapple")."""
    rule: Defence | TakeCover = (
        tx.tables.take_cover if choice == "cover" else getattr(tx.tables, choice)
    )
    factor = 1 if choice == "cover" else cost_factor(tx, t, against)
    return tx.either(t, rule.ta * factor, rule.ia * factor)


def defense_options(
    tx: Tx, t: UtopiaCombatant, *, covered: bool, against: str | None = None
) -> list[str]:
    """The defenses ``t`` can afford now against ``against``'s attack (Take Cover only once
    per source, and not while already in cover)."""
    found: list[str] = []
    for choice in ("block", "dodge", "cover"):
        if choice == "cover" and (covered or t.cover):
            continue
        cost = defense_cost(tx, t, choice, against)
        if tx.economy.can_pay(t.pools, cost, tx.timing(t.id), tx.capacity(t)):
            found.append(choice)
    return found


def unable_reason(tx: Tx, t: UtopiaCombatant, against: str | None = None) -> str:
    """Why ``t`` cannot defend against ``against``'s attack now, for the players: it attacked
    with interrupt actions, or what a Block would need and what it has left."""
    if t.open_guard:
        return "it attacked with interrupt actions: it cannot defend until the next creature's turn"
    cost = defense_cost(tx, t, "block", against)
    p = t.pools
    if cost.kind == "turn":
        return f"a Block needs {cost.amount} TA on its turn and it has {p.get('turn', 0)} TA left"
    held = p.get("held", 0)
    have = f"{p.get('interrupt', 0)} IA" + (f" and {held} held IA" if held else "")
    return f"a Block needs {cost.amount} IA and it has {have} left"
