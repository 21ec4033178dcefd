"""Uune's special actions besides Attack and Defend, the passive action, luck checks and a
bond's focus, with scripted dice (Uune SRD, ``uune-srd.txt``; headings quoted)."""

from __future__ import annotations

import pytest

from bot.engine.core.audience import PUBLIC, View
from bot.engine.core.commands import EndCombat, EndPeriod, EndTurn
from bot.engine.core.verbs import ActInput
from bot.engine.uune import commands as u
from bot.engine.uune.health import Health, Stress, Wounds
from bot.engine.uune.leveling import level_up
from bot.engine.uune.state import ApprovalDecision, SpendDecision
from bot.errors import InvalidInput, RuleViolation
from tests.engine.test_uune_engine import RULES, Table


def _keep(t: Table) -> None:
    """The roller keeps the roll waiting for spends (vitality could still reroll a miss)."""
    assert isinstance(t.open, SpendDecision)
    t.do(u.Spend(actor=t.open.actor, choice="keep", decision=t.open.id))


def _round_to_mira(t: Table) -> None:
    """End the turns after Mira's until her next round's turn."""
    while t.state.turn != "c1":
        t.do(EndTurn(actor=str(t.state.turn)))


# -- "Stealth" ------------------------------------------------------------------------------------


def test_stealth_difficulty_is_the_highest_perceptiveness_plus_the_crowd() -> None:
    """ "Stealth": the difficulty is "the highest perceptiveness score in the room; and … +1
    for a few"; a success raises the level (Observed → Hidden); Hidden gives +1 resource."""
    t = Table(5, 6, 5)
    t.do(u.Stealth(actor="c1", crowd="few", resources=("Lockpicks", "Dark cloak")))
    d = t.open
    assert isinstance(d, ApprovalDecision) and d.difficulty == 3  # Perceptiveness 2, +1
    t.do(u.Approve(actor="c1", decision=d.id, all="approve"))
    assert t.state.get("c1").stealth == "hidden"
    assert t.said("Mira is Hidden") and t.state.turn == "c2"  # the action ended the turn
    _round_to_mira(t)
    t.more(1, 6)
    t.do(u.RollAction(actor="c1", action="slip past", resources=("hidden",), difficulty=1))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    _keep(t)  # an NPC could still force a reroll of the hit die
    assert t.said("Mira's slip past succeeds (1 of 1 hits)")  # base 1 + the Hidden die 6


def test_a_failed_stealth_leaves_the_character_observed() -> None:
    """The text is silent on failure; the bot's reading: Observed."""
    t = Table(1)
    with pytest.raises(RuleViolation, match="no stealth level to keep"):
        t.do(u.Stealth(actor="c1", goal="keep"))
    t.do(u.Stealth(actor="c1", crowd="crowd"))  # 2 + 3 = 5, nothing to approve: rolls
    _keep(t)
    assert t.state.get("c1").stealth == "observed"
    assert t.said("Mira's Stealth fails (0 of 5 hits)")


# -- "Center" -------------------------------------------------------------------------------------


def test_center_gains_maximum_focus_once_a_turn_in_conflict_once_a_scene_outside() -> None:
    """ "Center": "Spend your action preparing … (no roll). … you gain your maximum focus";
    "once per scene, or once per turn while in a conflict"."""
    t = Table()
    t.do(u.Center(actor="c1"))
    assert t.state.get("c1").focus == 2 and t.state.turn == "c2"
    t.do(EndCombat())
    t.do(u.SetVitals(target="c1", focus=(0, False)))
    t.do(u.Center(actor="c1"))
    assert t.state.get("c1").focus == 2
    with pytest.raises(RuleViolation, match="once per scene"):
        t.do(u.Center(actor="c1"))
    t.do(EndPeriod(period="scene"))
    t.do(u.Center(actor="c1"))


# -- "Downtime" -----------------------------------------------------------------------------------


def _hurt(t: Table) -> None:
    m = t.state.get("c1")
    m.health = Health(current=20, wounds=Wounds(heavy=1), stress=Stress(light=1))


