"""Result objects: what happened, with every die and number, and how each audience sees it.

Every event is a frozen pydantic model with a ``kind``, the combatant it is about, and a
ready-made English ``text`` with every number (what the GM and the log see). Each event renders
itself for an audience with :meth:`Event.render` through a :class:`~bot.engine.core.audience.View`,
which decides once whether a combatant's numbers may be shown; an event about an NPC whose
numbers are hidden renders without them. :data:`EVENT_TYPES` maps each ``kind`` to its class,
so logged events can be read back (:func:`parse_event`, with a ruleset's ``event_types``) and
rendered again.
:class:`Outcome` pairs the new state with the events, in the order they happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.engine.core.audience import View
from bot.engine.core.dice import Roll
from bot.engine.core.state import AnyState


def roll_text(roll: Roll, view: View, owner: str | None) -> str:
    """A roll as ``view`` may see it: every number when it reveals ``owner`` (whose roll it is),
    else the purpose and the faces only (no formula, no modifier, no total)."""
    if view.reveals(owner):
        return view.text(roll.text)
    if not roll.dice:  # a fixed amount: the owner's number
        return view.text(roll.purpose)
    faces = ", ".join(str(d) for d in roll.dice)
    return f"{view.text(roll.purpose)}: [{faces}]"


class Event(BaseModel):
    """Base of every event. ``combatant`` is the id the event is about (if any).

    ``PUBLIC_NUMBERS`` names the numeric fields any audience may see (round numbers, hit
    counts…); every other number an event carries is treated as the combatant's own and is
    rendered only for audiences that :meth:`View.reveals <bot.engine.core.audience.View.reveals>`
    it (a property test checks this for every event type)."""

    model_config = ConfigDict(frozen=True)

    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset()
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {}
    """For events about two combatants: which field names the combatant a number belongs to
    (``{"target_number": "target"}``); numbers not listed belong to ``combatant``."""

    kind: str
    text: str
    combatant: str | None = None

    def render(self, view: View) -> list[str]:
        """The lines ``view``'s audience sees of this event (none when it may see nothing).
        The base rendering is the text itself: right for events that carry no hidden number."""
        return [view.text(self.text)]


class Note(Event):
    """Free text. ``secret``: the text carries numbers of ``combatant`` (of nobody in
    particular: the GM's only); audiences that may not see them get ``public_text`` instead
    (nothing when it is empty)."""

    kind: Literal["note"] = "note"
    secret: bool = False
    public_text: str = ""

    def render(self, view: View) -> list[str]:
        shown = view.reveals(self.combatant) if self.combatant else view.audience.kind == "gm"
        if not self.secret or shown:
            return [view.text(self.text)]
        return [view.text(self.public_text)] if self.public_text else []


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


UNSCORED_ORDERS: dict[str, str] = {
    "storyteller": "Order (the Storyteller's; the GM changes it with `/gm order`)",
    "pcs_then_npcs": "Order (the player characters, then the NPCs)",
}
"""Orders no score or roll sets (``bot/engine/core/order.py``), by mode: their heading. Their
lines show places and names — no Agility (no score set them), a roll only where one was made
and the numbers are revealed."""


def order_heading(mode: str) -> str:
    """The words before an order's places: ``"Initiative"`` for an order set by a score or a
    roll, the order's own heading (:data:`UNSCORED_ORDERS`) otherwise."""
    return UNSCORED_ORDERS.get(mode, "Initiative")


class InitiativeRolled(Event):
    """The initiative order; ``text`` names the places only (the Agility and rolls in ``lines``
    are the combatants' own numbers). An order no score sets (:data:`UNSCORED_ORDERS`) shows
    no numbers at all."""

    kind: Literal["initiative"] = "initiative"
    mode: str
    lines: tuple[InitiativeLine, ...]

    def render(self, view: View) -> list[str]:
        """Places and names for everyone; a combatant's Agility or initiative roll only where
        its numbers are revealed."""
        parts = []
        for line in self.lines:
            name = view.name(line.combatant, line.name)
            if self.mode in UNSCORED_ORDERS:  # set, not scored: no numbers but a roll's
                parts.append(
                    f"{line.place}. {name}"
                    + (
                        f" (rolled {line.roll.total})"
                        if line.roll and view.reveals(line.combatant)
                        else ""
                    )
                )
            elif not view.reveals(line.combatant):
                parts.append(f"{line.place}. {name}")
            elif self.mode == "roll" and line.roll is not None:
                parts.append(f"{line.place}. {name} (rolled {line.roll.total})")
            elif line.roll is not None:  # the roll only broke a tie on Agility
                parts.append(
                    f"{line.place}. {name} (Agility {line.agility}, tie roll {line.roll.total})"
                )
            else:
                parts.append(f"{line.place}. {name} (Agility {line.agility})")
        return [f"{order_heading(self.mode)}: " + ", ".join(parts)]


class RoundStarted(Event):
    kind: Literal["round_started"] = "round_started"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"round"})
    round: int


class TurnStarted(Event):
    kind: Literal["turn_started"] = "turn_started"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"round"})
    round: int
    actions_left: int

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        return [f"Round {self.round}: {view.name(self.combatant)}'s turn."]


