"""Untitled's encounter settings (:mod:`bot.engine.untitled.encounter`): the Storyteller's
Legendary dice ("21+ Legendary ... Storyteller"; issue 13: "Storyteller-defined dice, an
encounter setting"), the armor dice above 18 (issue 13: "above 18: the Storyteller's call, an
encounter setting") and a fighter's combined move actions, set per encounter; the server's
tables stay the default. Driven through :class:`UntitledRuleset` with scripted dice."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import EndTurn
from bot.engine.untitled import commands as u
from bot.engine.untitled.encounter import for_encounter
from bot.engine.untitled.events import AttackResolved
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.tables import default_tables, load_tables
from bot.engine.uttas.ruleset import UttasRuleset
from bot.errors import InvalidInput
from tests.engine.test_untitled_engine import RULES, Fight, example


def legend() -> UntitledSheet:
    """A Legendary swordsman (Swords 22, Sword and board 21) in heavy armor 20."""
    data = example("brask").model_dump()
    data["name"] = "Legend"
    data["weapon_skills"] = [{"name": "Swords", "level": 22}]
    data["combat_forms"] = [{"name": "Sword and board", "level": 21}]
    data["armor_skills"] = {"heavy": 20}
    data["armor"] = {"name": "Plate", "weight": "heavy"}
    data["shield"] = None
    return UntitledSheet.model_validate(data)


def legend_fight() -> Fight:
    return Fight(
        u.AddCombatant(name="Legend", sheet=legend()),
        u.AddCombatant(name="Giant", sheet=example("hill-giant"), is_npc=True),
    )


def test_legendary_dice_are_refused_until_the_storyteller_sets_them_for_the_encounter() -> None:
    f = legend_fight()
    me, giant = f.c("Legend").id, f.c("Giant").id
    f.refused(u.Attack(actor=me, target=giant), "rule:Legendary dice value:3d12")
    f.do(RULES.rule_command("legendary DICE", " 3d12 ", None))
    assert f.state.settings.rules == {"Legendary dice": "3d12"}
    # Swords 22: 3d12 [12, 12, 12] + 22 = 58 against the giant's 2d6 [1, 1] + 2 = 4: a critical
    # (58 >= 8): one tier above Legendary is its dice and one d12 more: 4d12 + 21; his heavy
    # armor (level 4, 1d8) stops 1.
    events = f.do(u.Attack(actor=me, target=giant), [12, 12, 12, 1, 1, 1, 1, 1, 1, 1])
    hit = next(e for e in events if isinstance(e, AttackResolved))
    assert hit.attack.total == 58 and hit.critical and hit.damage is not None
    assert hit.damage.total == 4 + 21 and hit.health_lost == 24


def test_armor_above_18_is_the_encounters_and_applies_from_level_19() -> None:
    f = legend_fight()
    me, giant = f.c("Legend").id, f.c("Giant").id
    f.do(EndTurn(actor=me))
    # The giant's club: 2d8 [8, 8] + 9 = 25 against Combat Defense 5: 2d6 [1, 1] + 5 = 7, a
    # critical; the Legend's heavy armor 20 is above 18: refused, nothing rolled.
    f.refused(u.Attack(actor=giant, target=me), "rule:Heavy armor above 18 value:5d8")
    f.do(RULES.rule_command("Heavy armor above 18", "5d8", None))
    # Crushing blows 11, a tier up (Master 2d12 [1, 1] + 11 = 13); the plate: 5d8, all 1s: 5.
    events = f.do(u.Attack(actor=giant, target=me), [8, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    hit = next(e for e in events if isinstance(e, AttackResolved))
    assert hit.armor is not None and hit.armor.total == 5 and hit.health_lost == 8
    t = RULES.tables_for(f.state)
    assert t.armor_dice(20, "heavy") == "5d8" and t.armor_dice(18, "heavy") == "4d8"
    with pytest.raises(InvalidInput, match="rule:Light armor above 18 value:5d4"):
        t.armor_dice(19, "light")


def test_the_server_tables_stay_the_default_and_table_goes_back_to_them() -> None:
    server = load_tables(overrides=default_tables().with_legendary("3d10 + 1d6"))
    assert for_encounter(server, {}) is server
    assert for_encounter(server, {"Legendary dice": "4d12"}).skill_dice(21) == "4d12"
    f = legend_fight()
    f.do(RULES.rule_command("Legendary dice", "3d12", None))
    f.do(RULES.rule_command("Legendary dice", "table", None))
    assert f.state.settings.rules == {}
    f.refused(RULES.rule_command("Legendary dice", "default", None), "already follows")
    f.do(RULES.rule_command("Legendary dice", "3d12", None))
    f.refused(RULES.rule_command("Legendary dice", "3d12", None), "already 3d12")


def test_an_armor_row_spanning_18_and_19_is_split_there() -> None:
    rows = [r.model_dump() for r in default_tables().armor]
    rows[3]["high"], rows = None, rows[:4]  # a server whose 16+ row is open-ended
    server = load_tables(overrides={"armor": rows})
    t = for_encounter(server, {"Light armor above 18": "6d4"})
    assert t.armor_dice(18, "light") == "4d4" and t.armor_dice(19, "light") == "6d4"
    assert t.armor_dice(30, "medium") == "4d6"


@pytest.mark.parametrize(
    ("rule", "value", "target", "reason"),
    [
        ("Legendary dice", "999999d999999", None, "sides"),
        ("Legendary dice", "999999d6", None, "at most 100 dice"),
        ("Legendary dice", "0d6", None, "rolls no dice"),
        ("Legendary dice", "3d12 + 100000000000", None, "at most 1000"),
        ("Legendary dice", "3d12 - 2", None, "without subtraction"),
        ("Legendary dice", "banana", None, "not a dice expression"),
        ("Legendary dice", "3d12", "c1", "whole encounter: leave `combatant:` out"),
        ("Medium armor above 18", "2d6 * 3", None, "without subtraction"),
        ("Combined move actions", "refused", None, "name it with `combatant:`"),
        ("Combined move actions", "maybe", "c1", "`allowed` or `refused`"),
        ("Armor above 9000", "3d12", None, "no encounter rule called 'Armor above 9000'"),
    ],
)
def test_bad_values_are_refused_saying_why(
    rule: str, value: str, target: str | None, reason: str
) -> None:
    with pytest.raises(InvalidInput, match=reason):
        RULES.rule_command(rule, value, target)


def test_a_system_without_encounter_rules_refuses_them_by_name() -> None:
    with pytest.raises(InvalidInput, match="UTTAS has no rules the GM sets per encounter"):
        UttasRuleset().rule_command("Legendary dice", "3d12", None)
    assert UttasRuleset().rule_lines(None) == []


def test_combined_move_actions_are_set_per_fighter_and_shown() -> None:
    f = Fight(
        u.AddCombatant(name="Wren", sheet=example("wren"), stowed=("Longbow",)),
        u.AddCombatant(name="Giant", sheet=example("hill-giant"), is_npc=True),
    )
    wren = f.c("Wren").id
    assert "Combined move actions: allowed for everyone" in RULES.rule_lines(f.state)
    f.do(RULES.rule_command("Combined move actions", "Refused", wren))
    f.refused(u.AllowCombined(target=wren, allowed=False), "already may not")
    assert "Combined move actions: refused for Wren" in RULES.rule_lines(f.state)
    f.refused(u.Move(actor=wren, draw="Longbow"), "refused")
    f.do(RULES.rule_command("Combined move actions", "allowed", wren))
    f.do(u.Move(actor=wren, draw="Longbow"))
    assert f.c("Wren").stowed == ()


def test_the_settings_lines_say_whose_value_it_is() -> None:
    f = legend_fight()
    lines = RULES.rule_lines(f.state)
    assert "Legendary dice: not set — the Storyteller's call (refused until set)" in lines
    assert "Heavy armor above 18: not set — the Storyteller's call (refused until set)" in lines
    f.do(RULES.rule_command("Legendary dice", "3d12", None))
    assert "Legendary dice: 3d12 (this encounter)" in RULES.rule_lines(f.state)
    server = type(RULES)(load_tables(overrides=default_tables().with_legendary("3d10 + 1d6")))
    assert "Legendary dice: 3d10 + 1d6 (the server's tables)" in server.rule_lines(
        legend_fight().state
    )
