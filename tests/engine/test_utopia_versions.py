"""Utopia's rules versions 2 and 3 changed how some actions play (``UtopiaRuleset.rules_version``);
a fight started at an older version keeps the older reading, so its log replays with the dice it
rolled as it was played (decision C). Each test plays one command both ways from the same state."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn, Engage, RemoveCombatant
from bot.engine.core.contract import ReactionOption
from bot.engine.core.dice import ScriptedRoller
from bot.engine.core.economy import Cost
from bot.engine.utopia import commands as u
from bot.engine.utopia import pay_words, verbs
from bot.engine.utopia.pay_words import paid_with
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.errors import InvalidInput, RuleViolation
from bot.ui.decision_view import button_label
from tests.engine.test_utopia_assist import trio
from tests.engine.test_utopia_engine import NOW, RULES, fight, run, sheet
from tests.engine.test_utopia_stealth import sneaky

V1 = UtopiaRuleset(version=1)
V5 = UtopiaRuleset(version=5)


def run_v1(state: Any, command: Any, dice: list[int]) -> Any:
    roller = ScriptedRoller(dice)
    out = V1.apply(state, command, roller, NOW)
    assert roller.remaining == 0
    return out


def test_versions_1_to_6_are_still_known() -> None:
    assert RULES.version == UtopiaRuleset.rules_version >= 6
    assert UtopiaRuleset.known_versions[:6] == (1, 2, 3, 4, 5, 6)


def test_damage_whose_attacker_goes_down_before_the_defense_is_called_off_in_v4_only() -> None:
    """ "Block"/"Dodge": the damage "would be dealt" after the defense; a Down attacker deals
    none. Ana's weaponless attack waits on Bo's defense when the GM sets Ana's DHP to 0."""
    s = run(trio(), u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    assert s.pending is not None and s.pending.attacker == "c1"
    down = u.SetVitals(target="c1", dhp=(0, False))
    out = run(s, down, [])
    assert out.state.decisions == [] and out.state.get("c2").shp == s.get("c2").shp
    assert any("called off: Ana is Down" in e.text for e in out.events)
    for older in (1, 3):
        kept = UtopiaRuleset(version=older).apply(s, down, ScriptedRoller([]), NOW).state
        assert kept.pending is not None and kept.pending.attacker == "c1"


HOUSE = {
    "actions": {"interrupt": 3, "interrupt_per_turn_action": 3, "turn_per_interrupt_action": 2},
    "hold": {"turn_actions": 3},
}
"""A server's house rules for "Interchanging Actions" and "Hold Action" (read from version 3)."""


def at(version: int, changes: dict[str, Any] | None = HOUSE) -> UtopiaRuleset:
    rules = UtopiaRuleset.configured(changes)
    thawed = UtopiaRuleset.thawed(json.dumps({"version": version, "tables": rules.tables_data()}))
    assert isinstance(thawed, UtopiaRuleset)
    return thawed


def house_fight(rules: UtopiaRuleset) -> Any:
    """Ana (c1) and Bo (c2) under ``rules``; Ana first, with its TA, Bo with its IA."""
    s = rules.new_encounter(name="Duel", seed=1)
    for name, npc in (("Ana", False), ("Bo", True)):
        s = rules.apply(
            s, u.AddCombatant(name=name, sheet=sheet(), is_npc=npc), ScriptedRoller([]), NOW
        ).state
    return rules.apply(s, Begin(), ScriptedRoller([6, 6, 6, 1, 1, 1]), NOW).state


def test_the_tables_exchange_rates_and_held_action_cost_are_played_from_version_3() -> None:
    """ "Interchanging Actions" and "Hold Action" at a server's rates: on Ana's turn 1 IA costs
    2 TA and each held IA 3 TA; off Bo's turn a TA costs 3 IA. A version 2 fight with the same
    tables plays by the text's 1, 2 and 2, as it did."""
    new, old = at(3), at(2)
    s = house_fight(new)
    out = new.apply(s, u.Exchange(actor="c1", to="interrupt"), ScriptedRoller([]), NOW)
    assert out.state.get("c1").pools["turn"] == 6 - 2
    assert "Ana turns 2 TA into 1 IA." in [e.text for e in out.events]
    out = old.apply(s, u.Exchange(actor="c1", to="interrupt"), ScriptedRoller([]), NOW)
    assert out.state.get("c1").pools["turn"] == 6 - 1

    held = new.apply(s, u.HoldAction(actor="c1"), ScriptedRoller([]), NOW).state
    assert held.get("c1").pools["turn"] == 6 - 3 and held.get("c1").pools["held_new"] == 1
    held = old.apply(s, u.HoldAction(actor="c1"), ScriptedRoller([]), NOW).state
    assert held.get("c1").pools["turn"] == 6 - 2

    ana = s.get("c1")
    off = {**ana.pools, "turn": 0, "interrupt": 3}
    assert new.economy.pay(off, Cost(kind="turn", amount=1), "off_turn", 0)["interrupt"] == 0
    assert old.economy.pay(off, Cost(kind="turn", amount=1), "off_turn", 0)["interrupt"] == 1
    with pytest.raises(RuleViolation, match=r"3 interrupt actions pay for 1\)"):
        new.economy.pay({**off, "interrupt": 2}, Cost(kind="turn", amount=1), "off_turn", 0)


def test_the_shipped_tables_play_the_same_at_every_version() -> None:
    """Without a server's change, versions 1 to 3 exchange and hold at the text's rates."""
    for version in (1, 2, 3):
        rules = at(version, None)
        assert (
            rules.economy.interrupt_per_turn_action,
            rules.economy.turn_per_interrupt_action,
            rules.economy.hold_turn_actions,
        ) == (2, 1, 2)


def test_spent_turn_actions_are_made_up_with_interrupt_actions_on_the_own_turn_in_v1_only() -> None:
    """ "Interchanging Actions": 2 IA as 1 TA "when it's not your turn". Version 1 also did it
    on the creature's own turn (a seventh TA)."""
    s = fight()  # Ana's turn: 6 TA, 2 IA
    for _ in range(6):
        s = run(s, u.Aim(actor="c1"), []).state
    assert s.get("c1").pools["turn"] == 0

    with pytest.raises(RuleViolation, match="no turn actions left"):
        run(s, u.Aim(actor="c1"), [])
    old = run_v1(s, u.Aim(actor="c1"), []).state
    assert old.get("c1").pools["interrupt"] == 0  # 2 IA for the seventh TA


def test_what_costs_a_ta_or_an_ia_costs_the_ia_once_the_own_tas_are_spent_in_v2_only() -> None:
    """Breaking free is priced "1 TA or 1 IA" (the tables' escape costs): with Ana's TA spent,
    version 2 charges the IA; version 1 charged a TA, paid with 2 IA."""
    s = fight()
    tx_v2 = RULES._read(s)
    tx_v1 = V1._read(s)
    ana = s.get("c1")
    spent = ana.model_copy(update={"pools": {**ana.pools, "turn": 0}})
    assert tx_v2.either(spent, 1, 1).kind == "interrupt"
    assert tx_v1.either(spent, 1, 1).kind == "turn"
    assert tx_v2.either(ana, 1, 1).kind == tx_v1.either(ana, 1, 1).kind == "turn"


def test_a_leaver_takes_its_pledged_assists_in_v2_only() -> None:
    s = trio()  # Ana's turn; Cy pledges an Assist to her next test
    s = run(s, u.Assist(actor="c3", target="c1", form="test"), []).state
    assert [p.helper for p in s.get("c1").pledges] == ["c3"]

    assert run(s, RemoveCombatant(combatant="c3"), []).state.get("c1").pledges == ()
    kept = run_v1(s, RemoveCombatant(combatant="c3"), []).state
    assert [p.helper for p in kept.get("c1").pledges] == ["c3"]
    # Either way a test skips the helper who left (version 1 refused the test before).
    tested = run_v1(kept, u.Test(actor="c1", score="dexterity"), [1, 1, 1])
    assert not any("assisted" in e.text for e in tested.events if e.kind == "tested")


def test_a_move_toward_oneself_is_refused_in_v2_only() -> None:
    s = fight()
    with pytest.raises(InvalidInput, match="toward themselves"):
        run(s, u.Travel(actor="c1", meters=1, toward="c1"), [])
    run_v1(s, u.Travel(actor="c1", meters=1, toward="c1"), [])


def test_a_buttons_cost_words_follow_the_rates() -> None:
    """A defense's button says what it would spend now (``pay_words.paid_with``): at the house
    rates an IA on the own turn is "2 TA as 1 IA" and a TA off it "3 IA as 1 TA"."""
    rules = at(3)
    s = house_fight(rules)
    tx = rules._read(s)
    ana = s.get("c1")
    assert paid_with(tx, ana, Cost(kind="interrupt", amount=1)) == {"TA as 1 IA": 2}
    bo = s.get("c2")
    assert paid_with(tx, bo, Cost(kind="turn", amount=1)) == {"IA as 1 TA": 3}
    old = at(2)
    assert paid_with(old._read(s), ana, Cost(kind="interrupt", amount=1)) == {"TA as 1 IA": 1}


def test_holding_two_interrupt_actions_says_two() -> None:
    """A server whose Hold keeps 2 IA (``hold.interrupt_actions``): the log said "holds an
    interrupt action" while 2 were held (6 TA at 3 TA each)."""
    rules = at(3, {"hold": {"interrupt_actions": 2, "turn_actions": 3}})
    s = house_fight(rules)
    out = rules.apply(s, u.HoldAction(actor="c1"), ScriptedRoller([]), NOW)
    assert out.state.get("c1").pools["held_new"] == 2 and out.state.get("c1").pools["turn"] == 0
    assert "Ana holds 2 interrupt actions until the end of their next turn." in [
        e.text for e in out.events
    ]


def test_a_defense_buttons_label_has_one_pair_of_brackets() -> None:
    """The cover button read "Take Cover (behind an obstacle) (1 IA)": its label now has no
    brackets of its own, so the cost is the one bracketed part (Block and Dodge the same)."""
    for choice, label in pay_words._LABELS.items():
        shown = button_label(ReactionOption(choice=choice, label=label, costs={"IA": 1}))
        assert shown.count("(") == shown.count(")") == 1, shown


def test_acts_list_shows_every_cost_the_tables_set() -> None:
    """``/act``'s list showed the text's numbers for Aim, Travel, Leap, Grapple, breaking free,
    Scale, shaking off, sheathing, armor, Deep Breath and casting, whatever the server's tables
    said; each now shows the fight's own (the shipped tables still read as the text)."""
    house = {
        "aim": {"ta": 2},
        "travel": {"ta": 2},
        "leap": {"ta": 4, "stamina": 5, "run_up_m": 3},
        "grapple": {"ta": 4, "stamina": 3, "escape_ta": 3, "escape_ia": 2, "escape_stamina": 1},
        "scale": {"ta": 5, "stamina": 6, "escape_ta": 3, "escape_ia": 2},
        "equipment": {"small_ta": 2, "armor_ta": 5, "sheath_ta": 2},
        "deep_breath": {"ta": 2, "stamina": 3},
        "spell": {"ta": 4},
    }
    rules = at(3, house)
    s = house_fight(rules)
    costs = {spec.key: spec.cost for spec in rules.actions(s, s.get("c1"))}
    assert costs["aim"] == "2 TA: favor on the next ranged attack"
    assert costs["travel"] == "2 TA: up to the travel distance"
    assert costs["leap"].startswith("4 TA + 5 Stamina") and "after 3 m of travel" in costs["leap"]
    assert costs["grapple"].startswith("4 TA + 3 Stamina")
    assert costs["escape"] == "3 TA (2 IA off turn) + 1 Stamina, once per turn"
    assert costs["scale"].startswith("5 TA + 6 Stamina")
    assert costs["shake-off"] == "3 TA (2 IA off turn), once per turn"
    assert costs["sheath"] == "2 TA" and costs["unsheath"].startswith("2 TA (free")
    assert costs["don"] == costs["doff"] == "2 TA neck or ring, 5 TA other armor"
    assert costs["deep-breath"] == "2 TA: 3 Stamina"
    assert costs["cast"] == "4 TA + the spell's Stamina"
    shipped = at(3, None)
    plain = {spec.key: spec.cost for spec in shipped.actions(s, s.get("c1"))}
    text = {spec.key: spec.cost for spec in verbs.ACTIONS}
    for key in ("aim", "travel", "leap", "grapple", "escape", "scale", "shake-off", "don"):
        assert plain[key] == text[key], key


def test_a_natural_weapon_is_neither_sheathed_nor_drawn_from_v5() -> None:
    """A weapon held in no hands (a bite) is part of the creature: version 5 refuses to sheathe
    it, changing nothing, and ``detail:`` no longer suggests it; version 4 sheathed it."""
    biter = sheet(
        weapons=[
            {"name": "Bite", "damage": "1d6", "hands": 0},
            {"name": "Knife", "damage": "1d4"},
        ]
    )
    s = fight(a=biter)
    sheathe = u.Sheathe(actor="c1", weapon="Bite", drawn=False)
    with pytest.raises(RuleViolation, match="Bite is part of them"):
        run(s, sheathe, [])
    assert run(s, u.Sheathe(actor="c1", weapon="Knife", drawn=False), []).state.get(
        "c1"
    ).sheathed == ("Knife",)
    assert run_v1(s, sheathe, []).state.get("c1").sheathed == ("Bite",)
    old = UtopiaRuleset(version=4)
    assert old.apply(s, sheathe, ScriptedRoller([]), NOW).state.get("c1").sheathed == ("Bite",)
    offered = [value for _, value in RULES.detail_choices(s, s.get("c1"), "sheath", "")]
    assert offered == ["Knife"]
    assert "Bite" in [value for _, value in old.detail_choices(s, s.get("c1"), "sheath", "")]


def test_turning_ta_into_an_ia_says_what_the_spend_buys_from_v5() -> None:
    """ "Interchanging Actions" on the creature's turn: version 5's spend line reads "spends 1
    TA to gain 1 IA" beside "turns 1 TA into 1 IA"; version 4 said the exchange twice."""
    s = fight()
    exchange = u.Exchange(actor="c1", to="interrupt")
    said = [e.text for e in run(s, exchange, []).events]
    assert "Ana spends 1 TA to gain 1 IA." in said and "Ana turns 1 TA into 1 IA." in said, said
    old = UtopiaRuleset(version=4).apply(s, exchange, ScriptedRoller([]), NOW)
    assert "Ana spends 1 TA to turn 1 TA into 1 IA." in [e.text for e in old.events]


def _hidden_ana(ana: Any = None) -> Any:
    """Ana (Stunt 4) has taken Stealth and Bo (Awareness 5) has not noticed her."""
    s = fight(ana or sneaky(), sneaky())
    s = run(s, u.Stealth(actor="c1"), [6, 6, 6]).state
    assert s.get("c1").hidden_from == ("c2",)
    return s


def test_every_blow_of_a_multi_weapon_attack_from_hiding_is_unseen_from_v6() -> None:
    """ "attack with any number of weapons simultaneously": Bo, who has not noticed Ana, can
    defend against none of her Knife and Maul; version 5 gave the attack away with the Knife
    and offered Bo a Block or Dodge against the Maul."""
    s = _hidden_ana()
    hit = u.MultiAttack(actor="c1", target="c2", weapons=("Knife", "Maul"), range_m=1)
    out = run(s, hit, [3, 4, 4])
    assert out.state.pending is None and out.state.get("c1").hidden_from == ()
    resolved = [e for e in out.events if e.kind == "damage_resolved"]
    assert [(e.source, e.choice) for e in resolved] == [("Knife", "unable"), ("Maul", "unable")]
    assert out.state.get("c2").dhp == 10 - (4 - 1)  # (2d6 = 8) / 2 = 4, less 1: the Maul
    old = V5.apply(s, hit, ScriptedRoller([3, 4, 4]), NOW).state
    assert old.pending is not None and old.pending.source == "Maul"


def test_a_damaging_spell_from_hiding_is_unseen_and_gives_the_caster_away_from_v6() -> None:
    """A damaging spell is an attack ("Casting a spell"; Stealth's "any attack reveals the
    attacker"): Bo, who has not noticed Ana, cannot Block or Dodge her Spark, and Ana is seen.
    Version 5 offered Bo a defense and left Ana hidden."""
    spark = {"name": "Spark", "stamina": 1, "damage": "1d6", "damage_type": "heat", "range_m": 10}
    scores = {"dexterity": 6, "speed": 5, "power": 6, "stunt": 4, "awareness": 5}
    s = _hidden_ana(sheet(subtraits=scores, spells=[spark]))
    cast = u.Cast(actor="c1", spell="Spark", target="c2", range_m=5)
    out = run(s, cast, [5])
    assert out.state.pending is None and out.state.get("c1").hidden_from == ()
    assert any("did not see it coming" in getattr(e, "text", "") for e in out.events)
    (resolved,) = [e for e in out.events if e.kind == "damage_resolved"]
    assert resolved.choice == "unable" and out.state.get("c2").shp == 10 - (5 - 1)
    old = V5.apply(s, cast, ScriptedRoller([5]), NOW).state
    assert old.pending is not None and old.get("c1").hidden_from == ("c2",)


def test_a_ranged_test_must_reach_a_distance_between_whole_meters_from_v6() -> None:
    """ "a Dexterity test against the number of meters away the target is": at 12.5 m a total
    of 12 (2d6 — the far range's disfavor — 5 and 5, + 2) falls short; version 5 rounded the
    distance down to 12 and hit. ``/odds`` reads the distance as the fight's version does."""
    s = fight()
    shot = u.Attack(actor="c1", target="c2", weapon="Bow", range_m=12.5)
    out = run(s, shot, [5, 5])
    (rolled,) = [e for e in out.events if e.kind == "attack_rolled"]
    assert not rolled.hit and rolled.difficulty == 13 and "against 12.5 m — a miss" in rolled.text
    old = V5.apply(s, shot, ScriptedRoller([5, 5, 4]), NOW)
    (rolled,) = [e for e in old.events if e.kind == "attack_rolled"]
    assert rolled.hit and "against 12 m — a hit" in rolled.text
    ana, bo = s.get("c1"), s.get("c2")
    new_odds = RULES.odds(s, ana, bo, "Bow", range_m=12.5).lines[0].chance
    old_odds = V5.odds(s, ana, bo, "Bow", range_m=12.5).lines[0].chance
    assert new_odds == RULES.odds(s, ana, bo, "Bow", range_m=13).lines[0].chance < old_odds


def test_a_grappled_creature_cannot_leap_away_from_v6() -> None:
    """ "Grapple": "restrain", "Grappled creatures cannot take the Travel action", the grappled
    moves as its grappler moves: Bo, grappled by Ana, is refused a Leap (nothing spent) and
    breaks free first. Version 5 let him leap 6 m and stay grappled by Ana, no longer beside
    him."""
    s = run(fight(), Engage(a="c1", b="c2"), []).state
    s = run(s, u.Grapple(actor="c1", target="c2"), [6, 6, 6, 1, 1, 1]).state
    s = run(s, EndTurn(actor="c1"), []).state
    assert s.turn == "c2" and s.get("c2").grappled_by == "c1"
    with pytest.raises(RuleViolation, match="Bo is grappled by Ana and cannot leap away"):
        run(s, u.Leap(actor="c2"), [])
    old = V5.apply(s, u.Leap(actor="c2"), ScriptedRoller([]), NOW).state
    assert old.get("c2").grappled_by == "c1" and not old.positions.are_engaged("c1", "c2")


def test_a_servers_modifier_offset_is_every_modifiers_from_v6() -> None:
    """A server sets ``test.modifier_offset`` 3 (``/tables set``; the docs: the modifier is
    score − that offset). Ana's Power 6: her tests already read +3; from version 6 her
    weaponless "1d8 + Power Mod" adds +3 too, and so do ``/odds``; version 5 added 6 − 4 = 2
    to the damage whatever the tables said."""
    house = {"test": {"modifier_offset": 3}}
    new, old = at(6, house), at(5, house)
    s = house_fight(new)
    punch = u.Attack(actor="c1", target="c2", range_m=1)
    rolled = [e for e in new.apply(s, punch, ScriptedRoller([5]), NOW).events]
    (hit,) = [e for e in rolled if e.kind == "attack_rolled"]
    assert hit.damage.total == 5 + 3 and hit.after_defense == 5 + 3 - 1
    rolled = [e for e in old.apply(s, punch, ScriptedRoller([5]), NOW).events]
    (hit,) = [e for e in rolled if e.kind == "attack_rolled"]
    assert hit.damage.total == 5 + 2
    ana, bo = s.get("c1"), s.get("c2")
    assert new.odds(s, ana, bo, "weaponless").damage[0].high == 8 + 3 - 1
    assert old.odds(s, ana, bo, "weaponless").damage[0].high == 8 + 2 - 1


def test_a_block_or_dodge_rating_of_0_is_not_offered_from_v6() -> None:
    """ "Block": "It rolls its Block Rating" — Bo's is 0 and no ally could Assist, so a Block
    would roll no dice: version 6 leaves it out and refuses it; version 5 offered and took it
    (an action for nothing). Both Ratings 0: nothing to defend with, not even Take Cover."""
    s = fight(b=sheet(block_rating=0))
    s = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8]).state
    block = u.Defend(actor="c2", choice="block")
    with pytest.raises(RuleViolation, match="Bo's Block Rating is 0"):
        RULES.apply(s, block, ScriptedRoller([]), NOW)
    assert V5.apply(s, block, ScriptedRoller([]), NOW).state.pending is None
    s = fight(b=sheet(block_rating=0, dodge_rating=0))
    out = run(s, u.Attack(actor="c1", target="c2", range_m=1), [8])
    assert out.state.pending is None
    assert any("their Block and Dodge Ratings are 0" in e.text for e in out.events)
    old = V5.apply(s, u.Attack(actor="c1", target="c2", range_m=1), ScriptedRoller([8]), NOW)
    assert old.state.pending is not None


