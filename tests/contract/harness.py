"""What the ruleset contract suite needs from each game system, and UTTAS's answers.

The suite (``tests/contract/test_ruleset_contract.py``) runs every registered, implemented
ruleset through the same checks. Each ruleset brings a :class:`RulesetHarness`: how to draw a
party of sheets, the commands that set a fight up, a command for the fight as it stands (every
command kind the ruleset parses, the Game Master's tools included — the suite checks that each
kind is drawn), and what counts as acting and as being out of the fight. A ruleset without a
harness fails the suite: a new system passes it or does not land.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

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
    NextTurn,
    RemoveCombatant,
    SetDistance,
    SkipTurn,
)
from bot.engine.core.events import ActionsSpent, AttackDeclared, Event, Moved
from bot.engine.core.state import AnyState, CombatantBase
from bot.engine.uttas.commands import (
    ActivatePower,
    AddCombatant,
    AdjustCharacteristic,
    Attack,
    BreakFree,
    Breather,
    ChangeStance,
    DropPower,
    EndChase,
    FirstAid,
    GrantDice,
    GrappleContest,
    Hazard,
    Move,
    NaturalHealing,
    React,
    Ready,
    ResolveReadied,
    ResolveSurrender,
    Rest,
    SetCondition,
    SetVitals,
    Sprint,
    Stand,
    StartChase,
    Stow,
    Surrender,
    Talk,
    UseItem,
    UseSkill,
)
from bot.engine.uttas.commands import Draw as DrawThing
from bot.engine.uttas.events import StanceChanged
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.sheet import UttasSheet
from bot.engine.uttas.skills_long import StopSkill
from tests.contract.harness_untitled import UntitledHarness
from tests.contract.harness_utopia import UtopiaHarness
from tests.contract.harness_uune import UuneHarness

Draw = Any  # hypothesis's ``data.draw``


class RulesetHarness(Protocol):
    """One ruleset's side of the contract suite."""

    key: str

    def sheets(self) -> st.SearchStrategy[BaseModel]:
        """A sheet of this ruleset (varied: the suite draws parties of them)."""
        ...

    def setup(self, party: list[BaseModel], npcs: list[bool]) -> list[CommandBase]:
        """The commands that bring ``party`` into an encounter (``npcs``: which are NPCs) and
        begin the fight."""
        ...

    def example_sheet(self) -> BaseModel:
        """One plain sheet of this ruleset."""
        ...

    def details(self) -> list[str]:
        """Words a member might give ``/act detail:`` in this system (right and wrong)."""
        ...

    def command(self, state: Any, draw: Draw) -> CommandBase:
        """A command for the fight as it stands — legal or not (refusals are checked too)."""
        ...

    def actor_of(self, event: Event) -> str | None:
        """The combatant an event shows *acting* (spending, moving, attacking), or ``None``."""
        ...

    def is_out(self, combatant: CombatantBase) -> bool:
        """Whether the combatant is out of the fight (it must never act)."""
        ...

    def hidden_numbers(self, state: Any) -> set[int]:
        """Numbers of NPCs the public must never read (distinctive ones, ≥ 100)."""
        ...

    pool_states: tuple[str, ...]
    """Patterns (regular expressions, case ignored) of words that say the state of a
    combatant's pools — "no Health damage": a refusal about an NPC whose numbers are hidden,
    as its player reads it, says none of them."""


