"""The ruleset-neutral encounter state: one pydantic document per encounter, JSON
round-trippable.

The state is plain data; rules live in the rulesets. ``turn`` is the *id* of the combatant whose
turn it is (never a list index), so adding or removing combatants cannot skip or repeat a turn.
:class:`EncounterState` is generic over the ruleset's own combatant model (a subclass of
:class:`CombatantBase` holding its sheet and live fields) and its own pending-decision model; a
ruleset's state model is ``EncounterState[ItsCombatant, ItsPending]`` (``Ruleset.state_model``),
so each ruleset's live state is its own model and a stored state parses with the exact types.

Names (the encounter's, combatants', and the names the state refers to) are normalised by
:mod:`bot.names`. A state read back from storage is validated with ``context=bot.names.STORED``:
old names are normalised, never refused, and combatants whose names became equal are numbered
(``Willow``, ``Willow 2``), so an encounter stored before these rules always loads.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from bot import names
from bot.engine.core.built import set_dict, set_extra, set_fields_set, set_private
from bot.engine.core.decisions import DecisionBase
from bot.engine.core.effects import Effect
from bot.engine.core.positions import Positions
from bot.engine.core.shared import shared
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


M = TypeVar("M", bound=BaseModel)


def shallow_copy(model: M) -> M:
    """``model.model_copy()`` without its generic ``copy.copy`` dispatch: the hot path of every
    command copies the state and each combatant it changes (``benchmarks/engine_attack.py``).
    Fields are shared, as in pydantic's shallow copy; the caller copies the containers it
    changes."""
    return with_fields(model, model.__dict__.copy())


def with_fields(model: M, fields: dict[str, Any]) -> M:
    """A shallow copy of ``model`` (as :func:`shallow_copy`) holding ``fields``: every field of
    ``model``, in its order — the caller builds it from ``model.__dict__`` with the containers it
    copies put in (``{**model.__dict__, "pools": {...}}``), in one dict."""
    new = _new(type(model))
    set_dict(new, fields)
    set_fields_set(new, model.__pydantic_fields_set__.copy())
    extra, private = model.__pydantic_extra__, model.__pydantic_private__
    set_extra(new, None if extra is None else extra.copy())
    set_private(new, None if private is None else private.copy())
    return new


_new = object.__new__


class CombatantBase(BaseModel):
    """What every ruleset's combatant has: identity, side, place in the order and the action
    economy's pools.

    ``pools`` holds the economy's named pools (UTTAS ``{"speed": n}``; Utopia turn and
    interrupt actions…). ``effects`` are what lasts on it — its conditions among them (see
    ``Ruleset.conditions()``), each with a scope, level and end (:mod:`bot.engine.core.effects`);
    ``conditions`` reads their names. ``skip_next_turn``: the Game Master's ``/gm skip`` for the
    combatant's next turn. A ruleset subclasses this with its sheet snapshot and live fields.

    A combatant stored before effects existed (``conditions``: a list of names) loads with each
    name as an effect that lasts until removed (:meth:`upgrade`).
    """

    model_config = ConfigDict(extra="forbid")

    @field_validator("sheet", mode="wrap", check_fields=False)
    @classmethod
    def _shared_sheet(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        """A ruleset's combatant holds a frozen ``sheet``: one parsed object per distinct stored
        sheet, shared between combatants and encounters (:mod:`bot.engine.core.shared`)."""
        return shared(cls, value, info.context, handler)

    id: CombatantId
    name: Name
    controller_id: int | None = None
    is_npc: bool = False
    side: Side
    join_seq: int = 0
    pools: dict[str, int] = Field(default_factory=dict)
    effects: list[Effect] = Field(default_factory=list)
    initiative: InitiativeEntry | None = None
    skip_next_turn: bool = False
    character_id: int | None = None
    """The character (its sheet's id) whose campaign record this combatant carries — written
    back when it leaves or the encounter ends (decision A); None for NPCs."""

    @model_validator(mode="before")
    @classmethod
    def _stored_before_effects(cls, data: Any) -> Any:
        if isinstance(data, dict) and "conditions" in data:
            return cls.upgrade(dict(data))
        return data

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Turn a combatant stored before effects (``conditions``: names) into today's shape;
        a ruleset extends this for its own old fields (calling ``super``)."""
        old = data.pop("conditions") or []
        data.setdefault("effects", [{"name": n} for n in old])
        return data

    @property
    def conditions(self) -> list[str]:
        """The names of the effects on the combatant, in the order gained."""
        return [e.name for e in self.effects]

    def condition_labels(self) -> list[str]:
        """The effects as shown on the tracker: the name, and the level when above 1
        ("Stunned 2")."""
        return [f"{e.name} {e.level}" if e.level > 1 else e.name for e in self.effects]

    def has(self, condition: str) -> bool:
        effects = self.effects
        if not effects:  # the common case, on the hot path: one check
            return False
        for e in effects:  # noqa: SIM110 - a plain loop; any() over a generator costs more here
            if e.name == condition:
                return True
        return False

    def effect(self, name: str) -> Effect | None:
        """The effect called ``name`` on the combatant, if any."""
        for e in self.effects:
            if e.name == name:
                return e
        return None

    def clone(self) -> Any:
        """A copy safe to change: containers copied (effects are frozen; a subclass copies
        its own containers too)."""
        new = shallow_copy(self)
        d = new.__dict__
        # ``{**x}`` and ``[*x]`` copy as ``dict(x)`` and ``list(x)`` do, without their global
        # lookups and calls (every changed combatant is cloned: the hot path).
        d["pools"] = {**self.pools}
        d["effects"] = [*self.effects]
        return new


class EncounterSettings(BaseModel):
    """Per-encounter settings a GM may change.

    ``reaction_window_s``: seconds a target has to choose a reaction before the attack resolves
    with none (play-by-chat default 5 minutes). ``npcs_react``: NPC targets wait for the GM's
    choice (else they never react). ``hide_npc_numbers``: players see descriptors, not NPC
    Health and Stamina. ``interleaved``: one action at a time, each creature after each
    action, the round ending when every creature has spent its actions (Utopia's optional
    rule; only where the turn order allows it, :mod:`bot.engine.core.interleave`).
    ``turn_deadline_s``: seconds a turn may last before ``turn_deadline_action`` happens (0:
    no deadline; :mod:`bot.engine.core.pacing`, issue 17). ``reminders``: when the member a
    turn or a reaction waits on is reminded (:func:`bot.engine.core.pacing.parse_reminders`'
    form: ``50%`` — once at half the window — by default; ``off``: never).
    ``show_odds``: players may see ``/odds`` against NPCs whose numbers are hidden (issue 18;
    the GM always may). ``rules``:
    the game system's own encounter settings, by name, as its ruleset stored them
    (:mod:`bot.engine.core.encounter_rules`; Untitled: the Legendary dice)."""

    model_config = ConfigDict(extra="forbid")

    reaction_window_s: Annotated[int, Field(ge=5, le=86_400)] = 300
    auto_end: bool = True
    npcs_react: bool = False
    hide_npc_numbers: bool = True
    interleaved: bool = False
    turn_deadline_s: Annotated[int, Field(ge=0, le=30 * 86_400)] = 0
    turn_deadline_action: Literal["end_turn", "notify_gm", "default_action"] = "end_turn"
    reminders: Annotated[str, Field(max_length=60)] = "50%"
    show_odds: bool = False
    rules: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=60)]] = Field(
        default_factory=dict, max_length=20
    )


