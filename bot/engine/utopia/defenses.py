"""Which defenses a creature can take against damage now, what each costs, and why it cannot
(``utopia-actions.txt`` "Block", "Dodge", "Take Cover": "1 turn action or 1 interrupt action";
"Interchanging Actions"; "if you spend your IA on an attack, you cannot defend, until it's the
next creature's turn").

From rules version 6 a Block or Dodge whose Rating is 0 is not offered (nor taken when typed)
unless an ally could Assist it: "It rolls its Block Rating" (its Dodge Rating) — with 0 it rolls
no dice and only spends the action; an Assist's die ("Assist": 1d4 to a Block, 1d12 to a Dodge)
is what it would roll. Take Cover, which doubles both Ratings, is not offered when both are 0
and nobody could Assist. Versions 1 to 5 offered them all."""

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


def assist_candidates(tx: Tx, target: str, attacker: str | None) -> list[UtopiaCombatant]:
    """The creatures that could Assist ``target``'s Block or Dodge against ``attacker`` by what
    everyone sees (side, Down, distance; ``assist_defense`` module docstring): whether each
    can pay is not judged (a hidden NPC's pools are its secret)."""
    t = tx.view(target)
    within = tx.tables.assist.within_m
    found = []
    for c in tx.state.combatants:
        if c.id in (t.id, attacker) or c.side != t.side or tx.is_out(c):
            continue
        meters = tx.state.positions.distance(c.id, t.id)
        if meters is not None and meters <= within:
            found.append(c)
    return found


def can_assist(tx: Tx, c: UtopiaCombatant) -> bool:
    """Whether ``c`` can pay an Assist's IA now."""
    cost = Cost(kind="interrupt", amount=tx.tables.assist.ia)
    return tx.economy.can_pay(c.pools, cost, tx.timing(c.id), tx.capacity(c))


def rolls_nothing(tx: Tx, t: UtopiaCombatant, choice: str, against: str | None) -> bool:
    """Rules version 6: whether ``t``'s Block or Dodge (``choice``) would roll no dice — its
    Rating is 0 and no ally could Assist it (module docstring)."""
    if not tx.reads("zero_rating_rolls_nothing") or choice not in ("block", "dodge"):
        return False
    rating = t.sheet.block_rating if choice == "block" else t.sheet.dodge_rating
    if rating > 0:
        return False
    return not any(can_assist(tx, c) for c in assist_candidates(tx, t.id, against))


def defense_options(
    tx: Tx, t: UtopiaCombatant, *, covered: bool, against: str | None = None
) -> list[str]:
    """The defenses ``t`` can afford now against ``against``'s attack (Take Cover only once
    per source, and not while already in cover), without those that would roll nothing
    (:func:`rolls_nothing`, rules version 6)."""
    found: list[str] = []
    for choice in ("block", "dodge", "cover"):
        if choice == "cover" and (covered or t.cover):
            continue
        if rolls_nothing(tx, t, choice, against):
            continue
        if choice == "cover" and all(rolls_nothing(tx, t, d, against) for d in ("block", "dodge")):
            continue
        cost = defense_cost(tx, t, choice, against)
        if tx.economy.can_pay(t.pools, cost, tx.timing(t.id), tx.capacity(t)):
            found.append(choice)
    return found


def unable_reason(tx: Tx, t: UtopiaCombatant, against: str | None = None) -> str:
    """Why ``t`` cannot defend against ``against``'s attack now, for the players: they
    attacked with interrupt actions, or what a Block would need and what they have left
    ("it" / "has" before rules version 8, :meth:`Tx.of_them`)."""
    they, their, have = (
        tx.of_them("it", "they"),
        tx.of_them("its", "their"),
        tx.of_them("has", "have"),
    )
    if t.open_guard:
        return (
            f"{they} attacked with interrupt actions: {they} cannot defend until the next "
            "creature's turn"
        )
    if all(rolls_nothing(tx, t, d, against) for d in ("block", "dodge")):
        return f"{their} Block and Dodge Ratings are 0 and no ally can Assist: nothing to roll"
    cost = defense_cost(tx, t, "block", against)
    p = t.pools
    if cost.kind == "turn":
        return (
            f"a Block needs {cost.amount} TA on {their} turn and {they} {have} "
            f"{p.get('turn', 0)} TA left"
        )
    held = p.get("held", 0)
    left = f"{p.get('interrupt', 0)} IA" + (f" and {held} held IA" if held else "")
    return f"a Block needs {cost.amount} IA and {they} {have} {left} left"
