"""Utopia's events: an attack rolled (its test, hit or miss, its damage and what the target's
defenses leave) and damage resolved (the defense chosen, its roll, what was taken and from
which pool). Each renders itself for an audience like the core's
(:mod:`bot.engine.core.events`): the numbers of a creature whose numbers are hidden (an NPC by
default) are shown only to those who may see them."""

from __future__ import annotations

from typing import ClassVar, Literal

from bot.engine.core.audience import View
from bot.engine.core.dice import Roll
from bot.engine.core.events import CORE_EVENTS, Event, event_types, roll_text


class AttackRolled(Event):
    """``combatant`` attacked ``target`` with ``source``. ``test``: the Dexterity test of a
    ranged attack against ``difficulty`` meters (None for melee); ``hit``; ``damage``: the
    damage roll; ``after_defense``: what is left after the target's defense against
    ``damage_type`` (the target's number)."""

    kind: Literal["attack_rolled"] = "attack_rolled"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"difficulty"})
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {"after_defense": "target"}
    target: str
    source: str
    test: Roll | None = None
    difficulty: int | None = None
    hit: bool
    damage: Roll | None = None
    damage_type: str = "physical"
    after_defense: int = 0

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant) and view.reveals(self.target):
            return [view.text(self.text)]
        who, whom = view.name(self.combatant), view.name(self.target)
        parts = [f"{who} attacks {whom} with {view.text(self.source)}"]
        if self.test is not None:
            parts.append(
                f"{roll_text(self.test, view, self.combatant)} against difficulty {self.difficulty}"
            )
        if not self.hit:
            return ["; ".join(parts) + ": a miss."]
        if self.damage is not None:
            parts.append(roll_text(self.damage, view, self.combatant) + f" {self.damage_type}")
        if view.reveals(self.target):
            parts.append(f"{self.after_defense} after defenses")
        return ["; ".join(parts) + "."]


class DamageResolved(Event):
    """Damage settled on ``combatant`` from ``source``: the defense ``choice`` (``block``,
    ``dodge``, ``none``; ``open_guard``: it could not defend), its ``roll``, the ``damage``
    after defenses, what was ``taken`` from ``pool`` and the vitals left."""

    kind: Literal["damage_resolved"] = "damage_resolved"
    source: str
    choice: Literal["block", "dodge", "none", "open_guard", "unable"]
    roll: Roll | None = None
    damage: int
    taken: int
    pool: str
    shp: int
    dhp: int
    stamina: int

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        who = view.name(self.combatant)
        did = {
            "block": f"{who} blocks",
            "dodge": f"{who} dodges",
            "none": f"{who} does not defend",
            "open_guard": f"{who} cannot defend",
            "unable": f"{who} cannot defend",
        }[self.choice]
        faces = f" ({roll_text(self.roll, view, self.combatant)})" if self.roll else ""
        hurt = "takes damage" if self.taken else "takes no damage"
        return [f"{did}{faces} and {hurt}: {view.looks(self.combatant)}."]


class Tested(Event):
    """A test (``/check``, Stealth, an Assist): ``roll`` is the combatant's test of ``score``
    against ``difficulty``, or against ``opponent``'s ``opposing`` test (or its ``against_score``
    — Stealth against an Awareness score); ``success`` from the combatant's side (None: no
    difficulty given); ``verdict`` the outcome in words."""

    kind: Literal["tested"] = "tested"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"difficulty"})
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {
        "opposing": "opponent",
        "against_score": "opponent",
    }
    score: str
    roll: Roll
    difficulty: int | None = None
    success: bool | None = None
    opponent: str | None = None
    opposing: Roll | None = None
    against_score: int | None = None
    verdict: str = ""

    def render(self, view: View) -> list[str]:
        plain = self.opponent is None or view.reveals(self.opponent)
        if view.reveals(self.combatant) and plain:
            return [view.text(self.text)]
        line = roll_text(self.roll, view, self.combatant)
        if self.difficulty is not None:
            line += f" against difficulty {self.difficulty}"
        if self.opposing is not None:
            line += f" against {roll_text(self.opposing, view, self.opponent)}"
        if self.against_score is not None:
            shown = view.reveals(self.opponent)
            who = view.name(self.opponent)
            line += f" against {who}'s " + (f"{self.against_score}" if shown else "hidden score")
        return [f"{line}: {self.verdict}." if self.verdict else f"{line}."]


UTOPIA_EVENTS: tuple[type[Event], ...] = (AttackRolled, DamageResolved, Tested)
EVENT_TYPES = event_types(*CORE_EVENTS, *UTOPIA_EVENTS)
