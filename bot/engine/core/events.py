"""Result objects: what happened, with every die and number, and how each audience sees it.

Every event is a frozen pydantic model with a ``kind``, the combatant it is about, and a
ready-made English ``text`` with every number (what the GM and the log see). Each event renders
itself for an audience with :meth:`Event.render` through a :class:`~bot.engine.core.audience.View`,
which decides once whether a combatant's numbers may be shown; an event about an NPC whose
numbers are hidden renders without them. :data:`EVENT_TYPES` maps each ``kind`` to its class,
so logged events can be read back (:func:`parse_event`) and rendered again.
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
    else the purpose and the faces only (no modifier, no total)."""
    if view.reveals(owner):
        return view.text(roll.text)
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


class InitiativeRolled(Event):
    """The initiative order; ``text`` names the places only (the Agility and rolls in ``lines``
    are the combatants' own numbers)."""

    kind: Literal["initiative"] = "initiative"
    mode: str
    lines: tuple[InitiativeLine, ...]

    def render(self, view: View) -> list[str]:
        """Places and names for everyone; a combatant's Agility or initiative roll only where
        its numbers are revealed."""
        parts = []
        for line in self.lines:
            name = view.name(line.combatant, line.name)
            if not view.reveals(line.combatant):
                parts.append(f"{line.place}. {name}")
            elif self.mode == "roll" and line.roll is not None:
                parts.append(f"{line.place}. {name} (rolled {line.roll.total})")
            elif line.roll is not None:  # the roll only broke a tie on Agility
                parts.append(
                    f"{line.place}. {name} (Agility {line.agility}, tie roll {line.roll.total})"
                )
            else:
                parts.append(f"{line.place}. {name} (Agility {line.agility})")
        return ["Initiative: " + ", ".join(parts)]


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


class StaminaSpent(Event):
    kind: Literal["stamina_spent"] = "stamina_spent"
    amount: int
    left: int
    held: int = 0
    reason: str

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        return [f"{view.name(self.combatant)} spends Stamina ({view.text(self.reason)})."]


class StanceChanged(Event):
    kind: Literal["stance_changed"] = "stance_changed"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"actions"})
    before: str | None
    after: str
    actions: int


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
    kind: Literal["attack_declared"] = "attack_declared"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"hit_index", "hits_total"})
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
    ``reaction``: the Defend reaction whose bonuses are in the target number, Armor and Defense.
    ``health_damage`` is the damage dice counted minus Armor, ``stamina_damage`` the damage
    total minus Defense; ``health_left``/``stamina_left`` what the target has afterwards.

    Rendered: the attacker's numbers (its Accuracy bonus and total) only where the attacker's
    numbers are revealed; the target's (Dodge or Discipline, Armor, Defense, the damage it took
    and what it has left) only where the target's are, else how the target looks.
    """

    kind: Literal["attack_resolved"] = "attack_resolved"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"hit_index"})
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {
        "accuracy": "attacker",
        "damage": "attacker",
        **dict.fromkeys(
            (
                "target_number",
                "armor",
                "defense",
                "health_damage",
                "stamina_damage",
                "health_left",
                "stamina_left",
            ),
            "target",
        ),
    }
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
    reaction: str = ""
    armor: int = 0
    defense: int = 0
    health_damage: int = 0
    stamina_damage: int = 0
    health_left: int = 0
    stamina_left: int = 0

    def render(self, view: View) -> list[str]:
        attacker, target = view.name(self.attacker), view.name(self.target)
        mine, theirs = view.reveals(self.attacker), view.reveals(self.target)
        hit_of = f" (hit {self.hit_index})" if self.hit_index > 1 else ""
        lines = [f"**{attacker}** → **{target}** with {view.text(self.attack)}{hit_of}"]
        if self.accuracy is not None:
            lines.append(f"🎲 {self._accuracy(attacker, target, mine=mine, theirs=theirs)}")
        lines += [f"  + Advantage for {attacker}: {view.text(why)}" for why in self.advantages]
        lines += [
            f"  − Disadvantage for {attacker}: {view.text(why)}" for why in self.disadvantages
        ]
        if self.auto is not None:
            lines.append(f"Automatic {self.auto}.")
        if not self.hit:
            lines.append("**Miss.**")
            return lines
        lines.append("**Hit!**")
        if self.damage is not None:
            lines.append(self._damage(view, mine=mine, theirs=theirs))
        c = view.combatant(self.target)
        if c is not None and not theirs:
            lines.append(f"{target} looks **{view.looks(self.target)}**.")
        elif c is not None:
            lines.append(
                f"{target}: Health {self.health_left}/{c.sheet.health}, "
                f"Stamina {self.stamina_left}/{c.sheet.stamina}"
            )
        return lines

    def _accuracy(self, attacker: str, target: str, *, mine: bool, theirs: bool) -> str:
        roll = self.accuracy
        assert roll is not None
        pool = f"Accuracy {roll.base_dice}d{roll.sides}"
        if roll.advantage:
            pool += f" +{roll.advantage} adv"
        if roll.disadvantage:
            pool += f" −{roll.disadvantage} disadv"
        pool += f" [{', '.join(str(d) for d in roll.dice)}]"
        if mine:
            sign = "+" if roll.modifier >= 0 else "−"
            pool += f" {sign} {abs(roll.modifier)} Accuracy bonus = {roll.total}"
        else:
            pool += f" + {attacker}'s Accuracy bonus (hidden)"
        shown = f" {self.target_number}" if theirs else ""
        return f"{pool} vs {target}'s {self.target_stat}{shown}"

    def _damage(self, view: View, *, mine: bool, theirs: bool) -> str:
        roll = self.damage
        assert roll is not None
        faces = ", ".join(str(d) for d in roll.dice)
        line = f"💥 {roll.base_dice}d{roll.sides} [{faces}]"
        if roll.modifier and not mine:  # the attacker's own damage bonus
            return f"{line} + damage bonus {self.damage_type}"
        if roll.modifier:
            line += f" {'+' if roll.modifier > 0 else '−'} {abs(roll.modifier)}"
        line += f" = {roll.total} {self.damage_type}"
        if not theirs:
            return line
        with_reaction = f" with {view.text(self.reaction)}" if self.reaction else ""
        return (
            f"{line}: {self.health_damage} Health ({len(roll.dice)} dice − Armor "
            f"{self.armor}{with_reaction}), {self.stamina_damage} Stamina ({roll.total} − "
            f"Defense {self.defense}{with_reaction})"
        )


class ConditionChanged(Event):
    """A condition gained or lost. ``reason`` is what anyone may read; ``detail`` the exact
    numbers behind it (e.g. "Stamina reduced to -3"), shown where the combatant's numbers are."""

    kind: Literal["condition_changed"] = "condition_changed"
    condition: str
    gained: bool
    reason: str
    detail: str = ""

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        verb = "is now" if self.gained else "is no longer"
        return [f"{view.name(self.combatant)} {verb} {self.condition} ({view.text(self.reason)})."]


