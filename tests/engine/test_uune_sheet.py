"""The Uune sheet, NPC statblock and tables (issue 14, slice 1), against the Uune SRD
(``uune-srd.txt``; section names are its headings).

These tests drive the models directly; the example sheets in ``data/sheets/uune/`` must be
valid, and are offered by ``/character import example:`` now Uune is registered.
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
from bot.engine.core.effects import LEVEL_MAX
from bot.engine.uune.form import lists_from_form
from bot.engine.uune.ruleset import UuneRuleset
from bot.engine.uune.sheet import (
    CONTEXT_TABLES,
    Proficiency,
    UuneSheet,
    UuneStatblock,
    level_problems,
)
from bot.engine.uune.state import UuneCombatant, UuneRecord
from bot.engine.uune.tables import Focus, default_tables, load_tables
from bot.errors import InvalidInput
from bot.services.sheet_examples import ExampleSheets
from tests.contract.harness_uune import MIRA

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "sheets" / "uune"
TABLES = default_tables()

LEVEL_1: dict[str, Any] = {
    "name": "Mira",
    "shticks": [{"name": "Quickblade", "level": 2}],
    "bonds": [
        {"kind": "motivation", "text": "Repay the guild."},
        {"kind": "objection", "text": "Never betray a friend."},
    ],
    "experiences": [{"name": "River guild runner"}, {"name": "Street fencing"}],
    "items": [{"name": "Short blade"}],
}


def sheet(**fields: Any) -> UuneSheet:
    return UuneSheet.model_validate({**LEVEL_1, **fields})


def refused(match: str, **fields: Any) -> None:
    with pytest.raises(ValidationError, match=match):
        sheet(**fields)


# --- the sheet ----------------------------------------------------------------------------


def test_a_level_1_sheet_has_100_vitality_no_focus_and_money_apart_from_items() -> None:
    s = sheet(money=40)
    assert (s.system, s.kind, s.level, s.vitality, s.focus) == ("uune", "character", 1, 100, 0)
    assert s.money == 40 and [i.name for i in s.items] == ["Short blade"]
    assert s.resources() == ["Quickblade", "River guild runner", "Street fencing", "Short blade"]


def test_level_1_needs_two_shtick_points_two_bonds_two_experiences_no_proficiency() -> None:
    """ "Level 1": "Choose where to put your shtick points, then write two bonds and two
    experiences"; the leveling table's level-1 row (2 shtick points, 2 experiences, 2 bonds,
    no proficiency points in the bot's reading)."""
    refused(r"shtick points spent: 1 \(at level 1: exactly 2\)", shticks=[{"name": "Quickblade"}])
    refused(r"bonds: 1 \(at level 1: exactly 2\)", bonds=LEVEL_1["bonds"][:1])
    refused(r"experiences: 1 \(at level 1: at least 2\)", experiences=LEVEL_1["experiences"][:1])
    refused(
        r"proficiency points: 1 \(at level 1: exactly 0\)",
        proficiency=[{"on": "Short blade", "points": 1}],
    )
    # the facilitator may give more experiences ("Experiences")
    assert len(sheet(experiences=[*LEVEL_1["experiences"], {"name": "Sailor"}]).experiences) == 3


def test_a_higher_level_has_the_leveling_rows_totals_as_limits() -> None:
    s = sheet(level=4, proficiency=[{"on": "Short blade", "points": 2}])
    assert s.resource_dice("short blade") == 3
    with pytest.raises(ValidationError, match=r"proficiency points: 3 \(at level 4: at most 2\)"):
        sheet(level=4, proficiency=[{"on": "Short blade", "points": 3}])
    with pytest.raises(ValidationError, match=r"shtick points spent: 4 \(at level 4: at most 3\)"):
        sheet(level=4, shticks=[{"name": "Quickblade", "level": 4}])
    with pytest.raises(ValidationError, match=r"level is 25 \(the leveling table runs 1–24\)"):
        sheet(level=25)


