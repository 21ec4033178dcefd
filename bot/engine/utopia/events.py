"""Utopia's events: an attack rolled (its test, hit or miss, its damage and what the target's
defenses leave) and damage resolved (the defense chosen, its roll, what was taken and from
which pool). Each renders itself for an audience like the core's
(:mod:`bot.engine.core.events`): the numbers of a creature whose numbers are hidden (an NPC by
default) are shown only to those who may see them."""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import Field

from bot.engine.core.audience import View
from bot.engine.core.dice import Roll
from bot.engine.core.events import CORE_EVENTS, Event, event_types, roll_text
from bot.engine.core.odds import chance_to_beat, result_odds
from bot.engine.core.pools import DiceGroup, Pool
from bot.engine.utopia.state import DOWN


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
    """Damage settled on ``combatant`` from ``source`` (``attacker``'s; None in events logged
    before it was stored): the defense ``choice`` (``block``, ``dodge``, ``none``;
    ``open_guard``: it could not defend), its ``roll``, the ``damage`` after defenses, what was
    ``taken`` from ``pool`` and the vitals left."""

    kind: Literal["damage_resolved"] = "damage_resolved"
    source: str
    attacker: str | None = None
    defense_dice: tuple[DiceGroup, ...] = Field(default=(), max_length=4)
    """What the Block or Dodge rolled (its Rating's dice, then the Assists'): the odds line's
    pool (empty in events logged before it was stored: no odds line)."""
    choice: Literal["block", "dodge", "none", "open_guard", "unable"]
    roll: Roll | None = None
    damage: int
    taken: int
    pool: str
    shp: int
    dhp: int
    stamina: int

    def render(self, view: View) -> list[str]:
        odds: list[str] = []
        if self.defense_dice and self.damage > 0:
            words = f"damage gets through the {self.choice.title()}"
            odds = result_odds(view, self.attacker, self.combatant, self._chance, words)
        if view.reveals(self.combatant):
            return [view.text(self.text), *odds]
        return [*self._hidden(view), *odds]

    def _chance(self) -> Fraction:
        """The exact chance damage got through the defense taken (issue 18), before its dice
        were rolled: the ``damage`` coming at it (as rolled, after the target's defenses) above
        the ``defense_dice`` (the Block or Dodge Rating's dice, Assists' included). "Block":
        the roll reduces the damage; "Dodge": a roll of at least the damage negates it — either
        way damage gets through when the roll is below it, as ``/odds`` counts each defense
        (:func:`bot.engine.utopia.odds.utopia_odds`)."""
        pool = Pool(groups=self.defense_dice)
        return chance_to_beat({self.damage: Fraction(1)}, pool, "second")

    def _hidden(self, view: View) -> list[str]:
        who = view.name(self.combatant)
        did = {
            "block": f"{who} blocks",
            "dodge": f"{who} dodges",
            "none": f"{who} does not defend",
            "open_guard": f"{who} cannot defend",
            # Which actions a hidden creature has left is its secret.
            "unable": f"{who} does not defend",
        }[self.choice]
        faces = f" ({roll_text(self.roll, view, self.combatant)})" if self.roll else ""
        hurt = "takes damage" if self.taken else "takes no damage"
        return [f"{did}{faces} and {hurt}: {self._looked(view)}."]

    def _looked(self, view: View) -> str:
        """How the creature looked right after this damage, from the vitals it left: the view
        holds the state once the whole command is over, so the first weapon of several read
        the wound the last one dealt (newuser26, as UTTAS's hits did); a Down the DHP left does
        not account for came later in the command and is left out."""
        c = view.combatant(self.combatant)
        if c is None:
            return view.looks(self.combatant)
        kept = [e for e in c.effects if self.dhp <= 0 or e.name != DOWN]
        update = {"shp": self.shp, "dhp": self.dhp, "stamina": self.stamina, "effects": kept}
        looked: str = view.wound_level(c.model_copy(update=update))
        return looked


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
