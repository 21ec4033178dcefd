"""Untitled's dice, as pure functions over the core's pools (:mod:`bot.engine.core.pools`) and an
injected :class:`~bot.engine.core.dice.DiceRoller`: a skill roll, the opposed attack against
Combat Defense (and a shield), damage (a critical one tier higher), armor mitigation and the
Health lost. Every die is kept for display; the dice come from the tables
(:class:`~bot.engine.untitled.tables.UntitledTables`), whose expressions are ``d20``-checked
(:func:`bot.engine.untitled.terms.dice_pool`).

Sources (``untitled-combat.txt`` unless said): the ladder ("Skill Level 1-4 ... Skill Dice 2d6
..."); "A player whose character is currently a Novice in a Weapon or Weapon Family skill will
roll 2d6 for their attack roll, adding the skill level value as a modifier"; "The defender will
attempt to defend themselves by rolling the dice associated with their skill level in Combat
Defense plus the skill level as a modifier. A tie will go to the defender"; "If the defender has
a shield ... roll the dice associated with their skill level in their chosen shield and add the
result to their defense roll"; "Upon a successful hit, the dice associated with the Combat Form
... their skill level in that form added"; "If the defender is wearing armor, they will roll the
dice set associated with their skill level in that armor as the amount of incoming damage their
armor is capable of mitigating ... The remainder of incoming damage is deducted from their
Health pool"; issue 13: "an untrained roll is 1d6 with no bonus"; "an attack that reaches at
least double the defense is a critical and rolls damage one skill tier higher".

Order of the dice (scripted tests rely on it): attack, Combat Defense, shield; on a hit, damage,
then armor.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot import names
from bot.engine.core.dice import DiceRoller
from bot.engine.core.pools import DiceGroup, Pool, PoolRoll, TieRule, opposed
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.tables import UntitledTables
from bot.engine.untitled.terms import Tier, WeightClass, dice_pool
from bot.errors import InvalidInput


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SkillRoll(_Frozen):
    """One rolled skill: what for (``purpose``), the ``level`` added (None: untrained, nothing
    added), the ``tier`` whose dice were rolled (None: untrained dice), whether it is a
    critical's raised dice, and the rolled pool (every die)."""

    purpose: str
    level: int | None
    tier: Tier | None
    roll: PoolRoll
    critical: bool = False

    @property
    def total(self) -> int:
        """The dice plus the level."""
        return self.roll.total

    @property
    def text(self) -> str:
        """E.g. ``"Longbow (Journeyman): 2d8 [5] [3] + 7 = 15"``; ``(untrained)``."""
        rank = self.tier.title() if self.tier else "untrained"
        if self.critical:
            rank += ", critical"
        return self.roll.shown(f"{self.purpose} ({rank})")


def skill_pool(
    tables: UntitledTables, level: int | None, *, bonus: bool = True
) -> tuple[Pool, Tier | None]:
    """The pool a skill of ``level`` rolls and its tier: the tier's dice plus the level when
    ``bonus`` (a shield adds its dice only: "roll the dice associated with their skill level in
    their chosen shield and add the result"); None: untrained — ``tables.untrained.dice``, no
    bonus. Raises :class:`InvalidInput` while the tier's dice are not set (Legendary) or for a
    level off the ladder."""
    if level is None:
        return _pool(tables.untrained.dice), None
    pool = _pool(tables.skill_dice(level))
    if bonus:
        pool = pool.model_copy(update={"modifier": pool.modifier + level})
    return pool, tables.tier(level)


def roll_skill(
    roller: DiceRoller,
    tables: UntitledTables,
    level: int | None,
    purpose: str,
    *,
    bonus: bool = True,
) -> SkillRoll:
    """Roll a skill of ``level`` (:func:`skill_pool`) for ``purpose`` ("Longbow"); the level
    is added when ``bonus`` and the skill is trained."""
    pool, tier = skill_pool(tables, level, bonus=bonus)
    shown = level if bonus else None
    return SkillRoll(purpose=purpose, level=shown, tier=tier, roll=pool.roll(roller))


