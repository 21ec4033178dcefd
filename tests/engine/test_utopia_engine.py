"""Utopia's engine (issue 12, slice 2), rule by rule of ``utopia-actions.txt`` with scripted
dice: the economy ("Turn Actions", "Interrupt Actions", "Interchanging Actions", "Hold Action"),
the turn order ("Standard Actions"), attacks ("Attack", "Ranged Weapons", "Aim") and damage with
its defenses ("Block", "Dodge", "Take Cover"; issue 12's SHP/DHP/Kinetic defaults); slice 3:
"Grapple", "Leap", "Deep Breath", "Equipment Actions" and "Scale"."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.core.dice import ScriptedRoller
from bot.engine.utopia import commands as u
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.engine.utopia.sheet import UtopiaSheet
from bot.errors import RuleViolation
from tests.engine.helpers import NOW

RULES = UtopiaRuleset()


def sheet(**over: Any) -> UtopiaSheet:
    data: dict[str, Any] = {
        "name": "X",
        "subtraits": {"dexterity": 6, "speed": 5, "power": 6},
        "shp": 10,
        "dhp": 10,
        "stamina": 8,
        "block_rating": 2,
        "dodge_rating": 1,
        "weapons": [
            {"name": "Knife", "ta_cost": 1, "damage": "1d4"},
            {"name": "Maul", "ta_cost": 3, "damage": "2d6", "ignores_shp": True},
            {"name": "Shock", "ta_cost": 2, "damage": "1d6", "damage_type": "kinetic"},
            {
                "name": "Bow",
                "ta_cost": 2,
                "damage": "1d8",
                "kind": "ranged",
                "close_m": 10,
                "far_m": 30,
            },
        ],
    }
    data.update(over)
    return UtopiaSheet.model_validate(data)


def run(state: Any, command: Any, dice: list[int]) -> Any:
    roller = ScriptedRoller(dice)
    out = RULES.apply(state, command, roller, NOW)
    assert roller.remaining == 0, "every scripted die is used"
    return out


def fight(a: UtopiaSheet | None = None, b: UtopiaSheet | None = None) -> Any:
    """Ana (c1) and Bo (c2); Speed tests 3d6 + 1: Ana rolls 6, 6, 6, Bo 1, 1, 1: Ana first."""
    s = RULES.new_encounter(name="Duel", seed=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=a or sheet()), []).state
    s = run(s, u.AddCombatant(name="Bo", sheet=b or sheet(), is_npc=True), []).state
    return run(s, Begin(), [6, 6, 6, 1, 1, 1]).state


def test_turn_order_is_a_speed_test_highest_first() -> None:
    """ "Standard Actions": a Speed test (3d6 + Speed mod), highest first."""
    s = RULES.new_encounter(name="Duel", seed=1)
    s = run(s, u.AddCombatant(name="Ana", sheet=sheet()), []).state
    s = run(s, u.AddCombatant(name="Bo", sheet=sheet()), []).state
    out = run(s, Begin(), [1, 1, 1, 4, 4, 4])
    assert out.state.order == ["c2", "c1"] and out.state.turn == "c2"
    assert out.state.get("c2").initiative.primary == 12 + 1  # Speed 5 → +1


def test_six_ta_on_the_turn_and_two_ia_reset_at_each_other_turn() -> None:
    """ "Turn Actions": 6; "Interrupt Actions": 2, reset at each other creature's turn."""
    s = fight()
    assert s.get("c1").pools["turn"] == 6
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [1]).state  # off turn
    assert s.get("c2").pools["interrupt"] == 0  # 2 IA as 1 TA
    assert s.get("c2").open_guard  # "you cannot defend, until it's the next creature's turn"
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.turn == "c2" and not s.get("c2").open_guard


def test_talent_raises_turn_actions_to_nine() -> None:
    s = fight(a=sheet(turn_actions=9, interrupt_actions=3))
    assert s.get("c1").pools["turn"] == 9 and s.get("c1").pools["interrupt"] == 3


def test_hold_turns_two_ta_into_one_ia_kept_to_the_next_turn_end() -> None:
    """ "Hold Action": 2 TA for 1 IA, depleted if unused by the following turn."""
    s = fight()
    s = run(s, u.HoldAction(actor="c1"), []).state
    assert s.get("c1").pools["turn"] == 4
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.get("c1").pools["held"] == 1


