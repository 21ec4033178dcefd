"""Untitled's side of the contract suite (``tests/contract/test_untitled_contract.py``):
sheets, setup and a drawer of every Untitled command kind, aimed at the fight as it stands."""

from __future__ import annotations

from dataclasses import dataclass
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
    HoldTurn,
    MoveInOrder,
    NaturalHealing,
    NextTurn,
    RemoveCombatant,
    Rest,
    ResumeTurn,
    SetDistance,
    SkipTurn,
)
from bot.engine.core.events import ActionsSpent, AttackDeclared, Event, Moved
from bot.engine.core.state import CombatantBase
from bot.engine.untitled import commands as u
from bot.engine.untitled.sheet import UntitledSheet
from bot.engine.untitled.state import DOWN, ShieldDecision

Draw = Any


def untitled_sheet(health: int, level: int, shield: bool, armor: str | None, npc: bool) -> Any:
    """A sheet with a sword, a longbow (a move to reload) and a crossbow (a full round), a
    shield or not, armor or not; NPCs get distinctive Health (≥ 100)."""
    data: dict[str, Any] = {
        "name": "X",
        "health": health + (100 if npc else 0),
        "speed_m": 9,
        "weapon_skills": [{"name": "Swords", "level": level}, {"name": "Bows", "level": 3}],
        "combat_forms": [{"name": "Blade", "level": level}],
        "combat_defense": max(1, level - 1),
        "shield_skills": [{"name": "Shields", "level": 2}],
        "armor_skills": {"light": 2, "medium": 6},
        "weapons": [
            {"name": "Sword", "skill": "Swords", "form": "Blade"},
            {
                "name": "Longbow",
                "skill": "Bows",
                "form": "Archery",
                "kind": "ranged",
                "range_m": 100,
                "reload": "move",
                "hands": 2,
            },
            {
                "name": "Crossbow",
                "skill": "Bows",
                "form": "Archery",
                "kind": "ranged",
                "range_m": 60,
                "reload": "full_round",
                "hands": 2,
            },
        ],
    }
    if shield:
        data["shield"] = {"name": "Buckler", "skill": "Shields"}
    if armor:
        data["armor"] = {"name": "Coat", "weight": armor}
    return UntitledSheet.model_validate(data)


UNTITLED_KINDS = (
    "add_combatant",
    "allow_combined",
    "attack",
    "begin",
    "change_settings",
    "check",
    "declare",
    "defend",
    "disengage",
    "draw",
    "end_combat",
    "end_period",
    "end_turn",
    "engage",
    "hold",
    "move",
    "move_in_order",
    "next_turn",
    "reload",
    "natural_healing",
    "remove_combatant",
    "rest",
    "resume",
    "roll_order",
    "set_condition",
    "set_distance",
    "set_rule",
    "set_vitals",
    "skip_turn",
    "stow",
)
WEIGHTED = UNTITLED_KINDS + ("attack",) * 8 + ("end_turn",) * 3 + ("move", "reload", "hold")


@dataclass
class UntitledHarness:
    """Untitled (``untitled-combat.txt``) for the contract suite."""

    pool_states = (r"\bHealth (damage|is full)", r"\b(no|full) Health\b")

    key: str = "untitled"

    def sheets(self) -> st.SearchStrategy[BaseModel]:
        return st.builds(
            untitled_sheet,
            st.integers(1, 30),
            st.integers(1, 20),
            st.booleans(),
            st.sampled_from([None, "light", "medium", "heavy"]),
            st.booleans(),
        )

    def example_sheet(self) -> BaseModel:
        sheet: BaseModel = untitled_sheet(20, 5, True, "light", False)
        return sheet

    def details(self) -> list[str]:
        return ["Sword", "Longbow", "Crossbow", "Nope", "", "the giant goes again", "poison"]

    def setup(self, party: list[BaseModel], npcs: list[bool]) -> list[CommandBase]:
        cast: list[CommandBase] = [
            u.AddCombatant(
                name=f"F{i}",
                sheet=sheet,  # type: ignore[arg-type]
                is_npc=npc,
                stowed=("Longbow",) if i % 2 else (),
            )
            for i, (sheet, npc) in enumerate(zip(party, npcs, strict=True))
        ]
        return [*cast, Begin()]

    def command(self, state: Any, draw: Draw) -> CommandBase:
        ids = [c.id for c in state.combatants] or ["c1"]
        anyone = draw(st.sampled_from(ids))
        other = draw(st.sampled_from(ids))
        me = state.turn or anyone
        p = state.pending
        if isinstance(p, ShieldDecision) and draw(st.integers(0, 9)) < 8:
            return u.Defend(
                actor=draw(st.sampled_from([p.target, p.target, anyone])),
                choice=draw(st.sampled_from(["shield", "none"])),
            )
        kind = draw(st.sampled_from(WEIGHTED))
        return untitled_command(kind, state, draw, me, anyone, other)

    def actor_of(self, event: Event) -> str | None:
        if isinstance(event, ActionsSpent | AttackDeclared | Moved):
            return event.combatant
        return None

    def is_out(self, combatant: CombatantBase) -> bool:
        return combatant.has(DOWN)

    def hidden_numbers(self, state: Any) -> set[int]:
        out: set[int] = set()
        for c in state.combatants:
            if c.is_npc:
                out |= {c.health, c.sheet.health}
        return {n for n in out if n >= 100}


