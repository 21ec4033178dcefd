"""Uune's engine, rule by rule, with scripted dice (Uune SRD, ``uune-srd.txt``; headings
quoted). These drive :class:`~bot.engine.uune.ruleset.UuneRuleset` directly."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.core.commands import Begin, CommandBase, EndCombat, EndPeriod, EndTurn, Rest
from bot.engine.core.dice import ScriptedRoller
from bot.engine.uune import commands as u
from bot.engine.uune.ruleset import UuneRuleset
from bot.engine.uune.state import INCAPACITATED, ApprovalDecision, SpendDecision, UuneState
from bot.errors import DomainError, InvalidInput, RuleViolation
from tests.contract.harness_uune import MIRA, TOBIN, statblock
from tests.engine.helpers import NOW

RULES = UuneRuleset()


class Table:
    """A Uune fight: Mira (c1) and Tobin (c2) against Thug (c3) and Brute (c4)."""

    def __init__(self, *dice: int, npcs: int = 2) -> None:
        self.roller = ScriptedRoller(list(dice))
        self.state: UuneState = RULES.new_encounter(name="Docks", seed=1)
        self.texts: list[str] = []
        self.do(u.AddCombatant(name="Mira", sheet=MIRA))
        self.do(u.AddCombatant(name="Tobin", sheet=TOBIN))
        for i, name in enumerate(["Thug", "Brute"][:npcs]):
            self.do(u.AddCombatant(name=name, sheet=statblock(60 + i), is_npc=True))
        self.do(Begin())

    def do(self, command: CommandBase) -> UuneState:
        outcome = RULES.apply(self.state, command, self.roller, NOW)
        self.state = outcome.state
        self.texts += [e.text for e in outcome.events]
        return self.state

    def more(self, *dice: int) -> None:
        self.roller = ScriptedRoller(list(dice))

    @property
    def open(self) -> Any:
        return self.state.pending

    def said(self, fragment: str) -> bool:
        return any(fragment in t for t in self.texts)


# -- "Conflict" -----------------------------------------------------------------------------------


def test_every_pc_then_the_npcs_and_the_players_choose_who_goes_next() -> None:
    """ "Conflict": every PC takes a turn in any order, then the NPCs; the players choose
    which PC goes next (the GM can set it), never an NPC nor a PC who already went."""
    t = Table()
    assert t.state.order == ["c1", "c2", "c3", "c4"] and t.state.turn == "c1"
    with pytest.raises(RuleViolation, match="NPCs act after every PC"):
        t.do(u.ChooseNext(actor="c1", next="c3"))
    t.do(u.Move(actor="c1", changes_position=True, how="behind the crates"))
    assert t.state.turn == "c2"  # the move was Mira's action: her turn ended with it
    with pytest.raises(RuleViolation, match="already took a turn"):
        t.do(u.ChooseNext(actor="c2", next="c1"))


def test_choosing_the_next_pc_reorders_the_round() -> None:
    t = Table(npcs=1)
    t.do(u.AddCombatant(name="Wren", sheet=MIRA.model_copy(update={"name": "Wren"})))
    # Wren joined during the fight: after the last PC, before the NPC.
    assert [t.state.get(x).name for x in t.state.order] == ["Mira", "Tobin", "Wren", "Thug"]
    t.do(u.ChooseNext(actor="c2", next="Wren"))
    t.do(EndTurn(actor="c1"))
    assert t.state.get(str(t.state.turn)).name == "Wren"


def test_one_action_per_turn_and_free_movement() -> None:
    """ "Conflict"/"Move": one action per turn; movement that keeps the narrative position is
    free; changing position costs the action (no roll)."""
    t = Table()
    t.do(u.Move(actor="c1", changes_position=False, how="steps aside"))
    assert t.state.turn == "c1" and t.state.get("c1").pools["turn"] == 1
    assert t.said("(free)")
    with pytest.raises(RuleViolation, match="turn, not Tobin's"):
        t.do(u.RollAction(actor="c2", action="climb", difficulty=1))


# -- "Actions": approval, the roll, spends ------------------------------------------------------


def test_the_gm_approves_one_resource_and_refuses_another_then_the_roll_counts_hits() -> None:
    """ "Actions": the GM names the difficulty and approves resources; roll 1d6 plus 1d6 per
    approved resource; 5s and 6s are hits; meet or beat the difficulty."""
    t = Table(6, 5)
    t.do(u.RollAction(actor="c1", action="leap the gap", resources=("Quickblade", "Lockpicks")))
    d = t.open
    assert isinstance(d, ApprovalDecision) and d.stage == "before_roll" and d.difficulty is None
    options = RULES.decision_options(t.state, d)["c1"]
    assert {"difficulty:2", "approve:Quickblade", "refuse:Lockpicks"} <= {o.choice for o in options}
    t.do(u.Approve(actor="c1", decision=d.id, difficulty=2, approve=("Quickblade",)))
    assert isinstance(t.open, ApprovalDecision)  # Lockpicks still undecided
    t.do(u.Approve(actor="c1", decision=t.open.id, refuse=("Lockpicks",)))
    assert t.said("The GM refuses Lockpicks")
    # Two dice (the base and Quickblade), both hits: a success; the NPCs may still force a
    # reroll of a hit die, so the roll waits for its spends.
    s = t.open
    assert isinstance(s, SpendDecision) and s.stage == "after_roll"
    assert [x.value for x in s.roll.roll.dice] == [6, 5] and s.roll.success
    t.do(u.Spend(actor="c1", choice="keep", decision=s.id))
    assert t.said("Mira's leap the gap succeeds (2 of 2 hits)")
    assert t.state.turn == "c2"  # the action ended the turn


def test_standing_approval_lasts_the_scene() -> None:
    """The GM's option to approve standing resources once per scene (issue 14)."""
    t = Table(6, 6, 1, 1)
    t.do(u.RollAction(actor="c1", action="fence", resources=("Quickblade",), difficulty=1))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve", standing=True))
    assert t.state.get("c1").standing == ("Quickblade",)
    t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    t.do(EndPeriod(period="scene"))
    assert t.state.get("c1").standing == ()