def test_weaponless_attack_is_two_ta_1d8_plus_power_physical_and_shp_spills_into_dhp() -> None:
    """ "Attack": weaponless 2 TA, 1d8 + Power mod (6 − 4 = 2) Physical; innate defense 1."""
    s = fight(b=sheet(shp=3))
    out = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8])
    s = out.state
    assert s.get("c1").pools["turn"] == 4
    p = s.pending
    assert p.stage == "after_damage" and p.damage == 8 + 2 - 1
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    bo = s.get("c2")
    assert (bo.shp, bo.dhp) == (0, 10 - (9 - 3))


def test_block_rolls_nd4_and_reduces_the_damage() -> None:
    """ "Block": 1 IA off turn, the Block Rating (2d4) reduces the damage."""
    s = fight()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    s = run(s, u.Defend(actor="c2", choice="block"), [3, 2]).state
    bo = s.get("c2")
    assert bo.shp == 10 - (9 - 5) and bo.pools["interrupt"] == 1


def test_dodge_at_least_the_damage_negates_it() -> None:
    """ "Dodge": the Dodge Rating (1d12) ≥ the damage after defenses prevents all of it."""
    s = fight()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    s = run(s, u.Defend(actor="c2", choice="dodge"), [9]).state
    assert s.get("c2").shp == 10


def test_take_cover_doubles_the_dice_then_block_once_per_source() -> None:
    """ "Take Cover": Block and Dodge Ratings doubled for the rest of the turn; one Block or
    Dodge per source."""
    s = fight()
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    s = run(s, u.Defend(actor="c2", choice="cover"), []).state
    assert s.get("c2").cover and s.pending.covered
    assert [o.choice for o in RULES.reaction_options(s, "c2")] == ["block", "dodge", "none"]
    s = run(s, u.Defend(actor="c2", choice="block"), [1, 1, 1, 2]).state  # 2d4 doubled: 4d4
    assert s.pending is None and s.get("c2").shp == 10 - (9 - 5)
    assert s.get("c2").pools["interrupt"] == 0
    with pytest.raises(RuleViolation):
        run(s, u.Defend(actor="c2", choice="block"), [])


def test_ranged_attack_is_a_dexterity_test_against_the_meters() -> None:
    """ "Ranged Weapons": Dexterity test (3d6 + 2) vs meters; favor within close range adds a
    die; beyond far range impossible."""
    s = fight()
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Bow", range_m=8), [1, 1, 1, 1])
    assert out.state.pending is None  # 4 dice + 2 = 6 < 8: a miss
    roll = next(e for e in out.events if e.kind == "attack_rolled").test
    assert len(roll.dice) == 4 and roll.total == 6
    with pytest.raises(RuleViolation, match="impossible"):
        run(s, u.Attack(actor="c1", target="c2", weapon="Bow", range_m=31), [])


def test_aim_adds_favor_and_is_lost_by_another_action() -> None:
    """ "Aim": 1 TA, a point of favor on the next ranged attack; lost by any other action."""
    s = fight()
    s = run(s, u.Aim(actor="c1"), []).state
    assert s.get("c1").aim == 1
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Bow", range_m=20), [3, 3, 3])
    roll = next(e for e in out.events if e.kind == "attack_rolled").test
    assert len(roll.dice) == 3  # far: 1 disfavor, aim: 1 favor — they cancel
    s = run(s, u.DeepBreath(actor="c1"), []).state
    assert s.get("c1").aim == 0


def test_kinetic_ignores_armor_straight_to_dhp_and_ignores_shp_weapons() -> None:
    """Issue 12: Kinetic damage ignores armor and goes to DHP; weapons can ignore SHP."""
    armored = sheet(armor=[{"name": "Plate", "defenses": {"kinetic": 5, "physical": 5}}])
    s = fight(b=armored)
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Shock", range_m=1), [4]).state
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    assert (s.get("c2").shp, s.get("c2").dhp) == (10, 6)
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Maul", range_m=1), [6, 6]).state
    assert s.pending.damage == 12 - 6  # innate 1 + plate 5
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    assert (s.get("c2").shp, s.get("c2").dhp) == (10, 0)
    assert s.get("c2").has("Down") and s.phase == "finished"


