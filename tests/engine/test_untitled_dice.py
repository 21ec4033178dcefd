"""Untitled's dice (issue 13, slice 1) with scripted dice, each test citing the text: a skill
roll (tier dice + level; untrained 1d6, no bonus), the opposed attack against Combat Defense and
a shield (a tie to the defender), damage (a critical one tier higher), armor mitigation and the
Health lost. The dice are consumed in the order ``dice.py`` documents: attack, Combat Defense,
shield; on a hit, damage, then armor.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from bot.engine.core.dice import ScriptedRoller
from bot.engine.untitled.dice import (
    damage_pool,
    exchange,
    health_lost,
    roll_armor,
    roll_attack,
    roll_damage,
    roll_skill,
    skill_pool,
)
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.tables import default_tables, load_tables
from bot.errors import InvalidInput

TABLES = default_tables()
LEGENDARY = load_tables(overrides=TABLES.with_legendary("3d12"))


def faces(pool: Any) -> list[tuple[int, int]]:
    return [(g.count, g.sides) for g in pool.groups]


def test_a_novice_rolls_2d6_adding_the_level() -> None:
    """ "A player whose character is currently a Novice in a Weapon or Weapon Family skill will
    roll 2d6 for their attack roll, adding the skill level value as a modifier.\""""
    roll = roll_skill(ScriptedRoller([4, 2]), TABLES, 3, "Longbow")
    assert roll.total == 4 + 2 + 3
    assert roll.tier == "novice"
    assert roll.text == "Longbow (Novice): 2d6 [4] [2] + 3 = 9"


@pytest.mark.parametrize(
    ("level", "dice", "script"),
    [(7, [(2, 8)], [8, 1]), (13, [(2, 10)], [10, 9]), (17, [(2, 12)], [12, 11]),
     (20, [(3, 10)], [1, 2, 3])],
)  # fmt: skip
def test_each_tier_rolls_its_dice_plus_the_level(
    level: int, dice: list[tuple[int, int]], script: list[int]
) -> None:
    """The ladder: "2d6 2d8 2d10 2d12 3d10" for "1-4 5-10 11-15 16-18 19-20"."""
    pool, _ = skill_pool(TABLES, level)
    assert faces(pool) == dice
    assert pool.modifier == level
    assert roll_skill(ScriptedRoller(script), TABLES, level, "Sword").total == sum(script) + level


def test_untrained_is_1d6_with_no_bonus() -> None:
    """Issue 13: "an untrained roll is 1d6 with no bonus"."""
    roll = roll_skill(ScriptedRoller([5]), TABLES, None, "Knife")
    assert roll.total == 5
    assert roll.tier is None and roll.level is None
    assert roll.text == "Knife (untrained): 1d6 [5] = 5"
    assert skill_pool(TABLES, None)[0].distribution() == {f: Fraction(1, 6) for f in range(1, 7)}


def test_legendary_is_refused_until_set_and_rolls_no_dice() -> None:
    """ "21+ Legendary ... Storyteller": refused clearly while unset, before any die."""
    roller = ScriptedRoller([6, 6, 6, 6])
    with pytest.raises(InvalidInput, match="Storyteller's to set"):
        roll_attack(roller, TABLES, 3, 22)
    assert roller.remaining == 4
    roll = roll_skill(ScriptedRoller([12, 1, 5]), LEGENDARY, 22, "Greatsword")
    assert roll.total == 12 + 1 + 5 + 22
    assert roll.tier == "legendary"


def test_the_attack_beats_combat_defense_and_a_tie_goes_to_the_defender() -> None:
    """ "The defender will attempt to defend themselves by rolling the dice associated with
    their skill level in Combat Defense plus the skill level as a modifier. A tie will go to
    the defender.\""""
    hit = roll_attack(ScriptedRoller([5, 3, 4, 4]), TABLES, 7, 3)  # 15 against 11
    assert (hit.attack.total, hit.defense_total, hit.hit, hit.critical) == (15, 11, True, False)
    tie = roll_attack(ScriptedRoller([2, 2, 4, 4]), TABLES, 7, 3)  # 11 against 11
    assert (tie.attack.total, tie.defense_total, tie.hit) == (11, 11, False)
    attacker_wins = load_tables(overrides={"defense": {"tie": "attacker"}})
    assert roll_attack(ScriptedRoller([2, 2, 4, 4]), attacker_wins, 7, 3).hit


def test_a_shield_adds_its_tiers_dice_to_the_defense() -> None:
    """ "If the defender has a shield, in addition to the above they may also roll the dice
    associated with their skill level in their chosen shield and add the result to their
    defense roll" — the dice, no level (issue 13: "plus their shield's tier dice")."""
    # attack 8+6+7 = 21; Combat Defense 3+3+3 = 9; Journeyman shield 2d8: 5+4 = 9 → 18
    roll = roll_attack(
        ScriptedRoller([8, 6, 3, 3, 5, 4]), TABLES, 7, 3, shield=True, shield_level=6
    )
    assert roll.shield is not None
    assert roll.shield.total == 9
    assert roll.shield.text == "Shield (Journeyman): 2d8 [5] [4] = 9"
    assert (roll.defense_total, roll.hit) == (18, True)
    untrained = roll_attack(ScriptedRoller([8, 6, 3, 3, 6]), TABLES, 7, 3, shield=True)
    assert untrained.shield is not None and untrained.shield.total == 6  # 1d6, no bonus
    assert untrained.defense_total == 15


