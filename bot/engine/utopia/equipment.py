"""Equipment actions (``utopia-actions.txt`` "Equipment Actions"): sheathing and drawing a
weapon, donning and doffing armor.

* **Sheath or unsheath** — 1 TA; drawing is free when an attack with that weapon follows at
  once (the attack draws it: :func:`bot.engine.utopia.combat.attack`). Every weapon starts
  drawn (the text is silent; the bot's default), and a sheathed weapon cannot be used
  otherwise — the only use is an attack, which draws it for free. A weapon held in no hands
  (``hands`` 0: a bite, a stomp — part of the creature) is neither sheathed nor drawn (rules
  version 5; the text is silent, the bot's reading).
* **Don or doff** — 3 TA for a neck or ring item, 6 TA for any other armor; what a creature
  wears sets the armor part of its defenses.
"""

from __future__ import annotations

from bot import names
from bot.engine.core.economy import Cost
from bot.engine.utopia.commands import Sheathe, Wear
from bot.engine.utopia.core import Tx
from bot.errors import InvalidInput, RuleViolation


def sheathe(tx: Tx, cmd: Sheathe) -> None:
    """ "A weapon may be sheathed or unsheathed with 1 turn action". Raises
    :class:`InvalidInput` for a weapon the sheet lacks, :class:`RuleViolation` when it is
    already away (or already drawn), or (rules version 5) held in no hands: a natural weapon,
    part of the creature."""
    c = tx.view(cmd.actor)
    tx.require_can_act_now(c)
    weapon = c.sheet.weapon(cmd.weapon)
    if weapon is None:
        known = ", ".join(names.escaped(w.name) for w in c.sheet.weapons) or "none"
        raise InvalidInput(
            f"{names.escaped(c.name)} has no weapon called {names.quoted(cmd.weapon)} (weapons: "
            f"{known})."
        )
    if weapon.hands == 0 and tx.reads("natural_weapons_stay_drawn"):
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(weapon.name)} is part of them (held in no "
            "hands): there is nothing to sheathe or draw."
        )
    away = weapon.name in c.sheathed
    if cmd.drawn == (not away):
        state = "drawn" if cmd.drawn else "sheathed"
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(weapon.name)} is already {state}."
        )
    verb = "draw" if cmd.drawn else "sheathe"
    tx.pay(c.id, Cost(kind="turn", amount=tx.tables.equipment.sheath_ta), f"{verb} {weapon.name}")
    m = tx.c(c.id)
    m.aim = 0
    if cmd.drawn:
        m.sheathed = tuple(n for n in m.sheathed if n != weapon.name)
    else:
        m.sheathed = (*m.sheathed, weapon.name)
    tx.note(f"{c.name} {verb}s {weapon.name}.", c.id)


def wear(tx: Tx, cmd: Wear) -> None:
    """ "it takes 3 turn actions to don or doff a neck or ring item and 6 turn actions to don
    or doff any other type of armor". Raises :class:`InvalidInput` for armor the sheet lacks,
    :class:`RuleViolation` when it is already on (or off) or the TA are short."""
    c = tx.view(cmd.actor)
    tx.require_can_act_now(c)
    piece = c.sheet.armor_piece(cmd.item)
    if piece is None:
        known = ", ".join(names.escaped(a.name) for a in c.sheet.armor) or "none"
        raise InvalidInput(
            f"{names.escaped(c.name)} has no armor called {names.quoted(cmd.item)} (armor: "
            f"{known})."
        )
    worn = c.wears()
    if cmd.on == (piece.name in worn):
        state = "wearing" if cmd.on else "not wearing"
        raise RuleViolation(
            f"{names.escaped(c.name)} is already {state} {names.escaped(piece.name)}."
        )
    rule = tx.tables.equipment
    ta = rule.small_ta if piece.slot in rule.small_slots else rule.armor_ta
    verb = "don" if cmd.on else "doff"
    tx.pay(c.id, Cost(kind="turn", amount=ta), f"{verb} {piece.name}")
    m = tx.c(c.id)
    m.aim = 0
    now = worn | {piece.name} if cmd.on else worn - {piece.name}
    m.worn = tuple(a.name for a in c.sheet.armor if a.name in now)
    tx.note(f"{c.name} {verb}s {piece.name} ({piece.slot}).", c.id)
