"""UTTAS events (``uttas-gameplay.txt``): a hit resolved with its Accuracy and damage, Stamina
spent and recovered, stance changes, skill checks and contests, and the GM's Health and Stamina
changes. Each renders itself for an audience like the core's (:mod:`bot.engine.core.events`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar, Literal

from bot.engine.core.audience import View
from bot.engine.core.dice import Roll
from bot.engine.core.events import CORE_EVENTS, Event, event_types, roll_text
from bot.engine.core.odds import result_odds, roll_chance
from bot.engine.uttas.state import DEAD, UNCONSCIOUS


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
            if self.auto is None:
                lines += result_odds(
                    view, self.attacker, self.target, self._chance, self._odds(view)
                )
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
            lines.append(f"{target} looks **{self._looked(view, c)}**.")
        elif c is not None:
            lines.append(
                f"{target}: Health {self.health_left}/{c.sheet.health}, "
                f"Stamina {self.stamina_left}/{c.sheet.stamina}"
            )
        return lines

    def _looked(self, view: View, c: Any) -> str:
        """How the target looked right after this hit, from the Health and Stamina it left. The
        view holds the state once the whole command is over, so the first claw of two read
        "looks **Dead**" before the claw that killed (newuser26); a Dead or Unconscious those
        numbers do not account for came later in the command and is left out."""
        later = {DEAD} if self.health_left > 0 else set()
        if self.stamina_left > 0:
            later.add(UNCONSCIOUS)
        kept = [e for e in c.effects if e.name not in later]
        update = {"health": self.health_left, "stamina": self.stamina_left, "effects": kept}
        looked: str = view.wound_level(c.model_copy(update=update))
        return looked

    def _chance(self) -> Fraction:
        """The exact chance this hit had before the dice were rolled (issue 18): the dice as
        rolled (Advantage counted) plus the Accuracy bonus strictly above the target number,
        the reaction's bonus in it (UTTAS "Accuracy Checks")."""
        assert self.accuracy is not None
        return roll_chance(self.accuracy, self.target_number, "second")

    def _odds(self, view: View) -> str:
        """The odds line's words after the chance: ``to hit against Evade``."""
        return "to hit" + (f" against {view.text(self.reaction)}" if self.reaction else "")

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
    NUMBER_OWNERS: ClassVar[dict[str, str]] = {
        "opposing": "opponent",
        "against_score": "opponent",
    }
    roll: Roll
    difficulty: int | None
    success: bool | None
    opposing: Roll | None = None
    against_score: int | None = None
    """A hidden opponent's Stealth score the check had to beat (its number)."""
    opponent: str | None = None
    verdict: str = ""
    aside: str = ""
    """Words about the check every audience may read (a range penalty), e.g. " (12 m away: 1
    Disadvantage)"; already part of ``text``."""

    def render(self, view: View) -> list[str]:
        theirs = self.opposing is None and self.against_score is None
        if view.reveals(self.combatant) and (theirs or view.reveals(self.opponent)):
            return [view.text(self.text)]
        line = roll_text(self.roll, view, self.combatant)
        if self.difficulty is not None and view.reveals(self.combatant):
            line += f" vs {self.difficulty}"
        if self.opposing is not None:
            line += f" vs {roll_text(self.opposing, view, self.opponent)}"
        if self.against_score is not None:
            shown = view.reveals(self.opponent)
            line += f" vs Stealth {self.against_score}" if shown else " vs a hidden Stealth score"
        line += self.aside
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


class HazardStruck(Event):
    """A hazard hurt a combatant (UTTAS "Damage": fire, a fall…, applied by the Game Master):
    its damage ``roll`` of ``damage_type``, the ``armor`` and ``defense`` that applied, the
    Health and Stamina damage and what is left."""

    kind: Literal["hazard_struck"] = "hazard_struck"
    source: str
    damage_type: str
    roll: Roll
    armor: int
    defense: int
    health_damage: int
    stamina_damage: int
    health_left: int
    stamina_left: int

    def render(self, view: View) -> list[str]:
        if view.reveals(self.combatant):
            return [view.text(self.text)]
        who = view.name(self.combatant)
        return [
            f"{who} is hurt by {view.text(self.source)} and looks **{view.looks(self.combatant)}**."
        ]


UTTAS_EVENTS: tuple[type[Event], ...] = (
    HazardStruck,
    StaminaSpent,
    StanceChanged,
    AttackResolved,
    Recovered,
    Checked,
    VitalsSet,
)
EVENT_TYPES = event_types(*CORE_EVENTS, *UTTAS_EVENTS)
"""Every event a UTTAS encounter logs, by ``kind``."""
