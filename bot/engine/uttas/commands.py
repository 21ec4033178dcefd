"""UTTAS commands (``uttas-gameplay.txt``): what a player or the Game Master can do in a UTTAS
fight beyond the core's commands. :data:`Command` is their union with the core's, discriminated
by ``kind`` (parse with ``UttasRuleset.command_adapter``)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints, model_validator

from bot import names
from bot.engine.core.commands import (
    Answer,
    Boons,
    CommandBase,
    Id,
    Meters,
    Name,
    Side,
    Text,
)
from bot.engine.core.commands import NaturalHealing as NaturalHealing  # one rest for every ruleset
from bot.engine.core.commands import Rest as Rest
from bot.engine.core.effects import Lasts
from bot.engine.uttas.record import UttasRecord
from bot.engine.uttas.sheet import Characteristic, MovementMode, UttasSheet

Limb = Annotated[str, names.validator(40, lower=True)]


class AddCombatant(CommandBase):
    """Add a fighter (setup or mid-fight). ``side`` defaults to ``"party"`` for player characters
    and ``"foes"`` for NPCs; the fight ends when only one side can still fight. A character
    joins as its campaign record left it (``record``; its sheet id in ``character_id``)."""

    kind: Literal["add_combatant"] = "add_combatant"
    name: Name
    sheet: UttasSheet
    controller_id: int | None = None
    is_npc: bool = False
    side: Side | None = None
    character_id: int | None = None
    record: UttasRecord | None = None


class Attack(CommandBase):
    """Attack with a weapon, power, martial art or basic maneuver named on the sheet/table.

    ``range_m``: distance to the target in meters (None: as the encounter's positions say —
    1 m when engaged, the declared distance — else :data:`DEFAULT_RANGE_M`). ``hidden``: the
    target cannot perceive the attack (no reactions). ``hits``: hits of a multi-hit attack (one
    action each). ``advantage``/``disadvantage``: awarded by the Game Master on top of those the
    engine applies. ``limbs``: the limbs a Grapple grabs. ``aimed_limb``: a called shot that
    disables that limb on a hit. ``with_readied``: allies whose readied coordinated attack
    strikes at the same instant.
    """

    kind: Literal["attack"] = "attack"
    actor: Id
    target: Id
    attack: Name
    range_m: Meters | None = None
    hidden: bool = False
    hits: Annotated[int, Field(ge=1, le=10)] = 1
    advantage: Boons = 0
    disadvantage: Boons = 0
    limbs: tuple[Limb, ...] = Field(default=(), max_length=20)
    aimed_limb: Limb | None = None
    with_readied: tuple[Id, ...] = Field(default=(), max_length=10)


ReactionChoice = Literal[
    "none", "evade", "block", "move", "counter", "stance", "intercept", "surrender"
]


class React(Answer):
    """Decide the pending attack. The target chooses ``none``/``evade``/``block``/``move``/
    ``counter``/``stance``/``surrender``; an ally chooses ``intercept`` (take one for the team).
    ``maneuver`` names a martial art (custom Defend or the Counterattack) or a triggered power;
    ``stance`` the stance to change into. ``issued`` (a typed ``/dodge``, ``/block`` or
    ``/gm resolve``): a reaction issued no later than the waiting decision's mark was meant for
    an earlier one (the previous hit of a flurry) and is refused."""

    kind: Literal["react"] = "react"
    actor: Id
    choice: ReactionChoice
    maneuver: Name | None = None
    stance: Name | None = None


class ResolveSurrender(Answer):
    """The attacker whose target surrendered completes the attack or stops (ending its turn).
    ``issued`` (a typed ``/gm resolve``, a button): one issued no later than the surrender
    opened this choice was meant for the reaction before it and is refused."""

    kind: Literal["resolve_surrender"] = "resolve_surrender"
    actor: Id
    complete: bool


class ChangeStance(CommandBase):
    kind: Literal["stance"] = "stance"
    actor: Id
    stance: Name


DEFAULT_RANGE_M = 2.0
"""An attack's distance when nobody said or placed one (meters)."""


class Move(CommandBase):
    """Move ``meters`` by ``mode``: a free half move, or with ``full`` a full Move action.
    ``toward``: the combatant moved toward (positions: closer by ``meters``, engaged when
    within 1 m or when nobody knew the distance); otherwise the mover leaves its melee and its
    distances are no longer known."""

    kind: Literal["move"] = "move"
    actor: Id
    meters: Meters
    mode: MovementMode = "run"
    full: bool = False
    toward: Id | None = None


class Sprint(CommandBase):
    """A sprint (UTTAS "Full Move"); ``toward`` as for :class:`Move`."""

    kind: Literal["sprint"] = "sprint"
    actor: Id
    meters: Meters
    mode: MovementMode = "run"
    toward: Id | None = None


