"""The Untitled sheet (issue 13, slice 1): skills with levels, which level each roll adds, the
weapons, shield and armor, bounds, names, and the d20-checked dice expressions of the tables.

These tests drive the models directly.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from bot import names
from bot.engine.core.pools import DiceGroup
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.terms import check_dice, dice_pool


def sheet(**fields: Any) -> UntitledSheet:
    return UntitledSheet.model_validate({"name": "Rook", **fields})


BOWMAN: dict[str, Any] = {
    "weapon_skills": [{"name": "Bows", "level": 7}],
    "combat_forms": [{"name": "Archery", "level": 4}],
    "weapons": [
        {
            "name": "Longbow",
            "skill": "Bows",
            "form": "Archery",
            "kind": "ranged",
            "range_m": 150,
            "reload": "move",
            "hands": 2,
        },
        {"name": "Knife", "skill": "Knives", "form": "Brawling"},
    ],
}


def test_a_weapon_rolls_its_weapon_skill_and_its_combat_forms_level() -> None:
    """ "The 'To Hit' dice and modifier ... the skill level the character holds in their Weapon
    or Weapon Family skill"; "the dice associated with the Combat Form the attacker is using
    ... their skill level in that form added"."""
    s = sheet(**BOWMAN)
    bow = s.weapon("longbow")
    assert bow is not None and bow.reload == "move" and bow.range_m == 150
    assert s.attack_level(bow) == 7
    assert s.damage_level(bow) == 4
    knife = s.weapon("Knife")
    assert knife is not None
    assert s.attack_level(knife) is None  # no Knives skill: untrained
    assert s.damage_level(knife) is None


def test_defense_shield_and_armor_levels_come_from_their_skills() -> None:
    """Combat Defense; "their skill level in their chosen shield"; "their skill level in that
    armor" by weight class (issue 13)."""
    s = sheet(
        combat_defense=6,
        parry=3,
        shield_skills=[{"name": "Heater shield", "level": 5}],
        shield={"name": "Oak heater", "skill": "heater shield"},
        armor_skills={"light": 2, "medium": 12},
        armor={"name": "Brigandine", "weight": "medium"},
    )
    assert s.defense_level() == 6
    assert s.shield_level() == 5
    assert s.armor_level() == 12
    heavy = s.model_copy(update={"armor": s.armor.model_copy(update={"weight": "heavy"})})  # type: ignore[union-attr]
    assert heavy.armor_level() is None  # untrained in heavy armor
    bare = sheet()
    assert (bare.defense_level(), bare.shield_level(), bare.armor_level()) == (None, None, None)
    assert s.skill_levels() == {
        "Heater shield": 5,
        "Combat Defense": 6,
        "Parry": 3,
        "Light armor": 2,
        "Medium armor": 12,
    }


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"combat_defense": 0}, "combat_defense"),
        ({"combat_defense": 31}, "combat_defense"),
        ({"weapon_skills": [{"name": "Bows", "level": 40}]}, "weapon_skills"),
        ({"health": 0}, "health"),
        ({"speed_m": -1}, "speed_m"),
        ({"armor": {"name": "Plate", "weight": "superheavy"}}, "armor"),
        ({"charisma": 3}, "charisma"),
        (
            {"weapons": [{"name": "Bow", "skill": "Bows", "form": "Archery", "kind": "ranged"}]},
            "weapons",
        ),
        ({"weapons": [{"name": "Axe", "skill": "Axes", "form": "Axe", "range_m": 5}]}, "weapons"),
        (
            {"weapons": [{"name": "Gun", "skill": "Guns", "form": "Guns", "reload": "swift"}]},
            "weapons",
        ),
    ],
)
def test_bad_values_are_refused_naming_the_field(fields: dict[str, Any], where: str) -> None:
    with pytest.raises(ValidationError) as exc:
        sheet(**fields)
    assert where in str(exc.value)


def test_names_are_normalised_and_unique_per_list() -> None:
    s = sheet(weapon_skills=[{"name": " Bows\u200b ", "level": 3}])
    assert s.weapon_skills[0].name == "Bows"
    assert s.weapon_skill("BOWS") == 3
    with pytest.raises(ValidationError, match="weapon_skills: names must be unique"):
        sheet(weapon_skills=[{"name": "Bows", "level": 3}, {"name": "bows", "level": 4}])
    # a weapon and a skill may share a name (a "Longbow" skill for the Longbow)
    sheet(
        weapon_skills=[{"name": "Longbow", "level": 2}],
        weapons=[
            {
                "name": "Longbow",
                "skill": "Longbow",
                "form": "Archery",
                "kind": "ranged",
                "range_m": 100,
            }
        ],
    )


def test_stored_sheets_with_clashing_names_load_numbered() -> None:
    raw = (
        '{"name": "Rook", "weapon_skills": '
        '[{"name": "Bows", "level": 1}, {"name": "bows", "level": 2}]}'
    )
    s = UntitledSheet.model_validate_json(raw, context=names.STORED)
    assert [k.name for k in s.weapon_skills] == ["Bows", "bows 2"]


def test_sheets_round_trip_through_json_and_are_frozen() -> None:
    s = sheet(**BOWMAN, combat_defense=3, armor={"name": "Leathers", "weight": "light"})
    assert UntitledSheet.model_validate_json(s.model_dump_json()) == s
    assert s.system == "untitled"
    with pytest.raises(ValidationError):
        s.health = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "normal", "groups", "modifier"),
    [
        ("3d12", "3d12", [(3, 12)], 0),
        ("2d10+1d6", "2d10 + 1d6", [(2, 10), (1, 6)], 0),
        ("4d10 + 2", "4d10 + 2", [(4, 10)], 2),
    ],
)
def test_dice_expressions_are_checked_with_d20(
    text: str, normal: str, groups: list[tuple[int, int]], modifier: int
) -> None:
    assert check_dice(text) == normal
    pool = dice_pool(text)
    assert [(g.count, g.sides) for g in pool.groups] == groups
    assert pool.modifier == modifier
    assert dice_pool("2d6", "Novice").groups == (DiceGroup(count=2, sides=6, label="Novice"),)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2d6-1", "without subtraction"),
        ("4d6kh3", "keep/drop"),
        ("1d%", "sides"),
        ("101d6", "at most 100 dice"),
        ("60d6 + 60d6", "at most 100 dice"),
        ("1d1001", "sides"),
        ("5", "rolls no dice"),
        ("2d6 * 2", "without subtraction"),
        ("two dice", "not a dice expression"),
        # QA round 4: zero dice rolled nothing, and a huge number escaped as pydantic's error
        ("0d6", "rolls no dice"),
        ("3d12 + 0d4", "rolls no dice"),
        ("3d12 + 100000000000", "add up to at most 1000"),
        ("999999d999999", "sides"),
        ("999999d6", "at most 100 dice"),
    ],
)
def test_bad_dice_are_refused_saying_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        check_dice(text)
