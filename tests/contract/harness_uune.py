"""Uune's side of the contract suite (``HARNESSES`` in ``tests/contract/harness.py``, run by
``tests/contract/test_ruleset_contract.py``): sheets, setup and a drawer of every Uune
command kind, aimed at the fight as it stands — open approvals and spends answered most of
the time, by the right combatant or not."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel

from bot.engine.core.commands import (
    Begin,
    ChangeSettings,
    CommandBase,
    Disengage,
    EndCombat,
    EndPeriod,
    EndTurn,
    Engage,
    MoveInOrder,
    NaturalHealing,
    NextTurn,
    RemoveCombatant,
    Rest,
    SetDistance,
    SkipTurn,
)
from bot.engine.core.events import ActionsSpent, AttackDeclared, Event, Moved
from bot.engine.core.state import CombatantBase
from bot.engine.uune import commands as u
from bot.engine.uune.health import COUNT_MAX
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import EFFECTS, INCAPACITATED, ApprovalDecision, SpendDecision

Draw = Any
SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets" / "uune"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHEETS / f"{name}.json").read_text())
    return data


MIRA = UuneSheet.model_validate(_load("mira"))
TOBIN = UuneSheet.model_validate(_load("tobin"))
THUG = _load("dock-thug")
RESOURCES = ["Quickblade", "Twin short blades", "Lockpicks", "Street fencing", "Nope"]


def statblock(vitality: int) -> UuneStatblock:
    """The Dock Thug with distinctive vitality (≥ 100: a number the public never reads)."""
    return UuneStatblock.model_validate({**THUG, "vitality": vitality})


UUNE_KINDS = (
    "add_combatant",
    "approve",
    "attack",
    "begin",
    "center",
    "change_settings",
    "choose_next",
    "claim_bond",
    "downtime",
    "insight",
    "level_up",
    "luck",
    "observe",
    "passive",
    "stealth",
    "staunch",
    "stabilise",
    "disengage",
    "end_combat",
    "end_period",
    "end_turn",
    "engage",
    "help",
    "move",
    "move_in_order",
    "next_turn",
    "natural_healing",
    "npc_attack",
    "propose",
    "remove_combatant",
    "rest",
    "roll_action",
    "set_condition",
    "set_distance",
    "set_vitals",
    "skip_turn",
    "take_harm",
    "time_passes",
    "spend",
)
WEIGHTED = (
    tuple(k for k in UUNE_KINDS if k not in ("end_combat", "remove_combatant", "add_combatant")) * 2
    + ("end_combat", "remove_combatant", "add_combatant")
    + ("attack", "npc_attack", "roll_action") * 8
    + ("end_turn", "help") * 3
    + ("set_condition", "stealth", "insight", "staunch") * 2
)


@dataclass
class UuneHarness:
    """Uune (``uune-srd.txt``) for the contract suite."""

    pool_states = (r"\bno (lethal|heavy|light|mild)? ?(or \w+ )?wound", r"\b(no|full) vitality\b")

    key: str = "uune"

    def sheets(self) -> st.SearchStrategy[BaseModel]:
        return st.sampled_from([MIRA, TOBIN])

    def example_sheet(self) -> BaseModel:
        return MIRA

    def details(self) -> list[str]:
        return ["Quickblade", "climb: Lockpicks", "Cudgel", "into melee", "Nope", ""]

    def setup(self, party: list[BaseModel], npcs: list[bool]) -> list[CommandBase]:
        return [
            u.AddCombatant(
                name=f"F{i}",
                sheet=statblock(150 + 7 * i) if npc else sheet,  # type: ignore[arg-type]
                is_npc=npc,
            )
            for i, (sheet, npc) in enumerate(zip(party, npcs, strict=True))
        ] + [Begin()]

    def command(self, state: Any, draw: Draw) -> CommandBase:
        ids = [c.id for c in state.combatants] or ["c1"]
        anyone = draw(st.sampled_from(ids))
        me = state.turn or anyone
        foes = [c.id for c in state.combatants if c.is_npc != state.get(me).is_npc] or ids
        other = draw(st.sampled_from([*foes, *foes, *foes, anyone]))
        p = state.pending
        if isinstance(p, ApprovalDecision) and draw(st.integers(0, 9)) < 8:
            return u.Approve(
                actor=draw(st.sampled_from([p.actor, p.actor, anyone])),
                difficulty=draw(st.sampled_from([None, 0, 2, 5])),
                all=draw(st.sampled_from([None, "approve", "refuse"])),
                standing=draw(st.booleans()),
                approve=tuple(p.undecided()[:1]) if draw(st.booleans()) else (),
                lapsed=draw(st.integers(0, 9)) == 0,
            )
        if isinstance(p, SpendDecision) and draw(st.integers(0, 9)) < 8:
            return u.Spend(
                actor=draw(st.sampled_from([p.actor, p.actor, anyone])),
                choice=draw(
                    st.sampled_from(
                        [
                            "keep",
                            "keep",
                            "focus_force",
                            "focus_reroll",
                            "vitality_reroll",
                            "vitality_bump",
                            "npc_reroll",
                        ]
                    )
                ),
                dice=tuple(draw(st.lists(st.integers(1, 4), max_size=2))),
            )
        return uune_command(draw(st.sampled_from(WEIGHTED)), state, draw, me, anyone, other)

    def actor_of(self, event: Event) -> str | None:
        if isinstance(event, ActionsSpent | AttackDeclared | Moved):
            return event.combatant
        return None

    def is_out(self, combatant: CombatantBase) -> bool:
        return combatant.has(INCAPACITATED)

    def hidden_numbers(self, state: Any) -> set[int]:
        out: set[int] = set()
        for c in state.combatants:
            if c.is_npc:
                h = c.health
                out |= {c.sheet.vitality, h.base, h.current or 0}
        return {n for n in out if abs(n) >= 100}


def uune_command(
    kind: str, state: Any, draw: Draw, me: str, anyone: str, other: str
) -> CommandBase:
    """One Uune command of ``kind`` (see :data:`UUNE_KINDS`)."""
    resources = tuple(draw(st.lists(st.sampled_from(RESOURCES), max_size=2, unique=True)))
    simple: dict[str, Any] = {
        "begin": Begin,
        "end_combat": EndCombat,
    }
    if kind in simple:
        return simple[kind]()  # type: ignore[no-any-return]
    if kind == "add_combatant":
        npc = draw(st.booleans())
        sheet = statblock(200 + len(state.combatants)) if npc else MIRA
        return u.AddCombatant(name=f"Late {len(state.combatants)}", sheet=sheet, is_npc=npc)
    if kind == "approve":
        return u.Approve(actor=anyone, all="approve", difficulty=draw(st.sampled_from([None, 3])))
    if kind == "attack":
        return u.Attack(
            actor=draw(st.sampled_from([me, me, anyone])), target=other, resources=resources
        )
    if kind == "npc_attack":
        return u.NpcAttack(
            actor=draw(st.sampled_from([me, me, anyone])),
            target=other,
            attack=draw(st.sampled_from(["Cudgel", "Thrown bottle", "Nope"])),
        )
    if kind == "roll_action":
        return u.RollAction(
            actor=draw(st.sampled_from([me, me, anyone])),
            action="climb",
            resources=resources,
            difficulty=draw(st.sampled_from([None, 0, 1, 4])),
        )
    if kind == "help":
        return u.Help(actor=anyone, resources=resources)
    if kind == "propose":
        return u.Propose(actor=anyone, resources=resources or ("Quickblade",))
    if kind == "spend":
        return u.Spend(actor=anyone, choice="keep")
    if kind == "choose_next":
        return u.ChooseNext(actor=draw(st.sampled_from([me, anyone])), next=other)
    if kind == "move":
        return u.Move(
            actor=draw(st.sampled_from([me, anyone])), changes_position=draw(st.booleans())
        )
    if kind == "change_settings":
        return ChangeSettings(
            npcs_react=draw(st.booleans()),
            hide_npc_numbers=draw(st.booleans()),
            interleaved=draw(st.sampled_from([None, None, True])),
        )
    if kind == "disengage":
        return Disengage(combatant=anyone)
    if kind == "end_period":
        return EndPeriod(period=draw(st.sampled_from(["scene", "day"])))
    if kind == "end_turn":
        return EndTurn(actor=draw(st.sampled_from([me, anyone])))
    if kind == "engage":
        return Engage(a=me, b=other)
    if kind == "move_in_order":
        return MoveInOrder(target=anyone, position=draw(st.integers(1, max(1, len(state.order)))))
    if kind == "next_turn":
        return NextTurn(for_turn=state.turn_seq - draw(st.sampled_from([0, 0, 1])))
    if kind == "remove_combatant":
        return RemoveCombatant(combatant=anyone)
    if kind == "set_condition":
        return u.SetCondition(
            target=anyone,
            condition=draw(st.sampled_from(["Incapacitated", "Nope", *EFFECTS, "Impared"])),
            present=draw(st.integers(0, 3)) > 0,
            lasts=draw(st.sampled_from(["until_removed", "scene", "day", "end_of_next_turn"])),
        )
    if kind == "take_harm":
        harm = draw(st.sampled_from(["wound", "stress"]))
        return u.TakeHarm(
            target=anyone,
            harm=harm,
            severity=draw(
                st.sampled_from(["heavy", "light", "lethal" if harm == "wound" else "traumatic"])
            ),
            # COUNT_MAX: twice on one count passes what a campaign record holds (attack 18).
            amount=draw(st.sampled_from([1, 2, 0, -1, COUNT_MAX])),
            relative=draw(st.booleans()),
        )
    if kind == "set_distance":
        return SetDistance(a=me, b=other, meters=draw(st.sampled_from([0.5, 1, 5])))
    if kind == "set_vitals":
        return u.SetVitals(
            target=anyone,
            vitality=(-draw(st.integers(0, 80)), True),
            focus=draw(st.sampled_from([None, (1, False), (5, False)])),
        )
    if kind == "time_passes":
        return u.TimePasses(minutes=draw(st.integers(1, 3)))
    if kind == "skip_turn":
        return SkipTurn(target=anyone)
    if kind == "rest":
        return Rest(rest=draw(st.sampled_from(["short", "long"])))
    if kind == "natural_healing":
        return NaturalHealing(weeks=draw(st.integers(1, 3)))
    return special_command(kind, draw, me, anyone, other, resources)


def special_command(
    kind: str, draw: Draw, me: str, anyone: str, other: str, resources: tuple[str, ...]
) -> CommandBase:
    """One of Uune's special actions, the passive action, luck and a bond's focus."""
    actor = draw(st.sampled_from([me, me, anyone]))
    if kind == "stealth":
        return u.Stealth(
            actor=actor,
            crowd=draw(st.sampled_from(["one", "few", "group", "crowd"])),
            goal=draw(st.sampled_from(["raise", "keep"])),
            resources=resources,
        )
    if kind == "center":
        return u.Center(actor=actor)
    if kind == "downtime":
        return u.Downtime(
            actor=actor,
            living=draw(st.sampled_from(["luxurious", "comfortable", "sparse", "dire"])),
            a_day_passed=draw(st.booleans()),
            resources=resources,
        )
    if kind == "insight":
        return u.Insight(actor=actor, target=other, resources=resources)
    if kind == "observe":
        return u.Observe(
            actor=actor, difficulty=draw(st.sampled_from([None, 1, 3])), resources=resources
        )
    if kind == "staunch":
        return u.Staunch(actor=actor)
    if kind == "stabilise":
        return u.Stabilise(
            actor=actor,
            target=draw(st.sampled_from([me, anyone, other])),
            resources=resources,
            difficulty=draw(st.sampled_from([None, 2])),
        )
    if kind == "passive":
        return u.Passive(actor=actor, difficulty=draw(st.integers(0, 4)))
    if kind == "luck":
        return u.Luck(actor=actor, advantage=draw(st.booleans()), disadvantage=draw(st.booleans()))
    if kind == "level_up":
        return u.LevelUp(target=anyone)
    if kind == "claim_bond":
        return u.ClaimBond(actor=actor, bond=draw(st.sampled_from(["1", "2", "nope"])))
    raise AssertionError(f"no Uune command for kind {kind!r}")