def test_a_refused_command_changes_nothing() -> None:
    s = fight()
    before = s.model_dump_json()
    with pytest.raises(RuleViolation):
        run(s, u.HoldAction(actor="c2"), [])
    assert s.model_dump_json() == before


# -- "Grapple" ----------------------------------------------------------------------------------
def grappled() -> Any:
    """Ana (Agility 6 + 5 = 11, +7) grapples Bo (Strength: Power 6 + Fortitude 1 = 7, Agility
    11: Bo contests with Agility, the better): Ana 6, 6, 6 + 7 = 25 against Bo 1, 1, 1 + 7."""
    s = fight()
    return run(s, u.Grapple(actor="c1", target="c2"), [6, 6, 6, 1, 1, 1]).state


def test_grapple_costs_3_ta_2_stamina_and_a_lost_contest_holds_the_target() -> None:
    """ "Grapple": "3 turn actions and 2 stamina"; "its choice of a Strength or Agility
    contest against the grappler's Agility test"; "If the targeted creature fails, it becomes
    grappled"."""
    s = grappled()
    ana, bo = s.get("c1"), s.get("c2")
    assert ana.pools["turn"] == 3 and ana.stamina == 6
    assert bo.grappled_by == "c1" and s.positions.are_engaged("c1", "c2")


def test_a_tie_or_better_holds_the_grapple_off() -> None:
    s = fight()
    s = run(s, u.Grapple(actor="c1", target="c2"), [2, 2, 2, 2, 2, 2]).state
    assert s.get("c2").grappled_by is None and s.get("c1").stamina == 6


def test_grapple_disfavor_per_size_and_no_more_than_one_size_larger() -> None:
    """ "no more than one size larger"; "a point of disfavor for each size category smaller or
    larger": against a large Bo, Ana's test loses a die (3d6 − 1 die = 2 dice)."""
    s = fight(b=sheet(size="large"))
    out = run(s, u.Grapple(actor="c1", target="c2"), [6, 6, 1, 1, 1])
    assert out.state.get("c2").grappled_by == "c1"
    with pytest.raises(RuleViolation, match="size larger"):
        run(fight(b=sheet(size="huge")), u.Grapple(actor="c1", target="c2"), [])


def test_grapple_needs_an_adjacent_target_and_the_stamina() -> None:
    from bot.engine.core.commands import SetDistance

    s = run(fight(), SetDistance(a="c1", b="c2", meters=5), []).state
    with pytest.raises(RuleViolation, match="adjacent"):
        run(s, u.Grapple(actor="c1", target="c2"), [])
    with pytest.raises(RuleViolation, match="need 2 Stamina and have 1"):
        run(fight(a=sheet(stamina=1)), u.Grapple(actor="c1", target="c2"), [])


def test_the_grappled_cannot_travel_and_pay_double_against_others() -> None:
    """ "Grappled creatures cannot take the Travel action"; "the Attack, Block, and Dodge
    action requires twice the number of actions if it targets a creature other than the
    grappler"."""
    s = run(grappled(), EndTurn(actor="c1"), []).state  # Bo's turn
    with pytest.raises(RuleViolation, match="cannot travel"):
        run(s, u.Travel(actor="c2"), [])
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [4]).state
    assert s.get("c2").pools["turn"] == 5  # against the grappler: 1 TA
    assert [o.costs for o in RULES.reaction_options(s, "c1")][:2] == [{"IA": 1}, {"IA": 1}]


def test_the_grappled_pays_double_to_dodge_someone_else() -> None:
    s = RULES.new_encounter(name="Three", seed=1)
    for name in ("Ana", "Bo", "Cy"):
        s = run(s, u.AddCombatant(name=name, sheet=sheet()), []).state
    s = run(s, Begin(), [6, 6, 6, 1, 1, 1, 3, 3, 3]).state  # Ana, Cy, Bo
    s = run(s, u.Grapple(actor="c1", target="c2"), [6, 6, 6, 1, 1, 1]).state
    s = run(s, EndTurn(actor="c1"), []).state  # Cy's turn
    s = run(s, u.Attack(actor="c3", target="c2", weapon="Knife", range_m=1), [4]).state
    options = {o.choice: o.costs for o in RULES.reaction_options(s, "c2")}
    assert options == {"block": {"IA": 2}, "dodge": {"IA": 2}, "cover": {"IA": 1}, "none": {}}
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    s = run(s, EndTurn(actor="c3"), []).state  # Bo's turn: a knife at Cy costs 2 × 1 TA
    s = run(s, u.Attack(actor="c2", target="c3", weapon="Knife", range_m=1), [1]).state
    assert s.get("c2").pools["turn"] == 4


