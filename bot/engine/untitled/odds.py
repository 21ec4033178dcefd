"""Untitled exact odds for ``/odds`` (issue 18): the opposed attack and the Health it takes.

Untitled "Combat": the attacker rolls its weapon skill's dice plus the level against Combat
Defense (dice plus level) — "A tie will go to the defender" (tables ``defense.tie``) — plus a
carried shield's dice; an attack reaching ``critical.multiplier`` × the defense is a critical
and rolls damage a tier higher; worn armor's roll is taken off the damage ("The remainder of
incoming damage is deducted from their Health pool"). Exact over the pools' distributions
(:meth:`~bot.engine.core.pools.Pool.distribution`), never sampled, from the same pools
:func:`bot.engine.untitled.dice.exchange` rolls.
"""

from __future__ import annotations

from fractions import Fraction

from bot.engine.core.odds import Distribution, Odds, OddsLine, damage_summary
from bot.engine.untitled.dice import _pool, damage_pool, health_lost, skill_pool
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.tables import UntitledTables
from bot.errors import InvalidInput
from bot.names import escaped, quoted


def _sum(first: Distribution, second: Distribution, sign: int = 1) -> Distribution:
    out: Distribution = {}
    for x, p in first.items():
        for y, q in second.items():
            out[x + sign * y] = out.get(x + sign * y, Fraction(0)) + p * q
    return out


def _armor(tables: UntitledTables, defender: UntitledSheet) -> Distribution:
    if defender.armor is None:
        return {0: Fraction(1)}
    level = defender.armor_level()
    if level is None:
        if tables.untrained_armor is None:
            return {0: Fraction(1)}
        return _pool(tables.untrained_armor).distribution()
    return _pool(tables.armor_dice(level, defender.armor.weight)).distribution()


def _line(
    tables: UntitledTables, attack: Distribution, defense: Distribution
) -> tuple[Fraction, Fraction]:
    """``(P(hit), P(critical))`` of ``attack`` against ``defense``, ties to the defender."""
    hit = crit = Fraction(0)
    for d, q in defense.items():
        for a, p in attack.items():
            if a > d or (a == d and tables.defense.tie != "defender"):
                hit += p * q
                if a >= tables.critical.multiplier * d:
                    crit += p * q
    return hit, crit


def untitled_odds(
    tables: UntitledTables,
    attacker: UntitledSheet,
    defender: UntitledSheet,
    weapon: str,
    names: tuple[str, str] | None = None,
) -> Odds:
    """The exact odds of ``attacker``'s ``weapon`` against ``defender``: one line without and
    one with its shield (when it carries one), and the Health lost on a hit. Raises
    :class:`InvalidInput` for a weapon not on the sheet or dice the tables do not set.
    ``names``: the combatants' names to show (default: the sheets')."""
    arm = attacker.weapon(weapon)
    if arm is None:
        raise InvalidInput(f"{escaped(attacker.name)} has no weapon called {quoted(weapon)}.")
    attack = skill_pool(tables, attacker.attack_level(arm))[0].distribution()
    defense = skill_pool(tables, defender.defense_level())[0].distribution()
    hit, crit = _line(tables, attack, defense)
    tie = "defender" if tables.defense.tie == "defender" else "attacker"
    # In the prompt's words (the buttons "Combat Defense alone" / "Raise the <shield>")
    alone = "Combat Defense" if defender.shield is None else "Combat Defense alone"
    lines = [OddsLine(reaction=alone, chance=hit, note=f"a tie goes to the {tie}")]
    if defender.shield is not None:
        shield = skill_pool(tables, defender.shield_level(), bonus=False)[0].distribution()
        s_hit, _ = _line(tables, attack, _sum(defense, shield))
        lines.append(
            OddsLine(reaction="Raise the shield", chance=s_hit, note="its dice join the defense")
        )
    armor = _armor(tables, defender)
    level = attacker.damage_level(arm)
    normal = _sum(damage_pool(tables, level)[0].distribution(), armor, -1)
    critical = _sum(damage_pool(tables, level, critical=True)[0].distribution(), armor, -1)
    lost: Distribution = {}
    if hit:
        for dist, weight in ((normal, (hit - crit) / hit), (critical, crit / hit)):
            for x, p in dist.items():
                key = health_lost(x, 0)
                lost[key] = lost.get(key, Fraction(0)) + p * weight
    damage = (damage_summary("Health", lost or {0: Fraction(1)}),)
    mine, theirs = names or (attacker.name, defender.name)
    words = f"{mine}'s {arm.name} against {theirs}"
    return Odds(attack=words, lines=tuple(lines), damage=damage)
