"""The pure UTTAS formulas, each against the text (section named in each test)."""

from __future__ import annotations

import pytest

from bot.engine.uttas import rules
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.tables import default_tables, load_tables
from bot.errors import InvalidInput
from tests.engine.helpers import sheet

T = default_tables()


def test_accuracy_is_half_key_plus_dex_and_must_be_strictly_higher() -> None:
    """Accuracy Checks: [Key Characteristic + Dex] / 2 + 3d6, success only if higher."""
    from bot.engine.uttas.state import Combatant

    c = Combatant(
        id="c1", name="A", side="x", sheet=sheet(ego=15, dexterity=12), health=1, stamina=1
    )
    assert rules.accuracy_bonus(c, "ego") == 13  # floor(27 / 2)
    assert rules.hits(21, 20) and not rules.hits(20, 20)


def test_damage_examples_from_the_text() -> None:
    """Damage: Blast 10d6 vs 8 Energy Armor → 2 Health; rolled 35 vs 20 Defense → 15 Stamina."""
    assert rules.health_damage(10, 8) == 2
    assert rules.stamina_damage(35, 20) == 15
    assert rules.health_damage(3, 8) == 0 and rules.stamina_damage(5, 20) == 0


@pytest.mark.parametrize(
    ("meters", "index"),
    [
        (1, 0),
        (10, 0),
        (11, 1),
        (30, 1),
        (31, 2),
        (100, 3),
        (101, 4),
        (360, 7),
        (361, 8),
        (450, 8),
        (451, 9),
        (550, 9),
        (551, 10),
    ],
)
def test_range_increments_and_their_extension(meters: float, index: int) -> None:
    """Range Modifiers: 1-10, 11-30, …, 281-360; the next is 90 m wide (361-450), then 100."""
    assert rules.range_increment(meters, T) == index


def test_increments_beyond_normal_range() -> None:
    """One increment out: a Disadvantage; two: 2d6 off; three: automatic failure."""
    assert rules.increments_beyond(10, 10, T) == 0
    assert rules.increments_beyond(25, 10, T) == 1
    assert rules.increments_beyond(50, 10, T) == 2
    assert rules.increments_beyond(80, 10, T) == 3


def test_a_grid_space_is_two_meters() -> None:
    assert rules.meters_from_spaces(5, T) == 10


def test_odd_speeds_round_down_to_even() -> None:
    assert rules.even_floor(13) == 12 and rules.even_floor(12) == 12 and rules.even_floor(1) == 0


def test_move_stamina() -> None:
    """Stamina Costs, moving: 1 per 10 m (min 1); Jump/Swim 1 per 5 m unless a power boosts
    them (then 1 per 10 m); movement powers cost the higher of their cost or 1 per 10 m."""
    plain = sheet()
    assert rules.move_stamina(6, "run", plain, T) == 1
    assert rules.move_stamina(24, "run", plain, T) == 2
    assert rules.move_stamina(4, "swim", plain, T) == 1
    assert rules.move_stamina(12, "leap", plain, T) == 2
    leap_power = sheet(
        powers=[{"name": "Jumping", "active_points": 5, "targets": None, "movement_mode": "leap"}]
    )
    assert rules.move_stamina(12, "leap", leap_power, T) == 1
    warp = sheet(
        powers=[{"name": "Warp", "active_points": 20, "targets": None, "movement_mode": "warp"}]
    )
    assert rules.move_stamina(8, "warp", warp, T) == 4  # 20 AP → 4 beats 1 per 10 m
    assert rules.move_stamina(60, "warp", warp, T) == 6


def _profile(s: UttasSheet, name: str) -> rules.AttackProfile:
    from bot.engine.uttas.state import Combatant

    c = Combatant(id="c1", name="A", side="x", sheet=s, health=1, stamina=1)
    return rules.attack_profile(c, name, T)


