"""Casting a spell (``utopia-actions.txt`` "Casting a spell": "Casting a spell normally
requires 3 Turn Actions").

A spell on the sheet (:class:`~bot.engine.utopia.sheet.Spell`) has a Stamina cost, a range in
meters (0: touch, within 1 m or engaged) and optional damage of a type. Casting pays the
tables' ``spell.ta`` TA (off the caster's turn 2 IA per TA, "Interchanging Actions") and the
spell's Stamina; damage then takes the attacks' path (:mod:`bot.engine.utopia.combat`): the
target's defense against its type is subtracted and the target decides Block, Dodge, Take Cover
or nothing, with no weapon properties (it never ignores SHP). A damaging spell cast with
interrupt actions counts as an attack ("you cannot defend, until it's the next creature's
turn"), and from rules version 6 as one made from hiding (Stealth): it gives the caster away,
and a target that had not noticed it cannot defend. Spellcasting flavors and "Casting
Requirements" are outside the text: not modelled."""

from __future__ import annotations

from bot import names
from bot.engine.core.economy import Cost
from bot.engine.core.events import AttackDeclared
from bot.engine.utopia.combat import defense, open_or_settle, roll_damage
from bot.engine.utopia.commands import Cast
from bot.engine.utopia.core import Tx
from bot.engine.utopia.events import AttackRolled
from bot.engine.utopia.sheet import Spell
from bot.engine.utopia.state import DamageDecision, UtopiaCombatant
from bot.engine.utopia.stealth import unaware
from bot.errors import InvalidInput, RuleViolation

TOUCH_M = 1.0
"""A spell of range 0 reaches a creature within this many meters (as a weaponless attack)."""


def cast(tx: Tx, cmd: Cast) -> None:
    """ "Casting a spell": ``cmd.actor`` casts ``cmd.spell`` (at ``cmd.target``). Raises
    :class:`InvalidInput` for an unknown spell (listing the caster's), a damaging spell without
    a target or a spell at an unknown distance; :class:`RuleViolation` when the target is out
    of range or the caster lacks the TA or the Stamina. A refusal changes nothing."""
    a = tx.view(cmd.actor)
    tx.require_can_act_now(a)
    spell = _spell(a, cmd.spell)
    t = tx.view(cmd.target) if cmd.target is not None else None
    if t is None and spell.damage:
        raise InvalidInput(f"{names.escaped(spell.name)} deals damage: give its `target:`.")
    if t is not None:
        if spell.damage and tx.is_out(t):
            raise RuleViolation(f"{names.escaped(t.name)} is already out of the fight.")
        _check_range(tx, a, t, spell, cmd.range_m)
    if a.stamina < spell.stamina:
        raise RuleViolation(
            f"{names.escaped(a.name)} cannot cast {names.escaped(spell.name)}: they need "
            f"{spell.stamina} Stamina and have {a.stamina}."
        )
    at = f" at {t.name}" if t is not None else ""
    tx.pay(a.id, Cost(kind="turn", amount=tx.tables.spell.ta), f"cast {spell.name}{at}")
    tx.pay_stamina(a.id, spell.stamina, f"cast {spell.name}", say=False)  # said below
    tx.c(a.id).aim = 0  # "Aim": lost by any other action
    # The sheet's description is its own sentence: its full stop is not doubled.
    words = f": {spell.description.rstrip()}" if spell.description else ""
    stop = "" if words.endswith((".", "!", "?")) else "."
    said = (
        f"{a.name} casts {spell.name}{at} ({tx.tables.spell.ta} TA, {spell.stamina} Stamina; "
        f"Stamina {tx.view(a.id).stamina} left){words}{stop}"
    )
    # The Stamina left is the caster's number: hidden where its numbers are.
    tx.note(said, a.id, secret=True, public=f"{a.name} casts {spell.name}{at}{words}{stop}")
    if t is not None and spell.damage:
        _damage(tx, a, t, spell)


def _spell(a: UtopiaCombatant, name: str) -> Spell:
    found = a.sheet.spell(name)
    if found is None:
        known = ", ".join(names.escaped(s.name) for s in a.sheet.spells) or "none"
        raise InvalidInput(
            f"{names.escaped(a.name)} has no spell called {names.quoted(name)} (spells: {known})."
        )
    return found


def _check_range(
    tx: Tx, a: UtopiaCombatant, t: UtopiaCombatant, spell: Spell, meters: float | None
) -> None:
    """The target within the spell's range (0: touch, :data:`TOUCH_M`); an unknown distance
    is asked for unless the two are engaged."""
    if a.id == t.id:
        if spell.damage:
            raise InvalidInput(
                f"{names.escaped(a.name)} cannot cast a damaging spell at themselves."
            )
        return
    reach = spell.range_m or TOUCH_M
    if meters is None:
        meters = tx.state.positions.distance(a.id, t.id)
    if meters is None:
        raise InvalidInput(
            f"How far is {names.escaped(t.name)}? Give `amount:` in meters "
            f"({names.escaped(spell.name)} reaches {tx.scale.show(reach)})."
        )
    if meters > reach and not tx.state.positions.are_engaged(a.id, t.id):
        raise RuleViolation(
            f"{names.escaped(t.name)} is {tx.scale.show(meters)} away, out of "
            f"{names.escaped(spell.name)}'s range ({tx.scale.show(reach)})."
        )


def _damage(tx: Tx, a: UtopiaCombatant, t: UtopiaCombatant, spell: Spell) -> None:
    """The spell's damage through the attacks' damage and defense path (no weapon
    properties: it never ignores SHP)."""
    if tx.timing(a.id) == "off_turn":
        tx.c(a.id).open_guard = True
        tx.note(
            f"{a.name} spent interrupt actions on an attack: they cannot defend until the "
            "next creature's turn.",
            a.id,
        )
    tx.emit(
        AttackDeclared(
            combatant=a.id,
            target=t.id,
            attack=spell.name,
            hit_index=1,
            hits_total=1,
            awaiting="nobody",
            text=f"{a.name} attacks {t.name} with {spell.name}.",
        )
    )
    # As any attack (rules version 6): it gives a hidden caster away, and a target that had
    # not noticed the caster cannot defend ("an instance it is aware of", "Block", "Dodge").
    surprised = unaware(tx, a, t) if tx.reads("unseen_in_every_blow") else False
    damage = roll_damage(tx, f"{spell.name} damage", spell.damage or "0", 0)
    after = max(0, damage.total - defense(tx, t, spell.damage_type))
    tx.emit(
        AttackRolled(
            combatant=a.id,
            target=t.id,
            source=spell.name,
            hit=True,
            damage=damage,
            damage_type=spell.damage_type,
            after_defense=after,
            text=f"{a.name}'s {spell.name} hits {t.name}: {damage.text} {spell.damage_type}, "
            f"{after} after {t.name}'s defenses.",
        )
    )
    decision = DamageDecision(
        attacker=a.id,
        target=t.id,
        source=spell.name,
        damage_type=spell.damage_type,
        rolled=damage.total,
        damage=after,
    )
    open_or_settle(tx, decision, surprised=surprised)
