"""Untitled's rules versions (``UntitledRuleset.rules_version``): from version 2 an attack
waiting on the shield choice of a defender a GM tool put Down is cancelled; from version 4 a
defender's shield dice are checked when the attack is declared; from version 5 the end of a day
moves the fight's clock to the next day's start (``tests/engine/test_new_day_clock.py``). A
fight started before keeps the older reading, so its log replays as it was played
(decision C)."""

from __future__ import annotations

import json

import pytest

from bot.engine.core.commands import Begin
from bot.engine.core.dice import ScriptedRoller
from bot.engine.untitled import commands as u
from bot.engine.untitled.ruleset import UntitledRuleset
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.state import ShieldDecision
from bot.errors import InvalidInput
from tests.contract.harness_untitled import untitled_sheet
from tests.engine.helpers import NOW
from tests.engine.test_untitled_engine import RULES, Fight

V1 = UntitledRuleset(version=1)
V3 = UntitledRuleset(version=3)


def test_versions_1_to_5_are_known_and_5_is_the_newest() -> None:
    assert RULES.version == UntitledRuleset.rules_version >= 5
    assert UntitledRuleset.known_versions[:5] == (1, 2, 3, 4, 5)


def test_an_attack_on_a_defender_put_down_meanwhile_is_cancelled_in_v2_only() -> None:
    f = Fight(
        u.AddCombatant(name="A", sheet=untitled_sheet(20, 3, False, None, False)),
        u.AddCombatant(name="B", sheet=untitled_sheet(20, 3, True, None, False), side="foes"),
        u.AddCombatant(name="C", sheet=untitled_sheet(20, 3, False, None, False), side="foes"),
    )
    a, b = f.c("A").id, f.c("B").id
    f.do(u.Attack(actor=a, target=b))
    assert isinstance(f.state.pending, ShieldDecision)
    down = u.SetVitals(target=b, health=(0, False))
    new = RULES.apply(f.state, down, ScriptedRoller([]), NOW)
    assert new.state.decisions == []
    assert any("attack with" in e.text and "is cancelled: B is Down" in e.text for e in new.events)
    old = V1.apply(f.state, down, ScriptedRoller([]), NOW)
    assert isinstance(old.state.pending, ShieldDecision)


def test_a_legendary_shield_with_no_dice_refuses_the_attack_from_v4() -> None:
    """The defender's Heater shield skill is 22 (Legendary) and the Storyteller has set no
    Legendary dice: version 4 refuses the attack when it is declared, changing nothing (as it
    refuses a Legendary attack, defense, damage or armor); version 3 declared it, and then the
    defender's choice to raise the shield — the window's lapse too — was refused."""
    data = untitled_sheet(20, 3, True, None, False).model_dump()
    data["shield_skills"] = [{"name": "Shields", "level": 22}]
    f = Fight(
        u.AddCombatant(name="A", sheet=untitled_sheet(20, 3, False, None, False)),
        u.AddCombatant(name="B", sheet=UntitledSheet.model_validate(data), side="foes"),
    )
    a, b = f.c("A").id, f.c("B").id
    f.refused(u.Attack(actor=a, target=b), "Level 22 is Legendary: its dice are the Storyteller")
    old = V3.apply(f.state, u.Attack(actor=a, target=b), ScriptedRoller([]), NOW).state
    assert isinstance(old.pending, ShieldDecision)
    with pytest.raises(InvalidInput, match="Legendary"):
        V3.apply(old, V3.lapse(old), ScriptedRoller([3] * 6), NOW)


def test_the_rounds_counts_are_read_as_the_tables_give_them_from_v4() -> None:
    """A server's tables give ten standard actions a round (``round.standard`` allows up to
    10): version 4 gives ten, and the turn's start says the counts; version 3 packed the
    counts as ``move * 10 + standard`` and read three moves and no standard action."""
    tables = {"round": {"move": 2, "standard": 10}}
    data = json.loads(UntitledRuleset.configured(tables).frozen())
    rules = {v: UntitledRuleset.thawed(json.dumps({**data, "version": v})) for v in (3, 4)}
    for version, (moves, standards) in ((4, (2, 10)), (3, (3, 0))):
        r = rules[version]
        s = r.new_encounter(name="Round", seed=1)
        for name in ("A", "B"):
            add = u.AddCombatant(name=name, sheet=untitled_sheet(20, 3, False, None, False))
            s = r.apply(s, add.model_copy(update={"side": name}), ScriptedRoller([]), NOW).state
        out = r.apply(s, Begin(), ScriptedRoller([]), NOW)
        first = out.state.get(out.state.turn)
        assert (first.pools["move"], first.pools["standard"]) == (moves, standards)
        said = " ".join(e.text for e in out.events)
        words = "2 moves and 10 standards" if version == 4 else "two moves and a standard"
        assert words in said, said


def _legendary(field: str) -> UntitledSheet:
    """B's sheet (a shield, medium armor) with ``field``'s level at 22 (Legendary; armor 19)."""
    data = untitled_sheet(20, 3, True, "medium", False).model_dump()
    if field == "armor":
        data["armor_skills"]["medium"] = 19
    elif field == "combat_defense":
        data["combat_defense"] = 22
    else:
        data[field] = [{**data[field][0], "level": 22}]
    return UntitledSheet.model_validate(data)


@pytest.mark.parametrize(
    ("field", "whose"),
    [
        ("weapon_skills", "A"),
        ("combat_forms", "A"),
        ("combat_defense", "B"),
        ("shield_skills", "B"),
        ("armor", "B"),
    ],
)
def test_every_pool_an_attack_may_roll_is_checked_when_it_is_declared(
    field: str, whose: str
) -> None:
    """The class behind version 4's shield fix: each level the exchange rolls — the attack's,
    the damage's (a critical's), Combat Defense's, the shield's, the armor's — refuses the
    attack when it is declared while the Storyteller's dice for it are unset, before anything
    is paid or any decision opens (none of them may wait to refuse a defender's choice)."""
    plain = untitled_sheet(20, 3, True, "medium", False)
    sheets = {"A": plain, "B": plain, whose: _legendary(field)}
    f = Fight(
        u.AddCombatant(name="A", sheet=sheets["A"]),
        u.AddCombatant(name="B", sheet=sheets["B"], side="foes"),
    )
    f.refused(u.Attack(actor=f.c("A").id, target=f.c("B").id), "Storyteller")
