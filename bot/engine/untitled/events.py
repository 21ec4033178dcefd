"""Untitled's events: an attack resolved (the opposed roll, a critical, the damage, the armor's
mitigation and the Health lost) and a skill check. Each renders itself for an audience like the
core's (:mod:`bot.engine.core.events`): a creature's rolls show every number only to those who
may see its numbers; others read the faces, never its levels, totals or Health."""

from __future__ import annotations

from typing import ClassVar, Literal

from bot.engine.core.audience import View
from bot.engine.core.events import CORE_EVENTS, Event, event_types
from bot.engine.core.odds import chance_to_beat, percent, sum_of
from bot.engine.core.pools import TieRule
from bot.engine.untitled.dice import SkillRoll


def skill_text(roll: SkillRoll, view: View, owner: str | None) -> str:
    """``roll`` as ``view`` may see it: every number when it reveals ``owner``, else the
    purpose and the faces only (no level, no total)."""
    if view.reveals(owner):
        return view.text(roll.text)
    faces = ", ".join(d.face() for d in roll.roll.dice if d.kept)
    return f"{view.text(roll.purpose)}: [{faces}]"


class AttackResolved(Event):
    """``combatant`` attacked ``target`` with ``weapon``: the ``attack`` roll against the
    ``defense`` roll (and the ``shield`` roll), ``hit`` and ``critical``; on a hit the
    ``damage`` roll, the ``armor`` roll, the ``health_lost`` and the target's ``health`` left
    (the target's numbers)."""

    kind: Literal["attack_resolved"] = "attack_resolved"
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {"health_lost": "target", "health": "target"}
    target: str
    weapon: str
    attack: SkillRoll
    defense: SkillRoll
    shield: SkillRoll | None = None
    hit: bool
    critical: bool = False
    damage: SkillRoll | None = None
    armor: SkillRoll | None = None
    health_lost: int = 0
    health: int = 0
    tie_to_defender: bool = True
    """How a tie went (tables ``defense.tie``), for the odds line."""

    def render(self, view: View) -> list[str]:
        odds = [self._odds()] if view.shows_odds(self.combatant, self.target) else []
        if view.reveals(self.combatant) and view.reveals(self.target):
            return [view.text(self.text), *odds]
        return [*self._hidden(view), *odds]

    def _odds(self) -> str:
        """The exact chance this attack had before the dice were rolled (issue 18): its pool
        beating Combat Defense plus the shield's dice when one was used, ties as the tables
        said (Untitled "Combat": "A tie will go to the defender")."""
        against = [self.defense.roll.pool.distribution()]
        if self.shield is not None:
            against.append(self.shield.roll.pool.distribution())
        tie: TieRule = "second" if self.tie_to_defender else "first"
        chance = chance_to_beat(self.attack.roll.pool, sum_of(*against), tie)
        shield = " against the shield" if self.shield is not None else ""
        return f"Odds: {percent(chance)} to hit{shield}"

    def _hidden(self, view: View) -> list[str]:
        who, whom = view.name(self.combatant), view.name(self.target)
        parts = [
            f"{who} attacks {whom} with {view.text(self.weapon)}: "
            + skill_text(self.attack, view, self.combatant),
            "against " + skill_text(self.defense, view, self.target),
        ]
        if self.shield is not None:
            parts.append("+ " + skill_text(self.shield, view, self.target))
        if not self.hit:
            return [" ".join(parts) + ": a miss."]
        verdict = "a critical hit" if self.critical else "a hit"
        line = " ".join(parts) + f": {verdict}"
        if self.damage is not None:
            line += "; " + skill_text(self.damage, view, self.combatant)
        if self.armor is not None:
            line += "; " + skill_text(self.armor, view, self.target)
        if view.reveals(self.target):
            line += f"; {self.health_lost} Health lost, {self.health} left"
        else:
            line += f"; {view.looks(self.target)}"
        return [line + "."]


class Checked(Event):
    """A skill roll (``/check``): ``roll`` against ``difficulty`` or ``opponent``'s
    ``opposing`` roll; ``success`` from the roller's side (None: no difficulty given)."""

    kind: Literal["checked"] = "checked"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"difficulty"})
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {"opposing": "opponent"}
    roll: SkillRoll
    difficulty: int | None = None
    opponent: str | None = None
    opposing: SkillRoll | None = None
    success: bool | None = None

    def render(self, view: View) -> list[str]:
        plain = self.opponent is None or view.reveals(self.opponent)
        if view.reveals(self.combatant) and plain:
            return [view.text(self.text)]
        line = skill_text(self.roll, view, self.combatant)
        if self.difficulty is not None:
            line += f" against difficulty {self.difficulty}"
        if self.opposing is not None:
            line += " against " + skill_text(self.opposing, view, self.opponent)
        if self.success is None:
            return [line + "."]
        return [line + (": a success." if self.success else ": a failure.")]


UNTITLED_EVENTS: tuple[type[Event], ...] = (AttackResolved, Checked)
EVENT_TYPES = event_types(*UNTITLED_EVENTS, *CORE_EVENTS)
