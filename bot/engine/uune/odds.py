"""Uune exact odds for ``/odds`` (issue 18): hits against the hits required, for a stated number
of approved resources.

Uune SRD "Actions": 1d6 plus 1d6 per approved resource (a resource with proficiency points
gives one more die per point, "Proficiency Points"); every die showing 5 or 6 is a hit; the
action succeeds when the hits meet or beat the number required. "Attack": a PC attacking an NPC
needs the NPC's Defensiveness in hits. "NPCs and Statblocks": an NPC never rolls — its attack is
answered by the PC's Defend at the attack's difficulty, and lands when the Defend fails.
"Effect: Impared" adds ``tables.impaired.extra_hits`` per level to the hits required, and
"Effect: Intoxicated" rerolls every 6, once per level (:func:`bot.engine.uune.dice.roll_action`;
once at any level in a fight before rules version 5); both count here as the roller's effects
stand now.

The odds are the basics before anything is spent: Help (another PC's hits), luck advantage,
focus and vitality spends and an NPC's forced reroll change a roll after the GM's approval and
are not counted (the reply says so). The GM approves resources, so the odds are for a stated
number (``resources: 2``: two resources of one die each), for named resources of the roller's
sheet (``resources: Rope, Grit``: their dice, proficiency included), or — stated nothing — one
line per count from none to :data:`COUNTS`.

Exact: the plain roll's hits come from :meth:`~bot.engine.core.pools.Pool.distribution`
(``icepool``); an Intoxicated roll's from ``icepool`` with each 6 rerolled up to once per
level.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import icepool

from bot import names
from bot.engine.core.odds import Distribution, Odds, OddsLine
from bot.engine.core.pools import DiceGroup, Pool
from bot.engine.core.verbs import split_named
from bot.engine.uune.core import RULES_VERSION, Tx
from bot.engine.uune.dice import Resource, action_pool
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import UuneCombatant
from bot.engine.uune.tables import UuneTables
from bot.errors import InvalidInput, NotFound, RuleViolation

COUNTS = 4
"""With no ``resources:`` stated, lines for 0 … ``COUNTS`` resources of one die each."""
MAX_STATED = 20
NOT_COUNTED = "not counted: Help, luck advantage, focus and vitality spends, an NPC's reroll"


def dice_of(resource_dice: int, tables: UuneTables) -> int:
    """How many d6 an action rolls with ``resource_dice`` dice of approved resources: the base
    die (``tables.dice.base_dice``) plus ``dice_per_resource`` per resource die."""
    d = tables.dice
    return d.base_dice + resource_dice * d.dice_per_resource


def hits_distribution(resource_dice: int, tables: UuneTables, *, intoxicated: int) -> Distribution:
    """The exact distribution of hits of an action with ``resource_dice`` dice of approved
    resources (:func:`bot.engine.uune.dice.action_pool`: hits on 5 or more), each die showing
    ``tables.intoxicated.reroll_face`` or more rerolled up to ``intoxicated`` times (the
    passes of Intoxicated's levels; 0 or False: none, True: once)."""
    approved = [Resource(name="resources", dice=resource_dice)] if resource_dice else []
    passes = int(intoxicated)
    reroll_from = tables.intoxicated.reroll_face if passes else None
    return pool_hits(action_pool(approved, tables), reroll_from, max(1, passes))


def pool_hits(pool: Pool, reroll_from: int | None, times: int = 1) -> Distribution:
    """The exact distribution of hits of an action ``pool`` (dice of one size, hits on
    ``pool.hit_on``), each die showing ``reroll_from`` or more rerolled up to ``times`` times
    ("Effect: Intoxicated", once per level; None: no reroll). Cached by the dice's count and
    size: a rehearsal asks it for every roll."""
    sides = pool.groups[0].sides
    count = sum(g.count for g in pool.groups)
    return dict(_hits(count, sides, pool.hit_on or sides, reroll_from, times))


@functools.lru_cache(maxsize=256)
def _hits(count: int, sides: int, hit_on: int, reroll_from: int | None, times: int) -> Distribution:
    if reroll_from is None:
        return Pool(groups=(DiceGroup(count=count, sides=sides),), hit_on=hit_on).distribution()
    die = icepool.d(sides).reroll(range(reroll_from, sides + 1), depth=times)
    hit = die.map(lambda face: 1 if face >= hit_on else 0)
    total = hit.pool(count).sum()
    return {
        int(outcome): Fraction(quantity, total.denominator()) for outcome, quantity in total.items()
    }


def chance_of_hits(dist: Distribution, required: int) -> Fraction:
    """The chance of ``required`` hits or more (meeting the number succeeds)."""
    return sum((p for hits, p in dist.items() if hits >= required), Fraction(0))


def _stated(roller: UuneCombatant, resources: str | None) -> list[tuple[str, int]]:
    """``(label, resource dice)`` per line: the stated count or names, or 0 … COUNTS."""
    d = [("no resources", 0)] + [
        (f"{n} resource{'s' if n > 1 else ''}", n) for n in range(1, COUNTS + 1)
    ]
    if resources is None or not resources.strip():
        return d
    text = resources.strip()
    if text.isdecimal():
        n = int(text)
        if n > MAX_STATED:
            raise InvalidInput(f"State at most {MAX_STATED} resources, not {n}.")
        return [(f"{n} resource{'s' if n != 1 else ''}" if n else "no resources", n)]
    sheet = roller.sheet
    assert isinstance(sheet, UuneSheet)
    known = {names.key(r): r for r in sheet.resources()}
    dice = 0
    found: list[str] = []
    for part in split_named(text, sheet.resources()):
        name = known.get(names.key(part))
        if name is None:
            listed = ", ".join(names.escaped(res) for res in sheet.resources()) or "none"
            raise NotFound(
                f"{names.escaped(roller.name)} has no resource called {names.quoted(part)} "
                f"(resources: {listed}); or "
                "state a number of resources, e.g. `resources: 2`."
            )
        if name in found:
            raise InvalidInput(f"{name} is stated twice.")
        found.append(name)
        dice += sheet.resource_dice(name)
    if not found:  # only commas: blank parts are dropped, as /act drops them
        return [("no resources", 0)]
    return [(", ".join(found)[:40], dice)]


TIMES = {1: "once", 2: "twice"}


def _effects(roller: UuneCombatant, tables: UuneTables, version: int) -> tuple[int, int, list[str]]:
    """Impaired's extra hits, Intoxicated's passes (once per level from rules version 5, once
    before) and the words saying them."""
    impaired, intoxicated = roller.effect("Impaired"), roller.effect("Intoxicated")
    extra = impaired.level * tables.impaired.extra_hits if impaired else 0
    passes = (
        0
        if intoxicated is None
        else intoxicated.level
        if Tx.reads_at(version, "intoxicated_per_level")
        else 1
    )
    words = []
    if extra:
        words.append(f"Impaired: +{extra} hit{'s' if extra > 1 else ''} required ({roller.name})")
    if passes:
        times = TIMES.get(passes, f"{passes} times")
        words.append(f"Intoxicated: every 6 rerolled {times} ({roller.name})")
    return extra, passes, words


def uune_odds(
    tables: UuneTables,
    attacker: UuneCombatant,
    target: UuneCombatant,
    attack: str,
    resources: str | None,
    version: int = RULES_VERSION,
) -> Odds:
    """The exact odds of ``attacker``'s ``attack`` on ``target``: a PC's Attack on an NPC (the
    PC's hits against its Defensiveness), or an NPC's statblock attack on a PC (it lands when
    the PC's Defend fails); one line per stated resource count (module docstring), as rules
    ``version`` plays them. Raises
    :class:`RuleViolation` for a PC against a PC or an NPC against an NPC, :class:`NotFound`
    for an attack or resource not on the sheet, :class:`InvalidInput` for a count past
    :data:`MAX_STATED`."""
    a_sheet, t_sheet = attacker.sheet, target.sheet
    if isinstance(a_sheet, UuneSheet):
        if not isinstance(t_sheet, UuneStatblock):
            raise RuleViolation(f"Attack is against an NPC; {names.escaped(target.name)} is a PC.")
        roller, required, attacking = attacker, t_sheet.defensiveness, True
        words = f"{attacker.name}'s Attack against {target.name}"
        need = f"Defensiveness {required}"
    else:
        assert isinstance(a_sheet, UuneStatblock)
        found = a_sheet.attack(attack)
        if found is None:
            raise NotFound(
                f"{names.escaped(attacker.name)} has no attack called {names.quoted(attack)} on "
                "their statblock."
            )
        if not isinstance(t_sheet, UuneSheet):
            raise RuleViolation(
                f"An NPC's attack is against a PC; {names.escaped(target.name)} is an NPC."
            )
        roller, required, attacking = target, found.difficulty, False
        words = f"{attacker.name}'s {found.name} against {target.name} (who Defends)"
        need = f"difficulty {required}"
    extra, intoxicated, modifiers = _effects(roller, tables, version)
    required += extra
    lines = []
    for label, dice in _stated(roller, resources):
        made = chance_of_hits(hits_distribution(dice, tables, intoxicated=intoxicated), required)
        chance = made if attacking else 1 - made
        who = "" if attacking else f"{roller.name}'s Defend with "
        pool = f"{dice_of(dice, tables)}d{tables.dice.sides}, hits on {tables.dice.hit_on}+"
        note = f"{pool}, {required} needed ({need})"
        lines.append(OddsLine(reaction=f"{who}{label}"[:40], chance=chance, note=note[:120]))
    return Odds(attack=words[:120], modifiers=(*modifiers, NOT_COUNTED), lines=tuple(lines))