def test_the_grappler_travels_half_and_drags_the_grappled() -> None:
    """ "the grappler's Travel distances are halved, rounded up" (Speed 5 → 3 m)."""
    s = grappled()
    with pytest.raises(RuleViolation, match="at most 3"):
        run(s, u.Travel(actor="c1", meters=4), [])
    s = run(s, u.Travel(actor="c1", meters=3), []).state
    assert s.positions.are_engaged("c1", "c2")


def test_escape_once_per_turn_the_grappler_pays_2_stamina_to_contest() -> None:
    """ "1 interrupt action or 2 turn actions as well as 2 stamina, up to once per turn";
    "If the grappler chooses to attempt the test, its stamina is reduced by 2"."""
    s = grappled()  # Ana's turn: Bo escapes with 1 IA
    s = run(s, u.Escape(actor="c2"), [6, 6, 6, 1, 1, 1]).state  # Ana's Agility 25 vs Bo 10
    bo, ana = s.get("c2"), s.get("c1")
    assert bo.grappled_by == "c1" and bo.pools["interrupt"] == 1 and bo.stamina == 6
    assert ana.stamina == 4
    with pytest.raises(RuleViolation, match="already tried"):
        run(s, u.Escape(actor="c2"), [])
    s = run(s, EndTurn(actor="c1"), []).state  # Bo's turn: 2 TA
    s = run(s, u.Escape(actor="c2"), [1, 1, 1, 2, 2, 2]).state
    assert s.get("c2").grappled_by is None and s.get("c2").pools["turn"] == 4


def test_a_grappler_without_stamina_cannot_contest_the_escape() -> None:
    s = run(grappled(), u.SetVitals(target="c1", stamina=(1, False)), []).state
    s = run(s, u.Escape(actor="c2"), []).state
    assert s.get("c2").grappled_by is None and s.get("c1").stamina == 1


def test_the_grapple_ends_when_the_grappler_is_down() -> None:
    s = grappled()
    s = run(s, EndTurn(actor="c1"), []).state
    s = run(s, u.SetVitals(target="c1", dhp=(0, False)), []).state
    assert s.phase == "finished"  # Ana is Down: the hold is gone with her


# -- "Leap", "Deep Breath" -------------------------------------------------------------------------
def test_leap_costs_3_ta_3_stamina_up_to_the_power_score() -> None:
    """ "Leap": "3 turn actions and 3 stamina"; "equal to its Power score" (6)."""
    s = fight()
    with pytest.raises(RuleViolation, match="at most 6 m"):
        run(s, u.Leap(actor="c1", meters=7), [])
    out = run(s, u.Leap(actor="c1"), [])
    ana = out.state.get("c1")
    assert ana.pools["turn"] == 3 and ana.stamina == 5
    moved = next(e for e in out.events if e.kind == "moved")
    assert moved.meters == 6 and "Power" in moved.text
    with pytest.raises(RuleViolation, match="need 3 Stamina and have 2"):
        run(fight(a=sheet(stamina=2)), u.Leap(actor="c1"), [])


def test_two_meters_of_travel_directly_prior_leap_the_strength_score() -> None:
    """ "If a creature used at least 2 meters of travel directly prior, its leap distance is
    equal to its Strength score instead" (Power 6 + Fortitude 1 = 7); two Travel actions of
    1 m add up; any other action between breaks the run-up."""
    s = fight()
    s = run(s, u.Travel(actor="c1", meters=1), []).state
    s = run(s, u.Travel(actor="c1", meters=1), []).state
    assert s.get("c1").run_up_m == 2
    out = run(s, u.Leap(actor="c1", meters=7), [])
    assert "Strength" in next(e for e in out.events if e.kind == "moved").text
    s = run(s, u.Aim(actor="c1"), []).state
    with pytest.raises(RuleViolation, match="at most 6 m"):
        run(s, u.Leap(actor="c1", meters=7), [])