class Stand(CommandBase):
    """Stand up from Prone: ``move`` spends half the Run speed; ``acrobatics`` tries the check."""

    kind: Literal["stand"] = "stand"
    actor: Id
    method: Literal["move", "acrobatics"] = "move"


class Breather(CommandBase):
    """UTTAS "Take a Breather" (refused at full Stamina from rules version 7:
    :func:`bot.engine.uttas.actions.breather`)."""

    kind: Literal["breather"] = "breather"
    actor: Id


class Ready(CommandBase):
    """Ready an action. ``trigger`` ``action``/``movement``: ``watch`` is the enemy;
    ``coordinated``: ``watch`` is the ally and ``attack``/``target`` the planned attack."""

    kind: Literal["ready"] = "ready"
    actor: Id
    trigger: Literal["action", "movement", "coordinated"]
    watch: Id
    plan: Text = ""
    attack: Name | None = None
    target: Id | None = None


class UseSkill(CommandBase):
    """Use a skill: roll its dice; success if the total meets ``difficulty`` (when given).

    ``target``: an opposed check against that combatant — a seeking skill (Perception) against
    a hidden target's Stealth score, else against the target's roll of ``against`` (default:
    the tables' ``checks.opposed`` skill, else the same skill); never with a ``difficulty``.
    ``range_m``: meters to the target for a seeking skill's range penalty (None: as the
    positions say; unknown: none)."""

    kind: Literal["use_skill"] = "use_skill"
    actor: Id
    skill: Name
    difficulty: Annotated[int, Field(ge=0, le=1000)] | None = None
    advantage: Boons = 0
    disadvantage: Boons = 0
    target: Id | None = None
    against: Name | None = None
    range_m: Meters | None = None

    @model_validator(mode="after")
    def _opposed_or_difficulty(self) -> UseSkill:
        if self.target is not None and self.difficulty is not None:
            raise ValueError(
                "a check against someone is opposed by their roll: give a target or a "
                "difficulty, not both"
            )
        if self.against is not None and self.target is None:
            raise ValueError("`against:` names the skill the target opposes with: name a target")
        return self


class StartChase(CommandBase):
    """Game Master: ``pursuer`` chases ``quarry`` (UTTAS "Chase Scenes": only when both have
    the same fastest movement and the same Speed). A second pursuer joins a running chase of
    the same quarry. ``gap_m``: how far apart they start, in meters (None: as the positions
    say)."""

    kind: Literal["start_chase"] = "start_chase"
    waits_for_decisions: ClassVar[bool] = True
    quarry: Id
    pursuer: Id
    gap_m: Meters | None = None


class EndChase(CommandBase):
    """Game Master: the chase ends — the quarry is ``caught``, ``escaped``, or the chase is
    ``called off`` (UTTAS "Chase Scenes": how it ends is up to the players and the GM)."""

    kind: Literal["end_chase"] = "end_chase"
    waits_for_decisions: ClassVar[bool] = True
    outcome: Literal["caught", "escaped", "called off"] = "called off"


class ActivatePower(CommandBase):
    """Activate a power that is not an attack (buffs, utility, maintained effects)."""

    kind: Literal["activate_power"] = "activate_power"
    actor: Id
    power: Name
    target: Id | None = None


class Hazard(CommandBase):
    """Game Master: a hazard (fire, a fall, a collapsing wall) deals ``dice`` d6 of
    ``damage_type`` damage to ``target``, through its Armor and Defense like an attack's
    (UTTAS "Damage"); ``source`` names it in the result."""

    kind: Literal["hazard"] = "hazard"
    target: Id
    dice: Annotated[int, Field(ge=1, le=100)]
    damage_type: Annotated[str, names.validator(30, lower=True)] = "physical"
    source: Name = "a hazard"


class BreakFree(CommandBase):
    """Try to break out of a binding (``condition``, e.g. Entangled; None: the only one held):
    an action that breaks one part of it (the tables' ``break_attempts``)."""

    kind: Literal["break_free"] = "break_free"
    actor: Id
    condition: Name | None = None


class FirstAid(CommandBase):
    """Give first aid to ``target`` (UTTAS "Healing": the First Aid skill; in a fight, the
    turn's action)."""

    kind: Literal["first_aid"] = "first_aid"
    actor: Id
    target: Id


class UseItem(CommandBase):
    """Draw and use the sheet's item ``item`` (UTTAS "Perform an action": "draws and uses an
    item" — the turn's action), on ``target`` (None: the user itself)."""

    kind: Literal["use_item"] = "use_item"
    actor: Id
    item: Name
    target: Id | None = None


class Draw(CommandBase):
    """Put a weapon or an item of the sheet (``thing``) into free hands without using it
    (issue 11, "Items"; its cost: the tables' ``items``)."""

    kind: Literal["draw"] = "draw"
    actor: Id
    thing: Name


