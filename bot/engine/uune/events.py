"""Uune's own events: the odds an Attack or a Defend had (issue 18), shown with its roll, and
what an attack did (rules version 5).

The rolls and the other outcomes are notes (:mod:`bot.engine.uune.rolls`); :class:`RollOdds`
carries what the odds line needs, so each audience reads it or not through the one mechanism
(:func:`bot.engine.core.odds.result_odds`, ``docs/audiences.md``); :class:`AttackOutcome` names
whom the attack was on, so ``/encounter recap`` finds it among the attacks on a combatant."""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Literal

from pydantic import Field

from bot.engine.core.audience import View
from bot.engine.core.events import CORE_EVENTS, Event, Note, event_types
from bot.engine.core.odds import result_odds
from bot.engine.core.pools import Pool
from bot.engine.uune.odds import chance_of_hits, pool_hits


def approved_words(n: int) -> str:
    """``3 resources``, ``1 resource``, ``no resources``."""
    return f"{n} resource{'' if n == 1 else 's'}" if n else "no resources"


class RollOdds(Event):
    """The chance ``combatant``'s roll for an Attack or a Defend (``purpose``) had before its
    dice were rolled: the approved ``pool`` (``resources`` of them: 1d6 plus their dice, Uune
    SRD "Actions") reaching ``required`` hits (the NPC's Defensiveness or the attack's
    difficulty, Impaired's extra hits in it), each die showing ``reroll_from`` or more rerolled
    when Intoxicated, up to ``reroll_times`` times (once per level from rules version 5). An
    Attack: the chance to hit ``target`` (an NPC); a Defend: the chance ``attacker``'s attack
    lands (the Defend falls short). As ``/odds`` counts it
    (:func:`bot.engine.uune.odds.uune_odds`): Help, luck and spends are not counted."""

    kind: Literal["roll_odds"] = "roll_odds"
    PUBLIC_NUMBERS: ClassVar[frozenset[str]] = frozenset({"resources"})
    purpose: Literal["attack", "defend"]
    attacker: str
    target: str
    pool: Pool
    resources: int = Field(ge=0, le=30)
    required: int = Field(ge=0, le=100)
    reroll_from: int | None = None
    reroll_times: int = Field(default=1, ge=1, le=99)

    def chance(self) -> Fraction:
        """The chance to hit (an Attack) or that the attack lands (a Defend)."""
        hits = pool_hits(self.pool, self.reroll_from, self.reroll_times)
        made = chance_of_hits(hits, self.required)
        return made if self.purpose == "attack" else 1 - made

    def render(self, view: View) -> list[str]:
        approved = approved_words(self.resources)
        words = f"to hit with {approved}"
        if self.purpose == "defend":
            words = f"to hit against {view.name(self.target)}'s Defend with {approved}"
        return result_odds(view, self.attacker, self.target, self.chance, words)


class AttackOutcome(Note):
    """What ``attacker``'s attack did to ``target`` (rules version 5): a PC's Attack on an NPC
    (it fails, or wounds the NPC) or an NPC's attack answered by the PC's Defend (dodged or
    parried, or a wound). Read as the :class:`~bot.engine.core.events.Note` it was before
    (about ``combatant``, as that note was; ``secret`` when its text carries an NPC's
    vitality); before version 5 the outcome was that plain note, which named no target —
    ``/encounter recap`` listed no Uune attack among the attacks on a member's combatants
    (:func:`bot.engine.uune.rolls.attack_note`)."""

    kind: Literal["attack_outcome"] = "attack_outcome"  # type: ignore[assignment]
    attacker: str
    target: str


UUNE_EVENTS: tuple[type[Event], ...] = (RollOdds, AttackOutcome)
EVENT_TYPES = event_types(*CORE_EVENTS, *UUNE_EVENTS)
