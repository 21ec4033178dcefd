"""Uune's own commands (the core's come through ``command_adapter``): joining, choosing the next
PC and moving ("Conflict"), the action roll with its approval and spends ("Actions", "Focus",
"Vitality", "Help"), Attack and an NPC's attack answered by Defend ("Attack", "Defend"), and the
Game Master's tools."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from bot.engine.core.commands import Answer, CommandBase, Dated, Id, Name, Side
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import Label, UuneRecord

Resources = tuple[Label, ...]
Rung = Annotated[int, Field(ge=0, le=10)]


class AddCombatant(CommandBase):
    """Add a PC (its sheet) or an NPC (its statblock); a character joins as its campaign
    ``record`` left it. ``side`` defaults to ``party`` (``foes`` for NPCs)."""

    kind: Literal["add_combatant"] = "add_combatant"
    name: Name
    sheet: Annotated[UuneSheet | UuneStatblock, Field(discriminator="kind")]
    controller_id: int | None = None
    is_npc: bool = False
    side: Side | None = None
    character_id: int | None = None
    record: UuneRecord | None = None


class ChooseNext(Dated):
    """ "Conflict": "every player character takes a turn, in any order" — ``actor`` (a PC's
    player, or the GM) names the PC ``next`` to go after the current turn, among the PCs
    still to act this round."""

    kind: Literal["choose_next"] = "choose_next"
    actor: Id
    next: Id


class Move(Dated):
    """ "Conflict": movement that changes ``actor``'s narrative position (out of cover, into
    melee, across a room…) costs the turn's action; other movement is free. ``how``: words."""

    kind: Literal["move"] = "move"
    actor: Id
    changes_position: bool = True
    how: Annotated[str, Field(max_length=100)] = ""


class RollAction(Dated):
    """ "Actions": ``actor`` attempts ``action`` proposing ``resources``; the GM names the
    ``difficulty`` (given here when already named) and approves each resource."""

    kind: Literal["roll_action"] = "roll_action"
    actor: Id
    action: Annotated[str, Field(min_length=1, max_length=100)] = "an action"
    resources: Resources = Field(default=(), max_length=30)
    difficulty: Rung | None = None


class Attack(Dated):
    """ "Attack": ``actor`` (a PC) attacks ``target`` (an NPC) proposing ``resources``; the
    hits needed are the NPC's Defensiveness."""

    kind: Literal["attack"] = "attack"
    actor: Id
    target: Id
    resources: Resources = Field(default=(), max_length=30)


class NpcAttack(Dated):
    """ "NPCs and Statblocks": NPC ``actor`` attacks PC ``target`` with its statblock's
    ``attack``; the target's Defend roll answers it ("Defend")."""

    kind: Literal["npc_attack"] = "npc_attack"
    actor: Id
    target: Id
    attack: Label


class Help(Answer):
    """ "Help": PC ``actor`` helps the roll waiting for approval, proposing ``resources``
    (approved by the GM like the roller's); its hits are added to the roll."""

    kind: Literal["help"] = "help"
    actor: Id
    resources: Resources = Field(default=(), max_length=20)


class Propose(Answer):
    """The roller (``actor``) proposes more ``resources`` for its roll waiting for approval
    (a Defend's roller proposes here)."""

    kind: Literal["propose"] = "propose"
    actor: Id
    resources: Resources = Field(min_length=1, max_length=20)


class Approve(Answer):
    """The GM's answer to an approval: the ``difficulty`` named (a plain action's), the
    resources ``approve``d and ``refuse``d (``all``: every one still undecided), and
    ``standing``: the approved ones stand for the rest of the scene. ``actor``: the roller.
    The roll is made once a difficulty is named and every resource answered."""

    kind: Literal["approve"] = "approve"
    actor: Id
    difficulty: Rung | None = None
    approve: Resources = Field(default=(), max_length=30)
    refuse: Resources = Field(default=(), max_length=30)
    all: Literal["approve", "refuse"] | None = None
    standing: bool = False
    lapsed: bool = False
    """The window ran out (:meth:`UuneRuleset.lapse`): undecided resources are refused and it
    rolls, or with no difficulty named the action is called off."""


SpendChoice = Literal[
    "keep", "focus_force", "focus_reroll", "vitality_reroll", "vitality_bump", "npc_reroll"
]


class Spend(Answer):
    """An answer to a rolled action ("Focus", "Vitality", "General NPC Guideines"): ``keep``
    it, or spend on ``dice`` (1-based positions in the roll): focus to force a resource die to
    hit or to reroll two; vitality to reroll a die (5) or bump one by 1 (10); an NPC
    (``actor``) spends vitality to force a reroll of a hit die."""

    kind: Literal["spend"] = "spend"
    actor: Id
    choice: SpendChoice
    dice: tuple[Annotated[int, Field(ge=1, le=100)], ...] = Field(default=(), max_length=2)


class SetVitals(CommandBase):
    """The GM sets (or with ``relative`` changes) ``target``'s ``vitality`` and ``focus``."""

    kind: Literal["set_vitals"] = "set_vitals"
    target: Id
    vitality: tuple[int, bool] | None = None
    focus: tuple[int, bool] | None = None


class SetCondition(CommandBase):
    """The GM puts ``condition`` on ``target`` or takes it off."""

    kind: Literal["set_condition"] = "set_condition"
    target: Id
    condition: Name
    present: bool = True


OWN_COMMANDS: tuple[type[CommandBase], ...] = (
    AddCombatant,
    ChooseNext,
    Move,
    RollAction,
    Attack,
    NpcAttack,
    Help,
    Propose,
    Approve,
    Spend,
    SetVitals,
    SetCondition,
)