class TurnSkipped(Event):
    kind: Literal["turn_skipped"] = "turn_skipped"
    reason: str


class TurnEnded(Event):
    kind: Literal["turn_ended"] = "turn_ended"
    actions_left: int

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        return [f"{view.name(self.combatant)}'s turn ends."]


class ActionsSpent(Event):
    """Actions paid from the pool; what they were spent on shows in the events around it."""

    kind: Literal["actions_spent"] = "actions_spent"
    amount: int
    left: int
    reason: str

    def render(self, view: View) -> list[str]:
        return [view.text(self.text)] if view.reveals(self.combatant) else []


class PositionsChanged(Event):
    """Declared distances or engagements changed (:mod:`bot.engine.core.positions`): where
    combatants stand is what everyone at the table sees."""

    kind: Literal["positions_changed"] = "positions_changed"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"meters"})
    other: str | None = None
    meters: float | None = None
    engaged: bool = False


class Moved(Event):
    """Movement. Where a combatant goes is seen by everyone (``meters``); what it reveals of
    its speed (the text of standing up names half its Run speed) is hidden."""

    kind: Literal["moved"] = "moved"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"meters"})
    meters: float
    mode: str
    how: Literal["half", "full", "sprint", "stand", "reaction"]

    def render(self, view: View) -> list[str]:
        if self.how != "stand" or view.reveals(self.combatant):
            return [view.text(self.text)]
        return [f"{view.name(self.combatant)} stands up."]


class AttackDeclared(Event):
    """``combatant`` attacks ``target`` with ``attack`` (hit ``hit_index`` of ``hits_total``);
    what it waits on before its outcome: the target's reaction, the attacker, or ``nobody``.

    Awaiting nobody, the outcome follows in the same result and says who attacks whom with
    what (Utopia's :class:`~bot.engine.utopia.events.AttackRolled`): the declaration then
    renders nothing — the channel read "X attacks Y with Z." twice."""

    kind: Literal["attack_declared"] = "attack_declared"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"hit_index", "hits_total"})
    target: str
    attack: str
    hit_index: int
    hits_total: int
    awaiting: Literal["reaction", "attacker", "nobody"]

    def render(self, view: View) -> list[str]:
        return [] if self.awaiting == "nobody" else super().render(view)


class ReactionChosen(Event):
    kind: Literal["reaction_chosen"] = "reaction_chosen"
    choice: str
    label: str


class ConditionChanged(Event):
    """A condition (an effect, :mod:`bot.engine.core.effects`) gained, lost, or its level
    changed. ``level`` is the level it has now (0 or None: gone; None in events logged before
    levels existed). ``reason`` is what anyone may read;
    ``detail`` the exact numbers behind it (e.g. "Stamina reduced to -3"), shown where the
    combatant's numbers are."""

    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"level"})  # part of its name
    kind: Literal["condition_changed"] = "condition_changed"
    condition: str
    gained: bool
    level: int | None = None
    reason: str
    detail: str = ""

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        who, what, why = view.name(self.combatant), self.condition, view.text(self.reason)
        level = self.level or 0
        if level > 1:
            return [f"{who} is now {what} {level} ({why})."]
        if self.gained or level == 1:
            return [f"{who} is now {what} ({why})."]
        return [f"{who} is no longer {what} ({why})."]


class CombatEnded(Event):
    kind: Literal["combat_ended"] = "combat_ended"
    winner: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of one command: the new state and what happened, in order."""

    state: AnyState
    events: list[Event] = field(default_factory=list)

    @property
    def text(self) -> str:
        """All event texts, one per line."""
        return "\n".join(e.text for e in self.events)


def render_all(events: list[Event], view: View) -> list[str]:
    """Every event rendered for ``view``'s audience, in order."""
    return [line for event in events for line in event.render(view)]


CORE_EVENTS: tuple[type[Event], ...] = (
    Note,
    CombatantJoined,
    CombatantLeft,
    InitiativeRolled,
    RoundStarted,
    TurnStarted,
    TurnSkipped,
    TurnEnded,
    ActionsSpent,
    Moved,
    PositionsChanged,
    AttackDeclared,
    ReactionChosen,
    ConditionChanged,
    CombatEnded,
)
"""The events every ruleset may produce (its own come on top: ``Ruleset.event_types``)."""


def event_types(*classes: type[Event]) -> dict[str, type[Event]]:
    """Event classes by ``kind`` (each kind once: a duplicate is a programming error)."""
    found: dict[str, type[Event]] = {}
    for cls in classes:
        kind = cls.model_fields["kind"].default
        if kind in found:
            raise ValueError(f"two event classes share the kind {kind!r}")
        found[kind] = cls
    return found


def parse_event(data: Mapping[str, Any], types: Mapping[str, type[Event]]) -> Event:
    """An event read back from its JSON form (``model_dump(mode="json")``) among ``types``
    (a ruleset's ``event_types``). An event this version cannot read becomes a :class:`Note`
    holding its text, shown only to the GM."""
    cls = types.get(str(data.get("kind")))
    if cls is not None:
        try:
            return cls.model_validate(data)
        except ValidationError:
            pass
    return Note(text=str(data.get("text", "")), secret=True, combatant=None)