def test_at_least_double_the_defense_is_a_critical() -> None:
    """Issue 13: "an attack that reaches at least double the defense is a critical"."""
    exactly = roll_attack(ScriptedRoller([6, 5, 1, 1]), TABLES, 3, 5)  # 14 against 7
    assert (exactly.attack.total, exactly.defense_total, exactly.critical) == (14, 7, True)
    short = roll_attack(ScriptedRoller([6, 4, 1, 1]), TABLES, 3, 5)  # 13 against 7
    assert (short.hit, short.critical) == (True, False)


def test_damage_is_the_combat_forms_dice_plus_its_level() -> None:
    """ "A player whose character is a Novice in the Combat Form they used will roll 2d6 and add
    their skill level in that form as a modifier.\""""
    roll = roll_damage(ScriptedRoller([3, 6]), TABLES, 4, form="Archery")
    assert roll.total == 3 + 6 + 4
    assert roll.text == "Archery (Novice): 2d6 [3] [6] + 4 = 13"


@pytest.mark.parametrize(
    ("tables", "level", "dice", "tier", "modifier"),
    [
        (TABLES, 4, [(2, 8)], "journeyman", 4),  # Novice → Journeyman
        (TABLES, 10, [(2, 10)], "expert", 10),
        (TABLES, 18, [(3, 10)], "grandmaster", 18),
        (TABLES, None, [(2, 6)], "novice", 0),  # untrained → Novice, still no bonus
        (TABLES, 19, [(3, 10), (1, 10)], "grandmaster", 19),  # Legendary unset: one more d10
        (LEGENDARY, 19, [(3, 12)], "legendary", 19),
        (LEGENDARY, 21, [(3, 12), (1, 12)], "legendary", 21),  # past the top: one more die
    ],
)
def test_a_critical_rolls_damage_one_tier_higher(
    tables: Any, level: int | None, dice: list[tuple[int, int]], tier: str, modifier: int
) -> None:
    """Issue 13: a critical "rolls damage one skill tier higher"; above Grandmaster the bot's
    documented reading (docs/rules/untitled.md): Legendary's dice when set, else the top set
    tier's dice and one more of its largest die."""
    pool, rung = damage_pool(tables, level, critical=True)
    assert (faces(pool), rung, pool.modifier) == (dice, tier, modifier)


def test_armor_mitigates_its_dice_and_the_rest_comes_off_health() -> None:
    """ "If the defender is a Novice in Light Armor, as an example, they would roll 1d4 to
    attempt to mitigate some of the incoming damage. The remainder of incoming damage is
    deducted from their Health pool.\""""
    light = roll_armor(ScriptedRoller([3]), TABLES, 2, "light")
    assert light is not None
    assert light.text == "Light armor (Novice): 1d4 [3] = 3"
    heavy = roll_armor(ScriptedRoller([8, 7]), TABLES, 6, "heavy")
    assert heavy is not None and heavy.total == 15  # Journeyman heavy: 2d8, no level added
    assert health_lost(13, light.total) == 10
    assert health_lost(5, heavy.total) == 0  # never below 0
    roller = ScriptedRoller([4])
    assert roll_armor(roller, TABLES, None, "medium") is None  # untrained: nothing mitigated
    assert roller.remaining == 1
    with pytest.raises(InvalidInput, match="Storyteller's call"):
        roll_armor(ScriptedRoller([4]), TABLES, 19, "medium")


