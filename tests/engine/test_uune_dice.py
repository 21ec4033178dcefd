"""Uune's dice (issue 14, slice 1) with scripted dice, against the Uune SRD (``uune-srd.txt``;
section names are its headings)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine.core.dice import ScriptedRoller
from bot.engine.uune.checks import (
    insight_reads,
    observe_senses,
    starting_money,
    stealth_difficulty,
    stealth_resources,
)
from bot.engine.uune.dice import (
    Resource,
    action_pool,
    focus_force,
    focus_reroll,
    luck_check,
    npc_force_reroll,
    passive_hits,
    roll_action,
    vitality_bump,
    vitality_reroll,
    with_help,
)
from bot.engine.uune.tables import default_tables, load_tables
from bot.errors import InvalidInput

T = default_tables()
SWORD, CLOAK = Resource(name="Sword"), Resource(name="Cloak")


def test_an_action_is_1d6_plus_1d6_per_resource_and_5s_and_6s_hit() -> None:
    """ "Actions": "grab 1d6, plus an additional d6 for every resource … Any dice which land on
    5 or 6 are hits. If you have enough hits to meet or beat the number … completes"."""
    roll = roll_action(ScriptedRoller([5, 6, 4]), [SWORD, CLOAK], 2, T)
    assert [d.value for d in roll.roll.dice] == [5, 6, 4]
    assert [d.label for d in roll.roll.dice] == ["action", "Sword", "Cloak"]
    assert (roll.hits, roll.required, roll.success, roll.margin) == (2, 2, True, 0)
    short = roll_action(ScriptedRoller([5, 4, 4]), [SWORD, CLOAK], 2, T)
    assert (short.hits, short.success, short.margin) == (1, False, -1)
    assert (
        roll.shown()
        == "action 1d6 + Sword 1d6 + Cloak 1d6 [5] [6] [4] = 2 hits vs 2 needed: success"
    )


def test_no_roll_is_difficulty_0_and_the_ladder_stops_at_10() -> None:
    assert roll_action(ScriptedRoller([1]), [], 0, T).success
    with pytest.raises(InvalidInput, match="ladder"):
        roll_action(ScriptedRoller([1]), [], 11, T)


def test_a_proficient_resource_gives_one_more_die() -> None:
    """ "Proficiency Points": "whenever you use that resource, you gain an additional
    resource from it"."""
    pool = action_pool([Resource(name="Sword", dice=2)], T)
    assert pool.size == 3 and pool.hit_on == 5
    assert pool.chance(1) == 1 - Fraction(4, 6) ** 3  # the odds read the same description


def test_help_adds_the_helpers_hits() -> None:
    """ "Help": "You may add your hits to the other PC's"."""
    roll = roll_action(ScriptedRoller([5, 2]), [SWORD], 3, T)
    helper = roll_action(ScriptedRoller([6, 5]), [CLOAK], 3, T)
    helped = with_help(roll, helper)
    assert (helped.hits, helped.success) == (3, True)
    assert helped.shown().endswith("+ 2 from help vs 3 needed: success")


def test_passive_actions_count_a_third_of_the_resources_rounded_down() -> None:
    """ "What are Passive Actions?": "counting 1/3 of them as hits" (rounding: the bot's)."""
    assert [passive_hits(n, T) for n in (0, 2, 3, 5, 6, 7)] == [0, 0, 1, 1, 2, 2]
    up = load_tables(overrides={"passive": {"rounding": "up"}})
    near = load_tables(overrides={"passive": {"rounding": "nearest"}})
    assert [passive_hits(n, up) for n in (4, 5)] == [2, 2]
    assert [passive_hits(n, near) for n in (4, 5)] == [1, 2]


def test_luck_checks_take_the_better_or_worse_of_two_and_both_cancel() -> None:
    """ "Luck Checks": advantage "try twice and take the better", disadvantage "the worse",
    "If you have both, make the check as normal"."""
    plain = luck_check(ScriptedRoller([4]), T)
    assert (plain.dice, plain.success, plain.mode) == ((4,), True, "normal")
    adv = luck_check(ScriptedRoller([2, 5]), T, advantage=True)
    assert (adv.kept, adv.success) == (5, True)
    dis = luck_check(ScriptedRoller([2, 5]), T, disadvantage=True)
    assert (dis.kept, dis.success) == (2, False)
    both = luck_check(ScriptedRoller([3]), T, advantage=True, disadvantage=True)
    assert (both.dice, both.success, both.mode) == ((3,), False, "normal")


def test_focus_forces_a_resource_die_to_hit_but_not_the_base_die() -> None:
    """ "Focus": "spend a point of focus to force a resource to hit"."""
    roll = roll_action(ScriptedRoller([2, 3]), [SWORD], 1, T)
    spent = focus_force(roll, 1, T)
    assert (spent.action.hits, spent.action.success, spent.focus) == (1, True, 1)
    assert spent.action.roll.dice[1].face() == "3→5"
    with pytest.raises(InvalidInput, match="not the base action die"):
        focus_force(roll, 0, T)
    with pytest.raises(InvalidInput, match="already a hit"):
        focus_force(spent.action, 1, T)


