"""The commands every ruleset shares: one frozen pydantic model per thing a player or the Game
Master can do to any fight (remove a combatant, begin, end a turn, run the turn order, change
settings). A ruleset adds its own (``bot.engine.uttas.commands``) and parses the union of both
(``Ruleset.command_adapter``, discriminated by ``kind``).

``actor`` is always the id of the acting combatant; whether the Discord member may act for it
is the service layer's check. Free-text and numeric fields are bounded so no command can make
the engine do unbounded work.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from bot import names
from bot.engine.core.effects import Period
from bot.engine.core.pacing import format_duration, parse_reminders

Id = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=12)]
Name = names.Name
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]
Meters = Annotated[float, Field(ge=0, le=10_000)]
Boons = Annotated[int, Field(ge=0, le=10)]
Side = Annotated[str, names.validator(40)]


class CommandBase(BaseModel):
    """Base of every command: frozen, no unknown fields, a ``kind`` naming it (each command
    class fixes its own)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str

    waits_for_decisions: ClassVar[bool] = False
    """Whether the command moves the fight on past the moment a decision waits at — a turn's
    end or start, the turn order, time passing — so it waits until no decision is open, as a
    turn command does. The GM's commands are checked before they apply
    (:meth:`~bot.engine.core.contract.Ruleset.require_decided`), each refused the same way
    whatever system it is; what the GM corrects in the moment (numbers, conditions, dice,
    places, settings), who joins or leaves and the fight's end go on while a decision waits."""


IssueMark = Annotated[int, Field(ge=0)]
"""When a member issued a command, as an ordinal that only grows (the Discord layer uses the
interaction's snowflake id): comparable with the marks the service records when a turn or a
decision begins (``AnyState.turn_marker``, ``PendingAttack.marker``), all from one
clock."""


class Dated(CommandBase):
    """A command dated by when its member issued it (``issued``, filled in by the service from
    the interaction): it was meant for the turn or decision that stood then, so one issued no
    later than the mark of what stands now (a turn's beginning, a decision's opening) is
    refused by the ruleset instead of applying to something its member never saw (issue 9 §3:
    "one command, one effect")."""

    issued: IssueMark | None = None


class Answer(Dated):
    """A command answering a pending decision (:mod:`bot.engine.core.decisions`): ``decision``
    names which one by its id (a button carries it); None answers the newest, as a typed
    command does. One for a decision that is no longer open is refused (:class:`Conflict`)."""

    decision: int | None = Field(default=None, ge=1)


class TurnBound(Dated):
    """A command that moves the fight on from one particular turn. ``for_turn`` is the turn it
    was issued for (``AnyState.turn_seq``; a button carries it). One issued no later than the
    mark of the current turn's beginning was meant for an earlier turn and is refused, so two
    of them sent together end one turn once."""

    for_turn: Annotated[int, Field(ge=0)] | None = None


class RemoveCombatant(CommandBase):
    kind: Literal["remove_combatant"] = "remove_combatant"
    combatant: Id


class Begin(CommandBase):
    """Roll/sort initiative, start round 1 and the first turn. ``initiative_mode`` overrides the
    encounter's mode."""

    kind: Literal["begin"] = "begin"
    waits_for_decisions: ClassVar[bool] = True
    initiative_mode: Literal["agility", "roll"] | None = None


class EndTurn(TurnBound):
    kind: Literal["end_turn"] = "end_turn"
    actor: Id


class EndCombat(CommandBase):
    kind: Literal["end_combat"] = "end_combat"


class NextTurn(TurnBound):
    """Game Master: end the current turn and start the next one. ``by``: who ends it — the GM
    (``/gm next``) or a passed turn deadline (issue 17, "Turn deadlines"), which the note says."""

    kind: Literal["next_turn"] = "next_turn"
    waits_for_decisions: ClassVar[bool] = True
    by: Literal["gm", "deadline"] = "gm"


class SkipTurn(TurnBound):
    """Game Master: the target's turn is skipped: now if it is their turn, else their next one."""

    kind: Literal["skip_turn"] = "skip_turn"
    waits_for_decisions: ClassVar[bool] = True
    target: Id


class MoveInOrder(CommandBase):
    """Game Master: put the target at ``position`` (1 = first) in the initiative order (settles
    ties by hand); whose turn it is does not change."""

    kind: Literal["move_in_order"] = "move_in_order"
    waits_for_decisions: ClassVar[bool] = True
    target: Id
    position: Annotated[int, Field(ge=1, le=100)]


class DelayTurn(TurnBound):
    """Go later in the order from now on, just after ``after`` (Utopia "Standard Actions": a
    creature may put itself lower in the turn order, never higher). On the actor's own turn,
    before it spends anything; only where the ruleset's turn order allows it."""

    kind: Literal["delay"] = "delay"
    waits_for_decisions: ClassVar[bool] = True
    actor: Id
    after: Id


class HoldTurn(TurnBound):
    """Hold the turn's action until ``until`` happens (Untitled "Combat": the player defines
    the circumstances for their turn to resume). On the actor's own turn, before acting; only
    where the ruleset's turn order allows it."""

    kind: Literal["hold"] = "hold"
    waits_for_decisions: ClassVar[bool] = True
    actor: Id
    until: Text


