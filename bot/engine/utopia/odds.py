"""Utopia exact odds for ``/odds`` (issue 18): a weapon's ranged test, its damage after the
target's defenses, and what a Block or Dodge leaves of it.

``utopia-actions.txt`` "Ranged Weapons": a ranged attack is a test (``tables.ranged.test``) of
at least the meters to the target, with favor within close range, disfavor within far range,
impossible beyond, plus the favor of an Aim and the GM's favor; each net favor adds a die, each
net disfavor takes one off (issue 12's documented default, :class:`ExtraDice`). A melee attack
within reach always lands. "Block": the Block Rating in d4 reduce the damage; "Dodge": a Dodge
Rating roll in d12 of at least the damage negates it — no such line for a target that cannot
take them (it has not noticed the attacker, Stealth, or attacked with interrupt actions).
Damage after defense as
:func:`bot.engine.utopia.combat.strike` rolls it. Exact over the pools' distributions, never
sampled. Assists pledged to the attacker are not counted (planned).
"""

from __future__ import annotations

from fractions import Fraction

from bot import names
from bot.engine.core.odds import Distribution, Odds, OddsLine, damage_summary
from bot.engine.core.pools import DiceGroup, ExtraDice, Pool
from bot.engine.core.scale import METERS, Scale
from bot.engine.utopia.combat import defense_against, dice_terms, ranged_difficulty
from bot.engine.utopia.core import RULES_VERSION, Tx
from bot.engine.utopia.sheet import Weapon
from bot.engine.utopia.state import UtopiaCombatant
from bot.engine.utopia.tables import UtopiaTables
from bot.errors import InvalidInput

GETS_THROUGH = "damage gets through"
"""What a Utopia odds line is the chance of: the attack landing (a ranged test; melee within
reach always lands) and its damage getting past the target's defenses and the Block or Dodge —
the words of an attack's result ("Odds: 50.0 % damage gets through the Dodge"), never "to hit"."""


def _damage(expression: str, modifier: int) -> Distribution:
    """``expression`` + ``modifier`` never below 0, as :func:`combat.roll_damage` rolls it."""
    groups, constant = dice_terms(expression)
    dist: Distribution = {constant: Fraction(1)}
    for sign, count, sides in groups:
        part = Pool(groups=(DiceGroup(count=count, sides=sides),)).distribution()
        merged: Distribution = {}
        for x, p in dist.items():
            for y, q in part.items():
                merged[x + sign * y] = merged.get(x + sign * y, Fraction(0)) + p * q
        dist = merged
    out: Distribution = {}
    for x, p in dist.items():
        out[max(0, x + modifier)] = out.get(max(0, x + modifier), Fraction(0)) + p
    return out


def _test_chance(
    tables: UtopiaTables,
    a: UtopiaCombatant,
    weapon: Weapon,
    meters: float | None,
    scale: Scale,
    version: int,
) -> tuple[Fraction, list[str]]:
    """The chance the ranged test reaches the meters (as the fight's rules ``version`` reads a
    distance between whole meters, :func:`bot.engine.utopia.combat.ranged_difficulty`), and
    the favor and disfavor's reasons."""
    if meters is None:
        raise InvalidInput(
            f"A ranged attack needs the distance: give `range:` ({names.escaped(weapon.name)})."
        )
    close, far = weapon.close_m or 0.0, weapon.far_m or 0.0
    if meters > far:
        return Fraction(0), [f"beyond far range ({scale.show(far)}): impossible"]
    favor, disfavor, why = a.aim, 0, [f"+{a.aim} favor: Aim"] if a.aim else []
    if meters <= close:
        favor += tables.ranged.close_favor
        why.append(f"+{tables.ranged.close_favor} favor: within close range")
    else:
        disfavor += tables.ranged.far_disfavor
        why.append(f"-{tables.ranged.far_disfavor} disfavor: within far range")
    gm = a.gm_favor_next + a.gm_favor_every
    if gm:
        favor, disfavor = favor + max(gm, 0), disfavor + max(-gm, 0)
        why.append(f"{gm:+d} the GM's favor")
    t = tables.test
    modifier = a.sheet.modifier(tables.ranged.test, t.modifier_offset)
    base = Pool(groups=(DiceGroup(count=t.dice, sides=t.sides),), modifier=modifier)
    pool = ExtraDice(t.sides).apply(base, favor, disfavor)
    return pool.chance(ranged_difficulty(meters, version)), why


def utopia_odds(
    tables: UtopiaTables,
    a: UtopiaCombatant,
    t: UtopiaCombatant,
    weapon: Weapon | None,
    meters: float | None,
    scale: Scale = METERS,
    version: int = RULES_VERSION,
) -> Odds:
    """The exact odds of ``a``'s ``weapon`` on ``t`` at ``meters``: one line for no defense,
    Block and Dodge (the chance any damage gets through), and the damage after defenses on a
    hit; distances are written on the board's ``scale``. Raises :class:`InvalidInput` for a
    ranged attack without a distance."""
    hit, why = Fraction(1), ["melee: lands within reach"]
    if weapon is not None and weapon.kind == "ranged":
        hit, why = _test_chance(tables, a, weapon, meters, scale, version)
    bare = tables.weaponless
    expression = weapon.damage if weapon else bare.damage
    mod_name = weapon.damage_modifier if weapon else bare.modifier
    offset = (  # as Tx.modifier reads it
        tables.test.modifier_offset if Tx.reads_at(version, "modifier_offset_everywhere") else 4
    )
    modifier = a.sheet.modifier(mod_name, offset) if mod_name else 0
    guard = defense_against(tables, t, weapon.damage_type if weapon else bare.damage_type)
    after: Distribution = {}
    for x, p in _damage(expression, modifier).items():
        after[max(0, x - guard)] = after.get(max(0, x - guard), Fraction(0)) + p
    lands = hit * sum((p for x, p in after.items() if x > 0), Fraction(0))
    lines = [OddsLine(reaction="no defense", chance=lands, outcome=GETS_THROUGH)]
    # no Block or Dodge is offered to a target that has not noticed the attacker (Stealth:
    # "an instance it is aware of") or that attacked with interrupt actions (open guard)
    defenses = [
        ("Block", t.sheet.block_dice(tables, cover=t.cover)),
        ("Dodge", t.sheet.dodge_dice(tables, cover=t.cover)),
    ]
    if t.id in a.hidden_from:
        why.append(f"{t.name} has not noticed {a.name}: no Block or Dodge")
        defenses = []
    elif t.open_guard:
        why.append(f"{t.name} attacked with interrupt actions: no Block or Dodge")
        defenses = []
    # a Block lets through what its roll does not take off; a Dodge below the damage fails:
    # either way damage gets through when the roll is below the damage
    for name, (count, sides) in defenses:
        roll = Pool(groups=(DiceGroup(count=count, sides=sides),)).distribution()
        chance = sum(
            (p * q for d, p in after.items() for r, q in roll.items() if r < d),
            Fraction(0),
        )
        lines.append(
            OddsLine(
                reaction=name, chance=hit * chance, note=f"{count}d{sides}", outcome=GETS_THROUGH
            )
        )
    words = f"{a.name}'s {weapon.name if weapon else 'weaponless attack'} against {t.name}"
    if meters is not None:
        words += f" at {scale.show(meters)}"
    damage = (damage_summary(f"after {t.name}'s defense {guard}", after),)
    return Odds(attack=words, modifiers=tuple(why), lines=tuple(lines), damage=damage)
