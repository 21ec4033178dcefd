"""Untitled's GM-changeable tables (issue 13, slice 1): the skill ladder, the armor dice by level
and weight class, untrained rolls, the critical rule and the round, as
``data/untitled/tables.json`` ships them, and the refusals of a bad change or of dice the
Storyteller has not set yet.

Untitled is planned, not registered: these tests drive the tables directly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine.untitled.tables import default_tables, load_tables
from bot.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[2]
TABLES = default_tables()


@pytest.mark.parametrize(
    ("levels", "tier", "dice"),
    [
        ((1, 4), "novice", "2d6"),
        ((5, 10), "journeyman", "2d8"),
        ((11, 15), "expert", "2d10"),
        ((16, 18), "master", "2d12"),
        ((19, 20), "grandmaster", "3d10"),
    ],
)
def test_the_skill_ladder_is_the_texts(levels: tuple[int, int], tier: str, dice: str) -> None:
    """ "Skill Level 1-4 5-10 11-15 16-18 19-20 21+ / Novice Journeyman Expert Master
    Grandmaster Legendary / 2d6 2d8 2d10 2d12 3d10 Storyteller"."""
    low, high = levels
    for level in range(low, high + 1):
        assert TABLES.tier(level) == tier
        assert TABLES.skill_dice(level) == dice
    assert TABLES.tier(high + 1) != tier  # the next rung starts above


def test_legendary_is_the_storytellers_to_set_and_refused_until_then() -> None:
    """ "21+ Legendary ... Storyteller": null by default, refused clearly, set by a table
    change."""
    for level in (21, 25, 30):
        assert TABLES.tier(level) == "legendary"
    with pytest.raises(InvalidInput, match=r"Legendary: its dice are the Storyteller's to set"):
        TABLES.skill_dice(21)
    legendary = load_tables(overrides=TABLES.with_legendary("3d12"))
    assert legendary.skill_dice(30) == "3d12"
    assert legendary.skill_dice(20) == "3d10"
    with pytest.raises(InvalidInput, match="1 to 30"):
        TABLES.tier(31)
    with pytest.raises(InvalidInput, match="1 to 30"):
        TABLES.rung(0)


@pytest.mark.parametrize(
    ("level", "light", "medium", "heavy"),
    [(1, "1d4", "1d6", "1d8"), (4, "1d4", "1d6", "1d8"), (5, "2d4", "2d6", "2d8"),
     (11, "3d4", "3d6", "3d8"), (18, "4d4", "4d6", "4d8")],
)  # fmt: skip
def test_armor_dice_by_level_and_weight_class(
    level: int, light: str, medium: str, heavy: str
) -> None:
    """Issue 13: "levels 1–4: Light 1d4 / Medium 1d6 / Heavy 1d8; 5–10: 2d4 / 2d6 / 2d8;
    11–15: 3d4 / 3d6 / 3d8; 16–18: 4d4 / 4d6 / 4d8"."""
    assert TABLES.armor_dice(level, "light") == light
    assert TABLES.armor_dice(level, "medium") == medium
    assert TABLES.armor_dice(level, "heavy") == heavy


def test_armor_above_18_is_the_storytellers_call() -> None:
    """Issue 13: "above 18: the Storyteller's call" — null by default, refused until set."""
    with pytest.raises(InvalidInput, match=r"levels 19\+ are the Storyteller's call"):
        TABLES.armor_dice(19, "heavy")
    rows = [r.model_dump() for r in TABLES.armor]
    rows[-1]["heavy"] = "5d8"
    changed = load_tables(overrides={"armor": rows})
    assert changed.armor_dice(25, "heavy") == "5d8"
    with pytest.raises(InvalidInput, match="Light armor at level 25"):
        changed.armor_dice(25, "light")


def test_untrained_critical_and_round_defaults() -> None:
    """Issue 13: "an untrained roll is 1d6 with no bonus"; a critical at double the defense,
    one tier higher; the text: "six (6) seconds", "two movement actions and a standard
    action"; "A tie will go to the defender"."""
    assert TABLES.untrained.dice == "1d6"
    assert TABLES.untrained.bonus is False
    assert TABLES.untrained_armor is None
    assert (TABLES.critical.multiplier, TABLES.critical.tiers_up) == (2, 1)
    assert TABLES.critical.extra_dice_at_top == 1
    assert (TABLES.round.seconds, TABLES.round.move, TABLES.round.standard) == (6, 2, 1)
    assert TABLES.defense.tie == "defender"


def test_bad_table_changes_are_refused_naming_the_field() -> None:
    with pytest.raises(InvalidInput, match=r"Untitled table value at `untrained\.dice`"):
        load_tables(overrides={"untrained": {"dice": "1d6-1"}})
    with pytest.raises(InvalidInput, match=r"untrained\.bonus"):
        load_tables(overrides={"untrained": {"bonus": True}})
    with pytest.raises(InvalidInput, match=r"critical\.multiplier"):
        load_tables(overrides={"critical": {"multiplier": 0}})
    shipped = json.loads((ROOT / "data" / "untitled" / "tables.json").read_text("utf-8"))
    gap = json.loads(json.dumps(shipped))
    gap["ladder"][1]["low"] = 6
    with pytest.raises(InvalidInput, match="ladder row 2 starts at level 6, not 5"):
        load_tables(gap)
    closed = json.loads(json.dumps(shipped))
    closed["ladder"][-1]["high"] = 25
    with pytest.raises(InvalidInput, match="open-ended"):
        load_tables(closed)
    swapped = json.loads(json.dumps(shipped))
    swapped["ladder"][0]["tier"], swapped["ladder"][1]["tier"] = "journeyman", "novice"
    with pytest.raises(InvalidInput, match="in that order"):
        load_tables(swapped)
    armor = json.loads(json.dumps(shipped))
    armor["armor"][2]["low"] = 12
    with pytest.raises(InvalidInput, match="armor row 3 starts at level 12, not 11"):
        load_tables(armor)