def test_downtime_heals_the_heaviest_wound_and_stress_a_step_and_restores_50() -> None:
    """ "Downtime": Comfortable needs 3 hits; on a success restore 50 vitality; "After a day
    and a successful downtime action, only your heaviest wound will heal" (heavy → 4 light);
    the heaviest stress heals (light → none)."""
    t = Table(5, 5, 6)
    with pytest.raises(RuleViolation, match="outside a conflict"):
        t.do(u.Downtime(actor="c1", living="comfortable"))
    t.do(EndCombat())
    _hurt(t)
    t.do(
        u.Downtime(
            actor="c1", living="comfortable", resources=("River guild runner", "Street fencing")
        )
    )
    assert t.open.difficulty == 3
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    h = t.state.get("c1").health
    assert h.wounds == Wounds(light=4) and h.stress == Stress()
    assert h.now(RULES.tables) == 60  # 20 + 50, under the maximum of 60 (100 - 4 × 10)
    assert t.said("Mira's Downtime succeeds: 50 vitality restored")


def test_a_failed_downtime_or_the_same_day_heals_no_wound() -> None:
    t = Table(1, 6, 6, 6)
    t.do(EndCombat())
    _hurt(t)
    t.do(u.Downtime(actor="c1", living="dire"))  # 5 hits, no resource: rolls at once
    _keep(t)
    assert t.said("Mira's Downtime fails") and t.state.get("c1").health.wounds.heavy == 1
    t.do(
        u.Downtime(
            actor="c1", living="luxurious", a_day_passed=False, resources=("Street fencing",)
        )
    )
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    h = t.state.get("c1").health
    assert h.wounds.heavy == 1 and h.stress == Stress()  # stress heals without the day


def test_stabilising_lets_a_heavy_wound_mend_with_downtime() -> None:
    """ "Wounds": "Lethal and heavy wounds will need to be stabilized by a medic or healer
    before they will mend" — the bot's reading: an action roll at the GM's difficulty; success
    stabilises every lethal and heavy wound of the target; in a conflict the turn's action."""
    t = Table(5, 1, 5, 6)
    t.do(EndTurn(actor="c1"))  # Tobin's turn
    with pytest.raises(RuleViolation, match="no lethal or heavy wound waiting"):
        t.do(u.Stabilise(actor="c2", target="c1"))
    m = t.state.get("c1")
    m.health = Health(current=40, wounds=Wounds(heavy=1), unstable_heavy=1)
    with pytest.raises(RuleViolation, match="NPCs never roll"):
        t.do(u.Stabilise(actor="c3", target="c1"))
    t.do(u.Stabilise(actor="c2", target="c1", resources=("Field medic",)))
    assert isinstance(t.open, ApprovalDecision) and t.open.difficulty is None
    t.do(u.Approve(actor="c2", decision=t.open.id, difficulty=3, all="approve"))
    _keep(t)  # 5, 1: one hit of three
    assert t.said("Tobin fails to stabilise Mira's wounds (1 of 3 hits).")
    assert t.state.get("c1").health.unstable_heavy == 1
    assert t.state.turn != "c2"  # it was his action
    t.do(EndCombat())
    t.do(u.Stabilise(actor="c2", target="c1", resources=("Field medic",), difficulty=2))
    t.do(u.Approve(actor="c2", decision=t.open.id, all="approve"))  # 5, 6: two hits
    assert t.said("Tobin stabilises Mira's wounds (2 of 2 hits): they will mend with Downtime.")
    assert t.state.get("c1").health.unstable_heavy == 0


# -- "Insight", "Observe" -------------------------------------------------------------------------


def test_insight_meets_the_npcs_social_for_a_rough_emotion() -> None:
    """ "Insight": "If the number of hits you get meet or exceed an NPC's social score … the
    facilitator will give you a rough emotion"."""
    t = Table(5, 6)
    t.do(u.Insight(actor="c1", target="c3", resources=("Street fencing",)))
    assert t.open.difficulty == 2  # the Thug's Social
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    _keep(t)  # the Thug could still force a reroll of a hit die
    assert t.said("Mira catches Thug's body language")
    with pytest.raises(RuleViolation, match="is a PC"):
        t.do(u.Insight(actor="c2", target="c1"))


