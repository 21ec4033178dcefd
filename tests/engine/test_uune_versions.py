"""Uune's rules versions (``UuneRuleset.rules_version``) from 2 to the newest: each test plays
what a version changed, and the version before it keeping the older reading, so an older
fight's log replays as it was played (decision C)."""

from __future__ import annotations

import pytest

from bot.engine.core.commands import Begin, EndCombat, EndTurn, MoveInOrder, RemoveCombatant
from bot.engine.core.dice import ScriptedRoller
from bot.engine.uune import commands as u
from bot.engine.uune import verbs
from bot.engine.uune.options import SEP
from bot.engine.uune.ruleset import UuneRuleset
from bot.engine.uune.state import INCAPACITATED, ApprovalDecision, SpendDecision
from bot.errors import RuleViolation
from tests.contract.harness_uune import MIRA, statblock
from tests.engine.helpers import NOW
from tests.engine.test_uune_engine import RULES, Table

V1 = UuneRuleset(version=1)


V2 = UuneRuleset(version=2)
V4 = UuneRuleset(version=4)


def test_versions_1_to_5_are_still_known() -> None:
    assert RULES.version == UuneRuleset.rules_version >= 5
    assert UuneRuleset.known_versions[:5] == (1, 2, 3, 4, 5)


def test_removing_a_helper_drops_their_help_in_v3_and_calls_the_roll_off_before() -> None:
    """ "Help": the helper's hits are added to the roller's; a helper who left has none."""
    t = Table()
    t.do(u.Attack(actor="c1", target="c3", resources=("Quickblade",)))
    t.do(u.Help(actor="c2", resources=("Herbalist",), decision=t.open.id))
    gone = RemoveCombatant(combatant="c2")
    new = RULES.apply(t.state, gone, ScriptedRoller([]), NOW).state
    [kept] = new.decisions
    assert isinstance(kept, ApprovalDecision) and kept.actor == "c1" and kept.helpers == ()
    assert all(not r.startswith("c2") for r in kept.proposed)
    assert V2.apply(t.state, gone, ScriptedRoller([]), NOW).state.decisions == []


def test_an_approval_whose_roller_the_gm_knocks_out_is_called_off_in_v2_only() -> None:
    """ "Vitality": at zero "they become incapacitated and cannot take actions"."""
    t = Table()
    t.do(u.Attack(actor="c1", target="c3", resources=("Quickblade",)))
    assert isinstance(t.open, ApprovalDecision)
    out = u.SetVitals(target="c1", vitality=(0, False))
    new = RULES.apply(t.state, out, ScriptedRoller([]), NOW)
    assert new.state.decisions == [] and new.state.turn == "c2"
    assert any("is called off: Mira is Incapacitated" in e.text for e in new.events)
    old = V1.apply(t.state, out, ScriptedRoller([]), NOW)
    assert isinstance(old.state.pending, ApprovalDecision) and old.state.turn == "c1"


def test_an_npc_moved_ahead_of_the_pcs_is_refused_in_v2_only() -> None:
    """ "Conflict": the PCs take their turns, then the NPCs."""
    t = Table()
    move = MoveInOrder(target="c3", position=1)
    try:
        RULES.apply(t.state, move, ScriptedRoller([]), NOW)
    except RuleViolation as refused:
        assert "Thug may take places 3 to 4" in str(refused)
    else:
        raise AssertionError("the NPC was moved ahead of the PCs")
    assert V1.apply(t.state, move, ScriptedRoller([]), NOW).state.order[0] == "c3"


def test_a_defend_whose_attacking_npc_the_gm_knocks_out_is_called_off_in_v3_only() -> None:
    """ "Defend": the attack lands once the Defend is rolled; an NPC Incapacitated first
    ("cannot take actions") makes none. Its turn, the attack's, ends."""
    t = Table()
    for pc in ("c1", "c2"):
        t.do(EndTurn(actor=pc))
    t.do(u.NpcAttack(actor="c3", target="c1", attack="Cudgel"))
    assert isinstance(t.open, ApprovalDecision) and t.open.attacker == "c3"
    out_cold = u.SetVitals(target="c3", vitality=(0, False))
    new = RULES.apply(t.state, out_cold, ScriptedRoller([]), NOW)
    assert new.state.decisions == [] and new.state.turn == "c4"
    assert any("Thug's attack on Mira with Cudgel is called off" in e.text for e in new.events)
    old = V2.apply(t.state, out_cold, ScriptedRoller([]), NOW).state
    assert isinstance(old.pending, ApprovalDecision) and old.pending.attacker == "c3"