class Hold(BaseModel):
    """A held action (Untitled "Combat"): held ``until`` something happens, since ``round``;
    ``resume`` once its moment came (the holder acts when the current turn ends)."""

    model_config = ConfigDict(extra="forbid")

    until: Annotated[str, Field(max_length=300)]
    round: int = 0
    resume: bool = False


Phase = Literal["setup", "active", "finished"]
CombatantT = TypeVar("CombatantT", bound=CombatantBase)
PendingT = TypeVar("PendingT", bound=DecisionBase)


class EncounterState(BaseModel, Generic[CombatantT, PendingT]):
    """The whole encounter. ``phase``: ``setup`` while combatants gather, ``active`` during the
    fight, ``finished`` once it ended (one side left standing, or the GM ended it) until the
    GM closes the encounter. ``round`` is 0 before the fight begins; ``order`` lists
    combatant ids in initiative order; ``turn`` is the id of the combatant whose turn it is
    (None outside a fight). ``turn_seq`` counts the turns taken so far (each new turn holder
    adds one) and ``turn_started_at`` is when the current turn began (ISO 8601, the injected
    clock), and ``turn_marker`` the latest issue mark the bot had seen then
    (``commands.IssueMark``): a command that moves the fight on says which turn it was
    issued for, so a second one for a turn that already ended changes nothing.
    ``decisions``: the decisions the fight waits on, in the order they opened (the ruleset's
    own model, :mod:`bot.engine.core.decisions`); ``next_decision`` the id the next one
    gets; ``pending`` the newest. ``game_time_s`` counts in-game seconds (6 per round; rests
    add hours) for the rest limits. ``turn_spent``: the turn holder has spent something this
    turn (a delay or hold is allowed only before). ``holding``: combatants holding their
    action, by id (:mod:`bot.engine.core.order`). ``positions``: declared distances and
    engagements (:mod:`bot.engine.core.positions`)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = 1
    ruleset: str
    name: Annotated[str, names.validator(ENCOUNTER_NAME_MAX)]
    phase: Phase = "setup"
    round: int = 0
    combatants: list[CombatantT] = Field(default_factory=list)
    order: list[str] = Field(default_factory=list)
    turn: str | None = None
    decisions: list[PendingT] = Field(default_factory=list)
    next_decision: int = 1
    seed: int = 0
    initiative_mode: InitiativeMode = "agility"
    settings: EncounterSettings = Field(default_factory=EncounterSettings)
    next_id: int = 1
    game_time_s: int = 0
    last_action_by: str | None = None
    last_mover: str | None = None
    winner: str | None = None
    end_reason: str | None = None
    """Why a finished fight ended, in words ("the Game Master ended it"); ``None`` while it runs
    and for fights stored before this field existed."""
    turn_seq: int = 0
    turn_started_at: str = ""
    turn_marker: int = 0
    turn_spent: bool = False
    holding: dict[str, Hold] = Field(default_factory=dict)
    positions: Positions = Field(default_factory=Positions)

    @model_validator(mode="before")
    @classmethod
    def _one_pending(cls, data: Any) -> Any:
        """States saved when a fight had at most one decision (``pending``) load with it as the
        list's only one, numbered 1."""
        if isinstance(data, dict) and "pending" in data:
            data = dict(data)
            pending = data.pop("pending")
            if isinstance(pending, dict):
                data["decisions"] = [{**pending, "id": pending.get("id") or 1}]
                data.setdefault("next_decision", 2)
        return data

    @property
    def pending(self) -> PendingT | None:
        """The newest open decision (the one a nested decision adds to comes before it), or
        None when nothing waits."""
        decisions = self.decisions
        return decisions[-1] if decisions else None

    def decision(self, decision_id: int) -> PendingT | None:
        """The open decision numbered ``decision_id``, or None."""
        for d in self.decisions:
            if d.id == decision_id:
                return d
        return None

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

    def get(self, combatant_id: str) -> CombatantT:
        """The combatant with this id. Raises :class:`NotFound`."""
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise NotFound(f"No combatant {names.quoted(str(combatant_id))} in this encounter.")

    def find(self, name_or_id: str) -> CombatantT:
        """A combatant by id or name (compared by :func:`bot.names.key`). Raises
        :class:`NotFound`."""
        folded = names.key(name_or_id)
        for c in self.combatants:
            if c.id == name_or_id or names.key(c.name) == folded:
                return c
        raise NotFound(f"No combatant called {names.quoted(name_or_id)} in this encounter.")

    @property
    def current(self) -> CombatantT | None:
        """The combatant whose turn it is, if a fight runs."""
        return self.get(self.turn) if self.turn else None

    @property
    def running_turn(self) -> int:
        """``turn_seq`` while a turn runs (the fight ``active`` and someone's turn), else -1:
        what the store keeps beside the state (column ``encounters.running_turn``, migration
        0025) so the turns a stop left unannounced are found without loading every fight."""
        return self.turn_seq if self.phase == "active" and self.current is not None else -1


AnyState = EncounterState[Any, Any]
"""A state of any ruleset (code that works the same for every ruleset)."""


def fight_over(state: AnyState) -> str:
    """The refusal for a command that needs a running fight after it ended, naming the winner
    and how the GM closes the encounter."""
    won = f" ({state.winner} won)" if state.winner else ""
    return f"The fight is over{won}. The GM closes it with `/encounter end`."
