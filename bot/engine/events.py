"""Result objects: what happened, with every die and number a player needs to see.

Every event is a frozen pydantic model with a ``kind`` and a ready-made English ``text``; the
Discord layer may use the text as is or build richer embeds from the typed fields.
:class:`Outcome` pairs the new state with the events, in the order they happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.engine.dice import Roll
from bot.engine.state import EncounterState


class Event(BaseModel):
    """Base of every event. ``combatant`` is the id the event is about (if any)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    combatant: str | None = None


class Note(Event):
    kind: Literal["note"] = "note"


class CombatantJoined(Event):
    kind: Literal["combatant_joined"] = "combatant_joined"


class CombatantLeft(Event):
    kind: Literal["combatant_left"] = "combatant_left"


class InitiativeLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    combatant: str
    name: str
    agility: int
    roll: Roll | None = None
    place: int


class InitiativeRolled(Event):
    kind: Literal["initiative"] = "initiative"
    mode: str
    lines: tuple[InitiativeLine, ...]


class RoundStarted(Event):
    kind: Literal["round_started"] = "round_started"
    round: int


class TurnStarted(Event):
    kind: Literal["turn_started"] = "turn_started"
    round: int
    actions_left: int


class TurnSkipped(Event):
    kind: Literal["turn_skipped"] = "turn_skipped"
    reason: str


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"
    actions_left: int


class ActionsSpent(Event):
    kind: Literal["actions_spent"] = "actions_spent"
    amount: int
    left: int
    reason: str


class StaminaSpent(Event):
    kind: Literal["stamina_spent"] = "stamina_spent"
    amount: int
    left: int
    held: int = 0
    reason: str


class StanceChanged(Event):
    kind: Literal["stance_changed"] = "stance_changed"
    before: str | None
    after: str
    actions: int


class Moved(Event):
    kind: Literal["moved"] = "moved"
    meters: float
    mode: str
    how: Literal["half", "full", "sprint", "stand", "reaction"]


class AttackDeclared(Event):
    kind: Literal["attack_declared"] = "attack_declared"
    target: str
    attack: str
    hit_index: int
    hits_total: int
    awaiting: Literal["reaction", "attacker", "nobody"]


class ReactionChosen(Event):
    kind: Literal["reaction_chosen"] = "reaction_chosen"
    choice: str
    label: str


class AttackResolved(Event):
    """One hit resolved (UTTAS "Accuracy Checks", "Damage").

    ``accuracy`` is the 3d6 (± Advantage dice) roll with the Accuracy bonus as modifier;
    ``target_number`` the Dodge or Discipline (``target_stat``) it had to beat strictly.
    ``auto``: ``"hit"`` (interception, surrender) or ``"miss"`` (three range increments out).
    """

    kind: Literal["attack_resolved"] = "attack_resolved"
    attacker: str
    target: str
    attack: str
    hit_index: int = 1
    target_stat: str
    target_number: int
    accuracy: Roll | None
    advantages: tuple[str, ...] = ()
    disadvantages: tuple[str, ...] = ()
    auto: Literal["hit", "miss"] | None = None
    hit: bool
    damage: Roll | None = None
    damage_type: str = ""
    armor: int = 0
    defense: int = 0
    health_damage: int = 0
    stamina_damage: int = 0
    health_left: int = 0
    stamina_left: int = 0


class ConditionChanged(Event):
    kind: Literal["condition_changed"] = "condition_changed"
    condition: str
    gained: bool
    reason: str


class Recovered(Event):
    """Stamina or Health regained (breather, rest, healing)."""

    kind: Literal["recovered"] = "recovered"
    source: str
    roll: Roll | None = None
    stamina: int = 0
    health: int = 0


class Checked(Event):
    """A skill check or contest."""

    kind: Literal["checked"] = "checked"
    roll: Roll
    difficulty: int | None
    success: bool | None
    opposing: Roll | None = None


class VitalsSet(Event):
    """The Game Master set or changed Health and/or Stamina."""

    kind: Literal["vitals_set"] = "vitals_set"
    health: int
    stamina: int
    health_before: int
    stamina_before: int


class CombatEnded(Event):
    kind: Literal["combat_ended"] = "combat_ended"
    winner: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one command: the new state and what happened, in order."""

    state: EncounterState
    events: list[Event] = field(default_factory=list)

    @property
    def text(self) -> str:
        """All event texts, one per line."""
        return "\n".join(e.text for e in self.events)
