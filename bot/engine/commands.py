"""Commands: one frozen pydantic model per thing a player or the Game Master can do.

They form the discriminated union :data:`Command` (field ``kind``). ``actor`` is always the id of
the acting combatant; whether the Discord member may act for it is the service layer's check.
Free-text and numeric fields are bounded so no command can make the engine do unbounded work.
Every name (a combatant's, an attack's, a stance's, a skill's, a power's, a condition's, a limb's)
is normalised by :mod:`bot.names`, so the engine only ever compares normal forms.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from bot import names
from bot.engine.uttas.sheet import Characteristic, MovementMode, UttasSheet

Id = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=12)]
Name = names.Name
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]
Meters = Annotated[float, Field(ge=0, le=10_000)]
Boons = Annotated[int, Field(ge=0, le=10)]
Limb = Annotated[str, names.validator(40, lower=True)]
Side = Annotated[str, names.validator(40)]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


IssueMark = Annotated[int, Field(ge=0)]
"""When a member issued a command, as an ordinal that only grows (the Discord layer uses the
interaction's snowflake id): comparable with the marks the service records when a turn or a
decision begins (``EncounterState.turn_marker``, ``PendingAttack.marker``), all from one
clock."""


class TurnBound(_Command):
    """A command that moves the fight on from one particular turn. ``for_turn`` is the turn it
    was issued for (``EncounterState.turn_seq``; a button carries it); ``issued`` when the member
    issued it. A command issued no later than the mark of the current turn's beginning was meant
    for an earlier turn and is refused, so two of them sent together end one turn once (issue 9
    §3: "one command, one effect")."""

    for_turn: Annotated[int, Field(ge=0)] | None = None
    issued: IssueMark | None = None


class AddCombatant(_Command):
    """Add a fighter (setup or mid-fight). ``side`` defaults to ``"party"`` for player characters
    and ``"foes"`` for NPCs; the fight ends when only one side can still fight."""

    kind: Literal["add_combatant"] = "add_combatant"
    name: Name
    sheet: UttasSheet
    controller_id: int | None = None
    is_npc: bool = False
    side: Side | None = None


class RemoveCombatant(_Command):
    kind: Literal["remove_combatant"] = "remove_combatant"
    combatant: Id


class Begin(_Command):
    """Roll/sort initiative, start round 1 and the first turn. ``initiative_mode`` overrides the
    encounter's mode."""

    kind: Literal["begin"] = "begin"
    initiative_mode: Literal["agility", "roll"] | None = None


class Attack(_Command):
    """Attack with a weapon, power, martial art or basic maneuver named on the sheet/table.

    ``range_m``: distance to the target in meters. ``hidden``: the target cannot perceive the
    attack (no reactions). ``hits``: hits of a multi-hit attack (one action each). ``advantage``/
    ``disadvantage``: awarded by the Game Master on top of those the engine applies. ``limbs``:
    the limbs a Grapple grabs. ``aimed_limb``: a called shot that disables that limb on a hit.
    ``with_readied``: allies whose readied coordinated attack strikes at the same instant.
    """

    kind: Literal["attack"] = "attack"
    actor: Id
    target: Id
    attack: Name
    range_m: Meters = 2
    hidden: bool = False
    hits: Annotated[int, Field(ge=1, le=10)] = 1
    advantage: Boons = 0
    disadvantage: Boons = 0
    limbs: tuple[Limb, ...] = Field(default=(), max_length=6)
    aimed_limb: Limb | None = None
    with_readied: tuple[Id, ...] = Field(default=(), max_length=10)


ReactionChoice = Literal[
    "none", "evade", "block", "move", "counter", "stance", "intercept", "surrender"
]


class React(_Command):
    """Decide the pending attack. The target chooses ``none``/``evade``/``block``/``move``/
    ``counter``/``stance``/``surrender``; an ally chooses ``intercept`` (take one for the team).
    ``maneuver`` names a martial art (custom Defend or the Counterattack) or a triggered power;
    ``stance`` the stance to change into. ``issued`` (a typed ``/dodge``, ``/block`` or
    ``/gm resolve``): a reaction issued no later than the waiting decision's mark was meant for
    an earlier one (the previous hit of a flurry) and is refused."""

    kind: Literal["react"] = "react"
    actor: Id
    choice: ReactionChoice
    issued: IssueMark | None = None
    maneuver: Name | None = None
    stance: Name | None = None


class ResolveSurrender(_Command):
    """The attacker whose target surrendered completes the attack or stops (ending its turn)."""

    kind: Literal["resolve_surrender"] = "resolve_surrender"
    actor: Id
    complete: bool


class ChangeStance(_Command):
    kind: Literal["stance"] = "stance"
    actor: Id
    stance: Name


class Move(_Command):
    """Move ``meters`` by ``mode``: a free half move, or with ``full`` a full Move action."""

    kind: Literal["move"] = "move"
    actor: Id
    meters: Meters
    mode: MovementMode = "run"
    full: bool = False


class Sprint(_Command):
    kind: Literal["sprint"] = "sprint"
    actor: Id
    meters: Meters
    mode: MovementMode = "run"


class Stand(_Command):
    """Stand up from Prone: ``move`` spends half the Run speed; ``acrobatics`` tries the check."""

    kind: Literal["stand"] = "stand"
    actor: Id
    method: Literal["move", "acrobatics"] = "move"


class Breather(_Command):
    kind: Literal["breather"] = "breather"
    actor: Id


class Ready(_Command):
    """Ready an action. ``trigger`` ``action``/``movement``: ``watch`` is the enemy;
    ``coordinated``: ``watch`` is the ally and ``attack``/``target`` the planned attack."""

    kind: Literal["ready"] = "ready"
    actor: Id
    trigger: Literal["action", "movement", "coordinated"]
    watch: Id
    plan: Text = ""
    attack: Name | None = None
    target: Id | None = None


class UseSkill(_Command):
    """Use a skill: roll its dice; success if the total meets ``difficulty`` (when given)."""

    kind: Literal["use_skill"] = "use_skill"
    actor: Id
    skill: Name
    difficulty: Annotated[int, Field(ge=0, le=1000)] | None = None
    advantage: Boons = 0
    disadvantage: Boons = 0


class ActivatePower(_Command):
    """Activate a power that is not an attack (buffs, utility, maintained effects)."""

    kind: Literal["activate_power"] = "activate_power"
    actor: Id
    power: Name
    target: Id | None = None


ReadiedAction = Annotated[Attack | Move | UseSkill | ActivatePower, Field(discriminator="kind")]


class ResolveReadied(_Command):
    """Perform the readied action now (costs an action). ``stops_movement``: for a movement
    trigger, the interruption stops the mover, whose movement ends."""

    kind: Literal["resolve_readied"] = "resolve_readied"
    actor: Id
    action: ReadiedAction
    stops_movement: bool = False


class DropPower(_Command):
    kind: Literal["drop_power"] = "drop_power"
    actor: Id
    power: Name


class GrappleContest(_Command):
    """The held combatant tries to ``escape`` or take ``control`` of the grapple (an action)."""

    kind: Literal["grapple_contest"] = "grapple_contest"
    actor: Id
    goal: Literal["escape", "control"] = "escape"


class Surrender(_Command):
    kind: Literal["surrender"] = "surrender"
    actor: Id


class Talk(_Command):
    """Speak (free, up to 25 words per 6 seconds)."""

    kind: Literal["talk"] = "talk"
    actor: Id
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)]


