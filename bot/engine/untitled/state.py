"""Untitled's live state (``untitled-combat.txt``): the combatant (its sheet snapshot, the
Health left, which weapons are drawn and which need reloading), the decision an attack opens
when the defender has a choice (whether to use its shield), and the encounter state.

The round's actions (two move, one standard — or one full-round —, one swift, one immediate)
live in ``CombatantBase.pools`` and change only through the economy
(:class:`bot.engine.core.economy.UntitledActions`, :mod:`bot.engine.untitled.core`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.decisions import DecisionBase
from bot.engine.core.effects import Effect
from bot.engine.core.state import CombatantBase, EncounterState
from bot.engine.untitled.sheet import UntitledSheet

DOWN = "Down"
"""The bot's reading (the text names only "their Health pool"): at 0 Health a creature is Down
— out of the fight — until the GM raises its Health (``/gm vital``); docs/rules/untitled.md."""
OUT: tuple[str, ...] = (DOWN,)
CONDITIONS: tuple[str, ...] = (DOWN,)
Vital = Annotated[int, Field(ge=0, le=10_000)]
ItemName = Annotated[str, Field(max_length=100)]


class UntitledCombatant(CombatantBase):
    """An Untitled creature in a fight. ``health``: the Health pool left (0: Down).
    ``stowed``: weapons not in hand (a Draw — a move action — brings one out; the bot's default
    is every weapon drawn except those the sheet marks ``stowed`` or the join names, as the
    text's archer's bow "off their back"). ``unloaded``: ranged weapons fired and not reloaded
    yet (a reload takes a move action or a full-round action, as the weapon says).
    ``combined_refused``: the Storyteller refused this fighter's combined move actions ("your
    Storyteller will advise you should there be an issue with something you propose")."""

    sheet: UntitledSheet
    health: Vital
    stowed: tuple[ItemName, ...] = Field(default=(), max_length=30)
    unloaded: tuple[ItemName, ...] = Field(default=(), max_length=30)
    combined_refused: bool = False


class ShieldDecision(DecisionBase):
    """An attack on ``target`` waiting for its one choice before any die is rolled (stage
    ``reaction``): roll its shield's dice with Combat Defense or not ("If the defender has a
    shield ... they may also roll"). Opened only when the defender carries a shield and can
    act; with no choice the attack resolves at once. ``weapon``: the attacker's weapon;
    The attack is rolled when the decision settles."""

    kind: Literal["shield"] = "shield"
    stage: Literal["reaction", "before_roll", "after_roll", "after_damage"] = "reaction"
    attacker: str
    target: str
    weapon: str


UntitledDecision = ShieldDecision
"""What an Untitled fight can wait on: the defender's shield choice (one kind so far)."""


class UntitledRecord(BaseModel):
    """An Untitled character's state between fights (campaign record): the Health left (None:
    full, as the sheet says) and the effects that outlast a fight."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    health: Vital | None = None
    effects: tuple[Effect, ...] = ()


UntitledState = EncounterState[UntitledCombatant, ShieldDecision]


def record_of(c: Any) -> UntitledRecord:
    """What of ``c`` outlasts the fight: its Health and the effects lasting beyond a scene."""
    keep = tuple(e for e in c.effects if e.scope in ("day", "quest", "arc", "campaign"))
    return UntitledRecord(health=c.health, effects=keep)