def test_nothing_to_decide_rolls_at_once_and_nothing_to_spend_resolves_at_once() -> None:
    """Choices with only one sensible answer resolve at once: no resource and a named
    difficulty need no approval; a miss with no focus, too little vitality to spend and no
    hit die for an NPC to force needs no spend decision."""
    t = Table(2)
    t.do(u.SetVitals(target="c1", vitality=(4, False)))
    t.do(u.RollAction(actor="c1", action="shove", difficulty=1))
    assert t.state.decisions == []
    assert t.said("Mira's shove fails (0 of 1 hits)")


def test_focus_forces_a_resource_die_and_vitality_bumps_and_rerolls() -> None:
    """ "Focus": a point forces a resource to hit. "Vitality": 10 bumps a die by 1; 5
    rerolls one."""
    t = Table()
    t.do(u.ChooseNext(actor="c1", next="c2"))
    t.do(EndTurn(actor="c1"))
    t.more(1, 2, 4)
    t.do(
        u.RollAction(
            actor="c2", action="mend", resources=("Field medic", "Herbalist"), difficulty=3
        )
    )
    t.do(u.Approve(actor="c2", decision=t.open.id, all="approve"))
    s = t.open
    assert [x.value for x in s.roll.roll.dice] == [1, 2, 4]
    choices = {o.choice for o in RULES.decision_options(t.state, s)["c2"]}
    assert {"focus_force:2", "focus_reroll:2,3", "vitality_bump:3", "vitality_reroll:1"} <= choices
    t.do(u.Spend(actor="c2", choice="focus_force", dice=(2,), decision=s.id))
    assert t.state.get("c2").focus == 1
    t.do(u.Spend(actor="c2", choice="vitality_bump", dice=(3,), decision=t.open.id))
    assert t.state.get("c2").health.now(RULES.tables) == 90
    t.more(6)
    t.do(u.Spend(actor="c2", choice="vitality_reroll", dice=(1,), decision=t.open.id))
    assert t.state.get("c2").health.now(RULES.tables) == 85
    # 3 hits of 3: a success the NPCs could still spoil, so it waits; keep it.
    t.do(u.Spend(actor="c2", choice="keep", decision=t.open.id))
    assert t.said("Tobin's mend succeeds (3 of 3 hits)")