def test_observe_counts_senses_by_hits_over_the_gms_difficulty() -> None:
    """ "Observe": "Meet: One sense. 1 over: Two senses." The GM names the difficulty."""
    t = Table(6, 6)
    t.do(u.Observe(actor="c1", what="the crates", resources=("Lockpicks",)))
    d = t.open
    assert d.difficulty is None
    assert "difficulty:1" in {o.choice for o in RULES.decision_options(t.state, d)["c1"]}
    t.do(u.Approve(actor="c1", decision=d.id, difficulty=1, all="approve"))
    assert t.said("something odd with 2 senses")


# -- "Effect: Bleeding" (staunch), passive actions, luck ------------------------------------------


def test_staunching_ends_bleeding_and_costs_the_action() -> None:
    """ "Effect: Bleeding": "You may spend an action (no roll) to staunch the wound"."""
    t = Table()
    with pytest.raises(RuleViolation, match="not Bleeding"):
        t.do(u.Staunch(actor="c1"))
    t.do(u.SetCondition(target="c1", condition="Bleeding"))
    t.do(u.Staunch(actor="c1"))
    assert t.state.get("c1").effect("Bleeding") is None and t.state.turn == "c2"


def test_a_passive_action_counts_a_third_of_the_resources_without_a_roll() -> None:
    """ "What are Passive Actions?": "counting 1/3 of them as hits" — Mira's 6 resources give 2
    hits; no dice, no action."""
    t = Table()
    t.do(u.Passive(actor="c1", difficulty=2, what="spot the ambush"))
    assert t.said("Mira's passive spot the ambush succeeds: a third of 6 resources is 2 hits")
    t.do(u.SetCondition(target="c1", condition="Impaired"))
    t.do(u.Passive(actor="c1", difficulty=2))
    assert t.said("fails: a third of 6 resources is 2 hits, 3 needed")
    assert t.state.turn == "c1" and t.state.get("c1").pools["turn"] == 1
    # an NPC's: refused, the action named mid-sentence in lower case
    with pytest.raises(RuleViolation, match=r"NPCs never roll \(a passive action is a PC's"):
        t.do(u.Passive(actor="c3", difficulty=2))


def test_luck_checks_take_the_better_or_worse_and_both_cancel() -> None:
    """ "Luck Checks" for an NPC's uncertain action ("General NPC Guideines")."""
    t = Table(2, 5, 2, 5, 3)
    t.do(u.Luck(actor="c3", what="the rope holds", advantage=True))
    assert t.said("with advantage: 2, 5 (kept 5) — succeeds")
    t.do(u.Luck(actor="c3", disadvantage=True))
    assert t.said("with disadvantage: 2, 5 (kept 2) — fails")
    t.do(u.Luck(actor="c3", advantage=True, disadvantage=True))
    assert t.said("attempt: 3 (kept 3) — fails")


# -- "Bonds" --------------------------------------------------------------------------------------


def test_acting_on_a_bond_gains_a_point_of_focus_once_a_scene_when_the_gm_grants_it() -> None:
    """ "Bonds": "Once per scene, when your character acts on a bond, they gain a point of
    focus" — the player claims it, the GM grants it with the approval's buttons."""
    t = Table()
    t.do(u.ClaimBond(actor="c1", bond="pay back"))
    d = t.open
    assert isinstance(d, ApprovalDecision) and d.purpose == "bond"
    choices = {o.choice for o in RULES.decision_options(t.state, d)["c1"]}
    words = RULES.decision_words(t.state, d, {}, View(t.state, PUBLIC, wound_level=str))
    assert "grant Mira a point of focus for acting on Bond 1" in words.ask
    assert "all:standing" not in choices and any(c.startswith("approve:Bond 1") for c in choices)
    with pytest.raises(RuleViolation, match="before the roll"):
        t.do(u.Propose(actor="c1", decision=d.id, resources=("Quickblade",)))
    with pytest.raises(RuleViolation, match="before it is rolled"):
        t.do(u.Help(actor="c2", decision=d.id, resources=("Herbalist",)))
    t.do(u.Approve(actor="c1", decision=d.id, all="approve"))
    assert t.state.get("c1").focus == 1 and t.said("gains a point of focus (1/2)")
    with pytest.raises(RuleViolation, match="this scene"):
        t.do(u.ClaimBond(actor="c1", bond="2"))
    t.do(EndPeriod(period="scene"))
    t.do(u.ClaimBond(actor="c1", bond="2"))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="refuse"))
    assert t.state.get("c1").focus == 1 and t.said("does not grant Mira focus")
    t.do(u.ClaimBond(actor="c1", bond="2"))
    t.do(RULES.lapse(t.state))  # the window ran out: refused
    assert t.state.decisions == [] and t.state.get("c1").focus == 1
    with pytest.raises(InvalidInput, match="no such bond"):
        t.do(u.ClaimBond(actor="c1", bond="9"))


