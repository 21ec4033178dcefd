"""Multi-weapon attacks (``utopia-actions.txt`` "Multi-weapon Attacks": "A creature may attack
with any number of weapons simultaneously, given it can use all functionally this way. When
making an attack this way, the number of turn actions required is equal to the highest needed
of the weapons Rolls made this way are reduced by half, rounded down. Modifiers, although, are
still calculated as normal when attacking this way.").

``/act attack detail:"Knife, Cestus"`` names the weapons. The bot's reading:

* the attack costs the highest TA of the weapons (doubled against anyone but a grappler, as
  any attack — "Grapple"), paid once; every sheathed one is drawn for free;
* each weapon is its own source of damage: its damage roll (the dice and the numbers of its
  expression) is halved, rounded down, and its damage modifier added in full; the target may
  Block or Dodge each once ("A creature cannot block or dodge a single source of damage more
  than once") — one decision per weapon;
* a ranged weapon's Dexterity test is a test, not one of the "rolls" halved: it is made as
  usual, with the favor of an Aim for each ranged weapon;
* whether the creature "can use all functionally" (hands, reach) is the GM's call: the bot
  checks only that each weapon is on the sheet, named once, and can reach the target.
"""

from __future__ import annotations

from bot import names
from bot.engine.utopia.combat import (
    Strike,
    _reach,
    _weapon,
    begin_attack,
    parties,
    strike,
)
from bot.engine.utopia.commands import MultiAttack
from bot.engine.utopia.core import Tx
from bot.engine.utopia.grapple import cost_factor
from bot.engine.utopia.sheet import Weapon
from bot.engine.utopia.state import UtopiaCombatant
from bot.errors import InvalidInput


def multi_attack(tx: Tx, cmd: MultiAttack) -> None:
    """ "Multi-weapon Attacks" (see the module docstring). Raises :class:`InvalidInput` for a
    weapon the attacker lacks, one named twice, or weaponless; :class:`RuleViolation` for a
    target out of any weapon's reach or range, or TA it cannot pay."""
    a, t = parties(tx, cmd.actor, cmd.target)
    weapons = _weapons(a, cmd.weapons)
    meters = cmd.range_m if cmd.range_m is not None else tx.state.positions.distance(a.id, t.id)
    reaches = [_reach(tx, a, t, w, meters) for w in weapons]
    ta = max(w.ta_cost for w in weapons) * cost_factor(tx, a, t.id)
    names = ", ".join(w.name for w in weapons)
    begin_attack(tx, a, t, ta, weapons, f"attack {t.name} with {names} at once")
    divisor = tx.tables.multi_weapon.roll_divisor
    # "simultaneously": every blow comes from where the attacker was unnoticed, though the
    # first gives it away (rules version 6; before, only the first blow went undefended)
    unseen = tx.reads("unseen_in_every_blow") and t.id in tx.view(a.id).hidden_from
    for index, (weapon, (favor, disfavor)) in enumerate(zip(weapons, reaches, strict=True), 1):
        blow = Strike(meters, favor, disfavor, index, len(weapons), divisor, unseen=unseen)
        strike(tx, a.id, t.id, weapon, blow)


def _weapons(a: UtopiaCombatant, named: tuple[str, ...]) -> list[Weapon]:
    """``a``'s weapons ``named``, in that order, each once."""
    found: list[Weapon] = []
    for name in named:
        weapon = _weapon(a, name)
        if weapon is None:
            raise InvalidInput(
                "A multi-weapon attack is made with weapons: attack weaponless on its own."
            )
        if any(w.name == weapon.name for w in found):
            raise InvalidInput(
                f"{names.escaped(weapon.name)} is named twice: each weapon attacks once."
            )
        found.append(weapon)
    return found