def test_a_combatant_is_they_in_the_log_from_v8_and_it_before() -> None:
    """Bo knifes Ana off turn (paid with IA), then Ana's Knife settles at once: version 8 says
    "Bo cannot defend (they attacked with interrupt actions: they cannot …)", as the other
    systems' texts call a combatant; a version 7 fight replays its "it" as it was said."""
    said = {}
    for rules in (UtopiaRuleset(version=7), RULES):
        s = rules.new_encounter(name="Duel", seed=1)
        for name, npc in (("Ana", False), ("Bo", True)):
            s = rules.apply(s, u.AddCombatant(name=name, sheet=sheet(), is_npc=npc), None, NOW)
            s = s.state
        s = rules.apply(s, Begin(), ScriptedRoller([6, 6, 6, 1, 1, 1]), NOW).state
        knife = u.Attack(actor="c2", target="c1", weapon="Knife", range_m=1)
        s = rules.apply(s, knife, ScriptedRoller([1]), NOW).state
        back = u.Attack(actor="c1", target="c2", weapon="Knife", range_m=1)
        out = rules.apply(s, back, ScriptedRoller([4]), NOW)
        [said[rules.version]] = [e.text for e in out.events if e.kind == "damage_resolved"]
    assert said[7].startswith("Bo cannot defend (it attacked with interrupt actions: it cannot")
    assert said[RULES.version].startswith(
        "Bo cannot defend (they attacked with interrupt actions: they cannot defend"
    ), said
