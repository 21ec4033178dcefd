"""Importing a Utopia character from a Foundry VTT actor export (issue 12): the export fixture
is our own, built from the pinned actor model (``tests/fixtures/foundry/character.json``), with
a malformed copy (``malformed.json``). Everything the sheet does not hold is listed, never
dropped silently; malformed input is refused with a message naming the field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.utopia.foundry import FOUNDRY_COMMIT, from_foundry, is_foundry_export
from bot.engine.utopia.sheet import UtopiaSheet
from bot.engine.utopia.tables import default_tables
from bot.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "foundry"
EXPORT: dict[str, Any] = json.loads((FIXTURES / "character.json").read_text("utf-8"))


def export(**changes: Any) -> dict[str, Any]:
    """A deep copy of the fixture with ``system`` keys replaced (``system=...`` replaces all)."""
    data = copy.deepcopy(EXPORT)
    for key, value in changes.items():
        if key in ("name", "type", "items", "system"):
            data[key] = value
        else:
            data["system"][key] = value
    return data


def test_the_fixture_maps_to_a_valid_sheet() -> None:
    result = from_foundry(EXPORT)
    sheet = result.sheet
    assert sheet.name == "Mirela of the Reeds"
    assert sheet.score("dexterity") == 6
    assert sheet.score("awareness") == 4 + 1  # value + bonus
    assert sheet.score("agility") == 10
    assert sheet.gifted == ("dexterity",)
    # SHP = max + body × constitution + level; the talents give body 6, mind 6, soul 4.
    assert (sheet.shp, sheet.dhp, sheet.stamina) == (16, 14, 16)
    # The species sets the ratings (Human: Block 1, Dodge 2).
    assert (sheet.block_rating, sheet.dodge_rating) == (1, 2)
    tables = default_tables()
    assert sheet.defense("chill", tables) == 1 + 1 + 1  # innate, the stored extra, the coat
    assert sheet.defense("physical", tables) == 1 + 1
    assert sheet.travel_m("land") == sheet.score("speed")
    assert sheet.travel_m("water") == 2
    assert sheet.turn_actions is None and sheet.interrupt_actions == 3
    assert UtopiaSheet.model_validate(json.loads(json.dumps(result.data))) == sheet


def test_weapons_come_from_their_features_as_foundry_merges_them() -> None:
    weapons = {w.name: w for w in from_foundry(EXPORT).sheet.weapons}
    bow = weapons["Reed Bow"]
    assert (bow.ta_cost, bow.damage, bow.kind) == (2, "1d8", "ranged")
    assert (bow.close_m, bow.far_m) == (10 + 5 * 2, 20 + 10 * 2)  # the range feature ×2 stacks
    assert bow.hands == 2
    knife = weapons["Reed Knife"]
    assert (knife.ta_cost, knife.damage, knife.damage_modifier) == (1, "1d4", "dexterity")
    assert knife.kind == "melee"
    maul = weapons["Shock Maul"]
    assert (maul.ta_cost, maul.damage, maul.damage_type) == (3, "2d6", "energy")  # 1d6 ×2
    assert maul.ignores_shp and maul.hands == 2
    assert [s.name for s in from_foundry(EXPORT).sheet.spells] == ["Spark"]


def test_what_cannot_be_mapped_is_listed() -> None:
    unmapped = from_foundry(EXPORT).unmapped
    expected = [
        "SHP now 18 of 16: the sheet keeps the maximum only",
        "weapon Shock Maul: accuracyFavor not modelled",
        "gear (consumable) items (Healing Draught): not imported",
        "species items (Human): only its Block and Dodge Ratings count",
    ]
    for line in expected:
        assert line in unmapped
    assert any(line.startswith("spell Spark: its features") for line in unmapped)
    assert any("system.biography" in line and "system.artifice" in line for line in unmapped)
    assert not any("nonLethal" in line for line in unmapped)  # false: nothing lost


def test_every_item_and_system_field_is_mapped_or_listed() -> None:
    result = from_foundry(EXPORT)
    text = json.dumps(result.data) + "\n".join(result.unmapped)
    for item in EXPORT["items"]:
        assert item["name"] in text, item["name"]
    read = {"subtraits", "traits", "hitpoints", "stamina", "block", "dodge", "innateDefenses"}
    for key in EXPORT["system"]:
        assert key in read or f"system.{key}" in text or key in _USED_QUIETLY, key


_USED_QUIETLY = {
    "armorDefenses",
    "innateTravel",
    "size",
    "turnActions",
    "interruptActions",
    "equipmentSlots",
    "handheldSlots",
    "level",
    "body",
    "mind",
    "soul",
    "constitution",
    "endurance",
    "effervescence",
}


def test_stacks_multiply_damage_dice_and_bad_formulas_are_listed() -> None:
    data = export()
    maul = next(i for i in data["items"] if i["name"] == "Shock Maul")
    maul["system"]["featureSettings"]["featMaul0000001"]["stacks"]["value"] = 3
    weapons = {w.name: w for w in from_foundry(data).sheet.weapons}
    assert weapons["Shock Maul"].damage == "3d6"
    knife = next(i for i in data["items"] if i["name"] == "Reed Knife")
    knife["system"]["features"]["featKnife000001"]["system"]["classifications"]["fastWeapon"][
        "damage"
    ] = "1d4 * 2"
    knife["system"]["weaponType"] = "fastWeapon"
    result = from_foundry(data)
    assert "Reed Knife" not in {w.name for w in result.sheet.weapons}
    assert any(
        line.startswith("weapon Reed Knife: damage '1d4 * 2' not usable")
        for line in result.unmapped
    )


def test_an_unknown_weapon_type_and_clashing_names_are_listed() -> None:
    data = export()
    bow = next(i for i in data["items"] if i["name"] == "Reed Bow")
    bow["system"]["weaponType"] = "siegeWeapon"
    coat = next(i for i in data["items"] if i["name"] == "Reed Coat")
    coat["name"] = "Reed Knife"
    result = from_foundry(data)
    assert "weapon Reed Bow: weaponType 'siegeWeapon' has no TA cost; not imported" in (
        result.unmapped
    )
    assert "Reed Knife: a second item of that name renamed Reed Knife 2" in result.unmapped
    assert [a.name for a in result.sheet.armor] == ["Reed Knife 2"]


def test_armor_not_equipped_is_carried_not_worn() -> None:
    data = export()
    data["system"]["equipmentSlots"]["equipped"]["chest"] = []
    armor = from_foundry(data).sheet.armor
    assert [(a.name, a.worn) for a in armor] == [("Reed Coat", False)]
    assert from_foundry(data).sheet.defense("physical", default_tables()) == 1


def test_the_malformed_fixture_is_refused_naming_the_field() -> None:
    malformed = json.loads((FIXTURES / "malformed.json").read_text("utf-8"))
    with pytest.raises(InvalidInput) as caught:
        from_foundry(malformed)
    assert str(caught.value) == (
        "`system.subtraits.pow.value` is 'strong', not a number: this export is malformed."
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "is a JSON object"),
        ({"name": "X", "type": "character"}, "has no `system` object"),
        (export(type="creature"), "type 'creature' cannot be imported (a creature is built"),
        (export(type="vehicle"), "type 'vehicle' cannot be imported: export a character"),
        (export(name="  "), "has no actor `name`"),
        (export(items={"a": 1}), "`items` is not a list"),
        (export(items=[1]), "`items[0]` is 1, not an object"),
        (export(subtraits=None), "`system.subtraits` is None, not an object"),
        (export(level=True), "`system.level` is True, not a number"),
        (
            export(hitpoints={"surface": {"max": 0}, "deep": {"max": 5}}, level=0, constitution=0),
            "gives SHP no maximum",
        ),
        (
            export(subtraits={**EXPORT["system"]["subtraits"], "pow": {"value": 60}}),
            "does not make a valid Utopia sheet: `subtraits.power`: Input should be less",
        ),
    ],
)
def test_malformed_input_is_refused_with_a_specific_message(data: Any, message: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        from_foundry(data)
    assert message in str(caught.value)


def test_foundry_exports_are_told_apart_from_our_sheets() -> None:
    assert is_foundry_export(EXPORT)
    for path in (ROOT / "data" / "sheets" / "utopia").glob("*.json"):
        assert not is_foundry_export(json.loads(path.read_text("utf-8")))
    assert len(FOUNDRY_COMMIT) == 40