def test_a_spend_that_cannot_be_paid_is_refused_before_a_die_is_rolled() -> None:
    t = Table(1, 1)
    t.do(u.RollAction(actor="c1", action="climb", resources=("Quickblade",), difficulty=2))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    before = t.state
    with pytest.raises(InvalidInput, match="costs 1 focus; Mira has 0"):
        t.do(u.Spend(actor="c1", choice="focus_reroll", dice=(2,), decision=t.open.id))
    assert t.state is before


def test_an_npc_forces_a_reroll_of_a_hit_die() -> None:
    """ "General NPC Guideines": NPCs spend vitality to force a PC to reroll a hit die (the
    text gives no cost: the tables' default)."""
    t = Table(5, 6, 1)
    t.do(u.Attack(actor="c1", target="c3", resources=("Quickblade",)))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    s = t.open
    assert "npc_reroll:1" in {o.choice for o in RULES.decision_options(t.state, s)["c3"]}
    t.do(u.Spend(actor="c3", choice="npc_reroll", dice=(2,), decision=s.id))
    cost = RULES.tables.npc_forced_reroll.vitality
    assert t.state.get("c3").health.now(RULES.tables) == 60 - cost
    assert [x.value for x in t.open.roll.roll.dice] == [5, 1]


def test_help_adds_another_pcs_hits() -> None:
    """ "Help": roll your own resources as they apply and add your hits to the other PC's."""
    t = Table(1, 5, 6)
    t.do(u.RollAction(actor="c1", action="force the door", resources=("Quickblade",), difficulty=2))
    t.do(u.Help(actor="c2", resources=("Herbalist",), decision=t.open.id))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    s = t.open
    # Mira: [1] [5] = 1 hit; Tobin: [6] (Herbalist: a helper has no base die) = 1 hit added.
    assert s.roll.hits == 2 and s.roll.help == 1 and s.roll.success


# -- "Attack" and "Defend" ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "wound"),
    [((5, 6, 1), "heavy"), ((5, 6, 6, 6), "lethal"), ((5, 1, 1), "light"), ((1, 1, 1), "fail")],
)
def test_attack_outcomes(dice: tuple[int, ...], wound: str) -> None:
    """ "Attack": succeed → heavy wound; double the required hits → lethal; miss by 1 → light;
    otherwise fail. The Dock Thug's Defensiveness is 3 — here 2 (GM-edited statblock)."""
    t = Table(*dice)
    t.state = t.state.model_copy(deep=True)
    thug = t.state.get("c3")
    thug.sheet = thug.sheet.model_copy(update={"defensiveness": 2})
    resources = ("Quickblade", "Twin short blades", "Lockpicks")[: len(dice) - 1]
    t.do(u.Attack(actor="c1", target="c3", resources=resources))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    if t.open is not None:
        t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    w = t.state.get("c3").health.wounds
    got = {"heavy": w.heavy, "lethal": w.lethal, "light": w.light}
    if wound == "fail":
        assert got == {"heavy": 0, "lethal": 0, "light": 0} and t.said("fails")
    else:
        assert got[wound] == 1 and sum(got.values()) == 1