def test_at_most_three_shticks_and_ten_items_of_inventory() -> None:
    """ "Shticks": "a maximum of 3 shticks"; "Items and Inventory": "up to 10 items"."""
    four = [{"name": f"S{i}"} for i in range(4)]
    with pytest.raises(ValidationError, match=r"shticks: 4 \(at most 3\)"):
        sheet(level=9, shticks=four)
    refused(
        r"items take 11 inventory space \(at most 10\)",
        items=[{"name": f"I{i}"} for i in range(11)],
    )
    ten = [{"name": f"I{i}"} for i in range(10)]
    assert len(sheet(items=ten).items) == 10


def test_special_items_carry_their_rules_in_words_and_only_they_differ() -> None:
    """ "What are Special Items?": they may not act as a resource or take differing space."""
    token = {"name": "Guild token", "special": "Opens guild doors.", "resource": False, "space": 0}
    s = sheet(items=[token, {"name": "Pack", "special": "Holds two items.", "space": 2}])
    assert s.resources()[-1] == "Pack" and s.inventory_space() == 2
    refused(r"only a special item", items=[{"name": "Rock", "space": 3}])
    refused(r"'special' says the item's rules", items=[{"name": "Rock", "special": " "}])


def test_proficiency_goes_on_an_existing_resource_or_focus_never_the_base_die() -> None:
    """ "Proficiency Points": "place it onto any existing resource"; "You may not put
    proficiency points into your base action die". "Focus": +1 maximum per point in focus."""
    with pytest.raises(ValidationError, match=r"proficiency on the base action die"):
        sheet(level=2, proficiency=[{"on": "action"}])
    with pytest.raises(ValidationError, match=r"proficiency on 'Boat': not a shtick"):
        sheet(level=2, proficiency=[{"on": "Boat"}])
    s = sheet(level=2, proficiency=[{"on": "focus"}], focus=3)
    assert s.focus_max(TABLES) == 3 and s.focus_max(TABLES, stimulated=1) == 4
    refused(r"focus is 3 \(at most 2\)", focus=3)


def test_money_at_level_1_is_at_most_five_d6_times_the_income() -> None:
    """ "Level 1": "roll 5d6 and multiply by one of the choices" (Poor: 5 times)."""
    assert sheet(income="poor", money=150).money == 150
    refused(r"money is 151 \(a poor start gives at most 150: 5d6 × 5\)", income="poor", money=151)


def test_names_are_normalised_and_unique_across_resources() -> None:
    refused(r"must be unique", items=[{"name": "street  FENCING"}])
    assert sheet(name="  Mira\u200b ").name == "Mira"


def test_a_stored_sheet_is_not_refused_for_the_level_rules() -> None:
    raw = json.dumps({**LEVEL_1, "bonds": []})
    assert UuneSheet.model_validate_json(raw, context=names.STORED).bonds == ()
    with pytest.raises(ValidationError):
        UuneSheet.model_validate_json(raw)


def test_the_level_rules_read_a_servers_tables_from_the_context() -> None:
    three = load_tables(overrides={"shticks": {"max": 1}})
    data = {**LEVEL_1, "shticks": [{"name": "A"}, {"name": "B"}]}
    assert UuneSheet.model_validate(data).shtick_points() == 2
    with pytest.raises(ValidationError, match=r"shticks: 2 \(at most 1\)"):
        UuneSheet.model_validate(data, context={CONTEXT_TABLES: three})
    assert level_problems(sheet(), TABLES) == []


# --- the NPC statblock --------------------------------------------------------------------


def test_a_statblock_has_wellbeing_scores_attacks_and_roleplay() -> None:
    """ "NPCs and Statblocks": vitality, wounds, stress, Social / Perceptiveness /
    Defensiveness, attacks (difficulty, melee or ranged, specials), an incentive and an
    objection at least."""
    npc = UuneStatblock.model_validate(
        {
            "name": "Thug",
            "vitality": 60,
            "vitality_now": 40,
            "wounds": {"heavy": 1},
            "defensiveness": 3,
            "attacks": [{"name": "Cudgel", "difficulty": 3, "specials": ["Stuns."]}],
            "incentives": ["Coin."],
            "objections": ["Mockery."],
        }
    )
    assert (npc.kind, npc.wounds.heavy, npc.attack("cudgel").reach) == ("npc", 1, "melee")  # type: ignore[union-attr]
    base = {"name": "T", "incentives": ["a"], "objections": ["b"]}
    for bad, match in (
        ({"incentives": []}, "incentives"),
        ({"objections": []}, "objections"),
        ({"defensiveness": 11}, "defensiveness"),
        ({"vitality": 50, "vitality_now": 60}, r"vitality_now is 60; at most vitality \(50\)"),
        ({"attacks": [{"name": "Bite", "difficulty": 2, "reach": "thrown"}]}, "reach"),
    ):
        with pytest.raises(ValidationError, match=match):
            UuneStatblock.model_validate({**base, **bad})


