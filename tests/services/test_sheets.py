"""The sheet service on both stores (the ``service`` fixture runs each test on SQLite and on
PostgreSQL): limits, refusals, exact names, permissions, edits, examples, and a lossless export →
import round trip over generated sheets (SQLite)."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import names as name_rules
from bot.engine import get_ruleset
from bot.engine.uttas.sheet import (
    CHARACTERISTICS,
    MartialArt,
    Movement,
    Power,
    UttasSheet,
    Weapon,
)
from bot.errors import Conflict, DomainError, InvalidInput, NotAllowed, NotFound
from bot.services.actor import Actor
from bot.services.sheet_input import (
    FILE_MAX_BYTES,
    MESSAGE_MAX,
    UPLOAD_MAX_BYTES,
    check_upload,
    parse_json,
)
from bot.services.sheets import SheetService, export_bytes, name_key
from bot.store.base import Store
from bot.store.db import Database

ALICE = Actor(user_id=1)
BOB = Actor(user_id=2)
GM = Actor(user_id=3, manages_channel=True)
GUILD = 100

WILLOW = {
    "name": "Willow",
    "agility": 12,
    "speed": 6,
    "health": 12,
    "stamina": 30,
    "movement": {"run": 12, "warp": 8},
    "stances": ["Steady", "Mobile"],
    "weapons": [{"name": "Club", "kind": "melee", "damage_dice": 1}],
    "powers": [{"name": "Blast", "active_points": 50, "damage_dice": 10}],
}


def dump(data: Any) -> bytes:
    return json.dumps(data).encode()


@pytest.fixture
def examples(tmp_path: Path) -> Path:
    folder = tmp_path / "examples" / "uttas"
    folder.mkdir(parents=True)
    (folder / "willow.json").write_text(json.dumps(WILLOW))
    (folder / "thug.json").write_text(json.dumps({"name": "Thug", "agility": 10}))
    return folder.parent


@pytest.fixture
def service(store: Store, examples: Path) -> SheetService:
    return SheetService(store, examples_dir=examples)


async def names(service: SheetService, actor: Actor = ALICE, kind: Any = "character") -> list[str]:
    return [row.name for row in await service.list_sheets(GUILD, actor, kind)]


# --- the happy paths ------------------------------------------------------------------------


async def test_import_show_list_export(service: SheetService) -> None:
    stored = await service.import_file(GUILD, ALICE, "character", dump(WILLOW))
    assert not stored.replaced
    sheet = stored.sheet
    assert isinstance(sheet.model, UttasSheet)
    assert sheet.name == "Willow" and sheet.ruleset == "uttas"
    assert sheet.model.weapons[0].name == "Club"
    assert await names(service) == ["Willow"]

    view = await service.show(GUILD, ALICE, "character", "willow")
    assert view.full and view.sheet.id == sheet.id

    filename, content = await service.export(GUILD, ALICE, "character", "WILLOW")
    assert filename == "willow.json"
    assert UttasSheet.model_validate_json(content) == sheet.model


async def test_create_from_key_fields_fills_the_rest_with_defaults(service: SheetService) -> None:
    sheet = await service.create(
        GUILD, ALICE, "character", "uttas", {"name": "Rook", "agility": "14", "speed": 5}
    )
    assert isinstance(sheet.model, UttasSheet)
    assert (sheet.model.agility, sheet.model.speed, sheet.model.body) == (14, 5, 10)


async def test_replace_overwrites_the_same_sheet(service: SheetService) -> None:
    first = (await service.import_file(GUILD, ALICE, "character", dump(WILLOW))).sheet
    with pytest.raises(Conflict, match="replace: True"):
        await service.import_file(GUILD, ALICE, "character", dump({**WILLOW, "agility": 20}))
    again = await service.import_file(
        GUILD, ALICE, "character", dump({**WILLOW, "name": "willow", "agility": 20}), replace=True
    )
    assert again.replaced and again.sheet.id == first.id
    assert again.sheet.name == "willow"
    assert (await service.show(GUILD, ALICE, "character", "Willow")).sheet.model.agility == 20  # type: ignore[attr-defined]


async def test_rename_on_import(service: SheetService) -> None:
    await service.import_file(GUILD, ALICE, "character", dump(WILLOW))
    copy = await service.import_file(GUILD, ALICE, "character", dump(WILLOW), rename="Willow 2")
    assert copy.sheet.name == "Willow 2"
    assert await names(service) == ["Willow", "Willow 2"]


async def test_examples_import_for_anyone(service: SheetService) -> None:
    assert [e.key for e in service.examples()] == ["thug", "willow"]
    assert service.example_choices("wil") == [("Willow (UTTAS)", "willow")]
    stored = await service.import_example(GUILD, BOB, "character", "willow")
    assert stored.sheet.name == "Willow" and stored.sheet.row.owner_id == BOB.user_id
    npc = await service.import_example(GUILD, GM, "npc", "Thug")
    assert npc.sheet.kind == "npc"
    with pytest.raises(NotFound, match="no example sheet"):
        await service.import_example(GUILD, BOB, "character", "gandalf")


def test_shipped_examples_are_valid_sheets(db: Database) -> None:
    shipped = SheetService(db).examples()
    for example in shipped:
        data = parse_json(example.path.read_bytes())
        kind = "npc" if data.get("kind") == "npc" else "character"
        get_ruleset(example.ruleset).sheet_model_for(kind).model_validate(data)
    assert {e.key for e in shipped} >= {"willow", "general-bearington", "thug"}


# --- exact names ------------------------------------------------------------------------------


async def test_names_match_exactly_never_by_prefix(service: SheetService) -> None:
    await service.import_file(GUILD, ALICE, "character", dump({"name": "Daniel"}))
    with pytest.raises(NotFound, match="no character called \\*\\*Dan\\*\\*"):
        await service.show(GUILD, ALICE, "character", "Dan")
    await service.import_file(GUILD, ALICE, "character", dump({"name": "Dan"}))
    assert (await service.show(GUILD, ALICE, "character", "dan")).sheet.name == "Dan"
    assert (await service.show(GUILD, ALICE, "character", " DANIEL ")).sheet.name == "Daniel"
    assert name_key("  Big   Bear ") == "big bear"


# --- refusals: files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "not a list"),
        (b'"Willow"', "not a str"),
        (b'{"name": "W", "agility": 1' + b"0" * 40 + b"}", "absurdly large"),
        (b'{"name": "W", "movement": {"run": 1e400}}', "absurdly large"),
        (b'{"name": "W", "agility": NaN}', "NaN"),
        (b'{"name": "W", "name": "X"}', "appears twice"),
        (b'{"name": "W", "x": ' + b"[" * 50 + b"]" * 50 + b"}", "nested more than"),
        (b"[" * 60_000, "nested more than"),
        (b"x" * (UPLOAD_MAX_BYTES + 1), "at most"),
    ],
)
async def test_bad_files_are_refused_and_change_nothing(
    service: SheetService, content: bytes, message: str
) -> None:
    with pytest.raises(InvalidInput, match=message):
        await service.import_file(GUILD, ALICE, "character", content)
    assert await names(service) == []


def test_uploads_are_checked_before_download() -> None:
    check_upload(100, "willow.json", None)
    check_upload(100, "sheet", "application/json; charset=utf-8")
    check_upload(UPLOAD_MAX_BYTES, "mirela.json", "application/json")  # a Foundry export
    with pytest.raises(InvalidInput, match="at most 524,288 bytes"):
        check_upload(UPLOAD_MAX_BYTES + 1, "willow.json", "application/json")
    with pytest.raises(InvalidInput, match="not a JSON file"):
        check_upload(100, "willow.png", "image/png")


async def test_invalid_fields_named_with_value_and_what_is_allowed(service: SheetService) -> None:
    bad = {
        **WILLOW,
        "agility": 500,
        "colour": "green",
        "weapons": [{"name": "Club", "kind": "laser"}],
    }
    with pytest.raises(InvalidInput) as caught:
        await service.import_file(GUILD, ALICE, "character", dump(bad))
    text = str(caught.value)
    assert text.startswith("That sheet was not imported (3 problems):")
    assert "`agility` = `500`: input should be less than or equal to 100" in text
    assert "`colour` is not a known field; allowed: " in text and "agility" in text
    assert "`weapons[Club].kind` = `\"laser\"`: input should be 'melee', 'thrown' or" in text
    assert await names(service) == []


async def test_a_flood_of_errors_fits_one_discord_message(service: SheetService) -> None:
    bad = {"name": "W", **{f"field{i}": "x" * 30 for i in range(300)}}
    with pytest.raises(InvalidInput) as caught:
        await service.import_file(GUILD, ALICE, "character", dump(bad))
    text = str(caught.value)
    assert len(text) <= MESSAGE_MAX
    assert "(300 problems)" in text and text.rstrip().endswith("more.")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "W" * 81}, "at most 80"),
        ({"name": "Line\nbreak"}, "line breaks"),
        ({"name": ""}, "`name`"),
        ({"agility": 10}, "`name` is required"),
        ({"name": "W", "system": "dnd"}, "dnd"),
    ],
)
async def test_bad_names_and_rulesets_are_refused(
    service: SheetService, data: dict[str, Any], message: str
) -> None:
    with pytest.raises(DomainError, match=message):
        await service.import_file(GUILD, ALICE, "character", dump(data))
    assert await names(service) == []


async def test_npc_names_leave_room_for_numbers(service: SheetService) -> None:
    with pytest.raises(InvalidInput, match="at most 72"):
        await service.import_file(GUILD, GM, "npc", dump({"name": "T" * 73}))


async def test_a_sheet_too_big_to_export_is_never_stored(service: SheetService) -> None:
    await service.import_file(GUILD, ALICE, "character", dump(WILLOW))
    stances = ",".join(f"Stance {i:03} " + "s" * 60 for i in range(1000))
    with pytest.raises(InvalidInput, match="at most 65,536 bytes"):
        await service.edit(GUILD, ALICE, "character", "Willow", "stances", stances)
    stored = (await service.show(GUILD, ALICE, "character", "Willow")).sheet.model
    assert isinstance(stored, UttasSheet) and stored.stances == ("Steady", "Mobile")


async def test_sheet_limit_per_member(store: Store) -> None:
    service = SheetService(store, characters_per_member=3, npcs_per_server=2)
    for index in range(3):
        await service.import_file(GUILD, ALICE, "character", dump({"name": f"C{index}"}))
    with pytest.raises(Conflict, match="3 characters in this server, the limit"):
        await service.import_file(GUILD, ALICE, "character", dump({"name": "C4"}))
    # Replacing an existing sheet is not a new one; other members and servers have their own.
    await service.import_file(GUILD, ALICE, "character", dump({"name": "c0"}), replace=True)
    await service.import_file(GUILD, BOB, "character", dump({"name": "C4"}))
    await service.import_file(GUILD + 1, ALICE, "character", dump({"name": "C4"}))
    assert len(await names(service)) == 3

    for index in range(2):
        await service.import_file(GUILD, GM, "npc", dump({"name": f"N{index}"}))
    with pytest.raises(Conflict, match="2 NPC templates, the limit"):
        await service.import_file(
            GUILD, Actor(user_id=9, manages_channel=True), "npc", dump({"name": "N9"})
        )


async def test_default_limits(store: Store) -> None:
    service = SheetService(store)
    assert (service.characters_per_member, service.npcs_per_server) == (25, 200)
    racers = [
        service.import_file(GUILD, ALICE, "character", dump({"name": f"C{index}"}))
        for index in range(30)
    ]
    results = await asyncio.gather(*racers, return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 25
    assert all(isinstance(r, Conflict) for r in results if isinstance(r, Exception))


# --- permissions ------------------------------------------------------------------------------


async def test_a_player_cannot_see_or_change_another_members_sheet(service: SheetService) -> None:
    sheet = (await service.import_file(GUILD, ALICE, "character", dump(WILLOW))).sheet
    public = await service.show(GUILD, BOB, "character", "Willow", owner_id=ALICE.user_id)
    assert not public.full
    assert (await service.show(GUILD, GM, "character", "Willow", owner_id=ALICE.user_id)).full
    for attempt in (
        service.export(GUILD, BOB, "character", "Willow"),
        service.edit(GUILD, BOB, "character", "Willow", "agility", "20"),
    ):
        with pytest.raises(NotFound):  # Bob has no sheet of that name: his own namespace
            await attempt
    with pytest.raises(NotAllowed, match="only they can change it"):
        await service.delete(GUILD, BOB, sheet.id)
    with pytest.raises(NotAllowed, match="Only a GM"):
        await service.list_sheets(GUILD, BOB, "character", member_id=ALICE.user_id)
    listed = await service.list_sheets(GUILD, GM, "character", ALICE.user_id)
    assert [r.name for r in listed] == ["Willow"]
    assert await service.name_choices(GUILD, BOB, "character", "") == []
    assert await service.field_choices(GUILD, BOB, "character", "Willow", "") == []
    assert (await service.show(GUILD, ALICE, "character", "Willow")).sheet.model == sheet.model


async def test_npc_templates_are_for_gms_only(service: SheetService) -> None:
    thug = (await service.import_file(GUILD, GM, "npc", dump({"name": "Thug"}))).sheet
    for attempt in (
        service.import_file(GUILD, ALICE, "npc", dump({"name": "Bandit"})),
        service.create(GUILD, ALICE, "npc", "uttas", {"name": "Bandit"}),
        service.show(GUILD, ALICE, "npc", "Thug"),
        service.export(GUILD, ALICE, "npc", "Thug"),
        service.list_sheets(GUILD, ALICE, "npc"),
        service.delete(GUILD, ALICE, thug.id),
    ):
        with pytest.raises(NotAllowed, match="Only a GM"):
            await attempt
    assert await service.name_choices(GUILD, ALICE, "npc", "") == []
    assert await service.name_choices(GUILD, GM, "npc", "th") == ["Thug"]
    # Any GM of the server manages every template, not only its author.
    other_gm = Actor(user_id=4, manages_channel=True)
    assert (await service.show(GUILD, other_gm, "npc", "thug")).full
    await service.delete(GUILD, other_gm, thug.id)
    assert await service.list_sheets(GUILD, GM, "npc") == []


async def test_delete_checks_the_server_and_existence(service: SheetService) -> None:
    sheet = (await service.import_file(GUILD, ALICE, "character", dump(WILLOW))).sheet
    with pytest.raises(NotFound):
        await service.delete(GUILD + 1, ALICE, sheet.id)
    assert (await service.delete(GUILD, ALICE, sheet.id)).name == "Willow"
    with pytest.raises(NotFound):
        await service.delete(GUILD, ALICE, sheet.id)


# --- autocomplete -----------------------------------------------------------------------------


async def test_name_choices_at_most_25_and_only_yours(service: SheetService) -> None:
    for index in range(25):
        await service.import_file(GUILD, ALICE, "character", dump({"name": f"Hero {index:02}"}))
    await service.import_file(GUILD, BOB, "character", dump({"name": "Hero of Bob"}))
    choices = await service.name_choices(GUILD, ALICE, "character", "")
    assert len(choices) == 25 and "Hero of Bob" not in choices
    assert await service.name_choices(GUILD, ALICE, "character", "o 07") == ["Hero 07"]
    assert await service.name_choices(GUILD, BOB, "character", "hero") == ["Hero of Bob"]
    assert await service.name_choices(GUILD, ALICE, "character", "", ruleset="utopia") == []


async def test_field_choices(service: SheetService) -> None:
    await service.import_file(GUILD, ALICE, "character", dump(WILLOW))
    every = await service.field_choices(GUILD, ALICE, "character", "Willow", "")
    assert len(every) == 25
    assert all(len(label) <= 100 and len(path) <= 100 for label, path in every)
    club = await service.field_choices(GUILD, ALICE, "character", "Willow", "club.damage_d")
    assert club == [("weapons.Club.damage_dice = 1", "weapons.Club.damage_dice")]
    agility = await service.field_choices(GUILD, ALICE, "character", "Willow", "agil")
    assert agility[0] == ("agility = 12", "agility")


# --- edit -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "check"),
    [
        ("agility", "15", lambda s: s.agility == 15),
        ("Speed", "5", lambda s: s.speed == 5),
        ("movement.fly", "20", lambda s: s.movement.fly == 20),
        ("armor.fire", "4", lambda s: s.armor == {"fire": 4}),
        ("characteristic_dice.strength", "3", lambda s: s.characteristic_dice == {"strength": 3}),
        ("stances", "Steady, Bracing", lambda s: s.stances == ("Steady", "Bracing")),
        ("stances", "-", lambda s: s.stances == ()),
        ("weapons.club.damage_dice", "3", lambda s: s.weapons[0].damage_dice == 3),
        ("weapons.Club", "-", lambda s: s.weapons == ()),
        (
            "weapons.Bow",
            '{"kind": "mechanical", "damage_dice": 2, "range_m": 50}',
            lambda s: (
                s.weapons[1] == Weapon(name="Bow", kind="mechanical", damage_dice=2, range_m=50)
            ),
        ),
        ("powers.Blast.targets", "discipline", lambda s: s.powers[0].targets == "discipline"),
        ("powers.Blast.maintained", "yes", lambda s: s.powers[0].maintained),
        ("skills.First Aid", "3", lambda s: s.skills == {"First Aid": 3}),
        ("name", "Willow the Wise", lambda s: s.name == "Willow the Wise"),
    ],
)
async def test_edit_one_field(service: SheetService, path: str, value: str, check: Any) -> None:
    await service.import_file(GUILD, ALICE, "character", dump(WILLOW))
    edited = await service.edit(GUILD, ALICE, "character", "Willow", path, value)
    assert check(edited.model)
    stored = await service.show(GUILD, ALICE, "character", edited.name)
    assert stored.sheet.model == edited.model


@pytest.mark.parametrize(
    ("path", "value", "error", "message"),
    [
        ("agility", "500", InvalidInput, '`agility` = `"500"`: input should be less than or'),
        ("agility", "lots", InvalidInput, '`agility` = `"lots"`: should be a whole number'),
        ("colour", "green", InvalidInput, "`colour` is not a field of the sheet; the fields are"),
        ("movement.teleport", "5", InvalidInput, "not a field of movement"),
        ("weapons.Club.kind", "laser", InvalidInput, "`weapons[Club].kind`"),
        ("weapons.Axe.damage_dice", "2", NotFound, "no `Axe` in `weapons`"),
        ("weapons.Axe", "-", NotFound, "no `Axe` in `weapons`"),
        ("weapons.Axe", "[1]", InvalidInput, "takes a JSON object"),
        ("armor.fire", "-", NotFound, "no entry `fire`"),
        ("movement", "{", InvalidInput, "not valid JSON"),
        ("agility.x", "1", InvalidInput, "has no parts"),
        ("name", "W" * 81, InvalidInput, "at most 80"),
        # UTTAS "Accuracy Checks": a power that deals damage needs an Accuracy roll
        ("powers.Blast.targets", "none", InvalidInput, "needs an Accuracy roll"),
    ],
)
async def test_bad_edits_change_nothing(
    service: SheetService, path: str, value: str, error: type[Exception], message: str
) -> None:
    before = (await service.import_file(GUILD, ALICE, "character", dump(WILLOW))).sheet
    with pytest.raises(error, match=message.replace("[", "\\[").replace("(", "\\(")):
        await service.edit(GUILD, ALICE, "character", "Willow", path, value)
    after = (await service.show(GUILD, ALICE, "character", "Willow")).sheet
    assert after.model == before.model and after.row.updated_at == before.row.updated_at


async def test_rename_onto_another_sheet_is_refused(service: SheetService) -> None:
    await service.import_file(GUILD, ALICE, "character", dump(WILLOW))
    await service.import_file(GUILD, ALICE, "character", dump({"name": "Bear"}))
    with pytest.raises(Conflict, match="already have a character called \\*\\*bear"):
        await service.edit(GUILD, ALICE, "character", "Willow", "name", "bear")


# --- export → import is lossless ------------------------------------------------------------

NAME_ALPHABET = st.characters(
    min_codepoint=32, max_codepoint=0x2FFF, exclude_categories=("Cc", "Cs", "Zl", "Zp")
)


def _storable(text: str) -> bool:
    try:
        name_rules.clean(text)
    except name_rules.InvalidName:
        return False
    return True


# Any text that is a valid name, in its normal form (what a sheet holds after validation).
names_st = st.text(NAME_ALPHABET, min_size=1, max_size=80).filter(_storable).map(name_rules.clean)
damage_types = (
    st.text("abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=30).map(str.strip).filter(bool)
)
small = st.integers(0, 100)
bonus = st.integers(-50, 50)
meters = st.floats(0, 10_000, allow_nan=False, allow_infinity=False)
characteristic = st.sampled_from(CHARACTERISTICS)


def weapons(name: str) -> st.SearchStrategy[Weapon]:
    return st.builds(
        Weapon,
        name=st.just(name),
        kind=st.sampled_from(["melee", "thrown", "mechanical"]),
        damage_dice=small,
        damage_type=damage_types,
        required_strength=small,
        range_m=meters,
        hands=st.integers(0, 4),
        max_hits=st.integers(1, 10),
        light=st.booleans(),
    )


def powers(name: str) -> st.SearchStrategy[Power]:
    """Valid powers: one with no Accuracy roll (``targets`` None) deals no damage, inflicts
    nothing and drains nothing (UTTAS "Accuracy Checks")."""
    return st.sampled_from(["dodge", "discipline", None]).flatmap(
        lambda targets: st.builds(
            Power,
            name=st.just(name),
            active_points=st.integers(0, 1000),
            key_characteristic=characteristic,
            targets=st.just(targets),
            damage_type=damage_types,
            damage_dice=small if targets else st.just(0),
            maintained=st.booleans(),
            range_m=meters,
            movement_mode=st.sampled_from([None, "run", "leap", "swim", "fly", "warp"]),
            triggered=st.booleans(),
            limitations=st.lists(st.sampled_from(["gestures", "incantation"]), max_size=2).map(
                tuple
            ),
            inflicts=st.lists(names_st, max_size=3).map(tuple) if targets else st.just(()),
            max_hits=st.integers(1, 10),
            effect=st.sampled_from([None, "drain"] if targets else [None, "aid", "barrier"]),
            characteristic=characteristic,
        )
    )


def martial_arts(name: str) -> st.SearchStrategy[MartialArt]:
    return st.builds(
        MartialArt,
        name=st.just(name),
        maneuver=st.sampled_from(["attack", "block", "evade", "move", "counter"]),
        key_characteristic=characteristic,
        bonus_dice=small,
        dodge_bonus=bonus,
        armor_bonus=bonus,
        defense_bonus=bonus,
        grab=st.booleans(),
        triggered=st.booleans(),
    )


@st.composite
def uttas_sheets(draw: st.DrawFn) -> UttasSheet:
    item_names = draw(st.lists(names_st, max_size=8, unique_by=name_rules.key))
    items: list[Any] = []
    for name in item_names:
        make = draw(st.sampled_from([weapons, powers, martial_arts]))
        items.append(draw(make(name)))
    return UttasSheet(
        name=draw(names_st),
        **{c: draw(small) for c in CHARACTERISTICS},
        characteristic_dice=draw(st.dictionaries(characteristic, small, max_size=3)),
        speed=draw(st.integers(1, 20)),
        health=draw(st.integers(1, 10_000)),
        stamina=draw(st.integers(1, 10_000)),
        dodge_bonus=draw(bonus),
        discipline_bonus=draw(bonus),
        armor=draw(st.dictionaries(damage_types, small, max_size=3)),
        defense=draw(st.dictionaries(damage_types, st.integers(0, 1000), max_size=3)),
        movement=draw(
            st.builds(Movement, run=meters, leap=meters, swim=meters, fly=meters, warp=meters)
        ),
        stances=tuple(draw(st.lists(names_st, max_size=4))),
        weapons=tuple(i for i in items if isinstance(i, Weapon)),
        powers=tuple(i for i in items if isinstance(i, Power)),
        martial_arts=tuple(i for i in items if isinstance(i, MartialArt)),
        skills=draw(st.dictionaries(names_st, small, max_size=4)),
    )


@given(uttas_sheets())
@settings(max_examples=200, deadline=None)
def test_export_bytes_parse_back_to_the_same_sheet(sheet: UttasSheet) -> None:
    content = export_bytes(sheet)
    assert len(content) <= FILE_MAX_BYTES
    assert UttasSheet.model_validate(parse_json(content)) == sheet


async def _round_trip(sheet: UttasSheet, folder: str) -> None:
    db = await Database.open(Path(folder) / "bot.sqlite3")
    try:
        await db.migrate()
        service = SheetService(db)
        first = await service.import_file(GUILD, ALICE, "character", export_bytes(sheet))
        assert first.sheet.model == sheet
        _filename, exported = await service.export(GUILD, ALICE, "character", sheet.name)
        assert exported == export_bytes(sheet)
        again = await service.import_file(GUILD, BOB, "character", exported)
        assert again.sheet.model == sheet
        assert (await service.export(GUILD, BOB, "character", sheet.name))[1] == exported
    finally:
        await db.close()


@given(uttas_sheets())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_export_then_import_through_the_service_is_lossless(sheet: UttasSheet) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_round_trip(sheet, folder))


# --- sheets in encounters -------------------------------------------------------------------


async def test_simultaneous_npc_batches_never_share_a_number(db: Database, examples: Path) -> None:
    from bot.services.encounters import EncounterService

    service = SheetService(db, examples_dir=examples)  # encounters run on SQLite only so far
    encounters = EncounterService(db, seeds=lambda: 7)
    await encounters.start(guild_id=GUILD, channel_id=5, actor=GM, ruleset="uttas", name=None)
    thug = (await service.import_file(GUILD, GM, "npc", dump({"name": "Thug"}))).sheet
    batches = await asyncio.gather(
        *(
            encounters.add_npcs(5, GM, template=thug.name, sheet=thug.model, count=3)
            for _ in range(4)
        )
    )
    added = sorted((name for _, names in batches for name in names), key=lambda n: int(n[5:]))
    assert added == [f"Thug {n}" for n in range(1, 13)]
    with pytest.raises(NotAllowed, match="Only the GM can add NPCs"):
        await encounters.add_npcs(5, BOB, template="Thug", sheet=thug.model, count=1)
    with pytest.raises(InvalidInput, match="between 1 and 25"):
        await encounters.add_npcs(5, GM, template="Thug", sheet=thug.model, count=26)
    live = await encounters.live(5)
    assert len(live.state.combatants) == 12
    assert [entry.command for entry in await encounters.log(live.id)] == ["start"] + [
        "add_npcs"
    ] * 4