def _uttas_sheet(
    agility: int, speed: int, stamina: int, health: int, hits: int, counter: bool, npc: bool
) -> UttasSheet:
    return UttasSheet.model_validate(
        {
            "name": "X",
            "agility": agility,
            "speed": speed,
            # NPCs get distinctive vitals (≥ 100) so the public's text can be searched for them.
            "stamina": stamina + (150 if npc else 0),
            "health": health + (120 if npc else 0),
            "body": 10,
            "strength": 10,
            "stances": ["Steady", "Bracing"],
            "weapons": [
                {"name": "Blade", "damage_dice": 1, "max_hits": hits},
                {"name": "Sling", "kind": "thrown", "range_m": 10},
            ],
            "powers": [
                {
                    "name": "Snare",
                    "active_points": 20,
                    "key_characteristic": "ego",
                    "targets": "dodge",
                    "damage_dice": 0,
                    "range_m": 30,
                    "inflicts": ["Entangled"],
                },
                {
                    "name": "Heal",
                    "active_points": 20,
                    "key_characteristic": "ego",
                    "targets": None,
                    "heals": True,
                },
            ],
            "martial_arts": [{"name": "Riposte", "maneuver": "counter"}] if counter else [],
            "skills": {
                "Acrobatics": 2,
                "First Aid": 2,
                "Stealth": 2,
                "Perception": 2,
                "Lockpicking": 2,
            },
            "skill_turns": {"Lockpicking": 2},
            "items": [
                {"name": "Tonic", "effect": {"restores": "stamina", "dice": 1}, "uses": 2},
                {"name": "Salve", "effect": {"restores": "health", "dice": 1, "bonus": 1}},
                {"name": "Flare", "description": "Lights the clearing.", "uses": 1},
            ],
        }
    )


@dataclass
class UttasHarness:
    """UTTAS (``uttas-gameplay.txt``) for the contract suite."""

    pool_states = (
        r"\b(Health|Stamina) (damage|to recover|is full)",
        r"\bno (Health|Stamina)\b",
        r"\bfull (Health|Stamina)\b",
    )

    key: str = "uttas"

    def sheets(self) -> st.SearchStrategy[BaseModel]:
        return st.builds(
            _uttas_sheet,
            st.integers(5, 15),
            st.integers(1, 6),
            st.integers(5, 40),
            st.integers(3, 20),
            st.integers(1, 3),
            st.booleans(),
            st.booleans(),
        )

    def example_sheet(self) -> BaseModel:
        return _uttas_sheet(10, 3, 20, 10, 1, False, False)

    def details(self) -> list[str]:
        return [
            "Steady",
            "Bracing",
            "Nope",
            "run",
            "leap",
            "acrobatics",
            "Acrobatics",
            "Heal",
            "Snare",
            "Tonic",
            "Blade",
            "hello there",
            "",
        ]

    def setup(self, party: list[BaseModel], npcs: list[bool]) -> list[CommandBase]:
        cast: list[CommandBase] = [
            AddCombatant(name=f"F{i}", sheet=sheet, is_npc=npc)  # type: ignore[arg-type]
            for i, (sheet, npc) in enumerate(zip(party, npcs, strict=True))
        ]
        return [*cast, Begin()]

    def command(self, state: Any, draw: Draw) -> CommandBase:
        rules = UttasRuleset()
        ids = [c.id for c in state.combatants] or ["c1"]
        anyone = draw(st.sampled_from(ids))
        other = draw(st.sampled_from(ids))
        me = state.turn or anyone
        p = state.pending
        if p is not None and draw(st.integers(0, 9)) < 8:  # mostly: answer what waits
            if p.awaiting == "attacker":
                return ResolveSurrender(actor=p.attacker, complete=draw(st.booleans()))
            options = [
                (c.id, o) for c in state.combatants for o in rules.reaction_options(state, c.id)
            ]
            if options:
                cid, o = draw(st.sampled_from(options))
                return React(actor=cid, choice=o.choice, maneuver=o.maneuver, stance=o.stance)
        kind = draw(st.sampled_from(UTTAS_WEIGHTED))
        return _uttas_command(kind, state, draw, me, anyone, other)

    def actor_of(self, event: Event) -> str | None:
        # The later hits of a multi-hit attack were paid when it was declared ("Stamina
        # Costs": consumed "to complete the action"): declaring them is not a new act.
        if isinstance(event, AttackDeclared) and event.hit_index > 1:
            return None
        if isinstance(event, ActionsSpent | AttackDeclared | Moved | StanceChanged):
            return event.combatant
        return None

    def is_out(self, combatant: CombatantBase) -> bool:
        return combatant.has("Dead") or combatant.has("Unconscious")

    def hidden_numbers(self, state: Any) -> set[int]:
        out: set[int] = set()
        for c in state.combatants:
            if c.is_npc:
                out |= {c.health, c.stamina, c.sheet.health, c.sheet.stamina}
        return {n for n in out if abs(n) >= 100}


