"""Utopia "Stealth" (issue 12, slice U4), with scripted dice: a Stunt test (3d6 + modifier)
contested against each other side's Awareness score, the text's circumstances, doubled time,
and what being unnoticed does to the defenses ("Block", "Dodge": "an instance it is aware
of")."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core.dice import ScriptedRoller
from bot.engine.core.verbs import ActInput
from bot.engine.utopia import commands as u
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_utopia_engine import NOW, RULES, fight, run, sheet


def sneaky(**subtraits: int) -> Any:
    """Stunt 4 (modifier +0), Awareness 5 unless told."""
    scores = {"dexterity": 6, "speed": 5, "power": 6, "stunt": 4, "awareness": 5, **subtraits}
    return sheet(subtraits=scores)


def rolled_in(out: Any) -> list[Any]:
    return [e for e in out.events if e.kind == "tested"]


def test_stunt_against_the_awareness_score_meeting_it_stays_unnoticed() -> None:
    """ "a Stunt test contested against each other present creatures' Awareness score":
    4 + 0 + 1 = 5 meets Bo's Awareness 5 (the score read as a difficulty)."""
    s = fight(sneaky(), sneaky())
    out = run(s, u.Stealth(actor="c1"), [1, 3, 1])
    (e,) = rolled_in(out)
    assert e.against_score == 5 and e.success is True
    assert "Ana stays unnoticed by Bo" in e.text
    assert out.state.get("c1").hidden_from == ("c2",)
    assert out.state.get("c1").pools["turn"] == 5  # the bot's default: 1 TA
    out = run(s, u.Stealth(actor="c1"), [1, 2, 1])
    assert "Bo notices Ana" in rolled_in(out)[0].text and out.state.get("c1").hidden_from == ()


def test_gifted_awareness_is_doubled() -> None:
    """ "For creatures that are gifted in Awareness, you must contest against double"."""
    bo = sheet(subtraits={"stunt": 4, "awareness": 5, "speed": 5}, gifted=["awareness"])
    out = run(fight(sneaky(), bo), u.Stealth(actor="c1"), [6, 6, 1])
    assert rolled_in(out)[0].against_score == 10 and out.state.get("c1").hidden_from == ("c2",)


def test_circumstances_and_doubled_time_move_dice() -> None:
    """suspicious −1, sight −2, distracting +1, doubled time +1 each (at most twice): the dice
    count is 3 + favor − disfavor; doubled time doubles the cost (2 TA, then 4 TA)."""
    s = fight(sneaky(), sneaky())
    out = run(s, u.Stealth(actor="c1", circumstances=("suspicious", "sight")), [])
    assert rolled_in(out)[0].roll.dice == ()  # 3 disfavor: no dice, the modifier alone
    out = run(s, u.Stealth(actor="c1", circumstances=("distracting",), doubled=2), [1] * 6)
    assert len(rolled_in(out)[0].roll.dice) == 6
    assert out.state.get("c1").pools["turn"] == 2  # 1 TA doubled twice: 4 TA


def test_seen_they_test_awareness_with_favor_against_the_stunt() -> None:
    """ "Seen": they make an Awareness test against your Stunt test; you a disfavor, they a
    favor: Ana 2d6 (6, 6 = 12), Bo 4d6 + 1 (3, 3, 3, 2 + 1 = 12) meets it: noticed."""
    s = fight(sneaky(), sneaky())
    out = run(s, u.Stealth(actor="c1", circumstances=("seen",)), [6, 6, 3, 3, 3, 2])
    (e,) = rolled_in(out)
    assert e.opposing.total == 12 and "Bo notices Ana" in e.text
    out = run(s, u.Stealth(actor="c1", circumstances=("seen",)), [6, 6, 3, 3, 2, 2])
    assert out.state.get("c1").hidden_from == ("c2",)


def test_unknown_circumstance_is_refused_listing_the_words() -> None:
    s = fight()
    with pytest.raises(InvalidInput, match=r"`suspicious`.*`distracting`"):
        RULES.act(s, s.get("c1"), ActInput(key="stealth", detail="shadowy"))
    with pytest.raises(InvalidInput, match="0, 1 or 2"):
        RULES.act(s, s.get("c1"), ActInput(key="stealth", amount=3))
    made: Any = RULES.act(
        s, s.get("c1"), ActInput(key="stealth", detail="Seen, distracting", amount=1)
    )
    assert made.circumstances == ("seen", "distracting") and made.doubled == 1


