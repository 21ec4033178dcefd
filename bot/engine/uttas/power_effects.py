"""Powers that are not only damage (issue 11, "Powers that are not attacks"): Aid, Drain,
Barrier and Invisibility, which the text names ("If character's Body is increased or decreased
using the Aid or Drain powers", "Take a Breather"; "powers such as Invisibility to hide, ... put
up Barrier powers to slow down their enemies", "Chase Scenes") without their numbers. The bot's
defaults are the tables' ``powers`` (:class:`~bot.engine.uttas.tables.PowerRules`,
``docs/rules/uttas.md``):

- **Aid** (``effect: aid``, ``characteristic``): activated on its user or another (no Accuracy
  roll: it does not adversely affect anyone), rolls 1d6 per ``active_points_per_die`` Active
  Points and adds the total to the characteristic until the scene ends (``lasts``); a second Aid
  on the same characteristic keeps the larger.
- **Drain** (``effect: drain``): an attack — "every power adversely affecting another character
  requires an Accuracy roll" ("Accuracy Checks") — so it is used with ``/attack``; on a hit it
  rolls the same dice and takes the total from the characteristic, as long.
- **Barrier** (``effect: barrier``): activated on the one it bars, who gains the tables'
  ``barrier_condition`` (Barred: cannot move on until it breaks through, part by part, with
  ``/act action:break-free``, or the scene ends).
- **Invisibility** (``effect: invisibility``): its user is Hidden (:mod:`bot.engine.uttas.
  perception`) with a score of ``invisibility_base`` + Active Points ÷
  ``invisibility_points_per_score``; an attack from it cannot be reacted to and gives the user
  away; dropping a maintained Invisibility ends it.

Characteristics changed by Aid and Drain are read by :func:`bot.engine.uttas.rules.effective`.
"""

from __future__ import annotations

from bot import names
from bot.engine.core.effects import LEVEL_MAX
from bot.engine.uttas import perception, rules
from bot.engine.uttas.core import Tx
from bot.engine.uttas.rules import AttackProfile
from bot.engine.uttas.sheet import Characteristic, Power
from bot.engine.uttas.state import HIDDEN, Combatant
from bot.errors import InvalidInput, RuleViolation


def check_use(tx: Tx, c: Combatant, pw: Power, target: str | None) -> None:
    """Refuse what a power cannot do before anything is paid: a movement power (``/move``
    uses it), a Drain outside an attack, an Aid aimed at a foe is allowed (the text does not
    forbid it), a Barrier with no one to bar or on its user, an Invisibility on someone else,
    a Barrier whose condition this encounter's tables lack. Raises :class:`RuleViolation` or
    :class:`InvalidInput`."""
    if pw.movement_mode is not None and pw.effect is None:
        raise RuleViolation(
            f"{names.escaped(pw.name)} moves {names.escaped(c.name)}: use `/move` with "
            f"`mode:{pw.movement_mode}` (it costs what the move costs)."
        )
    if pw.effect == "barrier":
        if target is None or target == c.id:
            raise InvalidInput(f"Name whose way {names.escaped(pw.name)} bars (`target:`).")
        condition = tx.tables.powers.barrier_condition
        if condition not in tx.tables.extra_conditions:
            raise RuleViolation(
                f"This encounter's tables define no {names.quoted(condition)} condition for a "
                "Barrier."
            )
        barred = tx.view(target)
        if barred.has(condition):
            raise RuleViolation(
                f"{names.escaped(barred.name)} is already {condition}: another "
                f"{names.escaped(pw.name)} adds nothing until they break through."
            )
    if pw.effect == "invisibility" and target not in (None, c.id):
        raise InvalidInput(
            f"{names.escaped(pw.name)} makes its user invisible: it takes no `target:`."
        )


def activate(tx: Tx, c: Combatant, pw: Power, target: str | None) -> None:
    """The effect of a power just paid for (its action and Stamina): Aid, Barrier,
    Invisibility; any other power's effect is the GM's to narrate (noted)."""
    if pw.effect == "aid" and pw.characteristic is not None:
        who = tx.view(target) if target else c
        _change(tx, c, who, pw.name, pw.active_points, pw.characteristic, "aid")
    elif pw.effect == "barrier" and target is not None:
        _bar(tx, tx.view(target), pw)
    elif pw.effect == "invisibility":
        table = tx.tables.powers
        score = table.invisibility_base + pw.active_points // table.invisibility_points_per_score
        m = tx.c(c.id)
        m.stealth = score
        if c.has(HIDDEN):
            tx.note(f"{c.name} turns invisible again.", c.id)
        else:
            tx.gain(c.id, HIDDEN, f"invisible ({pw.name})", f"seen on a Perception of {score + 1}")
    elif not pw.heals:
        tx.note(f"What {pw.name} does beyond its cost is the GM's to describe.", c.id)


def drained(tx: Tx, attacker: Combatant, t: Combatant, prof: AttackProfile) -> None:
    """A Drain power's hit: the characteristic loses the rolled points (see the module)."""
    if prof.drains is not None:
        _change(tx, attacker, t, prof.name, prof.active_points, prof.drains, "drain")


def _change(
    tx: Tx,
    by: Combatant,
    who: Combatant,
    power: str,
    active_points: int,
    characteristic: Characteristic,
    kind: str,
) -> None:
    table = tx.tables.powers
    dice = max(1, active_points // table.active_points_per_die)
    roll = tx.roll(f"{by.name}'s {power}", dice)
    amount = min(LEVEL_MAX, roll.total)
    name = rules.change_effect("aid" if kind == "aid" else "drain", characteristic)
    held = who.effect(name)
    if held is not None and held.level >= amount:
        tx.note(
            f"{roll.text}: {who.name}'s {characteristic.title()} keeps the larger "
            f"{kind} already on it ({held.level}).",
            who.id,
        )
        return
    if held is not None:
        tx.lose(who.id, name, f"a stronger {power}")
    tx.note(f"{roll.text}.", by.id)
    before = rules.effective(tx.view(who.id), characteristic)
    tx.gain(who.id, name, f"{by.name}'s {power}", scope=table.lasts, level=amount)
    after = rules.effective(tx.view(who.id), characteristic)
    tx.note(
        f"{who.name}'s {characteristic.title()}: {before} → {after}.",
        who.id,
        secret=True,
    )


def _bar(tx: Tx, t: Combatant, pw: Power) -> None:
    condition = tx.tables.powers.barrier_condition
    extra = tx.tables.extra_conditions[condition]
    tx.gain(
        t.id,
        condition,
        pw.name,
        scope=tx.tables.powers.lasts,
        level=max(1, extra.break_attempts),
    )


def dropped(tx: Tx, c: Combatant, pw: Power | None) -> None:
    """A maintained power dropped: an Invisibility ends."""
    if pw is not None and pw.effect == "invisibility":
        perception.reveal(tx, c, f"{pw.name} dropped")
