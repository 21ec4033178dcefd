"""Uune's own commands (the core's come through ``command_adapter``): joining, choosing the next
PC and moving ("Conflict"), the action roll with its approval and spends ("Actions", "Focus",
"Vitality", "Help"), Attack and an NPC's attack answered by Defend ("Attack", "Defend"), and the
Game Master's tools."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from bot.engine.core.commands import Answer, CommandBase, Dated, Id, Name, Side
from bot.engine.core.effects import Lasts
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
    waits_for_decisions: ClassVar[bool] = True
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


class TakeHarm(CommandBase):
    """The GM: ``target`` takes wounds or stress of a ``severity`` ("Wounds": "When your
    character takes substantial injury, they will take a wound"; "Stress": "When your
    character takes a substantial amount of mental or emotional strain, they will gain
    stress"). ``amount`` more (``relative``), or as many as make its count ``amount``: a
    count only grows here — Downtime heals them."""

    kind: Literal["take_harm"] = "take_harm"
    target: Id
    harm: Literal["wound", "stress"]
    severity: Literal["lethal", "traumatic", "heavy", "light"]
    amount: Annotated[int, Field(ge=-100, le=100)]
    relative: bool = True

    @model_validator(mode="after")
    def _a_severity_of_its_kind(self) -> TakeHarm:
        if (self.harm, self.severity) in (("wound", "traumatic"), ("stress", "lethal")):
            raise ValueError(f"there is no {self.severity} {self.harm}")
        return self


class TimePasses(CommandBase):
    """The GM: ``minutes`` of game time pass outside a conflict ("Effect: Bleeding": "every
    out of game minute … while not in conflict")."""

    kind: Literal["time_passes"] = "time_passes"
    waits_for_decisions: ClassVar[bool] = True
    minutes: Annotated[int, Field(ge=1, le=600)]


class SetCondition(CommandBase):
    """The GM puts ``condition`` (an effect of "Effects") on ``target`` or takes it off; how
    long it ``lasts`` (``until_removed``, the GM's default, is read as the text's "Default
    scope: Scene"; ``rounds``: with ``lasts`` = ``rounds``)."""

    kind: Literal["set_condition"] = "set_condition"
    target: Id
    condition: Name
    present: bool = True
    lasts: Lasts = "until_removed"
    rounds: Annotated[int, Field(ge=1, le=100)] | None = None


# -- the special actions (Uune SRD "Special Actions", "Passive Actions", "Luck Checks") -------


class Stealth(Dated):
    """ "Stealth": ``actor`` spends an action to raise its stealth level one step (``goal``
    ``raise``) or keep it through a difficult area (``keep``); the difficulty is the highest
    Perceptiveness among the NPCs present plus the ``crowd`` (one, few, group, crowd)."""

    kind: Literal["stealth"] = "stealth"
    actor: Id
    crowd: Literal["one", "few", "group", "crowd"] = "one"
    goal: Literal["raise", "keep"] = "raise"
    resources: Resources = Field(default=(), max_length=30)


class Center(Dated):
    """ "Center": ``actor`` spends its action preparing (no roll) and gains its maximum focus;
    once per turn in a conflict, once per scene outside one."""

    kind: Literal["center"] = "center"
    actor: Id


class Downtime(Dated):
    """ "Downtime": ``actor`` rolls its resources against its ``living`` conditions'
    hits (Luxurious 2 … Dire 5); ``a_day_passed``: a day has passed since the wound (the
    heaviest wound heals only then). Outside a conflict."""

    kind: Literal["downtime"] = "downtime"
    actor: Id
    living: Literal["luxurious", "comfortable", "sparse", "dire"]
    a_day_passed: bool = True
    resources: Resources = Field(default=(), max_length=30)


class Insight(Dated):
    """ "Insight": ``actor`` reads NPC ``target``'s true emotions: hits meeting its Social
    score give a rough emotion (the GM's words)."""

    kind: Literal["insight"] = "insight"
    actor: Id
    target: Id
    resources: Resources = Field(default=(), max_length=30)


class Observe(Dated):
    """ "Observe": ``actor`` looks for ``what``; the GM names the difficulty; hits over it
    give the senses that notice something odd (meet 1, 1 over 2, 2 over 3)."""

    kind: Literal["observe"] = "observe"
    actor: Id
    what: Annotated[str, Field(min_length=1, max_length=60)] = "something odd"
    difficulty: Rung | None = None
    resources: Resources = Field(default=(), max_length=30)


class Staunch(Dated):
    """ "Effect: Bleeding": ``actor`` spends an action (no roll) to staunch its wound: its
    Bleeding ends."""

    kind: Literal["staunch"] = "staunch"
    actor: Id


class Stabilise(Dated):
    """ "Wounds": "Lethal and heavy wounds will need to be stabilized by a medic or healer
    before they will mend" — ``actor`` (a PC) tends ``target``'s wounds: an action roll
    proposing ``resources``, at the ``difficulty`` the GM names (given here when already
    named)."""

    kind: Literal["stabilise"] = "stabilise"
    actor: Id
    target: Id
    resources: Resources = Field(default=(), max_length=30)
    difficulty: Rung | None = None


class Passive(Dated):
    """ "What are Passive Actions?": PC ``actor`` passively does or notices something at
    ``difficulty``: a third of its available resources count as hits, no roll, no action."""

    kind: Literal["passive"] = "passive"
    actor: Id
    difficulty: Rung
    what: Annotated[str, Field(min_length=1, max_length=60)] = "check"


class Luck(Dated):
    """ "Luck Checks" ("General NPC Guideines": an NPC's uncertain action not against a PC):
    a 50/50 for ``actor``'s ``what``, with ``advantage`` and/or ``disadvantage`` (both
    cancel). No action."""

    kind: Literal["luck"] = "luck"
    actor: Id
    what: Annotated[str, Field(min_length=1, max_length=60)] = "attempt"
    advantage: bool = False
    disadvantage: bool = False


class ClaimBond(Dated):
    """ "Bonds": "Once per scene, when your character acts on a bond, they gain a point of
    focus" — ``actor``'s player claims it for ``bond`` (its words, or 1-based number on the
    sheet); the GM grants or refuses it with the approval's buttons."""

    kind: Literal["claim_bond"] = "claim_bond"
    actor: Id
    bond: Annotated[str, Field(min_length=1, max_length=200)]


class LevelUp(CommandBase):
    """The GM levels PC ``target`` up at a story milestone ("Leveling")."""

    kind: Literal["level_up"] = "level_up"
    target: Id


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
    TakeHarm,
    SetCondition,
    TimePasses,
    Stealth,
    Center,
    Downtime,
    Insight,
    Observe,
    Staunch,
    Stabilise,
    Passive,
    Luck,
    ClaimBond,
    LevelUp,
)