def test_deep_breath_one_ta_for_one_stamina_never_above_the_sheet() -> None:
    """ "Deep Breath": "spend 1 turn action to regain 1 stamina"."""
    s = run(fight(), u.Leap(actor="c1"), []).state
    s = run(s, u.DeepBreath(actor="c1"), []).state
    assert s.get("c1").stamina == 6 and s.get("c1").pools["turn"] == 2
    s = run(fight(), u.DeepBreath(actor="c1"), []).state
    assert s.get("c1").stamina == 8


def test_a_run_up_does_not_outlast_the_turn() -> None:
    s = run(fight(), u.Travel(actor="c1", meters=2), []).state
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.get("c1").run_up_m == 0


# -- "Equipment Actions" ---------------------------------------------------------------------------
def test_sheathing_costs_1_ta_and_an_attack_draws_it_for_free() -> None:
    """ "A weapon may be sheathed or unsheathed with 1 turn action, though a creature may
    unsheathe a weapon without using turn actions if it's directly followed by an attack using
    the given weapon"."""
    s = run(fight(), u.Sheathe(actor="c1", weapon="knife", drawn=False), []).state
    assert s.get("c1").sheathed == ("Knife",) and s.get("c1").pools["turn"] == 5
    with pytest.raises(RuleViolation, match="already sheathed"):
        run(s, u.Sheathe(actor="c1", weapon="Knife", drawn=False), [])
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [1])
    assert out.state.get("c1").sheathed == () and out.state.get("c1").pools["turn"] == 4
    assert any("draws Knife" in e.text for e in out.events)
    s = run(s, u.Sheathe(actor="c1", weapon="Knife", drawn=True), []).state
    assert s.get("c1").sheathed == () and s.get("c1").pools["turn"] == 4


def test_don_or_doff_3_ta_for_neck_or_ring_6_for_other_armor() -> None:
    """ "3 turn actions to don or doff a neck or ring item and 6 turn actions to don or doff
    any other type of armor"; what is worn counts in the defenses."""
    armored = sheet(
        armor=[
            {"name": "Plate", "defenses": {"physical": 5}},
            {"name": "Amulet", "slot": "neck", "defenses": {"physical": 1}, "worn": False},
        ]
    )
    s = fight(a=armored)
    s = run(s, u.Wear(actor="c1", item="Amulet", on=True), []).state
    assert s.get("c1").pools["turn"] == 3 and s.get("c1").wears() == {"Plate", "Amulet"}
    with pytest.raises(RuleViolation, match="cannot doff Plate"):
        run(s, u.Wear(actor="c1", item="Plate", on=False), [])
    s = fight(a=armored)
    s = run(s, u.Wear(actor="c1", item="Plate", on=False), []).state
    assert s.get("c1").wears() == set() and s.get("c1").pools["turn"] == 0
    with pytest.raises(RuleViolation, match="not wearing"):
        run(s, u.Wear(actor="c1", item="Plate", on=False), [])
    # Bo's knife off turn (1d4 = 4) against Ana: innate 1, no plate any more: 3 damage
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [4]).state
    assert s.pending.damage == 3


# -- "Scale" ---------------------------------------------------------------------------------------
def scaled(b: UtopiaSheet | None = None, dice: list[int] | None = None) -> Any:
    """Ana scales Bo: Ana's Agility 6, 6, 6 + 7 = 25 against Bo's Strength (same size) 1, 1, 1
    + 3 (Power 6 + Fortitude 1 = 7 → +3)."""
    s = fight(b=b)
    return run(s, u.Scale(actor="c1", target="c2"), dice or [6, 6, 6, 1, 1, 1]).state