class AttackRoll(_Frozen):
    """An opposed attack: the ``attack`` roll against the ``defense`` roll plus the ``shield``
    roll (its tier's dice, no level; None: no shield used). ``hit``: the attack beat the
    defense (a tie goes to the defender, tables ``defense.tie``); ``critical``: a hit that
    reached at least ``critical.multiplier`` × the defense (issue 13)."""

    attack: SkillRoll
    defense: SkillRoll
    shield: SkillRoll | None = None
    hit: bool
    critical: bool

    @property
    def defense_total(self) -> int:
        """Combat Defense plus the shield's roll."""
        return self.defense.total + (self.shield.total if self.shield else 0)


def roll_attack(
    roller: DiceRoller,
    tables: UntitledTables,
    attack_level: int | None,
    defense_level: int | None,
    *,
    shield: bool = False,
    shield_level: int | None = None,
    weapon: str = "Attack",
) -> AttackRoll:
    """Roll ``weapon``'s attack (its Weapon or Weapon Family skill's ``attack_level``) against
    Combat Defense (``defense_level``), adding the dice of a shield skill of ``shield_level``
    (no level added) when ``shield`` (a shield carried and used; ``shield_level`` None:
    untrained in it). Every level is checked before any die is rolled."""
    pools = [
        (weapon, attack_level, skill_pool(tables, attack_level)),
        ("Combat Defense", defense_level, skill_pool(tables, defense_level)),
    ]
    if shield:
        pools.append(("Shield", None, skill_pool(tables, shield_level, bonus=False)))
    attack, defense, *rest = (
        SkillRoll(purpose=purpose, level=level, tier=tier, roll=pool.roll(roller))
        for purpose, level, (pool, tier) in pools
    )
    shield_roll = rest[0] if rest else None
    against = defense.total + (shield_roll.total if shield_roll else 0)
    tie: TieRule = "second" if tables.defense.tie == "defender" else "first"
    hit = opposed(attack.total, against, tie) == "first"
    critical = hit and attack.total >= tables.critical.multiplier * against
    return AttackRoll(
        attack=attack, defense=defense, shield=shield_roll, hit=hit, critical=critical
    )


def damage_pool(
    tables: UntitledTables, level: int | None, *, critical: bool = False
) -> tuple[Pool, Tier | None]:
    """The damage pool of a Combat Form of ``level`` (:func:`skill_pool`). A critical rolls the
    dice ``critical.tiers_up`` rungs higher on the ladder, the level still added (untrained:
    one rung up is Novice, still no bonus). Past the top — beyond Legendary, or past a rung
    whose dice the Storyteller has not set — it rolls the highest set rung's dice plus
    ``critical.extra_dice_at_top`` dice of their largest size (the bot's reading: the text
    names no tier above Legendary; a Grandmaster's critical is 4d10 while Legendary is unset)."""
    if not critical:
        return skill_pool(tables, level)
    ladder = tables.ladder
    if level is not None:
        tables.skill_dice(level)  # a tier without dice refuses before anything is rolled
    start = -1 if level is None else ladder.index(tables.rung(level))
    target = start + tables.critical.tiers_up
    if target < 0:  # untrained, and a critical raises nothing (tiers_up 0)
        return skill_pool(tables, level)
    if target < len(ladder) and ladder[target].dice is not None:
        rung, extra = ladder[target], 0
    else:  # past the top: the highest rung with dice between here and there, plus dice
        floor = max(start, 0)
        span = range(floor, min(target, len(ladder) - 1) + 1)
        last = max((i for i in span if ladder[i].dice is not None), default=floor)
        rung, extra = ladder[last], tables.critical.extra_dice_at_top
    bonus = level or 0
    if rung.dice is None:
        raise InvalidInput(
            f"A critical rolls {rung.tier.title()} dice, which the Storyteller has not set "
            f"(tables `ladder`, the {rung.tier} row's `dice`)."
        )
    pool = _pool(rung.dice)
    if extra:
        largest = max(group.sides for group in pool.groups)
        pool = pool.plus(DiceGroup(count=extra, sides=largest, label="critical"))
    return pool.model_copy(update={"modifier": pool.modifier + bonus}), rung.tier


