"""Utopia's own commands (the core's come through ``command_adapter``): joining, the standard
actions built so far (``utopia-actions.txt`` "Standard Actions": Attack, Aim, Travel, Deep
Breath, Hold Action, the exchanges of "Interchanging Actions"), the defense a damage roll waits
for (Block, Dodge, Take Cover) and the Game Master's tools."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from bot.engine.core.commands import (
    Answer,
    CommandBase,
    Dated,
    Id,
    Meters,
    Name,
    Side,
)
from bot.engine.core.commands import NaturalHealing as NaturalHealing  # one rest for every ruleset
from bot.engine.core.commands import Rest as Rest
from bot.engine.core.effects import Lasts
from bot.engine.utopia.sheet import UtopiaSheet
from bot.engine.utopia.state import AssistForm, UtopiaRecord, Vital
from bot.engine.utopia.terms import Subtrait, Trait, TravelMode


class AddCombatant(CommandBase):
    """Add a creature (setup or mid-fight); a character joins as its campaign ``record`` left
    it. ``side`` defaults to ``party`` (``foes`` for NPCs)."""

    kind: Literal["add_combatant"] = "add_combatant"
    name: Name
    sheet: UtopiaSheet
    controller_id: int | None = None
    is_npc: bool = False
    side: Side | None = None
    character_id: int | None = None
    record: UtopiaRecord | None = None


class Attack(Dated):
    """ "Attack": ``actor`` attacks ``target`` with ``weapon`` (None: weaponless). ``range_m``:
    meters to the target (None: the encounter's positions — within reach when engaged)."""

    kind: Literal["attack"] = "attack"
    actor: Id
    target: Id
    weapon: Name | None = None
    range_m: Meters | None = None


class Aim(Dated):
    """ "Aim": 1 TA for a point of favor on the next ranged attack."""

    kind: Literal["aim"] = "aim"
    actor: Id


class Travel(Dated):
    """ "Travel": 1 TA to move up to the travel distance of ``mode`` (``meters``: how far; the
    rest is lost). ``toward``: the creature it moves toward (the distance shrinks)."""

    kind: Literal["travel"] = "travel"
    actor: Id
    mode: TravelMode = "land"
    meters: Meters | None = None
    toward: Id | None = None


class Leap(Dated):
    """ "Leap": 3 TA and 3 Stamina to leap up to the Power score in meters (the Strength
    score after at least 2 m of travel directly before). ``meters``: how far (None: as far as
    it can); ``toward``: the creature it leaps toward."""

    kind: Literal["leap"] = "leap"
    actor: Id
    meters: Meters | None = None
    toward: Id | None = None


class DeepBreath(Dated):
    """ "Deep Breath": 1 TA to regain 1 Stamina."""

    kind: Literal["deep_breath"] = "deep_breath"
    actor: Id


class HoldAction(Dated):
    """ "Hold Action": conserve 2 TA as 1 IA for a later turn."""

    kind: Literal["hold_action"] = "hold_action"
    actor: Id


class Exchange(Dated):
    """ "Interchanging Actions" made explicit: ``to`` ``turn`` turns 2 IA into 1 TA off turn;
    ``to`` ``interrupt`` turns 1 TA into 1 IA on the turn (the bot also exchanges by itself
    whenever a cost needs it)."""

    kind: Literal["exchange"] = "exchange"
    actor: Id
    to: Literal["turn", "interrupt"]


class Grapple(Dated):
    """ "Grapple": 3 TA and 2 Stamina to restrain ``target`` (adjacent, at most one size
    larger) by a contest."""

    kind: Literal["grapple"] = "grapple"
    actor: Id
    target: Id


class Escape(Dated):
    """ "Grapple": the grappled ``actor`` tries to break free (2 TA or 1 IA, and 2 Stamina,
    once per turn)."""

    kind: Literal["escape"] = "escape"
    actor: Id


class Scale(Dated):
    """ "Scale": 3 TA and 4 Stamina to climb onto ``target`` (adjacent, the same size or
    larger) by a contest."""

    kind: Literal["scale"] = "scale"
    actor: Id
    target: Id


class ShakeOff(Dated):
    """ "Scale": the scaled ``actor`` tries to shake ``target`` off (None: its only scaler) —
    2 TA or 1 IA, once per turn."""

    kind: Literal["shake_off"] = "shake_off"
    actor: Id
    target: Id | None = None


class Sheathe(Dated):
    """ "Sheath or Unsheath a Weapon": 1 TA to put ``weapon`` away (``drawn`` False) or draw
    it (``drawn`` True)."""

    kind: Literal["sheathe"] = "sheathe"
    actor: Id
    weapon: Name
    drawn: bool


class Wear(Dated):
    """ "Putting on or taking off items": don (``on`` True) or doff ``item``, a piece of the
    sheet's armor — 3 TA for a neck or ring item, 6 for any other."""

    kind: Literal["wear"] = "wear"
    actor: Id
    item: Name
    on: bool


class Cast(Dated):
    """ "Casting a spell": ``actor`` casts its ``spell`` (3 TA and the spell's Stamina) at
    ``target`` (None: a spell that deals no damage, cast at nobody). ``range_m``: meters to the
    target (None: the encounter's positions)."""

    kind: Literal["cast"] = "cast"
    actor: Id
    spell: Name
    target: Id | None = None
    range_m: Meters | None = None


class Defend(Answer):
    """The answer to a damage decision: ``block``, ``dodge``, ``cover`` (Take Cover: the
    player says an obstacle stands against the source) or ``none``."""

    kind: Literal["defend"] = "defend"
    actor: Id
    choice: Literal["block", "dodge", "cover", "none"]


class AssistDefense(Answer):
    """The answer to an Assist decision (``AssistDecision``): ``assist`` — ``actor``, an ally
    within 1 m, spends 1 IA to add a die to the defender's Block or Dodge ("Assist"; any number
    of times); ``roll`` — the defender (``actor``) rolls now with the Assists given."""

    kind: Literal["assist_defense"] = "assist_defense"
    actor: Id
    choice: Literal["assist", "roll"]


class MultiAttack(Dated):
    """ "Multi-weapon Attacks": ``actor`` attacks ``target`` with every weapon in ``weapons``
    at once (2–10 of its weapons, each once). ``range_m`` as for :class:`Attack`."""

    kind: Literal["multi_attack"] = "multi_attack"
    actor: Id
    target: Id
    weapons: tuple[Name, ...] = Field(min_length=2, max_length=10)
    range_m: Meters | None = None


class SetVitals(CommandBase):
    """Game Master: set SHP, DHP, Stamina, or the turn actions (``ta``) and interrupt actions
    (``ia``) left ("Assist": the interrupt actions other aid requires are "up to GM
    discretion"); ``relative``: change by the amount."""

    kind: Literal["set_vitals"] = "set_vitals"
    target: Id
    shp: tuple[Vital, bool] | None = None
    dhp: tuple[Vital, bool] | None = None
    stamina: tuple[Vital, bool] | None = None
    ta: tuple[Vital, bool] | None = None
    ia: tuple[Vital, bool] | None = None

    @model_validator(mode="after")
    def _something(self) -> SetVitals:
        if all(getattr(self, f) is None for f in ("shp", "dhp", "stamina", "ta", "ia")):
            raise ValueError("say what to change: SHP, DHP, Stamina, TA or IA")
        return self


class SetCondition(CommandBase):
    """Game Master: put a condition on ``target`` or take it off."""

    kind: Literal["set_condition"] = "set_condition"
    target: Id
    condition: Name
    present: bool = True
    lasts: Lasts = "until_removed"
    rounds: Annotated[int, Field(ge=1, le=100)] | None = None


class Test(CommandBase):
    """``/check``: ``actor`` makes a test of ``score`` (a trait or subtrait) — 3d6 + its
    modifier against ``difficulty``, or opposed by ``target`` testing ``against`` (None: the
    same score); with neither, the roll alone (the GM compares). Never both."""

    kind: Literal["test"] = "test"
    actor: Id
    score: Trait | Subtrait
    difficulty: Annotated[int, Field(ge=0, le=1000)] | None = None
    target: Id | None = None
    against: Trait | Subtrait | None = None

    @model_validator(mode="after")
    def _opposed_or_difficulty(self) -> Test:
        if self.target is not None and self.difficulty is not None:
            raise ValueError("a test is against a difficulty or opposed by a target, not both")
        if self.against is not None and self.target is None:
            raise ValueError("`against:` names the target's score: give a `target:` too")
        return self


class GrantFavor(CommandBase):
    """Game Master (``/gm advantage``): ``points`` of favor (negative: disfavor) on
    ``target``'s next test, or on every test ``until_removed``; 0 removes all the GM gave."""

    kind: Literal["grant_favor"] = "grant_favor"
    target: Id
    points: Annotated[int, Field(ge=-10, le=10)]
    until_removed: bool = False


Circumstance = Literal["suspicious", "seen", "sight", "distracting"]
"""A Stealth circumstance ("Stealth"; :data:`bot.engine.utopia.stealth.CIRCUMSTANCES`)."""


class Stealth(Dated):
    """ "Stealth": ``actor``'s Stunt test against each other side's Awareness.
    ``circumstances``: ``suspicious``, ``seen``, ``sight``, ``distracting`` (each once);
    ``doubled``: times the time is doubled for a point of favor each (at most 2)."""

    kind: Literal["stealth"] = "stealth"
    actor: Id
    circumstances: tuple[Circumstance, ...] = Field(default=(), max_length=4)
    doubled: Annotated[int, Field(ge=0, le=2)] = 0


class Assist(Dated):
    """ "Assist", pledged: ``actor`` aids ``target``'s next ``form`` action — ``test`` (1 IA),
    ``leap`` (1 IA) or ``grapple`` (2 IA) — before the end of ``target``'s next turn."""

    kind: Literal["assist"] = "assist"
    actor: Id
    target: Id
    form: AssistForm


OWN_COMMANDS: tuple[type[CommandBase], ...] = (
    AddCombatant,
    Attack,
    Aim,
    Travel,
    DeepBreath,
    Leap,
    HoldAction,
    Exchange,
    Grapple,
    Escape,
    Scale,
    ShakeOff,
    Sheathe,
    Wear,
    Defend,
    SetVitals,
    SetCondition,
    Cast,
    Test,
    GrantFavor,
    Stealth,
    Assist,
    AssistDefense,
    MultiAttack,
)
