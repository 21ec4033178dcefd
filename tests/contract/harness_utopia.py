"""Utopia's side of the contract suite (``tests/contract/test_utopia_contract.py``): sheets,
setup and a drawer of every Utopia command kind, aimed at the fight as it stands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel

from bot.engine.core.commands import (
    Begin,
    ChangeSettings,
    CommandBase,
    DelayTurn,
    Disengage,
    EndCombat,
    EndPeriod,
    EndTurn,
    Engage,
    MoveInOrder,
    NextTurn,
    RemoveCombatant,
    SetDistance,
    SkipTurn,
)
from bot.engine.core.events import ActionsSpent, AttackDeclared, Event, Moved
from bot.engine.core.state import CombatantBase
from bot.engine.utopia import commands as u
from bot.engine.utopia.sheet import UtopiaSheet
from bot.engine.utopia.state import DOWN, VITAL_MIN, AssistDecision, DamageDecision

Draw = Any


def utopia_sheet(
    shp: int, dhp: int, block: int, dodge: int, ta: int | None, npc: bool
) -> UtopiaSheet:
    """A sheet with a fast knife, a slow maul and a bow, a ring (off) and a coat (worn); NPCs
    get distinctive vitals (≥ 100)."""
    return UtopiaSheet.model_validate(
        {
            "name": "X",
            "subtraits": {"dexterity": 6, "speed": 5, "power": 6},
            "shp": shp + (200 if npc else 0),
            "dhp": dhp + (100 if npc else 0),
            "stamina": 8 + (300 if npc else 0),
            "block_rating": block,
            "dodge_rating": dodge,
            "turn_actions": ta,
            "weapons": [
                {"name": "Knife", "ta_cost": 1, "damage": "1d4"},
                {"name": "Maul", "ta_cost": 3, "damage": "2d6", "ignores_shp": True},
                {
                    "name": "Bow",
                    "ta_cost": 2,
                    "damage": "1d8",
                    "kind": "ranged",
                    "close_m": 10,
                    "far_m": 30,
                },
            ],
            "armor": [
                {"name": "Ring", "slot": "ring", "defenses": {"heat": 1}, "worn": False},
                {"name": "Coat", "slot": "chest", "defenses": {"physical": 1}},
            ],
            "spells": [
                {
                    "name": "Spark",
                    "stamina": 1,
                    "damage": "1d6",
                    "damage_type": "heat",
                    "range_m": 10,
                },
                {"name": "Ward", "stamina": 2},
            ],
        }
    )


U4_KINDS = ("test", "grant_favor", "stealth", "assist")
"""Slice U4's kinds (tests, the GM's favor), drawn by :func:`u4_command`."""
UTOPIA_KINDS = (
    "add_combatant",
    "aim",
    "attack",
    "begin",
    "change_settings",
    "deep_breath",
    "defend",
    "delay",
    "disengage",
    "end_combat",
    "end_period",
    "end_turn",
    "engage",
    "escape",
    "exchange",
    "grapple",
    "hold_action",
    "leap",
    "move_in_order",
    "next_turn",
    "remove_combatant",
    "set_condition",
    "set_distance",
    "scale",
    "set_vitals",
    "shake_off",
    "sheathe",
    "skip_turn",
    "travel",
    "wear",
    "cast",
    "rest",
    "natural_healing",
    *U4_KINDS,
    "assist_defense",
    "multi_attack",
)
WEIGHTED = (
    UTOPIA_KINDS
    + ("attack",) * 8
    + ("grapple", "escape", "scale", "shake_off", "sheathe", "wear")
    + ("end_turn",) * 3
    + ("defend",) * 2
)


@dataclass
class UtopiaHarness:
    """Utopia (``utopia-actions.txt``) for the contract suite."""

    pool_states = (r"\b(SHP|DHP|Stamina) (damage|is full)", r"\b(no|full) (SHP|DHP|Stamina)\b")

    key: str = "utopia"

    def sheets(self) -> st.SearchStrategy[BaseModel]:
        return st.builds(
            utopia_sheet,
            st.integers(1, 12),
            st.integers(1, 12),
            st.integers(0, 3),
            st.integers(0, 3),
            st.sampled_from([None, 6, 9]),
            st.booleans(),
        )

    def example_sheet(self) -> BaseModel:
        return utopia_sheet(8, 8, 1, 1, None, False)

    def details(self) -> list[str]:
        return ["Knife", "Bow", "Maul", "Ring", "Coat", "land", "air", "water", "Nope", "", "Spark"]

    def setup(self, party: list[BaseModel], npcs: list[bool]) -> list[CommandBase]:
        cast: list[CommandBase] = [
            u.AddCombatant(name=f"F{i}", sheet=sheet, is_npc=npc)  # type: ignore[arg-type]
            for i, (sheet, npc) in enumerate(zip(party, npcs, strict=True))
        ]
        # Utopia's optional interleaved turn order for every other party size.
        interleaved = ChangeSettings(interleaved=len(party) % 2 == 1)
        return [*cast, interleaved, Begin()]

    def command(self, state: Any, draw: Draw) -> CommandBase:
        ids = [c.id for c in state.combatants] or ["c1"]
        anyone = draw(st.sampled_from(ids))
        other = draw(st.sampled_from(ids))
        me = state.turn or anyone
        p = state.pending
        if isinstance(p, AssistDecision) and draw(st.integers(0, 9)) < 8:
            return u.AssistDefense(
                actor=draw(st.sampled_from([p.hit.target, anyone, other])),
                choice=draw(st.sampled_from(["assist", "assist", "roll"])),
            )
        if isinstance(p, DamageDecision) and draw(st.integers(0, 9)) < 8:
            return u.Defend(
                actor=p.target, choice=draw(st.sampled_from(["block", "dodge", "cover", "none"]))
            )
        kind = draw(st.sampled_from(WEIGHTED))
        return utopia_command(kind, state, draw, me, anyone, other)

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
                out |= {c.shp, c.dhp, c.stamina, c.sheet.shp, c.sheet.dhp, c.sheet.stamina}
        return {n for n in out if abs(n) >= 100}


def utopia_command(
    kind: str, state: Any, draw: Draw, me: str, anyone: str, other: str
) -> CommandBase:
    """One Utopia command of ``kind`` (see :data:`UTOPIA_KINDS`)."""
    if kind in U4_KINDS:
        return u4_command(kind, draw, me, anyone, other)
    if kind == "add_combatant":
        npc = draw(st.booleans())
        return u.AddCombatant(
            name=f"Late {len(state.combatants)}",
            sheet=utopia_sheet(5, 5, 1, 1, None, npc),
            is_npc=npc,
        )
    if kind == "aim":
        return u.Aim(actor=me)
    if kind == "attack":
        return u.Attack(
            actor=draw(st.sampled_from([me, me, anyone])),
            target=other,
            weapon=draw(st.sampled_from([None, "Knife", "Maul", "Bow", "Nope"])),
            range_m=draw(st.sampled_from([None, 1, 5, 20, 40])),
        )
    if kind == "begin":
        return Begin()
    if kind == "change_settings":
        return ChangeSettings(
            npcs_react=draw(st.booleans()),
            hide_npc_numbers=draw(st.booleans()),
            interleaved=draw(st.sampled_from([None, None, True, False])),  # refused once begun
        )
    if kind == "deep_breath":
        return u.DeepBreath(actor=me)
    if kind == "defend":
        return u.Defend(actor=anyone, choice=draw(st.sampled_from(["block", "dodge", "cover"])))
    if kind == "delay":
        return DelayTurn(actor=me, after=other)
    if kind == "disengage":
        return Disengage(combatant=anyone)
    if kind == "end_combat":
        return EndCombat()
    if kind == "end_period":
        return EndPeriod(period=draw(st.sampled_from(["scene", "day"])))
    if kind == "end_turn":
        return EndTurn(actor=draw(st.sampled_from([me, anyone])))
    if kind == "engage":
        return Engage(a=me, b=other)
    if kind == "escape":
        return u.Escape(actor=draw(st.sampled_from([me, anyone])))
    if kind == "grapple":
        return u.Grapple(actor=draw(st.sampled_from([me, me, anyone])), target=other)
    if kind == "exchange":
        return u.Exchange(actor=me, to=draw(st.sampled_from(["turn", "interrupt"])))
    if kind == "hold_action":
        return u.HoldAction(actor=me)
    if kind == "leap":
        return u.Leap(actor=me, meters=draw(st.sampled_from([None, 2, 9])), toward=other)
    if kind == "move_in_order":
        return MoveInOrder(target=anyone, position=draw(st.integers(1, max(1, len(state.order)))))
    if kind == "next_turn":
        return NextTurn(for_turn=state.turn_seq - draw(st.sampled_from([0, 0, 1])))
    if kind == "remove_combatant":
        return RemoveCombatant(combatant=anyone)
    if kind == "set_condition":
        return u.SetCondition(target=anyone, condition="Down", present=draw(st.booleans()))
    if kind == "set_distance":
        return SetDistance(a=me, b=other, meters=draw(st.sampled_from([0.5, 1, 5, 20, 40])))
    if kind == "set_vitals":
        # VITAL_MIN: twice passes what a state or record holds (attack 18).
        lowered = draw(st.sampled_from([*range(13), -VITAL_MIN]))
        return u.SetVitals(target=anyone, dhp=(-lowered, True))
    if kind == "scale":
        return u.Scale(actor=draw(st.sampled_from([me, me, anyone])), target=other)
    if kind == "shake_off":
        target = draw(st.sampled_from([None, other]))
        return u.ShakeOff(actor=draw(st.sampled_from([me, anyone])), target=target)
    if kind == "sheathe":
        weapon = draw(st.sampled_from(["Knife", "Bow", "Maul", "Nope"]))
        return u.Sheathe(
            actor=draw(st.sampled_from([me, anyone])), weapon=weapon, drawn=draw(st.booleans())
        )
    if kind == "assist_defense":
        choice = draw(st.sampled_from(["assist", "roll"]))
        return u.AssistDefense(actor=anyone, choice=choice)
    if kind == "multi_attack":
        named = draw(
            st.lists(st.sampled_from(["Knife", "Bow", "Maul", "Nope"]), min_size=2, max_size=3)
        )
        return u.MultiAttack(actor=me, target=other, weapons=tuple(named), range_m=1)
    if kind == "wear":
        item = draw(st.sampled_from(["Ring", "Coat", "Nope"]))
        return u.Wear(actor=me, item=item, on=draw(st.booleans()))
    if kind == "skip_turn":
        return SkipTurn(target=anyone)
    if kind == "travel":
        return u.Travel(actor=me, meters=draw(st.sampled_from([None, 1, 3])), toward=other)
    if kind == "cast":
        return u.Cast(
            actor=draw(st.sampled_from([me, me, anyone])),
            spell=draw(st.sampled_from(["Spark", "Ward", "Nope"])),
            target=draw(st.sampled_from([None, other])),
            range_m=draw(st.sampled_from([None, 1, 5, 20])),
        )
    if kind == "rest":
        return u.Rest(rest=draw(st.sampled_from(["short", "long"])))
    if kind == "natural_healing":
        return u.NaturalHealing(weeks=draw(st.integers(1, 3)))
    raise AssertionError(f"no Utopia command for kind {kind!r}")


def u4_command(kind: str, draw: Draw, me: str, anyone: str, other: str) -> CommandBase:
    """A command of slice U4's kinds (:data:`U4_KINDS`)."""
    if kind == "test":
        score = draw(st.sampled_from(["power", "agility", "awareness", "stunt"]))
        if draw(st.booleans()):
            return u.Test(actor=anyone, score=score, difficulty=draw(st.sampled_from([None, 12])))
        against = draw(st.sampled_from([None, "awareness"]))
        return u.Test(actor=anyone, score=score, target=other, against=against)
    if kind == "grant_favor":
        return u.GrantFavor(
            target=anyone, points=draw(st.integers(-2, 2)), until_removed=draw(st.booleans())
        )
    if kind == "stealth":
        words = draw(st.sampled_from([(), ("seen",), ("sight", "distracting"), ("suspicious",)]))
        return u.Stealth(actor=me, circumstances=words, doubled=draw(st.integers(0, 2)))
    if kind == "assist":
        form = draw(st.sampled_from(["test", "leap", "grapple"]))
        return u.Assist(actor=draw(st.sampled_from([me, anyone])), target=other, form=form)
    raise AssertionError(f"no U4 command for kind {kind!r}")