def roll_damage(
    roller: DiceRoller,
    tables: UntitledTables,
    level: int | None,
    *,
    critical: bool = False,
    form: str = "Damage",
) -> SkillRoll:
    """Roll the damage of Combat Form ``form`` of ``level`` (:func:`damage_pool`)."""
    pool, tier = damage_pool(tables, level, critical=critical)
    return SkillRoll(
        purpose=form, level=level, tier=tier, roll=pool.roll(roller), critical=critical
    )


def roll_armor(
    roller: DiceRoller, tables: UntitledTables, level: int | None, weight: WeightClass
) -> SkillRoll | None:
    """Roll ``weight`` armor worn with armor-skill ``level`` (issue 13's armor dice; no level
    added: "roll the dice set associated with their skill level"). Untrained in that class:
    ``tables.untrained_armor`` (None: the armor mitigates nothing, and no dice are rolled —
    returns None). Raises :class:`InvalidInput` above level 18 until the Storyteller sets it."""
    purpose = f"{weight.title()} armor"
    if level is None:
        if tables.untrained_armor is None:
            return None
        pool = _pool(tables.untrained_armor)
        return SkillRoll(purpose=purpose, level=None, tier=None, roll=pool.roll(roller))
    pool = _pool(tables.armor_dice(level, weight))
    return SkillRoll(purpose=purpose, level=level, tier=tables.tier(level), roll=pool.roll(roller))


def health_lost(damage: int, mitigated: int) -> int:
    """ "The remainder of incoming damage is deducted from their Health pool": the damage less
    what the armor mitigated, never below 0."""
    return max(0, damage - mitigated)


class Exchange(_Frozen):
    """One attack from sheet to sheet: the opposed ``attack``; on a hit the ``damage`` and the
    ``armor`` roll (None: no armor, or armor that mitigates nothing) and the ``health`` lost."""

    attack: AttackRoll
    damage: SkillRoll | None = None
    armor: SkillRoll | None = None
    health: int = 0


def exchange(
    roller: DiceRoller,
    tables: UntitledTables,
    attacker: UntitledSheet,
    weapon: str,
    defender: UntitledSheet,
    *,
    use_shield: bool = True,
) -> Exchange:
    """``attacker`` attacks ``defender`` with its weapon called ``weapon``: the opposed attack
    (the defender's shield added when it carries one and ``use_shield``), then on a hit the
    Combat Form's damage (a tier higher on a critical), the worn armor's mitigation and the
    Health lost. Raises :class:`InvalidInput` for a weapon not on the sheet (naming those that
    are) or dice not set (Legendary, armor above 18)."""
    arm = attacker.weapon(weapon)
    if arm is None:
        known = ", ".join(names.escaped(w.name) for w in attacker.weapons) or "none"
        raise InvalidInput(
            f"{names.escaped(attacker.name)} has no weapon called {names.quoted(weapon)} "
            f"(weapons: {known})."
        )
    shield = use_shield and defender.shield is not None
    # every pool this attack may roll is built first, so a refusal rolls no dice
    damage_pool(tables, attacker.damage_level(arm), critical=True)
    armor_level = defender.armor_level()
    if defender.armor is not None and armor_level is not None:
        tables.armor_dice(armor_level, defender.armor.weight)
    attack = roll_attack(
        roller,
        tables,
        attacker.attack_level(arm),
        defender.defense_level(),
        shield=shield,
        shield_level=defender.shield_level(),
        weapon=arm.name,
    )
    if not attack.hit:
        return Exchange(attack=attack)
    damage = roll_damage(
        roller, tables, attacker.damage_level(arm), critical=attack.critical, form=arm.form
    )
    armor = None
    if defender.armor is not None:
        armor = roll_armor(roller, tables, armor_level, defender.armor.weight)
    mitigated = armor.total if armor else 0
    return Exchange(
        attack=attack, damage=damage, armor=armor, health=health_lost(damage.total, mitigated)
    )


def _pool(expression: str) -> Pool:
    """A checked table expression as a pool (the tables validated it: never raises)."""
    try:
        return dice_pool(expression)
    except ValueError as error:  # pragma: no cover - the tables' validator ran first
        raise InvalidInput(str(error)) from None