class Recovered(Event):
    """Stamina or Health regained (breather, rest, healing)."""

    kind: Literal["recovered"] = "recovered"
    source: str
    roll: Roll | None = None
    stamina: int = 0
    health: int = 0

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        return [f"{view.name(self.combatant)} recovers ({view.text(self.source)})."]


class Checked(Event):
    """A skill check or contest: ``roll`` is the combatant's, ``opposing`` the roll of
    ``opponent`` (a contest), ``verdict`` the outcome in words ("success", "breaks free")."""

    kind: Literal["checked"] = "checked"
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {"opposing": "opponent"}
    roll: Roll
    difficulty: int | None
    success: bool | None
    opposing: Roll | None = None
    opponent: str | None = None
    verdict: str = ""

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant) and (self.opposing is None or view.reveals(self.opponent)):
            return [view.text(self.text)]
        line = roll_text(self.roll, view, self.combatant)
        if self.difficulty is not None and view.reveals(self.combatant):
            line += f" vs {self.difficulty}"
        if self.opposing is not None:
            line += f" vs {roll_text(self.opposing, view, self.opponent)}"
        return [f"{line}: {self.verdict}." if self.verdict else f"{line}."]


class VitalsSet(Event):
    """The Game Master set or changed Health and/or Stamina."""

    kind: Literal["vitals_set"] = "vitals_set"
    health: int
    stamina: int
    health_before: int
    stamina_before: int

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        who = view.name(self.combatant)
        return [f"The GM adjusts {who}, who looks **{view.looks(self.combatant)}**."]


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


EVENT_TYPES: dict[str, type[Event]] = {
    cls.model_fields["kind"].default: cls
    for cls in (
        Note,
        CombatantJoined,
        CombatantLeft,
        InitiativeRolled,
        RoundStarted,
        TurnStarted,
        TurnSkipped,
        TurnEnded,
        ActionsSpent,
        StaminaSpent,
        StanceChanged,
        Moved,
        AttackDeclared,
        ReactionChosen,
        AttackResolved,
        ConditionChanged,
        Recovered,
        Checked,
        VitalsSet,
        CombatEnded,
    )
}
"""Every event class by its ``kind``."""


def render_all(events: list[Event], view: View) -> list[str]:
    """Every event rendered for ``view``'s audience, in order."""
    return [line for event in events for line in event.render(view)]


def parse_event(data: Mapping[str, Any]) -> Event:
    """An event read back from its JSON form (``model_dump(mode="json")``). An event this
    version cannot read becomes a :class:`Note` holding its text, shown only to the GM."""
    cls = EVENT_TYPES.get(str(data.get("kind")))
    if cls is not None:
        try:
            return cls.model_validate(data)
        except ValidationError:
            pass
    return Note(text=str(data.get("text", "")), secret=True, combatant=None)