def test_insight_on_an_incapacitated_npc_is_refused_in_v3_only() -> None:
    """ "Insight" reads an NPC "while interacting"; Incapacitated, it "cannot take actions"."""
    t = Table()
    t.do(u.SetVitals(target="c3", vitality=(0, False)))
    read = u.Insight(actor="c1", target="c3")
    try:
        RULES.apply(t.state, read, ScriptedRoller([]), NOW)
    except RuleViolation as refused:
        assert "Thug is Incapacitated" in str(refused)
    else:
        raise AssertionError("Insight read an Incapacitated NPC")
    assert V2.apply(t.state, read, ScriptedRoller([1]), NOW).state.get("c1").pools["turn"] == 0


def test_a_helper_rolls_only_their_approved_resources_in_v3() -> None:
    """ "Help": "Roll your own resources as they apply to the action." Before version 3 a
    helper rolled a base die too, so help with every resource refused still added its hits."""
    t = Table()
    t.do(u.RollAction(actor="c1", action="force the door", resources=("Quickblade",), difficulty=2))
    t.do(u.Help(actor="c2", resources=("Herbalist",), decision=t.open.id))
    t.do(u.Approve(actor="c1", decision=t.open.id, refuse=(f"c2{SEP}Herbalist",)))
    approve = u.Approve(actor="c1", decision=t.open.id, all="approve")
    new = RULES.apply(t.state, approve, ScriptedRoller([1, 5]), NOW)
    assert new.state.pending.roll.help == 0
    assert any("help adds nothing" in e.text for e in new.events)
    old = V2.apply(t.state, approve, ScriptedRoller([1, 5, 6]), NOW)
    assert old.state.pending.roll.help == 1  # Tobin's base die: [6]


def test_a_luck_check_names_what_was_checked_in_brackets_from_v4() -> None:
    """A luck check's words are the member's own, often a question: version 4 writes "Luck
    check for Mira (does the guard sleep)", not "Mira's does the guard sleep"; the default
    "attempt" still reads "Mira's attempt"; version 3 keeps its text (the log shows it)."""
    t = Table()
    asked = u.Luck(actor="c1", what="does the guard sleep")
    new = RULES.apply(t.state, asked, ScriptedRoller([4]), NOW)
    name = t.state.get("c1").name
    assert any(f"Luck check for {name} (does the guard sleep):" in e.text for e in new.events)
    plain = RULES.apply(t.state, u.Luck(actor="c1"), ScriptedRoller([4]), NOW)
    assert any(f"Luck check for {name}'s attempt:" in e.text for e in plain.events)
    old = UuneRuleset(version=3).apply(t.state, asked, ScriptedRoller([4]), NOW)
    assert any(f"Luck check for {name}'s does the guard sleep:" in e.text for e in old.events)


def test_an_observe_that_only_meets_its_difficulty_offers_spends_for_more_senses_from_v5() -> None:
    """ "Observe": "Meet: One sense. 1 over: Two senses. 2 over: Three senses." A roll that
    meets the difficulty is a success but not the best it can be: a spend for one more hit
    notices with one more sense. Version 5 offers the roller's spends on it (a bump of the 4
    to a hit, 10 vitality) until it is two over; versions 1 to 4 treated any success as
    settled, resolved it at once and left the player no way to reach a second sense."""
    observe = u.Observe(actor="c1", what="the crates", resources=("Lockpicks",), difficulty=1)
    t = Table(5, 4)  # the base die hits, Lockpicks' 4 misses: 1 hit of 1, met
    t.do(observe)
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    d = t.open
    assert isinstance(d, SpendDecision) and d.roll.margin == 0
    choices = {o.choice for o in RULES.decision_options(t.state, d)["c1"]}
    assert {"keep", "vitality_bump:2", "vitality_reroll:2"} <= choices, choices
    t.do(u.Spend(actor="c1", choice="vitality_bump", dice=(2,), decision=d.id))
    assert t.said("bumps a die by 1 (10 vitality)")
    # 2 hits, 1 over: no miss is left to reroll or bump, so the roll stands at once.
    assert t.open is None
    assert t.said("Mira observes the crates: something odd with 2 senses")
    assert t.state.turn == "c2"
    # Two over, every sense the text counts: nothing more to gain, it resolves at once.
    best = Table(5, 6, 6)
    best.do(u.Observe(actor="c1", what="the crates", resources=("Lockpicks", "Dark cloak")))
    best.do(u.Approve(actor="c1", decision=best.open.id, difficulty=1, all="approve"))
    assert best.open is None and best.said("something odd with 3 senses")
    # Version 4: the met roll is final at once, one sense.
    old = Table(5, 4)
    old.state = V4.apply(old.state, observe, old.roller, NOW).state
    old.state = V4.apply(
        old.state, u.Approve(actor="c1", decision=old.open.id, all="approve"), old.roller, NOW
    ).state
    assert old.open is None and old.state.turn == "c2"