# --- the tables ---------------------------------------------------------------------------


def test_the_difficulty_ladder_runs_no_roll_0_to_impossible_10() -> None:
    """ "Actions": the Difficulty / Description / Required Hits guide."""
    assert [r.name for r in TABLES.difficulty][:3] == ["No Roll", "Very Easy", "Easy"]
    assert TABLES.rung(10).name == "Impossible" and TABLES.rung("medium").hits == 3
    with pytest.raises(InvalidInput, match=r"from 0 \(No Roll\) to 10 \(Impossible\)"):
        TABLES.rung(11)


def test_the_leveling_reading_reflattens_to_the_srds_text() -> None:
    """ "Leveling": the SRD's table arrives flattened. The bot reads each row as the totals at
    that level, with a cell left blank where the total does not change; writing the tables
    back that way gives the SRD's token sequence exactly."""
    srd = (
        "1 2 2 2 2 1 3 3 4 2 5 4 6 3 7 5 8 4 9 6 3 3 10 5 11 7 12 6 13 8 14 7 15 9 16 8 17 10 "
        "4 4 18 9 19 11 20 10 21 12 22 11 23 13 24 14 5 12 5"
    )
    tokens: list[int] = []
    before = (0, 0, 0, 0)
    for row in TABLES.leveling:
        cells = (row.shtick_points, row.experiences, row.proficiency_points, row.bonds)
        tokens += [row.level, *(c for c, b in zip(cells, before, strict=True) if c != b)]
        before = cells
    assert " ".join(map(str, tokens)) == srd
    assert TABLES.level(1).proficiency_points == 0 and TABLES.level(24).shtick_points == 14


def test_the_numbers_the_srd_gives_are_the_defaults() -> None:
    t = TABLES
    assert (t.dice.sides, t.dice.hit_on, t.passive.divisor) == (6, 5, 3)
    assert (t.focus.max, t.focus.per_proficiency_point, t.focus.reroll_dice) == (2, 1, 2)
    assert (t.vitality.default, t.vitality.reroll_cost, t.vitality.bump_cost) == (100, 5, 10)
    assert t.npc_forced_reroll.vitality == 10  # the bot's default: the SRD gives no cost
    assert {k: (h.max, h.current) for k, h in t.wounds.items()} == {
        "lethal": (100, 0),
        "heavy": (50, 0),
        "light": (10, 10),
    }
    assert {k: (h.max, h.current) for k, h in t.stress.items()} == {
        "traumatic": (100, 100),
        "heavy": (50, 50),
        "light": (10, 10),
    }
    assert t.downtime.living == {"luxurious": 2, "comfortable": 3, "sparse": 4, "dire": 5}
    assert (t.downtime.restore, t.bleeding.vitality, t.impaired.extra_hits) == (50, 10, 1)
    assert t.stealth.levels == {"observed": 0, "hidden": 1, "undetected": 2}
    assert t.stealth.crowd == {"one": 0, "few": 1, "group": 2, "crowd": 3}
    assert t.creation.income["rich"] == 50 and t.price(1, 1) == 1 and t.price(4, 6) == 10_000


def test_a_gm_overrides_part_of_the_tables_and_bad_values_are_named() -> None:
    t = load_tables(overrides={"npc_forced_reroll": {"vitality": 15}})
    assert t.npc_forced_reroll.vitality == 15 and t.vitality.bump_cost == 10
    with pytest.raises(InvalidInput, match=r"Invalid Uune table value at `dice`"):
        load_tables(overrides={"dice": {"hit_on": 7}})
    # A hit on 1 or more is every die: a roll with nothing left to chance, which the action
    # roll's pool cannot count (found by tests/services/test_tables_fuzz.py).
    with pytest.raises(
        InvalidInput, match=r"`dice.hit_on`: Input should be greater than or equal to 2"
    ):
        load_tables(overrides={"dice": {"hit_on": 1}})
    shipped = json.loads((ROOT / "data" / "uune" / "tables.json").read_text("utf-8"))
    del shipped["wounds"]["heavy"]
    with pytest.raises(InvalidInput, match="wounds lacks heavy"):
        load_tables(shipped)


