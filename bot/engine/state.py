"""The encounter state: one pydantic document per encounter, JSON round-trippable.

The state is plain data; rules live in the rulesets. ``turn`` is the *id* of the combatant whose
turn it is (never a list index), so adding or removing combatants cannot skip or repeat a turn.
Sheets are frozen snapshots shared between successive states; everything that changes in a fight
lives on :class:`Combatant` beside the sheet.

Names (the encounter's, combatants', and the attack, stance and power names the state refers to)
are normalised by :mod:`bot.names`. A state read back from storage is validated with
``context=bot.names.STORED``: old names are normalised, never refused, and combatants whose names
became equal are numbered (``Willow``, ``Willow 2``), so an encounter stored before these rules
always loads.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bot import names
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import NotFound

InitiativeMode = Literal["agility", "roll"]
CombatantId = Annotated[str, Field(min_length=1, max_length=12)]
Name = names.Name
Side = Annotated[str, names.validator(40)]
ENCOUNTER_NAME_MAX = 100


class InitiativeEntry(BaseModel):
    """How a combatant's place in the order was decided (UTTAS "Combat").

    ``key`` sorts descending: ``(primary, tie_break, -join_seq)``. In ``agility`` mode primary is
    Agility and ``tie_break`` the Agility-dice roll (0 when nobody tied); in ``roll`` mode primary
    is the Agility-dice roll and ``tie_break`` the Agility. ``dice`` are the faces rolled.
    """

    model_config = ConfigDict(extra="forbid")

    primary: int
    tie_break: int = 0
    seq: int = 0
    dice: list[int] = Field(default_factory=list)

    def key(self) -> tuple[int, int, int]:
        return (self.primary, self.tie_break, -self.seq)


class DisabledLimb(BaseModel):
    """A disabled limb (UTTAS "Disabled Limb"). ``source``: ``grapple`` (until the hold breaks) or
    ``injury`` (until Health is back to ``restore_at_health``)."""

    model_config = ConfigDict(extra="forbid")

    limb: str
    source: Literal["grapple", "injury"]
    restore_at_health: int | None = None


class MaintainedPower(BaseModel):
    """A maintained power and the Stamina it holds (UTTAS "Activating Powers")."""

    model_config = ConfigDict(extra="forbid")

    power: Name
    stamina_held: int


class Readied(BaseModel):
    """A readied action waiting for its trigger (UTTAS "Ready an Action").

    ``trigger``: ``action`` (after ``watch`` completes an action), ``movement`` (interrupts
    ``watch``'s movement), ``coordinated`` (strike with ally ``watch`` at the same instant, using
    ``attack`` against ``target``). ``plan`` is the player's free-text description.
    """

    model_config = ConfigDict(extra="forbid")

    trigger: Literal["action", "movement", "coordinated"]
    watch: str
    plan: str = ""
    attack: Name | None = None
    target: str | None = None
    round: int = 0


class Combatant(BaseModel):
    """One fighter: identity, sheet snapshot and live combat status.

    ``stamina_damage`` is the Stamina lost to damage and not yet recovered: how hurt the
    combatant looks (Stamina spent on its own actions does not show). ``pools`` holds the
    action economy's pools (UTTAS: ``{"speed": n}``, the actions left this
    round). ``conditions`` lists condition names (see ``Ruleset.conditions()``). Turn-scoped
    fields reset at the start of each of the combatant's turns. Health and Stamina are current
    values (Stamina may go negative while Unconscious).
    """

    model_config = ConfigDict(extra="forbid")

    id: CombatantId
    name: Name
    controller_id: int | None = None
    is_npc: bool = False
    side: Side
    sheet: UttasSheet
    join_seq: int = 0
    health: int
    stamina: int
    stamina_damage: int = 0
    stamina_held: int = 0
    pools: dict[str, int] = Field(default_factory=dict)
    stance: Name | None = None
    conditions: list[str] = Field(default_factory=list)
    disabled_limbs: list[DisabledLimb] = Field(default_factory=list)
    grappled_by: str | None = None
    grappling: str | None = None
    characteristic_mods: dict[str, int] = Field(default_factory=dict)
    breather_uses: int = 0
    breathing: bool = False
    maintained: list[MaintainedPower] = Field(default_factory=list)
    readied: Readied | None = None
    initiative: InitiativeEntry | None = None
    # turn-scoped
    free_stance_available: bool = False
    half_move_used: dict[str, float] = Field(default_factory=dict)
    moved_this_turn: bool = False
    movement_ended: bool = False
    acrobatics_tried: bool = False
    sprinting: bool = False
    # rest bookkeeping, in in-game seconds (EncounterState.game_time_s)
    short_rests_at: list[int] = Field(default_factory=list)
    long_rest_at: int | None = None
    # Game Master adjustments: net Advantage dice (negative: Disadvantage) on the next Accuracy
    # or skill roll only, and on every one until removed; a turn to skip.
    gm_next_roll: int = 0
    gm_every_roll: int = 0
    skip_next_turn: bool = False

    @property
    def actions_left(self) -> int:
        """Actions left in the Speed pool this round (UTTAS "Actions and Speed")."""
        return self.pools.get("speed", 0)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def clone(self) -> Combatant:
        """A copy safe to change: containers copied, the frozen sheet shared."""
        new = self.model_copy()
        d = new.__dict__
        d["pools"] = dict(self.pools)
        d["conditions"] = list(self.conditions)
        d["disabled_limbs"] = [x.model_copy() for x in self.disabled_limbs]
        d["characteristic_mods"] = dict(self.characteristic_mods)
        d["maintained"] = list(self.maintained)
        d["half_move_used"] = dict(self.half_move_used)
        d["short_rests_at"] = list(self.short_rests_at)
        return new


class PendingAttack(BaseModel):
    """An attack waiting for a decision (UTTAS "Perform a Reaction command", "Surrender").

    ``awaiting``: ``reaction`` — the target (or an ally, to take one for the team) chooses;
    ``attacker`` — the target surrendered and the attacker chooses to complete or stop.
    ``hit_index``/``hits_total``: which hit of a multi-hit attack this is. ``joint``: allies
    (id → attack name) whose readied coordinated attacks land at the same instant.
    ``created_at`` is an ISO timestamp of the injected clock, for reaction-window expiry;
    ``marker`` the latest issue mark the bot had seen when this decision began.
    """

    model_config = ConfigDict(extra="forbid")

    attacker: str
    target: str
    attack: Name
    range_m: float = 2
    hidden: bool = False
    advantage: int = 0
    disadvantage: int = 0
    aimed_limb: str | None = None
    limbs: list[str] = Field(default_factory=list)
    hit_index: int = 1
    hits_total: int = 1
    joint: dict[str, Name] = Field(default_factory=dict)
    awaiting: Literal["reaction", "attacker"] = "reaction"
    on_turn: bool = True
    created_at: str = ""
    marker: int = 0


class EncounterSettings(BaseModel):
    """Per-encounter settings a GM may change.

    ``reaction_window_s``: seconds a target has to choose a reaction before the attack resolves
    with none (play-by-chat default 5 minutes). ``npcs_react``: NPC targets wait for the GM's
    choice (else they never react). ``hide_npc_numbers``: players see descriptors, not NPC
    Health and Stamina."""

    model_config = ConfigDict(extra="forbid")

    reaction_window_s: Annotated[int, Field(ge=5, le=86_400)] = 300
    auto_end: bool = True
    npcs_react: bool = False
    hide_npc_numbers: bool = True


Phase = Literal["setup", "active", "finished"]


class EncounterState(BaseModel):
    """The whole encounter. ``phase``: ``setup`` while combatants gather, ``active`` during the
    fight, ``finished`` once it ended (one side left standing, or the GM ended it) until the GM
    closes the encounter. ``round`` is 0 before the fight begins; ``order`` lists combatant ids
    in initiative order; ``turn`` is the id of the combatant whose turn it is (None outside a
    fight). ``turn_seq`` counts the turns taken so far (each new turn holder adds one) and
    ``turn_started_at`` is when the current turn began (ISO 8601, the injected clock), and
    ``turn_marker`` the latest issue mark the bot had seen then (``commands.IssueMark``): a
    command that moves the fight on says which turn it was issued for, so a second one for a
    turn that already ended changes nothing. ``pending`` is an attack waiting for a reaction
    decision. ``game_time_s`` counts in-game seconds (6 per round; rests add hours) for the
    rest limits."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1
    ruleset: str
    name: Annotated[str, names.validator(ENCOUNTER_NAME_MAX)]
    phase: Phase = "setup"
    round: int = 0
    combatants: list[Combatant] = Field(default_factory=list)
    order: list[str] = Field(default_factory=list)
    turn: str | None = None
    pending: PendingAttack | None = None
    seed: int = 0
    initiative_mode: InitiativeMode = "agility"
    settings: EncounterSettings = Field(default_factory=EncounterSettings)
    next_id: int = 1
    game_time_s: int = 0
    last_action_by: str | None = None
    last_mover: str | None = None
    winner: str | None = None
    turn_seq: int = 0
    turn_started_at: str = ""
    turn_marker: int = 0

    @model_validator(mode="before")
    @classmethod
    def _finished_fights(cls, data: Any) -> Any:
        """States saved before the ``finished`` phase existed went back to ``setup`` when their
        fight ended (round > 0 afterwards): they load as ``finished``."""
        if isinstance(data, dict) and data.get("phase") == "setup" and data.get("round", 0) > 0:
            return {**data, "phase": "finished"}
        return data

    @model_validator(mode="before")
    @classmethod
    def _number_stored_duplicates(cls, data: Any, info: ValidationInfo) -> Any:
        """A stored state whose combatant names became equal once normalised still loads: the
        later combatants are numbered (``Willow 2``), as the migration numbers stored ones."""
        if not names.is_stored(info) or not isinstance(data, dict):
            return data
        combatants = data.get("combatants")
        if not isinstance(combatants, list):
            return data
        taken: set[str] = set()
        renamed: list[Any] = []
        for item in combatants:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                name = names.numbered(names.clean_stored(item["name"]), taken)
                taken.add(names.key(name))
                item = {**item, "name": name}
            renamed.append(item)
        return {**data, "combatants": renamed}

    def get(self, combatant_id: str) -> Combatant:
        """The combatant with this id. Raises :class:`NotFound`."""
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise NotFound(f"No combatant {combatant_id!r} in this encounter.")

    def find(self, name_or_id: str) -> Combatant:
        """A combatant by id or name (compared by :func:`bot.names.key`). Raises
        :class:`NotFound`."""
        folded = names.key(name_or_id)
        for c in self.combatants:
            if c.id == name_or_id or names.key(c.name) == folded:
                return c
        raise NotFound(f"No combatant called {name_or_id!r} in this encounter.")

    @property
    def current(self) -> Combatant | None:
        """The combatant whose turn it is, if a fight runs."""
        return self.get(self.turn) if self.turn else None


def fight_over(state: EncounterState) -> str:
    """The refusal for a command that needs a running fight after it ended, naming the winner
    and how the GM closes the encounter."""
    won = f" ({state.winner} won)" if state.winner else ""
    return f"The fight is over{won}. The GM closes it with `/encounter end`."