def test_a_creature_bleeding_when_the_conflict_begins_bleeds_at_round_1s_start_from_v5() -> None:
    """ "Effect: Bleeding": "You take lose 10 vitality at the start of each round" — round 1
    too. Mira was Bleeding before the conflict began (outside one it takes its toll each
    minute the GM counts); version 5 takes her 10 as round 1 begins, before anyone's turn.
    Versions 1 to 4 started round 1 without it: her first loss came at round 2."""
    events: dict[int, list[str]] = {}
    for rules in (RULES, V4):
        state = RULES.new_encounter(name="Docks", seed=1)
        texts: list[str] = []
        for command in (
            u.AddCombatant(name="Mira", sheet=MIRA),
            u.AddCombatant(name="Thug", sheet=statblock(60), is_npc=True),
            u.SetCondition(target="c1", condition="Bleeding"),
            u.SetCondition(target="c1", condition="Bleeding"),  # level 2: 20 a round
            Begin(),
        ):
            outcome = rules.apply(state, command, ScriptedRoller([]), NOW)
            state, texts = outcome.state, [e.text for e in outcome.events]
        events[rules.version] = texts
        if rules.version >= 5:
            assert state.get("c1").health.now(RULES.tables) == 80
    began = events[RULES.version]
    bled = began.index("Mira bleeds: 20 vitality lost (vitality 80/100).")
    assert began.index("Round 1 begins: the PCs act, in any order, then the NPCs.") < bled
    assert bled < next(i for i, t in enumerate(began) if t.startswith("Round 1: Mira's turn"))
    assert not any("bleeds" in t for t in events[4])


def test_intoxicated_rerolls_6s_once_per_level_from_v5() -> None:
    """ "Effects": "Certain effects can stack, and their mechanics will apply multiple times
    if you have more than 1 level of that effect"; "Effect: Intoxicated": "must reroll all
    6s". The GM gave Mira Intoxicated twice (level 2): version 5 rerolls her 6s twice — a 6
    rerolled to a 6 is rerolled again. Versions 1 to 4 rerolled them once at any level."""
    roll = u.RollAction(actor="c1", action="climb", resources=("Lockpicks",), difficulty=1)
    faces = [6, 2, 6, 3]  # base 6 → 6 → 3; Lockpicks 2
    for rules, base in ((RULES, [6, 6, 3]), (V4, [6, 6])):
        t = Table()
        t.do(u.SetCondition(target="c1", condition="Intoxicated"))
        t.do(u.SetCondition(target="c1", condition="Intoxicated"))
        assert t.state.get("c1").effect("Intoxicated").level == 2
        t.more(*faces)
        t.state = rules.apply(t.state, roll, t.roller, NOW).state
        t.state = rules.apply(
            t.state, u.Approve(actor="c1", decision=t.open.id, all="approve"), t.roller, NOW
        ).state
        rolled = t.state.pending.roll if t.state.pending else None
        assert rolled is not None, rules.version
        die = rolled.roll.dice[0]
        assert [*die.history, die.value] == base, rules.version