class Stow(CommandBase):
    """Put away (or drop) what the actor's hands hold: ``thing`` (issue 11, "Items")."""

    kind: Literal["stow"] = "stow"
    actor: Id
    thing: Name


ReadiedAction = Annotated[Attack | Move | UseSkill | ActivatePower, Field(discriminator="kind")]


class ResolveReadied(CommandBase):
    """Perform the readied action now (costs an action). ``stops_movement``: for a movement
    trigger, the interruption stops the mover, whose movement ends."""

    kind: Literal["resolve_readied"] = "resolve_readied"
    actor: Id
    action: ReadiedAction
    stops_movement: bool = False


class DropPower(CommandBase):
    kind: Literal["drop_power"] = "drop_power"
    actor: Id
    power: Name


class GrappleContest(CommandBase):
    """The held combatant tries to ``escape`` or take ``control`` of the grapple (an action)."""

    kind: Literal["grapple_contest"] = "grapple_contest"
    actor: Id
    goal: Literal["escape", "control"] = "escape"


class Surrender(CommandBase):
    kind: Literal["surrender"] = "surrender"
    actor: Id


class Talk(CommandBase):
    """Speak (free, up to 25 words per 6 seconds)."""

    kind: Literal["talk"] = "talk"
    actor: Id
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]


class SetCondition(CommandBase):
    """Game Master: add or remove a condition (``limb`` for Disabled limb). ``lasts``: how long
    an added one lasts (:data:`bot.engine.core.effects.Lasts`); ``rounds`` with ``lasts`` =
    ``"rounds"``."""

    kind: Literal["set_condition"] = "set_condition"
    target: Id
    condition: Name
    present: bool = True
    limb: Limb | None = None
    lasts: Lasts = "until_removed"
    rounds: Annotated[int, Field(ge=1, le=100)] | None = None

    @model_validator(mode="after")
    def _rounds_with_rounds(self) -> SetCondition:
        if (self.lasts == "rounds") != (self.rounds is not None):
            raise ValueError("give a number of rounds exactly when the condition lasts rounds")
        return self


class AdjustCharacteristic(CommandBase):
    """Aid/Drain: change a characteristic's effective value by ``delta``."""

    kind: Literal["adjust_characteristic"] = "adjust_characteristic"
    target: Id
    characteristic: Characteristic
    delta: Annotated[int, Field(ge=-100, le=100)]


Vital = Annotated[int, Field(ge=-100_000, le=100_000)]


class SetVitals(CommandBase):
    """Game Master: set Health and/or Stamina (``health``/``stamina``) or change them by an
    amount (``health_change``/``stamina_change``, negative for damage). Values are capped at the
    sheet's maximums; 0 Health or less kills, 0 Stamina or less knocks out (UTTAS "Damage")."""

    kind: Literal["set_vitals"] = "set_vitals"
    target: Id
    health: Vital | None = None
    health_change: Vital | None = None
    stamina: Vital | None = None
    stamina_change: Vital | None = None

    @model_validator(mode="after")
    def _one_each(self) -> SetVitals:
        if self.health is not None and self.health_change is not None:
            raise ValueError("set Health or change it, not both")
        if self.stamina is not None and self.stamina_change is not None:
            raise ValueError("set Stamina or change it, not both")
        if all(
            v is None for v in (self.health, self.health_change, self.stamina, self.stamina_change)
        ):
            raise ValueError("say what to change: Health, Stamina or both")
        return self


class GrantDice(CommandBase):
    """Game Master: ``dice`` Advantage dice (negative: Disadvantage dice) on the target's next
    Accuracy or skill roll, or on every such roll ``until_removed``. ``dice=0`` removes every
    die the GM granted or took."""

    kind: Literal["grant_dice"] = "grant_dice"
    target: Id
    dice: Annotated[int, Field(ge=-10, le=10)]
    until_removed: bool = False


OWN_COMMANDS: tuple[type[CommandBase], ...] = (
    AddCombatant,
    Attack,
    React,
    ResolveSurrender,
    ChangeStance,
    Move,
    Sprint,
    Stand,
    Breather,
    Ready,
    ResolveReadied,
    UseSkill,
    ActivatePower,
    DropPower,
    BreakFree,
    FirstAid,
    UseItem,
    Draw,
    Stow,
    GrappleContest,
    Surrender,
    Talk,
    SetCondition,
    AdjustCharacteristic,
    SetVitals,
    GrantDice,
    Hazard,
    StartChase,
    EndChase,
)
"""UTTAS's own commands; the ruleset parses them with the core's
(:func:`bot.engine.core.contract.command_adapter`)."""

Command = CommandBase
"""Any command (typing only: :class:`~bot.engine.uttas.ruleset.UttasRuleset` parses them)."""