def untitled_command(
    kind: str, state: Any, draw: Draw, me: str, anyone: str, other: str
) -> CommandBase:
    """One Untitled command of ``kind`` (see :data:`UNTITLED_KINDS`)."""
    weapon = draw(st.sampled_from(["Sword", "Longbow", "Crossbow", "Nope"]))
    simple: dict[str, Any] = {
        "begin": lambda: Begin(),
        "change_settings": lambda: ChangeSettings(
            npcs_react=draw(st.booleans()), interleaved=draw(st.sampled_from([None, True]))
        ),
        "disengage": lambda: Disengage(combatant=anyone),
        "end_combat": lambda: EndCombat(),
        "end_period": lambda: EndPeriod(period=draw(st.sampled_from(["scene", "day"]))),
        "end_turn": lambda: EndTurn(actor=draw(st.sampled_from([me, anyone]))),
        "engage": lambda: Engage(a=me, b=other),
        "hold": lambda: HoldTurn(actor=me, until="the giant goes again"),
        "resume": lambda: ResumeTurn(actor=anyone),
        "move_in_order": lambda: MoveInOrder(
            target=anyone, position=draw(st.integers(1, max(1, len(state.order))))
        ),
        "next_turn": lambda: NextTurn(for_turn=state.turn_seq - draw(st.sampled_from([0, 0, 1]))),
        "remove_combatant": lambda: RemoveCombatant(combatant=anyone),
        "set_distance": lambda: SetDistance(
            a=me, b=other, meters=draw(st.sampled_from([0.5, 1, 5, 80, 200]))
        ),
        "skip_turn": lambda: SkipTurn(target=anyone),
        "rest": lambda: Rest(rest=draw(st.sampled_from(["short", "long"]))),
        "natural_healing": lambda: NaturalHealing(weeks=draw(st.integers(1, 3))),
        "allow_combined": lambda: u.AllowCombined(target=anyone, allowed=draw(st.booleans())),
        "set_rule": lambda: u.SetRule(
            rule=draw(st.sampled_from(["Legendary dice", "Heavy armor above 18"])),
            dice=draw(st.sampled_from([None, "3d12", "5d8"])),
        ),
        "attack": lambda: u.Attack(
            actor=draw(st.sampled_from([me, me, anyone])),
            target=other,
            weapon=draw(st.sampled_from([None, weapon])),
            range_m=draw(st.sampled_from([None, 1, 50, 120])),
            swift=draw(st.sampled_from([None, "poison"])),
        ),
        "check": lambda: u.Check(
            actor=anyone,
            skill=draw(st.sampled_from(["Swords", "Combat Defense", "Climbing"])),
            difficulty=draw(st.sampled_from([None, 12])),
        ),
        "declare": lambda: u.Declared(
            actor=draw(st.sampled_from([me, anyone])),
            action=draw(st.sampled_from(["swift", "immediate", "free", "full_round", "standard"])),
            words="something",
        ),
        "defend": lambda: u.Defend(actor=anyone, choice=draw(st.sampled_from(["shield", "none"]))),
        "draw": lambda: u.Draw(actor=me, weapon=weapon),
        "stow": lambda: u.Stow(actor=me, weapon=weapon),
        "move": lambda: u.Move(
            actor=me,
            meters=draw(st.sampled_from([None, 3, 20])),
            toward=draw(st.sampled_from([None, other])),
            draw=draw(st.sampled_from([None, weapon])),
        ),
        "reload": lambda: u.Reload(actor=me, weapon=draw(st.sampled_from([None, weapon]))),
        "roll_order": lambda: u.RollOrder(among=draw(st.sampled_from([(), (me, other)]))),
        "set_condition": lambda: u.SetCondition(
            target=anyone, condition="Down", present=draw(st.booleans())
        ),
        "set_vitals": lambda: u.SetVitals(target=anyone, health=(-draw(st.integers(0, 30)), True)),
    }
    if kind == "add_combatant":
        npc = draw(st.booleans())
        return u.AddCombatant(
            name=f"Late {len(state.combatants)}",
            sheet=untitled_sheet(10, 3, draw(st.booleans()), None, npc),
            is_npc=npc,
        )
    made: CommandBase = simple[kind]()
    return made