def test_a_lethally_wounded_pc_mends_with_downtime_from_v5() -> None:
    """ "Wounds": "Lethal wounds reduce your max vitality by 100" — Mira's maximum is 0 and she
    is Incapacitated ("Vitality"); "Lethal and heavy wounds will need to be stabilized …
    After a day and a successful downtime action … A lethal wound will turn into a heavy
    wound." Versions 1 to 4 refused her Downtime ("cannot act"), so the only way the text
    gives a lethal wound (or a traumatic stress) to heal could never be taken. Version 5: an
    Incapacitated PC may take Downtime (the bot's reading: rest is what heals her)."""
    t = Table()
    t.do(EndTurn(actor="c1"))
    t.do(EndTurn(actor="c2"))
    t.do(u.NpcAttack(actor="c3", target="c1", attack="Cudgel"))
    t.more(1)
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))  # Roll now: no hits
    t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    assert t.said("Thug's Cudgel gives Mira a lethal wound (vitality 0/0")
    assert t.state.get("c1").has(INCAPACITATED)
    t.do(EndCombat())
    t.more(5, 6)
    t.do(u.Stabilise(actor="c2", target="c1", resources=("Field medic",), difficulty=2))
    t.do(u.Approve(actor="c2", decision=t.open.id, all="approve"))
    assert t.state.get("c1").health.unstable_lethal == 0
    downtime = u.Downtime(actor="c1", living="luxurious", resources=("Lockpicks",))
    with pytest.raises(RuleViolation, match="incapacitated and cannot act"):
        V4.apply(t.state, downtime, ScriptedRoller([]), NOW)
    t.more(5, 6)
    t.do(downtime)
    assert isinstance(t.open, ApprovalDecision) and t.open.actor == "c1"
    choices = {o.choice for o in RULES.decision_options(t.state, t.open)["c1"]}
    assert "approve:Lockpicks" in choices
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    if t.open is not None:  # nothing to gain by spending: a success
        t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    mira = t.state.get("c1")
    assert mira.health.wounds.lethal == 0 and mira.health.wounds.heavy == 1
    assert mira.health.now(RULES.tables) == 50 and not mira.has(INCAPACITATED)
    assert t.said("the heaviest wound heals a step (lethal→heavy)")


def test_an_action_roll_attack_and_defend_need_no_conflict_from_v5() -> None:
    """ "Actions": "When your character takes a notable action, your facilitator will ask you
    to roll for it" — not only in a conflict, which the facilitator calls "when there's a lot
    going on" ("Conflict"); "Defend": "This does not use your turn action while in conflict"
    (so it is taken outside one too). Stealth, Observe, Insight and the other special actions
    were taken outside a conflict, but an action roll, an Attack and an NPC's attack were
    refused ("The fight has not begun yet"). Version 5 takes them with no turn there."""
    state = RULES.new_encounter(name="Docks", seed=1)
    for command in (
        u.AddCombatant(name="Mira", sheet=MIRA),
        u.AddCombatant(name="Thug", sheet=statblock(60), is_npc=True),
    ):
        state = RULES.apply(state, command, ScriptedRoller([]), NOW).state
    climb = u.RollAction(actor="c1", action="climb", resources=("Lockpicks",), difficulty=2)
    for command in (
        climb,
        u.Attack(actor="c1", target="c2"),
        u.NpcAttack(actor="c2", target="c1", attack="Cudgel"),
    ):
        with pytest.raises(RuleViolation, match="has not begun"):
            V4.apply(state, command, ScriptedRoller([]), NOW)
    roller = ScriptedRoller([5, 6])
    t = RULES.apply(state, climb, roller, NOW).state
    t = RULES.apply(
        t, u.Approve(actor="c1", decision=t.pending.id, all="approve"), roller, NOW
    ).state
    outcome = RULES.apply(t, u.Spend(actor="c1", choice="keep", decision=t.pending.id), roller, NOW)
    assert any("Mira's climb succeeds (2 of 2 hits)" in e.text for e in outcome.events)
    t = outcome.state
    assert t.phase == "setup" and t.pending is None
    roller = ScriptedRoller([5, 6, 2])
    t = RULES.apply(
        t, u.Attack(actor="c1", target="c2", resources=("Lockpicks", "Quickblade")), roller, NOW
    ).state
    outcome = RULES.apply(
        t, u.Approve(actor="c1", decision=t.pending.id, all="approve"), roller, NOW
    )
    t = outcome.state
    if t.pending is not None:
        outcome = RULES.apply(
            t, u.Spend(actor="c1", choice="keep", decision=t.pending.id), roller, NOW
        )
        t = outcome.state
    assert any("Mira's attack gives Thug a light wound" in e.text for e in outcome.events)
    roller = ScriptedRoller([6])
    t = RULES.apply(t, u.NpcAttack(actor="c2", target="c1", attack="Cudgel"), roller, NOW).state
    assert t.pending.purpose == "defend" and t.pending.actor == "c1"
    t = RULES.apply(
        t, u.Approve(actor="c1", decision=t.pending.id, all="approve"), roller, NOW
    ).state
    outcome = RULES.apply(t, u.Spend(actor="c1", choice="keep", decision=t.pending.id), roller, NOW)
    assert any("Thug's Cudgel gives Mira a heavy wound" in e.text for e in outcome.events)
    assert outcome.state.phase == "setup"