class ResumeTurn(CommandBase):
    """A held action's moment came: the holder acts as soon as the current turn ends and keeps
    that place in the order."""

    kind: Literal["resume"] = "resume"
    actor: Id


class ChangeSettings(CommandBase):
    """Game Master: change the encounter's settings (only the fields given)."""

    kind: Literal["change_settings"] = "change_settings"
    initiative_mode: Literal["agility", "roll"] | None = None
    reaction_window_s: Annotated[int, Field(ge=5, le=86_400)] | None = None
    npcs_react: bool | None = None
    hide_npc_numbers: bool | None = None
    interleaved: bool | None = None
    turn_deadline_s: Annotated[int, Field(ge=0, le=30 * 86_400)] | None = None
    turn_deadline_action: Literal["end_turn", "notify_gm", "default_action"] | None = None
    reminders: Annotated[str, Field(max_length=60)] | None = None
    show_odds: bool | None = None

    @field_validator("reminders")
    @classmethod
    def _reminder_points(cls, value: str | None) -> str | None:
        """Reminder points in :func:`bot.engine.core.pacing.parse_reminders`' form."""
        return None if value is None else parse_reminders(value)


_SETTING_WORDS: dict[str, str] = {
    "initiative_mode": "initiative",
    "reaction_window_s": "reaction window",
    "npcs_react": "NPCs react",
    "hide_npc_numbers": "hide NPC numbers",
    "interleaved": "interleaved order",
    "turn_deadline_s": "turn deadline",
    "turn_deadline_action": "when a deadline passes",
    "reminders": "reminders",
    "show_odds": "show odds",
}
_DEADLINE_ACTION_WORDS = {
    "end_turn": "end the turn",
    "notify_gm": "notify the GM",
    "default_action": "the combatant's default action",
}


def describe_settings(changes: dict[str, object]) -> str:
    """The settings a :class:`ChangeSettings` changed, as a player reads them: ``{"npcs_react":
    True, "turn_deadline_s": 43200}`` → ``"NPCs react: on, turn deadline: 12h"``. Durations
    (the ``*_s`` fields, seconds) are written as ``/gm settings`` takes them
    (:func:`bot.engine.core.pacing.format_duration`), switches as on/off. Every ruleset's
    ``change_settings`` notes its changes through this one function."""
    shown = []
    for key, value in changes.items():
        if key == "kind":
            continue
        if isinstance(value, bool):
            words = "on" if value else "off"
        elif key.endswith("_s") and isinstance(value, int):
            words = format_duration(value)
        elif key == "turn_deadline_action":
            words = _DEADLINE_ACTION_WORDS.get(str(value), str(value))
        else:
            words = str(value)
        shown.append(f"{_SETTING_WORDS.get(key, key.replace('_', ' '))}: {words}")
    return ", ".join(shown)


class EndPeriod(CommandBase):
    """Game Master: a scene, day, quest or arc ends, and every effect that lasts no longer
    ends with it (:func:`bot.engine.core.effects.ended_by`)."""

    kind: Literal["end_period"] = "end_period"
    waits_for_decisions: ClassVar[bool] = True
    period: Period


class SetDistance(CommandBase):
    """Game Master: ``a`` and ``b`` are ``meters`` apart (within 1 m: engaged in melee)."""

    kind: Literal["set_distance"] = "set_distance"
    a: Id
    b: Id
    meters: Meters


class Engage(CommandBase):
    """Game Master: ``a`` and ``b`` are in melee with each other."""

    kind: Literal["engage"] = "engage"
    a: Id
    b: Id


class Disengage(CommandBase):
    """Game Master: ``combatant`` is out of melee (its distances stay as declared)."""

    kind: Literal["disengage"] = "disengage"
    combatant: Id


class Rest(CommandBase):
    """A ``short`` or ``long`` rest for ``combatants`` (all when empty), only outside a fight;
    what it restores is the ruleset's (``Ruleset.rest_command``)."""

    kind: Literal["rest"] = "rest"
    waits_for_decisions: ClassVar[bool] = True
    rest: Literal["short", "long"]
    combatants: tuple[Id, ...] = Field(default=(), max_length=100)


class NaturalHealing(CommandBase):
    """``weeks`` of natural healing for ``combatants`` (all when empty), only outside a fight;
    what it heals is the ruleset's (``Ruleset.healing_command``)."""

    kind: Literal["natural_healing"] = "natural_healing"
    waits_for_decisions: ClassVar[bool] = True
    weeks: Annotated[int, Field(ge=1, le=520)]
    combatants: tuple[Id, ...] = Field(default=(), max_length=100)


CORE_COMMANDS: tuple[type[CommandBase], ...] = (
    RemoveCombatant,
    Begin,
    EndTurn,
    EndCombat,
    NextTurn,
    SkipTurn,
    MoveInOrder,
    ChangeSettings,
    EndPeriod,
    SetDistance,
    Engage,
    Disengage,
    Rest,
    NaturalHealing,
)
"""The commands every ruleset accepts (its own come on top)."""

ORDER_COMMANDS: tuple[type[CommandBase], ...] = (DelayTurn, HoldTurn, ResumeTurn)
"""The turn-order moves a ruleset accepts when its turn order allows them
(:mod:`bot.engine.core.order`: ``TurnOrder.allows_delay``, ``allows_hold``)."""
