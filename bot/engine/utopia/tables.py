"""The GM-changeable Utopia tables: every number ``utopia-actions.txt`` or issue 12 gives that a
GM may want to change, and every default the bot chose where the text is silent.

``data/utopia/tables.json`` holds the defaults (each a row of ``docs/rules/utopia.md``). A
server may override any part: :func:`load_tables` deep-merges a partial mapping over the
defaults and validates the result, as :func:`bot.engine.uttas.tables.load_tables` does. The
engine never reads files itself; it receives a :class:`UtopiaTables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.engine.core import tables
from bot.engine.utopia.terms import (
    DAMAGE_TYPES,
    DamageText,
    DamageType,
    Slot,
    Subtrait,
    Trait,
)

DEFAULT_TABLES_PATH = Path(__file__).resolve().parents[3] / "data" / "utopia" / "tables.json"
Actions = Annotated[int, Field(ge=0, le=20)]
Count = Annotated[int, Field(ge=0, le=10)]
Sides = Annotated[int, Field(ge=2, le=100)]
Stamina = Annotated[int, Field(ge=0, le=100)]


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScoreTest(_Table):
    """A test: ``dice`` d ``sides`` + the modifier, the modifier being score −
    ``modifier_offset`` (issue 12: "A test is 3d6 + modifier"; "modifier = score − 4")."""

    dice: Annotated[int, Field(ge=1, le=10)] = 3
    sides: Sides = 6
    modifier_offset: Annotated[int, Field(ge=0, le=20)] = 4


class ActionRules(_Table):
    """ "Turn Actions", "Interrupt Actions", "Interchanging Actions": ``turn`` TA on one's
    turn (up to ``turn_max`` with the talent), ``interrupt`` IA off it (up to
    ``interrupt_max``); off one's turn ``interrupt_per_turn_action`` IA pay for 1 TA, on it
    ``turn_per_interrupt_action`` TA pay for 1 IA (read from rules version 3:
    :class:`~bot.engine.utopia.ruleset.UtopiaRuleset`)."""

    turn: Annotated[int, Field(ge=1, le=20)] = 6
    turn_max: Annotated[int, Field(ge=1, le=20)] = 9
    interrupt: Annotated[int, Field(ge=0, le=10)] = 2
    interrupt_max: Annotated[int, Field(ge=0, le=10)] = 3
    interrupt_per_turn_action: Annotated[int, Field(ge=1, le=10)] = 2
    turn_per_interrupt_action: Annotated[int, Field(ge=1, le=10)] = 1

    @model_validator(mode="after")
    def _defaults_within_caps(self) -> ActionRules:
        if self.turn > self.turn_max or self.interrupt > self.interrupt_max:
            raise ValueError("actions: turn/interrupt are at most turn_max/interrupt_max")
        return self


class Hold(_Table):
    """ "Hold Action": conserve ``interrupt_actions`` IA, each for ``turn_actions`` TA (read from
    rules version 3; before, 2 TA each)."""

    turn_actions: Annotated[int, Field(ge=1, le=10)] = 2
    interrupt_actions: Annotated[int, Field(ge=1, le=10)] = 1


class Weaponless(_Table):
    """ "Attack": without a weapon, ``ta`` TA and ``damage`` + the ``modifier``'s modifier of
    ``damage_type`` ("1d8 + Power Mod Physical damage")."""

    ta: Actions = 2
    damage: DamageText = "1d8"
    modifier: Trait | Subtrait | None = "power"
    damage_type: DamageType = "physical"


class Defence(_Table):
    """Block or Dodge: a die of ``sides`` per rating point (issue 12: Nd4, Nd12), taken for
    ``ta`` TA or ``ia`` IA ("Block", "Dodge")."""

    sides: Sides
    ta: Actions = 1
    ia: Actions = 1


class TakeCover(_Table):
    """ "Take Cover": ``ta`` TA or ``ia`` IA; Block and Dodge Ratings × ``multiplier`` for the
    rest of the turn."""

    multiplier: Annotated[int, Field(ge=1, le=10)] = 2
    ta: Actions = 1
    ia: Actions = 1


class Ranged(_Table):
    """ "Ranged Weapons": a ``test`` against the meters; ``close_favor`` within close range,
    ``far_disfavor`` within far range."""

    test: Trait | Subtrait = "dexterity"
    close_favor: Count = 1
    far_disfavor: Count = 1


class MultiWeapon(_Table):
    """ "Multi-weapon Attacks": rolls divided by ``roll_divisor``, rounded down."""

    roll_divisor: Annotated[int, Field(ge=1, le=10)] = 2


class Aim(_Table):
    """ "Aim": ``ta`` TA for ``favor`` on the next ranged attack."""

    ta: Actions = 1
    favor: Count = 1


class TravelRule(_Table):
    """ "Travel": ``ta`` TA per Travel action."""

    ta: Actions = 1


class Stealth(_Table):
    """ "Stealth": the ``test`` against each creature's ``against`` score, with the text's
    favor and disfavor; a gifted observer counts ``gifted_multiplier`` × its score; extra time
    gives favor up to ``extra_time_favor_max`` times."""

    test: Trait | Subtrait = "stunt"
    against: Trait | Subtrait = "awareness"
    suspicious_disfavor: Count = 1
    seen_disfavor: Count = 1
    seen_favor_to_seekers: Count = 1
    entering_sight_disfavor: Count = 2
    gifted_multiplier: Annotated[int, Field(ge=1, le=10)] = 2
    distracting_favor: Count = 1
    extra_time_favor_max: Count = 2


class DeepBreath(_Table):
    """ "Deep Breath": ``ta`` TA to regain ``stamina``."""

    ta: Actions = 1
    stamina: Stamina = 1


class Leap(_Table):
    """ "Leap": ``ta`` TA and ``stamina``; Strength instead of Power after ``run_up_m`` m of
    travel."""

    ta: Actions = 3
    stamina: Stamina = 3
    run_up_m: Annotated[float, Field(ge=0, le=100)] = 2


class Grapple(_Table):
    """ "Grapple": ``ta`` TA and ``stamina``, against a creature at most ``max_sizes_larger``
    sizes larger, ``disfavor_per_size``; while grappled, actions aimed elsewhere cost ×
    ``cost_multiplier``; an escape costs ``escape_ta`` TA or ``escape_ia`` IA and
    ``escape_stamina``; a grappler who contests it loses ``contest_stamina``."""

    ta: Actions = 3
    stamina: Stamina = 2
    max_sizes_larger: Count = 1
    disfavor_per_size: Count = 1
    cost_multiplier: Annotated[int, Field(ge=1, le=10)] = 2
    escape_ta: Actions = 2
    escape_ia: Actions = 1
    escape_stamina: Stamina = 2
    contest_stamina: Stamina = 2


class Scale(_Table):
    """ "Scale": ``ta`` TA and ``stamina``; otherwise as :class:`Grapple` (the text gives no
    Stamina for an attempt to shake a scaler off: none)."""

    ta: Actions = 3
    stamina: Stamina = 4
    disfavor_per_size: Count = 1
    cost_multiplier: Annotated[int, Field(ge=1, le=10)] = 2
    escape_ta: Actions = 2
    escape_ia: Actions = 1
    contest_stamina: Stamina = 2


class Assist(_Table):
    """ "Assist": ``ia`` IA adds a ``block_die`` to a Block or a ``dodge_die`` to a Dodge of a
    creature within ``within_m``; ``grapple_ia`` IA to aid a grapple; an aided test gains the
    helper's modifier, at least ``test_minimum``."""

    ia: Actions = 1
    block_die: Sides = 4
    dodge_die: Sides = 12
    within_m: Annotated[float, Field(ge=0, le=100)] = 1
    grapple_ia: Actions = 2
    test_minimum: Count = 1