def test_moving_needs_no_conflict_from_v5_and_grappled_still_cannot() -> None:
    """ "Move": a change of narrative position "does require an action (no roll)" — outside a
    conflict an action needs no turn (as every other action there, version 5); "Effect:
    Grappled": "You are grabbed and cannot move" there too. Versions 1 to 4 refused a move
    outside a conflict ("The fight has not begun yet")."""
    state = RULES.new_encounter(name="Docks", seed=1)
    for command in (
        u.AddCombatant(name="Mira", sheet=MIRA),
        u.AddCombatant(name="Thug", sheet=statblock(60), is_npc=True),
    ):
        state = RULES.apply(state, command, ScriptedRoller([]), NOW).state
    move = u.Move(actor="c1", changes_position=True, how="behind the crates")
    with pytest.raises(RuleViolation, match="has not begun"):
        V4.apply(state, move, ScriptedRoller([]), NOW)
    moved = RULES.apply(state, move, ScriptedRoller([]), NOW)
    assert any("Mira moves to a new position (behind the crates)" in e.text for e in moved.events)
    grabbed = RULES.apply(
        state, u.SetCondition(target="c1", condition="Grappled"), ScriptedRoller([]), NOW
    ).state
    with pytest.raises(RuleViolation, match="Grappled and cannot move"):
        RULES.apply(grabbed, move, ScriptedRoller([]), NOW)


def test_no_action_of_uunes_act_waits_for_a_conflict_from_v5() -> None:
    """The class guard: every action `/act` offers (``verbs.ACTIONS``) that a PC or an NPC
    takes is taken outside a conflict from version 5 — none answers "The fight has not begun
    yet"; a refusal may still name another reason (nothing to stabilise). Propose and Help
    join a waiting roll, and choosing the next PC is a conflict's."""
    state = RULES.new_encounter(name="Docks", seed=1)
    for command in (
        u.AddCombatant(name="Mira", sheet=MIRA),
        u.AddCombatant(name="Thug", sheet=statblock(60), is_npc=True),
    ):
        state = RULES.apply(state, command, ScriptedRoller([]), NOW).state
    actions = {
        "action": u.RollAction(actor="c1", action="climb", difficulty=1),
        "attack": u.Attack(actor="c1", target="c2"),
        "npc-attack": u.NpcAttack(actor="c2", target="c1", attack="Cudgel"),
        "move": u.Move(actor="c1", changes_position=True),
        "shift": u.Move(actor="c1", changes_position=False),
        "stealth": u.Stealth(actor="c1", crowd="one"),
        "center": u.Center(actor="c1"),
        "downtime": u.Downtime(actor="c1", living="sparse"),
        "insight": u.Insight(actor="c1", target="c2"),
        "observe": u.Observe(actor="c1", difficulty=1),
        "staunch": u.Staunch(actor="c1"),
        "stabilise": u.Stabilise(actor="c1", target="c1"),
        "passive": u.Passive(actor="c1", difficulty=1),
        "luck": u.Luck(actor="c1"),
        "bond": u.ClaimBond(actor="c1", bond="1"),
    }
    joins_or_orders = {"propose", "help", "next"}
    assert {a.key for a in verbs.ACTIONS} - joins_or_orders == set(actions)
    for key, action in actions.items():
        try:
            RULES.apply(state, action, ScriptedRoller([3] * 10), NOW)
        except RuleViolation as refused:
            assert "has not begun" not in refused.message, (key, refused.message)
    for key in ("action", "attack", "npc-attack", "move", "shift"):  # versions 1 to 4
        with pytest.raises(RuleViolation, match="has not begun"):
            V4.apply(state, actions[key], ScriptedRoller([3] * 10), NOW)