def test_focus_rerolls_two_resource_dice() -> None:
    """ "Focus": "spend a point of focus to reroll 2 resources, using the new results"."""
    roll = roll_action(ScriptedRoller([1, 2, 3]), [SWORD, CLOAK], 2, T)
    spent = focus_reroll(roll, [1, 2], ScriptedRoller([6, 1]), T)
    assert [d.value for d in spent.action.roll.dice] == [1, 6, 1]  # the new results stand
    assert (spent.action.hits, spent.focus) == (1, 1)
    with pytest.raises(InvalidInput, match="1 to 2 resource dice"):
        focus_reroll(roll, [0, 1, 2], ScriptedRoller([6, 6, 6]), T)
    with pytest.raises(InvalidInput, match="base action die"):
        focus_reroll(roll, [0], ScriptedRoller([6]), T)


def test_vitality_rerolls_any_die_for_5_and_bumps_one_by_1_for_10() -> None:
    """ "Vitality": "spend 5 vitality to reroll a die in your pool"; "spend 10 vitality to bump
    a die, increasing it's roll by 1"."""
    roll = roll_action(ScriptedRoller([4, 2]), [SWORD], 2, T)
    rerolled = vitality_reroll(roll, 0, ScriptedRoller([6]), T)
    assert (rerolled.action.roll.dice[0].face(), rerolled.vitality) == ("4→6", 5)
    bumped = vitality_bump(rerolled.action, 1, T)
    assert (bumped.action.roll.dice[1].face(), bumped.vitality) == ("2+1", 10)
    assert bumped.action.hits == 1
    bumped_base = vitality_bump(roll, 0, T)
    assert (bumped_base.action.hits, bumped_base.action.roll.dice[0].value) == (1, 5)
    with pytest.raises(InvalidInput, match="highest face"):
        vitality_bump(rerolled.action, 0, T)


def test_an_npc_forces_a_reroll_of_a_hit_die_at_the_tables_cost() -> None:
    """ "General NPC Guideines": "NPCs can spend vitality to force a PC to reroll a hit die,
    using the new roll" (the cost: the bot's GM-editable default, 10)."""
    roll = roll_action(ScriptedRoller([6, 3]), [SWORD], 1, T)
    forced = npc_force_reroll(roll, 0, ScriptedRoller([2]), T)
    assert (forced.action.hits, forced.action.success, forced.vitality) == (0, False, 10)
    with pytest.raises(InvalidInput, match="hit die only"):
        npc_force_reroll(roll, 1, ScriptedRoller([2]), T)
    dearer = load_tables(overrides={"npc_forced_reroll": {"vitality": 20}})
    assert npc_force_reroll(roll, 0, ScriptedRoller([2]), dearer).vitality == 20


def test_intoxicated_rerolls_every_6_once() -> None:
    """ "Effect: Intoxicated": "must reroll all 6s" (once each; a new 6 stands)."""
    roller = ScriptedRoller([6, 5, 6, 1, 6])
    roll = roll_action(roller, [SWORD, CLOAK], 1, T, intoxicated=1)
    assert [d.face() for d in roll.roll.dice] == ["6→1", "5", "6→6"]
    assert roller.remaining == 0 and roll.hits == 2


def test_impaired_requires_one_more_hit_per_level() -> None:
    """ "Effect: Impared": "All actions require +1 hits"."""
    roll = roll_action(ScriptedRoller([5, 6]), [SWORD], 2, T, impaired=1)
    assert (roll.required, roll.hits, roll.success) == (3, 2, False)
    assert roll_action(ScriptedRoller([5, 6]), [SWORD], 1, T, impaired=2).required == 3


def test_starting_money_is_5d6_times_the_income() -> None:
    """ "Level 1": "roll 5d6 and multiply by one of the choices" (Well off: 20 times)."""
    assert starting_money(ScriptedRoller([1, 2, 3, 4, 5]), "well off", T) == ([1, 2, 3, 4, 5], 300)
    with pytest.raises(InvalidInput, match="destitute, impoverished"):
        starting_money(ScriptedRoller([1] * 5), "royal", T)


def test_stealth_difficulty_and_resources() -> None:
    """ "Stealth": "the highest perceptiveness score in the room; and +0 for one person, +1 for
    a few, +2 for a group, or +3 for a crowd"; Hidden +1, Undetected +2 resources."""
    assert stealth_difficulty([2, 4, 3], "few", T) == 5
    assert stealth_difficulty([9], "crowd", T) == 10  # the top of the ladder
    assert [stealth_resources(x, T) for x in ("observed", "Hidden", "undetected")] == [0, 1, 2]
    with pytest.raises(InvalidInput, match="one, few, group, crowd"):
        stealth_difficulty([1], "mob", T)


def test_insight_meets_social_and_observe_counts_senses_by_margin() -> None:
    """ "Insight": hits "meet or exceed an NPC's social score"; "Observe": "Meet: One sense. 1
    over: Two senses. 2 over: Three senses"."""
    assert (insight_reads(3, 3), insight_reads(2, 3)) == (True, False)
    assert [observe_senses(h, 2, T) for h in (1, 2, 3, 4, 7)] == [0, 1, 2, 3, 3]