def test_defend_fail_by_one_is_a_light_wound_and_takes_no_turn_action() -> None:
    """ "Defend": it does not use the turn action; the defender rolls against the attack's
    difficulty; fail by 1 → light wound."""
    t = Table()
    for pc in ("c1", "c2"):
        t.do(EndTurn(actor=pc))
    assert t.state.turn == "c3"
    t.do(u.NpcAttack(actor="c3", target="c1", attack="Cudgel"))  # difficulty 3
    d = t.open
    assert isinstance(d, ApprovalDecision) and d.purpose == "defend" and d.difficulty == 3
    t.do(u.Propose(actor="c1", resources=("Quickblade", "Street fencing"), decision=d.id))
    t.more(5, 6, 2)
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))
    s = t.open
    assert isinstance(s, SpendDecision) and s.roll.hits == 2
    t.do(RULES.lapse(t.state, s))  # the window runs out: the roll stands
    assert t.state.get("c1").health.wounds.light == 1
    assert t.state.get("c1").health.now(RULES.tables) == 90
    assert t.state.get("c1").pools["turn"] == 1  # Defend used no action
    assert t.state.turn == "c4"  # the attack was the Thug's action


def test_defend_with_no_hits_is_a_lethal_wound() -> None:
    t = Table(1)
    for pc in ("c1", "c2"):
        t.do(EndTurn(actor=pc))
    t.do(u.NpcAttack(actor="c3", target="c1", attack="Thrown bottle"))
    t.do(u.Approve(actor="c1", decision=t.open.id, all="approve"))  # "Roll now"
    t.do(u.Spend(actor="c1", choice="keep", decision=t.open.id))
    assert t.state.get("c1").health.wounds.lethal == 1
    assert t.state.turn == "c4"  # the attack was the Thug's action


def test_zero_vitality_is_incapacitated_and_out_of_the_order() -> None:
    """ "Vitality": at zero vitality a character is incapacitated and cannot act."""
    t = Table()
    t.do(u.SetVitals(target="c2", vitality=(0, False)))
    assert t.state.get("c2").has(INCAPACITATED)
    t.do(EndTurn(actor="c1"))
    assert t.state.turn == "c3"
    t.do(u.SetVitals(target="c2", vitality=(30, False)))
    assert not t.state.get("c2").has(INCAPACITATED)


def test_status_hides_an_npcs_numbers() -> None:
    t = Table()
    thug = t.state.get("c3")
    assert RULES.status(thug, revealed=False, compact=False, in_fight=True) == ["Unhurt"]
    shown = RULES.status(t.state.get("c1"), revealed=True, compact=False, in_fight=True)
    assert shown[:4] == ["Vitality 100/100", "Wounds 0/0/0", "Stress 0/0/0", "Focus 0"]


def test_npcs_never_roll() -> None:
    t = Table()
    with pytest.raises(DomainError, match="NPCs never roll"):
        RULES.apply(t.state, u.RollAction(actor="c3", action="x", difficulty=1), t.roller, NOW)


def test_rests_are_refused_by_name_until_downtime() -> None:
    """Uune heals through "Downtime", not rests or weeks."""
    t = Table()
    t.do(EndCombat())
    with pytest.raises(RuleViolation, match="Downtime"):
        t.do(Rest(rest="long"))
    with pytest.raises(InvalidInput, match="Downtime"):
        RULES.rest_command("short")


def test_a_vital_set_out_of_range_is_refused_saying_so() -> None:
    """``/gm vital vitality:-99999`` was refused with "Mira's vitality goes from 0 to 100." —
    which reads as if it had changed. The refusal says what the range is and what was asked,
    and nothing changes."""
    t = Table()
    before = t.state.get("c1").health
    with pytest.raises(InvalidInput) as refused:
        t.do(u.SetVitals(target="c1", vitality=(-99999, True)))
    assert (
        str(refused.value) == "Mira's vitality stays within 0 and 100; that would make it -99899."
    )
    with pytest.raises(InvalidInput) as refused:
        t.do(u.SetVitals(target="c1", focus=(50, False)))
    assert str(refused.value) == "Mira's focus stays within 0 and 2; that would make it 50."
    assert t.state.get("c1").health == before and t.state.get("c1").focus == 0