class EndTurn(TurnBound):
    kind: Literal["end_turn"] = "end_turn"
    actor: Id


class Rest(_Command):
    """Short or long rest for ``combatants`` (all when empty); only outside a fight."""

    kind: Literal["rest"] = "rest"
    rest: Literal["short", "long"]
    combatants: tuple[Id, ...] = Field(default=(), max_length=100)


class NaturalHealing(_Command):
    kind: Literal["natural_healing"] = "natural_healing"
    weeks: Annotated[int, Field(ge=1, le=520)]
    combatants: tuple[Id, ...] = Field(default=(), max_length=100)


class SetCondition(_Command):
    """Game Master: add or remove a condition (``limb`` for Disabled limb)."""

    kind: Literal["set_condition"] = "set_condition"
    target: Id
    condition: Name
    present: bool = True
    limb: Limb | None = None


class AdjustCharacteristic(_Command):
    """Aid/Drain: change a characteristic's effective value by ``delta``."""

    kind: Literal["adjust_characteristic"] = "adjust_characteristic"
    target: Id
    characteristic: Characteristic
    delta: Annotated[int, Field(ge=-100, le=100)]


class EndCombat(_Command):
    kind: Literal["end_combat"] = "end_combat"


Vital = Annotated[int, Field(ge=-100_000, le=100_000)]


class SetVitals(_Command):
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


class GrantDice(_Command):
    """Game Master: ``dice`` Advantage dice (negative: Disadvantage dice) on the target's next
    Accuracy or skill roll, or on every such roll ``until_removed``. ``dice=0`` removes every
    die the GM granted or took."""

    kind: Literal["grant_dice"] = "grant_dice"
    target: Id
    dice: Annotated[int, Field(ge=-10, le=10)]
    until_removed: bool = False


class NextTurn(TurnBound):
    """Game Master: end the current turn and start the next one."""

    kind: Literal["next_turn"] = "next_turn"


class SkipTurn(TurnBound):
    """Game Master: the target's turn is skipped: now if it is their turn, else their next one."""

    kind: Literal["skip_turn"] = "skip_turn"
    target: Id


class MoveInOrder(_Command):
    """Game Master: put the target at ``position`` (1 = first) in the initiative order (settles
    ties by hand); whose turn it is does not change."""

    kind: Literal["move_in_order"] = "move_in_order"
    target: Id
    position: Annotated[int, Field(ge=1, le=100)]


class ChangeSettings(_Command):
    """Game Master: change the encounter's settings (only the fields given)."""

    kind: Literal["change_settings"] = "change_settings"
    initiative_mode: Literal["agility", "roll"] | None = None
    reaction_window_s: Annotated[int, Field(ge=5, le=86_400)] | None = None
    npcs_react: bool | None = None
    hide_npc_numbers: bool | None = None


Command = Annotated[
    AddCombatant
    | RemoveCombatant
    | Begin
    | Attack
    | React
    | ResolveSurrender
    | ChangeStance
    | Move
    | Sprint
    | Stand
    | Breather
    | Ready
    | ResolveReadied
    | UseSkill
    | ActivatePower
    | DropPower
    | GrappleContest
    | Surrender
    | Talk
    | EndTurn
    | Rest
    | NaturalHealing
    | SetCondition
    | AdjustCharacteristic
    | EndCombat
    | SetVitals
    | GrantDice
    | NextTurn
    | SkipTurn
    | MoveInOrder
    | ChangeSettings,
    Field(discriminator="kind"),
]
"""Every command, discriminated by ``kind``. Parse with ``COMMAND_ADAPTER.validate_python``."""