def test_scale_costs_3_ta_4_stamina_and_a_lost_contest_puts_the_scaler_on() -> None:
    """ "Scale": "3 turn actions and 4 stamina"; "a contest (Strength if it's equal size,
    Agility if it's larger) against the scaling creature's Agility test"."""
    out = run(fight(), u.Scale(actor="c1", target="c2"), [6, 6, 6, 1, 1, 1])
    ana = out.state.get("c1")
    assert ana.scaling == "c2" and ana.pools["turn"] == 3 and ana.stamina == 4
    assert any("Bo's Strength" in e.text for e in out.events)
    with pytest.raises(RuleViolation, match="already on Bo"):
        run(out.state, u.Scale(actor="c1", target="c2"), [])


def test_scale_a_larger_creature_is_agility_with_disfavor_and_never_a_smaller_one() -> None:
    """ "Agility if it's larger"; "a point of disfavor for each size category larger" (large:
    Ana's 3d6 loses a die); "the same size or larger"."""
    out = run(fight(b=sheet(size="large")), u.Scale(actor="c1", target="c2"), [6, 6, 1, 1, 1])
    assert out.state.get("c1").scaling == "c2"
    assert any("Bo's Agility" in e.text for e in out.events)
    with pytest.raises(RuleViolation, match="smaller"):
        run(fight(b=sheet(size="small")), u.Scale(actor="c1", target="c2"), [])
    with pytest.raises(RuleViolation, match="need 4 Stamina and have 3"):
        run(fight(a=sheet(stamina=3)), u.Scale(actor="c1", target="c2"), [])


def test_the_scaled_pays_double_against_the_scaler_who_moves_with_it() -> None:
    """ "When scaled, the Attack, Block, and Dodge action requires twice the number of
    actions if it targets the creature scaling it"; "Whenever a scaled creature moves, the
    scaling creature moves similarly"."""
    s = scaled()
    s = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [4]).state
    assert {o.choice: o.costs for o in RULES.reaction_options(s, "c2")}["dodge"] == {"IA": 2}
    s = run(s, u.Defend(actor="c2", choice="none"), []).state
    s = run(s, EndTurn(actor="c1"), []).state
    s = run(s, u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1), [1]).state
    assert s.get("c2").pools["turn"] == 4  # the knife's 1 TA, doubled
    s = run(s, u.Travel(actor="c2", meters=3), []).state
    assert s.positions.are_engaged("c1", "c2") and s.get("c1").scaling == "c2"


def test_a_scaler_moving_by_itself_climbs_down() -> None:
    s = run(scaled(), u.Travel(actor="c1", meters=1), []).state
    assert s.get("c1").scaling is None


def test_shake_off_once_per_turn_the_scaler_pays_2_stamina_to_hold_on() -> None:
    """ "1 interrupt action or 2 turn actions, up to once per turn"; "If the scaling creature
    chooses to attempt the test, its stamina is reduced by 2"; no Stamina for the shaker."""
    s = scaled()
    s = run(s, u.ShakeOff(actor="c2"), [6, 6, 6, 1, 1, 1]).state  # off turn: 1 IA
    assert s.get("c1").scaling == "c2" and s.get("c1").stamina == 2
    assert s.get("c2").pools["interrupt"] == 1 and s.get("c2").stamina == 8
    with pytest.raises(RuleViolation, match="already tried"):
        run(s, u.ShakeOff(actor="c2"), [])
    s = run(s, EndTurn(actor="c1"), []).state
    s = run(s, u.ShakeOff(actor="c2"), [1, 1, 1, 6, 6, 6]).state  # Bo's Agility wins
    assert s.get("c1").scaling is None and s.get("c2").pools["turn"] == 4
    with pytest.raises(RuleViolation, match="Nobody is scaling"):
        run(s, u.ShakeOff(actor="c2"), [])


def test_an_exchange_or_a_check_keeps_the_aim() -> None:
    """``docs/rules/utopia.md`` ("Aim"): any other action clears the Aim, but turning a TA into
    an IA ("Interchanging Actions", not an action of the text) and a free ``/check`` keep it;
    a Deep Breath, an action, clears it."""
    s = run(fight(), u.Aim(actor="c1"), []).state
    s = run(s, u.Exchange(actor="c1", to="interrupt"), []).state
    s = run(s, u.Test(actor="c1", score="awareness"), [1, 1, 1]).state
    assert s.get("c1").aim == 1
    assert run(s, u.DeepBreath(actor="c1"), []).state.get("c1").aim == 0