class SpellRule(_Table):
    """ "Casting a spell": ``ta`` TA."""

    ta: Actions = 3


Pool = Literal["shp", "dhp", "stamina"]


class RestRule(_Table):
    """Rests outside a fight: the pools a ``short`` or ``long`` rest restores to full (None: no
    such rest — refused); ``dhp_per_week`` of natural healing (0: none — refused). Defaults:
    the game's Foundry VTT system's one rest (SHP and Stamina)."""

    short: tuple[Pool, ...] | None = ("shp", "stamina")
    long: tuple[Pool, ...] | None = None
    dhp_per_week: Annotated[int, Field(ge=0, le=1000)] = 0


class Equipment(_Table):
    """ "Equipment Actions": donning or doffing an item of ``small_slots`` takes ``small_ta`` TA,
    other armor ``armor_ta``; sheathing or unsheathing ``sheath_ta`` (free right before an
    attack with it)."""

    small_slots: tuple[Slot, ...] = ("neck", "ring")
    small_ta: Actions = 3
    armor_ta: Actions = 6
    sheath_ta: Actions = 1


class UtopiaTables(_Table):
    """Every Utopia number a GM may change (``data/utopia/tables.json``)."""

    test: ScoreTest = Field(default_factory=ScoreTest)
    actions: ActionRules = Field(default_factory=ActionRules)
    hold: Hold = Field(default_factory=Hold)
    weaponless: Weaponless = Field(default_factory=Weaponless)
    block: Defence = Field(default_factory=lambda: Defence(sides=4))
    dodge: Defence = Field(default_factory=lambda: Defence(sides=12))
    take_cover: TakeCover = Field(default_factory=TakeCover)
    innate_defense: dict[DamageType, Annotated[int, Field(ge=0, le=100)]]
    damage_pool: dict[DamageType, Literal["shp", "dhp", "stamina"]]
    ranged: Ranged = Field(default_factory=Ranged)
    multi_weapon: MultiWeapon = Field(default_factory=MultiWeapon)
    aim: Aim = Field(default_factory=Aim)
    travel: TravelRule = Field(default_factory=TravelRule)
    stealth: Stealth = Field(default_factory=Stealth)
    deep_breath: DeepBreath = Field(default_factory=DeepBreath)
    leap: Leap = Field(default_factory=Leap)
    grapple: Grapple = Field(default_factory=Grapple)
    scale: Scale = Field(default_factory=Scale)
    assist: Assist = Field(default_factory=Assist)
    spell: SpellRule = Field(default_factory=SpellRule)
    equipment: Equipment = Field(default_factory=Equipment)
    rest: RestRule = Field(default_factory=RestRule)

    @model_validator(mode="after")
    def _every_damage_type(self) -> UtopiaTables:
        """Each damage type has an innate defense and a pool it damages."""
        for field in ("innate_defense", "damage_pool"):
            missing = [t for t in DAMAGE_TYPES if t not in getattr(self, field)]
            if missing:
                raise ValueError(f"{field} lacks " + ", ".join(missing))
        return self


def load_tables(
    source: Path | Mapping[str, Any] | None = None,
    *,
    overrides: Mapping[str, Any] | None = None,
) -> UtopiaTables:
    """Build the tables from a JSON file path or an already-parsed mapping (default:
    ``data/utopia/tables.json``), deep-merging ``overrides`` (a GM's per-server changes) on
    top.

    Raises :class:`InvalidInput` naming the first invalid field.
    """
    return tables.load(UtopiaTables, "Utopia", DEFAULT_TABLES_PATH, source, overrides)


@lru_cache(maxsize=1)
def default_tables() -> UtopiaTables:
    """The shipped defaults (``data/utopia/tables.json``), loaded once."""
    return load_tables()