# -- /act -----------------------------------------------------------------------------------------


def test_act_reads_the_special_actions_options() -> None:
    t = Table()
    me = t.state.get("c1")

    def act(key: str, detail: str | None = None, amount: float | None = None) -> object:
        return RULES.act(t.state, me, ActInput(key=key, detail=detail, amount=amount))

    assert act("stealth", "few keep: Lockpicks") == u.Stealth(
        actor="c1", crowd="few", goal="keep", resources=("Lockpicks",)
    )
    assert act("downtime", "sparse same-day: Grit") == u.Downtime(
        actor="c1", living="sparse", a_day_passed=False, resources=("Grit",)
    )
    assert act("luck", "both: the bridge holds") == u.Luck(
        actor="c1", what="the bridge holds", advantage=True, disadvantage=True
    )
    assert act("observe", "the door: Lockpicks", 2) == u.Observe(
        actor="c1", what="the door", difficulty=2, resources=("Lockpicks",)
    )
    assert act("passive", amount=3) == u.Passive(actor="c1", difficulty=3)
    for key, detail, error in [
        ("stealth", "huge", "the crowd"),
        ("downtime", "palace", "living conditions"),
        ("luck", "maybe: x", "advantage"),
        ("passive", None, "amount"),
        ("bond", None, "detail"),
    ]:
        with pytest.raises(InvalidInput, match=error):
            act(key, detail)


# -- "Leveling" -----------------------------------------------------------------------------------


def test_a_level_up_raises_the_sheets_level_and_says_what_it_gains() -> None:
    """ "Leveling": "increase your characters level on their sheet and add additional items as
    dictated by the table" — read as totals: level 2 adds a proficiency point, level 3 a
    shtick point, level 9 a shtick point, an experience and a bond."""
    t = Table()
    t.do(u.LevelUp(target="c1"))
    assert t.state.get("c1").sheet.level == 2
    assert t.said("Mira reaches level 2: 1 proficiency point to place on the sheet")
    t.do(u.LevelUp(target="c1"))
    assert t.said("reaches level 3: 1 shtick point to place")
    sheet = t.state.get("c1").sheet.model_copy(update={"level": 8})
    eight, gains = level_up(sheet, RULES.tables)
    assert eight.level == 9 and gains.words() == "1 shtick point, 1 experience, 1 bond"
    with pytest.raises(RuleViolation, match="stops at 24"):
        level_up(sheet.model_copy(update={"level": 24}), RULES.tables)
    with pytest.raises(RuleViolation, match="statblocks have no level"):
        t.do(u.LevelUp(target="c3"))


def test_a_passive_action_or_luck_check_without_words_reads_as_a_sentence() -> None:
    """Without a ``what``, the notes read "Mira's passive a passive action fails" and "Luck
    check for Dock Thug's a luck check": the default doubled the sentence's own noun."""
    t = Table(4)
    t.do(u.Passive(actor="c1", difficulty=9))
    assert t.said("Mira's passive check fails: a third of 6 resources is 2 hits, 9 needed")
    t.do(u.Luck(actor="c3"))
    assert not t.said("a luck check") and not t.said("passive a passive")
    assert t.said("'s attempt: 4 (kept 4) — succeeds.")
