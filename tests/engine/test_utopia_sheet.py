"""The Utopia sheet and tables (issue 12, slice 1): scores, modifiers, Block and Dodge dice,
defenses, actions, travel, leap, damage expressions, and the GM's tables.

Utopia is planned, not registered: these tests drive the models directly; the example sheets in
``data/sheets/utopia/`` must be valid sheets and stay out of the example listing until it is.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot import names
from bot.engine import REGISTRY, get_ruleset
from bot.engine.utopia.sheet import (
    SUBTRAITS,
    SUBTRAITS_OF,
    TRAITS,
    UtopiaSheet,
    check_damage,
)
from bot.engine.utopia.tables import default_tables, load_tables
from bot.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "sheets" / "utopia"
TABLES = default_tables()


def sheet(**fields: Any) -> UtopiaSheet:
    return UtopiaSheet.model_validate({"name": "Vesna", **fields})


def test_a_trait_is_the_sum_of_its_subtraits_and_modifiers_are_score_minus_four() -> None:
    s = sheet(subtraits={"dexterity": 5, "speed": 3, "power": 2})
    assert s.score("dexterity") == 5
    assert s.score("agility") == 8
    assert s.modifier("agility") == 4
    assert s.modifier("speed") == -1
    assert s.score("strength") == 2 + 1  # Fortitude untrained: 1
    assert s.modifier("strength") == -1


def test_a_gifted_subtraits_modifier_is_never_below_zero() -> None:
    s = sheet(subtraits={"awareness": 2, "resolve": 2}, gifted=["awareness"])
    assert s.modifier("awareness") == 0
    assert s.modifier("resolve") == -2
    assert sheet(subtraits={"awareness": 7}, gifted=["awareness"]).modifier("awareness") == 3


@given(st.dictionaries(st.sampled_from(SUBTRAITS), st.integers(1, 50)))
def test_every_trait_is_its_two_subtraits(scores: dict[str, int]) -> None:
    s = sheet(subtraits=scores)
    for trait in TRAITS:
        first, second = SUBTRAITS_OF[trait]
        assert s.score(trait) == s.score(first) + s.score(second)
        assert s.modifier(trait) == s.score(trait) - 4


def test_block_and_dodge_dice_double_under_cover() -> None:
    s = sheet(block_rating=2, dodge_rating=1)
    assert s.block_dice(TABLES) == (2, 4)
    assert s.dodge_dice(TABLES) == (1, 12)
    assert s.block_dice(TABLES, cover=True) == (4, 4)
    assert s.dodge_dice(TABLES, cover=True) == (2, 12)
    triple = load_tables(overrides={"take_cover": {"multiplier": 3}})
    assert s.dodge_dice(triple, cover=True) == (3, 12)


def test_defense_is_innate_plus_the_sheets_plus_worn_armor() -> None:
    s = sheet(
        defenses={"heat": 2},
        armor=[
            {"name": "Mail", "slot": "chest", "defenses": {"physical": 3}},
            {"name": "Spare helm", "slot": "head", "defenses": {"physical": 5}, "worn": False},
        ],
    )
    assert s.defense("physical", TABLES) == 1 + 3
    assert s.defense("heat", TABLES) == 1 + 2
    assert s.defense("psyche", TABLES) == 1
    assert s.defense("kinetic", TABLES) == 0
    assert s.defense("stamina", TABLES) == 0


def test_actions_default_to_the_tables_and_the_talent_raises_them() -> None:
    assert sheet().turn_actions_max(TABLES) == 6
    assert sheet().interrupt_actions_max(TABLES) == 2
    talented = sheet(turn_actions=9, interrupt_actions=3)
    assert talented.turn_actions_max(TABLES) == 9
    assert talented.interrupt_actions_max(TABLES) == 3
    capped = load_tables(overrides={"actions": {"turn_max": 7}})
    assert talented.turn_actions_max(capped) == 7
    with pytest.raises(ValidationError, match="less than or equal to 9"):
        sheet(turn_actions=10)
    with pytest.raises(ValidationError, match="less than or equal to 3"):
        sheet(interrupt_actions=4)


def test_travel_land_defaults_to_speed_and_leap_to_power_or_strength() -> None:
    s = sheet(subtraits={"speed": 5, "power": 3, "fortitude": 2}, travel={"water": 2})
    assert s.travel_m("land") == 5
    assert s.travel_m("water") == 2
    assert s.travel_m("air") == 0
    assert sheet(travel={"land": 8}).travel_m("land") == 8
    assert s.leap_m() == 3
    assert s.leap_m(after_travel=True) == 5


@pytest.mark.parametrize(
    ("text", "normal"),
    [("1d8", "1d8"), ("2d6+1", "2d6 + 1"), ("1d10 - 1 + 1d4", "1d10 - 1 + 1d4"), ("3", "3")],
)
def test_damage_expressions_are_checked_with_d20(text: str, normal: str) -> None:
    assert check_damage(text) == normal


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2d6*2", "adds or subtracts"),
        ("4d6kh3", "without keep/drop"),
        ("sword", "not a dice expression"),
        ("101d6", "at most 100 dice"),
        ("60d6+41d6", "at most 100 dice"),
        ("1d1001", "1 to 1000 sides"),
        ("1.5+1d4", "not a whole number"),
        ("(1d6, 2)", "without keep/drop, sets"),
    ],
)
def test_bad_damage_is_refused_naming_the_weapon_field(text: str, reason: str) -> None:
    with pytest.raises(ValidationError) as caught:
        sheet(weapons=[{"name": "Club", "damage": text}])
    error = caught.value.errors()[0]
    assert error["loc"] == ("weapons", 0, "damage")
    assert reason in error["msg"]


def test_ranged_weapons_need_close_within_far_and_melee_has_none() -> None:
    bow = {"name": "Bow", "damage": "1d8", "kind": "ranged", "close_m": 15, "far_m": 30}
    assert sheet(weapons=[bow]).weapons[0].far_m == 30
    with pytest.raises(ValidationError, match="gives close_m and far_m"):
        sheet(weapons=[{**bow, "far_m": None}])
    with pytest.raises(ValidationError, match="at most far_m"):
        sheet(weapons=[{**bow, "close_m": 40}])
    with pytest.raises(ValidationError, match="only a ranged weapon"):
        sheet(weapons=[{"name": "Club", "damage": "1d6", "close_m": 2, "far_m": 4}])
    with pytest.raises(ValidationError, match="less than or equal to 3"):
        sheet(weapons=[{**bow, "ta_cost": 4}])


def test_names_are_normalised_and_unique_across_weapons_spells_and_armor() -> None:
    s = sheet(name="  Ve\u200bsna  ", weapons=[{"name": "Ｓpear", "damage": "1d8"}])
    assert s.name == "Vesna"
    assert s.weapons[0].name == "Spear"
    assert s.weapon("spear") is s.weapons[0]
    with pytest.raises(ValidationError, match="must be unique: spear"):
        sheet(weapons=[{"name": "Spear", "damage": "1d8"}], spells=[{"name": "SPEAR"}])
    with pytest.raises(ValidationError, match="gifted lists a subtrait twice"):
        sheet(gifted=["speed", "speed"])
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        sheet(health=10)


def test_stored_sheets_with_clashing_names_load_numbered() -> None:
    raw = json.dumps(
        {
            "system": "utopia",
            "name": "Old",
            "weapons": [{"name": "Club", "damage": "1d6"}, {"name": "club\u200b", "damage": "1d6"}],
        }
    )
    s = UtopiaSheet.model_validate_json(raw, context=names.STORED)
    assert [w.name for w in s.weapons] == ["Club", "club 2"]


def test_sheets_round_trip_through_json() -> None:
    s = sheet(
        subtraits={"power": 6},
        gifted=["power"],
        weapons=[{"name": "Maul", "damage": "2d6+1", "ta_cost": 3, "damage_modifier": "power"}],
        spells=[{"name": "Spark", "stamina": 2, "damage": "1d6", "range_m": 10}],
    )
    assert UtopiaSheet.model_validate_json(s.model_dump_json()) == s


def test_the_tables_hold_the_texts_numbers_and_refuse_bad_changes() -> None:
    assert TABLES.weaponless.ta == 2
    assert TABLES.weaponless.damage == "1d8"
    assert TABLES.weaponless.modifier == "power"
    assert (TABLES.actions.interrupt_per_turn_action, TABLES.actions.turn_per_interrupt_action) == (
        2,
        1,
    )
    assert (TABLES.hold.turn_actions, TABLES.hold.interrupt_actions) == (2, 1)
    assert TABLES.damage_pool["kinetic"] == "dhp"
    assert TABLES.damage_pool["stamina"] == "stamina"
    assert TABLES.spell.ta == 3
    with pytest.raises(InvalidInput, match=r"weaponless\.damage"):
        load_tables(overrides={"weaponless": {"damage": "1d8*2"}})
    with pytest.raises(InvalidInput, match="turn_max"):
        load_tables(overrides={"actions": {"turn": 10, "turn_max": 9}})
    shipped = json.loads((ROOT / "data" / "utopia" / "tables.json").read_text("utf-8"))
    del shipped["innate_defense"]["heat"]
    with pytest.raises(InvalidInput, match="innate_defense lacks heat"):
        load_tables(shipped)


def test_utopia_is_registered() -> None:
    assert "utopia" in REGISTRY.implemented
    assert get_ruleset("utopia").title == "Utopia"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_example_sheets_are_valid(path: Path) -> None:
    s = UtopiaSheet.model_validate_json(path.read_text("utf-8"))
    assert s.system == "utopia"
    assert s.block_rating >= 1 and s.dodge_rating >= 1


def test_there_are_two_characters_and_two_npc_templates() -> None:
    stems = {p.stem for p in EXAMPLES.glob("*.json")}
    assert len(stems) == 4