# --- examples and the registry ------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_example_sheets_are_valid(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    model = UuneStatblock if data.get("kind") == "npc" else UuneSheet
    assert model.model_validate(data).system == "uune"


def test_there_are_two_level_1_characters_and_two_npc_statblocks() -> None:
    kinds = sorted(json.loads(p.read_text("utf-8"))["kind"] for p in EXAMPLES.glob("*.json"))
    assert kinds == ["character", "character", "npc", "npc"]
    for path in EXAMPLES.glob("*.json"):
        data = json.loads(path.read_text("utf-8"))
        if data["kind"] == "character":
            assert UuneSheet.model_validate(data).level == 1


def test_uune_is_registered_and_its_examples_are_offered() -> None:
    assert isinstance(get_ruleset("uune"), UuneRuleset) and "uune" in REGISTRY.implemented

    class Shipped(ExampleSheets):
        _examples_dir = ROOT / "data" / "sheets"

    listed = {e.key for e in Shipped().examples() if e.ruleset == "uune"}
    assert listed == {"mira", "tobin", "dock-thug", "river-witch"}


def test_the_create_forms_texts_become_the_sheets_lists() -> None:
    """``/character create ruleset:uune``: a form box is one line, so lists are written with
    ``;`` (items with ``,`` too); the sheet model then checks them (the level rules too)."""
    data = lists_from_form(
        {
            "name": "Sable",
            "shticks": "Quickblade 2",
            "bonds": "Motivation: find her brother ; flaw: pride",
            "experiences": "Lamplighter: every alley at night; Pickpocket",
            "items": "Hooked knife; Lantern, Rope",
        }
    )
    sheet = UuneSheet.model_validate(data)
    assert [(s.name, s.level) for s in sheet.shticks] == [("Quickblade", 2)]
    assert [(b.kind, b.text) for b in sheet.bonds] == [
        ("motivation", "find her brother"),
        ("flaw", "pride"),
    ]
    assert [(e.name, e.description) for e in sheet.experiences] == [
        ("Lamplighter", "every alley at night"),
        ("Pickpocket", ""),
    ]
    assert [i.name for i in sheet.items] == ["Hooked knife", "Lantern", "Rope"]
    no_kind = lists_from_form({"bonds": "find her brother"})
    assert no_kind["bonds"] == [{"kind": "", "text": "find her brother"}]  # refused by the model
    assert lists_from_form({"items": [{"name": "Rope"}]}) == {"items": [{"name": "Rope"}]}


@given(
    table=st.tuples(*(st.integers(0, 20) for _ in range(3))),
    points=st.integers(0, 100),
    stimulated=st.integers(0, LEVEL_MAX),
)
def test_the_focus_maximum_is_never_more_than_a_combatant_or_a_record_holds(
    table: tuple[int, int, int], points: int, stimulated: int
) -> None:
    """Guard (attack 18): a server's tables (`focus.stimulated` up to 20) and the GM's
    Stimulated, or a sheet's proficiency points on focus, gave a maximum focus past the 100
    a combatant's and a campaign record's models hold; Center filled it, and the fight's
    state and the record could not be read back (`/encounter end` failed). Whatever the
    tables, the sheet and the levels, the maximum is within what every model holds."""
    most, per_point, per_level = table
    tables = default_tables().model_copy(
        update={"focus": Focus(max=most, per_proficiency_point=per_point, stimulated=per_level)}
    )
    extra = (Proficiency(on="focus", points=points),) if points else ()
    sheet = MIRA.model_copy(update={"proficiency": MIRA.proficiency + extra})
    top = sheet.focus_max(tables, stimulated)
    for model in (UuneSheet, UuneCombatant):
        bound = next(m.le for m in model.model_fields["focus"].metadata if hasattr(m, "le"))
        assert top <= bound, (model.__name__, top)
    assert UuneRecord(focus=top).focus == top  # the record holds it