def test_an_unnoticed_attacker_leaves_no_defense_and_is_revealed() -> None:
    """Block/Dodge/Take Cover need "an instance it is aware of": Bo, unaware of Ana, gets no
    decision; the attack gives Ana away."""
    s = fight(sneaky(), sneaky())
    s = run(s, u.Stealth(actor="c1"), [6, 6, 6]).state
    out = run(s, u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1), [3])
    assert out.state.pending is None and out.state.get("c2").shp == 10 - (3 - 1)
    assert out.state.get("c1").hidden_from == ()
    assert any("did not see it coming" in getattr(e, "text", "") for e in out.events)
    resolved = next(e for e in out.events if e.kind == "damage_resolved")
    assert resolved.choice == "unable"


def test_stealth_needs_someone_to_hide_from_and_the_ta() -> None:
    s = fight()
    s = run(s, u.SetCondition(target="c2", condition="Down"), []).state
    with pytest.raises(RuleViolation):
        run(s, u.Stealth(actor="c1"), [])


def test_a_servers_stealth_tables_change_the_test() -> None:
    """`docs/rules/utopia.md` says a GM changes Stealth with the `stealth` tables
    (`/tables set`): a server that makes `suspicious` cost 2 disfavor, `distracting` give 2
    favor, a gifted observer count 3 × its Awareness and seekers of the `seen` test get no
    favor plays by those numbers."""
    rules = UtopiaRuleset.configured(
        {
            "stealth": {
                "suspicious_disfavor": 2,
                "distracting_favor": 2,
                "gifted_multiplier": 3,
                "seen_favor_to_seekers": 0,
            }
        }
    )

    def play(s: Any, command: Any, dice: list[int]) -> Any:
        roller = ScriptedRoller(dice)
        out = rules.apply(s, command, roller, NOW)
        assert roller.remaining == 0, "every scripted die is used"
        return out

    s = fight(sneaky(), sneaky())
    out = play(s, u.Stealth(actor="c1", circumstances=("suspicious",)), [1])
    assert len(rolled_in(out)[0].roll.dice) == 1  # 3 dice, 2 disfavor
    out = play(s, u.Stealth(actor="c1", circumstances=("distracting",)), [1] * 5)
    assert len(rolled_in(out)[0].roll.dice) == 5  # 3 dice, 2 favor
    bo = sheet(subtraits={"stunt": 4, "awareness": 5, "speed": 5}, gifted=["awareness"])
    out = play(fight(sneaky(), bo), u.Stealth(actor="c1"), [6, 6, 1])
    assert rolled_in(out)[0].against_score == 15
    # "seen": Ana 2d6 (a disfavor); Bo's Awareness test with no favor, 3d6 + 1.
    out = play(s, u.Stealth(actor="c1", circumstances=("seen",)), [6, 6, 3, 3, 3])
    assert len(rolled_in(out)[0].opposing.dice) == 3


def test_an_encounter_at_rules_version_1_keeps_the_shipped_stealth_numbers() -> None:
    """Fights started before Stealth read its tables (rules version 1) played by the shipped
    numbers whatever a server's tables said; thawed, they still do, so their logs replay with
    the dice they rolled."""
    changed = UtopiaRuleset.configured({"stealth": {"suspicious_disfavor": 2}})
    assert changed.version == UtopiaRuleset.rules_version >= 2
    old = UtopiaRuleset.thawed(json.dumps({"version": 1, "tables": changed.tables_data()}))
    s = fight(sneaky(), sneaky())
    out = old.apply(
        s, u.Stealth(actor="c1", circumstances=("suspicious",)), ScriptedRoller([1, 1]), NOW
    )
    assert len(rolled_in(out)[0].roll.dice) == 2  # 3 dice, the shipped 1 disfavor


def test_every_source_of_damage_asks_whether_its_target_saw_it_coming() -> None:
    """The class behind rules version 6's fixes: a source of damage opened its defense
    decision without asking whether the target had noticed the attacker (a spell; a
    multi-weapon attack's later blows). Every call that opens one
    (:func:`bot.engine.utopia.combat.open_or_settle`) passes ``surprised=``."""
    root = Path(__file__).resolve().parents[2] / "bot" / "engine" / "utopia"
    calls = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open_or_settle":
                calls.append((path.name, {k.arg for k in node.keywords}))
    assert calls and all("surprised" in keys for _, keys in calls), calls