ARCHER = UntitledSheet.model_validate(
    {
        "name": "Wren",
        "weapon_skills": [{"name": "Bows", "level": 7}],
        "combat_forms": [{"name": "Archery", "level": 4}],
        "combat_defense": 3,
        "armor_skills": {"light": 2},
        "armor": {"name": "Leathers", "weight": "light"},
        "weapons": [
            {"name": "Longbow", "skill": "Bows", "form": "Archery", "kind": "ranged",
             "range_m": 150, "reload": "move", "hands": 2}
        ],
    }
)  # fmt: skip
FIGHTER = UntitledSheet.model_validate(
    {
        "name": "Brask",
        "weapon_skills": [{"name": "Swords", "level": 5}],
        "combat_forms": [{"name": "Sword and board", "level": 5}],
        "combat_defense": 4,
        "shield_skills": [{"name": "Heater shield", "level": 3}],
        "shield": {"name": "Oak heater", "skill": "Heater shield"},
        "armor_skills": {"medium": 6},
        "armor": {"name": "Mail", "weight": "medium"},
        "weapons": [{"name": "Arming sword", "skill": "Swords", "form": "Sword and board"}],
    }
)


def test_an_archer_shoots_a_shielded_fighter_from_sheet_to_sheet() -> None:
    """The whole exchange: Bows (Journeyman 2d8 + 7) against Combat Defense (Novice 2d6 + 4)
    and the Heater shield (Novice 2d6); Archery (Novice 2d6 + 4); Mail worn with medium armor
    6 (Journeyman 2d6)."""
    # attack 8+7+7 = 22; defense 4+3+4 = 11, shield 1+2 = 3 → 14: a hit, not a critical (< 28)
    # damage 6+5+4 = 15; armor 2+3 = 5 → 10 Health
    roller = ScriptedRoller([8, 7, 4, 3, 1, 2, 6, 5, 2, 3])
    result = exchange(roller, TABLES, ARCHER, "longbow", FIGHTER)
    assert roller.remaining == 0
    assert (result.attack.attack.total, result.attack.defense_total) == (22, 14)
    assert result.attack.hit and not result.attack.critical
    assert result.damage is not None and result.damage.total == 15
    assert result.armor is not None and result.armor.total == 5
    assert result.health == 10
    # without the shield 22 reaches double the defense (11): a critical, Archery at Journeyman
    roller = ScriptedRoller([8, 7, 4, 3, 6, 5, 2, 3])
    crit = exchange(roller, TABLES, ARCHER, "Longbow", FIGHTER, use_shield=False)
    assert crit.attack.critical
    assert crit.damage is not None
    assert crit.damage.text == "Archery (Journeyman, critical): 2d8 [6] [5] + 4 = 15"


def test_a_miss_rolls_no_damage_and_a_refusal_rolls_nothing() -> None:
    """ "Upon a successful hit, the dice associated with the Combat Form ... may be rolled": a
    miss stops after the defense. An unknown weapon is refused by name, before any die."""
    roller = ScriptedRoller([1, 1, 6, 6, 6])  # sword 1+1+5 = 7 against 6+6+3 = 15 (no shield)
    miss = exchange(roller, TABLES, FIGHTER, "Arming sword", ARCHER)
    assert not miss.attack.hit
    assert (miss.damage, miss.armor, miss.health) == (None, None, 0)
    assert roller.remaining == 1
    with pytest.raises(InvalidInput, match="no weapon called 'Axe' \\(weapons: Arming sword\\)"):
        exchange(roller, TABLES, FIGHTER, "Axe", ARCHER)
    assert roller.remaining == 1
    plated = FIGHTER.model_copy(
        update={"armor_skills": FIGHTER.armor_skills.model_copy(update={"medium": 19})}
    )
    with pytest.raises(InvalidInput, match="Storyteller's call"):
        exchange(roller, TABLES, ARCHER, "Longbow", plated)
    assert roller.remaining == 1