UTTAS_KINDS = (
    "activate_power",
    "add_combatant",
    "adjust_characteristic",
    "attack",
    "begin",
    "breather",
    "change_settings",
    "drop_power",
    "disengage",
    "end_combat",
    "end_period",
    "engage",
    "break_free",
    "end_turn",
    "first_aid",
    "hazard",
    "grant_dice",
    "grapple_contest",
    "move",
    "move_in_order",
    "natural_healing",
    "next_turn",
    "react",
    "ready",
    "remove_combatant",
    "resolve_readied",
    "resolve_surrender",
    "rest",
    "set_condition",
    "set_distance",
    "set_vitals",
    "skip_turn",
    "sprint",
    "stance",
    "stand",
    "stop_skill",
    "surrender",
    "talk",
    "use_skill",
    "use_item",
    "draw",
    "stow",
    "start_chase",
    "end_chase",
)


UTTAS_WEIGHTED = UTTAS_KINDS + ("attack",) * 8 + ("end_turn",) * 3 + ("move", "stance", "react")
"""Every kind, with what fills a real fight drawn more often (attacks above all)."""


def _uttas_command(
    kind: str, state: AnyState, draw: Draw, me: str, anyone: str, other: str
) -> CommandBase:
    """One UTTAS command of ``kind`` (see :data:`UTTAS_KINDS`), aimed at the fight as it is."""
    small = st.integers(-3, 3)
    if kind == "activate_power":
        return ActivatePower(actor=me, power=draw(st.sampled_from(["Snare", "Heal"])), target=other)
    if kind == "add_combatant":
        sheet = _uttas_sheet(10, 3, 20, 10, 1, False, draw(st.booleans()))
        return AddCombatant(
            name=f"Late {len(state.combatants)}", sheet=sheet, is_npc=sheet.health > 100
        )
    if kind == "adjust_characteristic":
        return AdjustCharacteristic(target=anyone, characteristic="agility", delta=draw(small))
    if kind == "attack":
        return Attack(
            actor=me,
            target=other,
            attack=draw(st.sampled_from(["Blade", "Sling", "Strike"])),
            hits=draw(st.integers(1, 3)),
            range_m=draw(st.sampled_from([2, 2, 8, 25])),
            hidden=draw(st.integers(0, 9)) == 0,
        )
    if kind == "begin":
        return Begin()
    if kind == "breather":
        return Breather(actor=me)
    if kind == "change_settings":
        return ChangeSettings(npcs_react=draw(st.booleans()), hide_npc_numbers=draw(st.booleans()))
    if kind == "drop_power":
        return DropPower(actor=me, power="Snare")
    if kind == "end_combat":
        return EndCombat()
    if kind == "end_turn":
        return EndTurn(actor=draw(st.sampled_from([me, anyone])))
    if kind == "grant_dice":
        return GrantDice(target=anyone, dice=draw(small), until_removed=draw(st.booleans()))
    if kind == "grapple_contest":
        return GrappleContest(actor=me, goal=draw(st.sampled_from(["escape", "control"])))
    if kind == "move":
        return Move(actor=me, meters=draw(st.integers(1, 10)), full=draw(st.booleans()))
    if kind == "move_in_order":
        return MoveInOrder(target=anyone, position=draw(st.integers(1, max(1, len(state.order)))))
    if kind == "natural_healing":
        return NaturalHealing(weeks=draw(st.integers(1, 3)))
    if kind == "next_turn":
        return NextTurn(for_turn=state.turn_seq - draw(st.sampled_from([0, 0, 1])))
    if kind == "react":
        return React(actor=anyone, choice=draw(st.sampled_from(["none", "evade", "block"])))
    if kind == "ready":
        return Ready(actor=me, trigger="action", watch=other, attack="Blade", target=other)
    if kind == "remove_combatant":
        return RemoveCombatant(combatant=anyone)
    if kind == "resolve_readied":
        return ResolveReadied(
            actor=anyone, action=Attack(actor=anyone, target=other, attack="Blade")
        )
    if kind == "resolve_surrender":
        return ResolveSurrender(actor=anyone, complete=draw(st.booleans()))
    if kind == "rest":
        return Rest(rest=draw(st.sampled_from(["short", "long"])))
    if kind == "set_condition":
        return SetCondition(
            target=anyone,
            condition=draw(
                st.sampled_from(["Prone", "Stunned", "Unconscious", "Dead", "Entangled"])
            ),
            present=draw(st.booleans()),
            **draw(
                st.sampled_from(
                    [
                        {},
                        {"lasts": "start_of_next_turn"},
                        {"lasts": "end_of_next_turn"},
                        {"lasts": "rounds", "rounds": 1},
                        {"lasts": "rounds", "rounds": 2},
                        {"lasts": "scene"},
                        {"lasts": "day"},
                    ]
                )
            ),
        )
    if kind == "set_distance":
        return SetDistance(a=me, b=other, meters=draw(st.sampled_from([0.5, 1, 2, 8, 40])))
    if kind == "engage":
        return Engage(a=me, b=other)
    if kind == "disengage":
        return Disengage(combatant=anyone)
    if kind == "end_period":
        return EndPeriod(period=draw(st.sampled_from(["scene", "day", "quest", "arc"])))
    if kind == "set_vitals":
        return SetVitals(target=anyone, stamina_change=-draw(st.integers(0, 30)))
    if kind == "skip_turn":
        return SkipTurn(target=anyone)
    if kind == "sprint":
        return Sprint(actor=me, meters=draw(st.integers(1, 20)))
    if kind == "stance":
        return ChangeStance(
            actor=me, stance=draw(st.sampled_from(["Steady", "Bracing", "Neutral"]))
        )
    if kind == "break_free":
        return BreakFree(actor=me)
    if kind == "first_aid":
        return FirstAid(actor=me, target=other)
    if kind == "hazard":
        return Hazard(target=anyone, dice=draw(st.integers(1, 6)), damage_type="heat")
    if kind == "stand":
        return Stand(actor=me)
    if kind == "surrender":
        return Surrender(actor=me)
    if kind == "talk":
        return Talk(actor=me, text="Yield!")
    if kind == "use_item":
        item = draw(st.sampled_from(["Tonic", "Salve", "Flare", "Rope"]))
        return UseItem(actor=me, item=item, target=draw(st.sampled_from([None, other])))
    if kind == "draw":
        return DrawThing(
            actor=me, thing=draw(st.sampled_from(["Blade", "Sling", "Tonic", "Flare"]))
        )
    if kind == "stow":
        return Stow(actor=me, thing=draw(st.sampled_from(["Blade", "Sling", "Tonic"])))
    if kind == "use_skill":
        how = draw(st.sampled_from(["difficulty", "hide", "seek", "long"]))
        if how == "hide":
            return UseSkill(actor=me, skill="Stealth")
        if how == "seek":
            return UseSkill(actor=me, skill="Perception", target=other)
        skill = "Lockpicking" if how == "long" else "Acrobatics"
        return UseSkill(actor=me, skill=skill, difficulty=draw(st.integers(5, 20)))
    if kind == "stop_skill":
        return StopSkill(actor=me)
    if kind == "start_chase":
        return StartChase(quarry=other, pursuer=me, gap_m=draw(st.sampled_from([None, 4, 30])))
    if kind == "end_chase":
        return EndChase(outcome=draw(st.sampled_from(["caught", "escaped", "called off"])))
    raise AssertionError(f"no UTTAS command for kind {kind!r}")


HARNESSES: dict[str, RulesetHarness] = {
    "uttas": UttasHarness(),
    "utopia": UtopiaHarness(),
    "untitled": UntitledHarness(),  # type: ignore[dict-item]
    "uune": UuneHarness(),  # type: ignore[dict-item]
}
"""Every implemented ruleset's harness, by ruleset key."""