def test_attack_stamina_costs() -> None:
    """Stamina Costs, attacking: melee and thrown 1 per Strength die + 1 per 5 required
    Strength; bows and guns 1 per 5 required Strength; martial-art dice add nothing."""
    s = sheet(
        strength=15,
        weapons=[
            {"name": "Greatsword", "kind": "melee", "damage_dice": 2, "required_strength": 12},
            {"name": "Javelin", "kind": "thrown", "damage_dice": 1, "required_strength": 10},
            {"name": "Longbow", "kind": "mechanical", "damage_dice": 4, "required_strength": 10},
        ],
        martial_arts=[{"name": "Tiger Claw", "maneuver": "attack", "bonus_dice": 3}],
    )
    assert _profile(s, "greatsword").stamina == 3 + 2 and _profile(s, "Greatsword").dice == 5
    assert _profile(s, "Javelin").stamina == 3 + 2
    assert _profile(s, "Longbow").stamina == 2 and _profile(s, "Longbow").dice == 4
    tiger = _profile(s, "Tiger Claw")
    assert tiger.stamina == 3 and tiger.dice == 6
    assert _profile(s, "Strike").stamina == 3  # Basic Maneuver: unarmed


def test_power_stamina_costs() -> None:
    """Activating Powers: 1 per 5 Active Points; maintained powers cost double."""
    s = sheet(
        powers=[
            {"name": "Blast", "active_points": 50, "damage_dice": 10},
            {"name": "Shield", "active_points": 15, "targets": None, "maintained": True},
        ]
    )
    assert _profile(s, "Blast").stamina == 10
    shield = s.power("shield")
    assert shield is not None and rules.power_stamina(shield, T) == 6


def test_characteristic_dice_and_derived_defences_come_from_the_table() -> None:
    from bot.engine.uttas.state import Combatant

    c = Combatant(
        id="c1",
        name="A",
        side="x",
        health=1,
        stamina=1,
        sheet=sheet(
            agility=13,
            dexterity=11,
            ego=8,
            intelligence=15,
            body=14,
            characteristic_dice={"strength": 5},
            dodge_bonus=1,
        ),
    )
    assert rules.dice_of(c, "body", T) == 2 and rules.dice_of(c, "strength", T) == 5
    assert rules.derived_defence(c, "dodge", T) == 10 + 12 + 1
    assert rules.derived_defence(c, "discipline", T) == 10 + 11
    custom = load_tables(overrides={"dodge": {"base": 5}, "characteristic_dice": {"divisor": 3}})
    assert rules.derived_defence(c, "dodge", custom) == 5 + 12 + 1
    assert rules.dice_of(c, "body", custom) == 4


def test_tables_overrides_are_validated() -> None:
    with pytest.raises(InvalidInput, match="range"):
        load_tables(overrides={"range": {"increments_m": [30, 10]}})


def test_half_move_budget_examples() -> None:
    """Moving: Willow (Run 12, Warp 8) reaches 6 m free; 12 m needs an action; 2 m run +
    2 m warp is within a quarter of each."""
    speeds = {"run": 12.0, "warp": 8.0}
    assert rules.check_half_move({"run": 6}, speeds) is None
    assert rules.check_half_move({"run": 12}, speeds) is not None
    assert rules.check_half_move({"run": 2, "warp": 2}, speeds) is None
    assert rules.check_half_move({"run": 4, "warp": 2}, speeds) is not None


def test_a_kept_attack_profile_follows_the_strength_dice_the_sheet_and_the_tables() -> None:
    """Profiles are kept across commands (``rules.attack_profile``): a profile found once is
    never served for another Strength, another sheet or other tables."""
    from bot.engine.uttas.state import Combatant

    club = {"name": "Club", "kind": "melee", "damage_dice": 1, "required_strength": 5}
    s = sheet(strength=15, weapons=[club])
    c = Combatant(id="c1", name="A", side="x", sheet=s, health=1, stamina=1)
    first = rules.attack_profile(c, "Club", T)
    assert rules.attack_profile(c, "Club", T) == first and first.strength_dice == 3
    stronger = c.model_copy(update={"characteristic_mods": {"strength": 10}})
    assert rules.attack_profile(stronger, "Club", T).strength_dice == 5
    other = sheet(strength=15, weapons=[{**club, "damage_dice": 4}])
    assert rules.attack_profile(c.model_copy(update={"sheet": other}), "Club", T).extra_dice == 4
    cheap = T.model_copy(
        update={"stamina": T.stamina.model_copy(update={"strength_per_stamina": 1})}
    )
    assert rules.attack_profile(c, "Club", cheap).stamina == 3 + 5
    assert rules.attack_profile(c, "Club", T) == first
