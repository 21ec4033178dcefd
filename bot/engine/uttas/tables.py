"""The GM-changeable UTTAS tables: every number the rules text leaves open.

``data/uttas/tables.json`` holds the defaults (listed in ``docs/rules/uttas.md``). A server may
override any part: :func:`load_tables` deep-merges a partial mapping over the defaults and
validates the result. The engine never reads files itself; it receives a :class:`UttasTables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.engine.core import tables
from bot.engine.core.scale import METERS, Scale, feet_board
from bot.engine.uttas.sheet import (
    Characteristic,
    DamageType,
    DiceCount,
    Meters,
    Name,
    Target,
)

DEFAULT_TABLES_PATH = Path(__file__).resolve().parents[3] / "data" / "uttas" / "tables.json"
Small = Annotated[int, Field(ge=-50, le=50)]
Count = Annotated[int, Field(ge=0, le=100)]


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CharacteristicDice(_Table):
    """Dice a characteristic gives: ``max(minimum, value // divisor)`` (text silent)."""

    divisor: Annotated[int, Field(ge=1, le=100)]
    minimum: Count = 0


class Derivation(_Table):
    """``base + floor(sum(characteristics) / divisor)`` — how Dodge and Discipline are derived."""

    base: Annotated[int, Field(ge=0, le=100)]
    characteristics: tuple[Characteristic, ...]
    divisor: Annotated[int, Field(ge=1, le=10)]


class DefenceBonus(_Table):
    """What a Defend reaction or a stance adds against one attack."""

    label: Name
    dodge_bonus: Small = 0
    discipline_bonus: Small = 0
    armor_bonus: Small = 0
    defense_bonus: Small = 0
    description: str = ""


class Stance(_Table):
    """One stance's effects (the text names stances but gives no numbers).

    ``accuracy_advantage``/``accuracy_disadvantage``: on the character's own Accuracy rolls.
    ``grants_advantage``/``grants_disadvantage``: on Accuracy rolls made against the character.
    ``movement_multiplier``: scales Run/Leap/Swim/Fly speeds.
    """

    description: str = ""
    accuracy_advantage: Count = 0
    accuracy_disadvantage: Count = 0
    grants_advantage: Count = 0
    grants_disadvantage: Count = 0
    dodge_bonus: Small = 0
    discipline_bonus: Small = 0
    armor_bonus: Small = 0
    defense_bonus: Small = 0
    movement_multiplier: Annotated[float, Field(ge=0, le=4)] = 1.0


class BasicManeuver(_Table):
    """A Basic Maneuver every character can use (UTTAS "Attack")."""

    name: Name
    kind: Literal["melee", "thrown", "mechanical"] = "melee"
    key_characteristic: Characteristic = "strength"
    targets: Target = "dodge"
    uses_strength: bool = True
    damage_dice: DiceCount = 0
    damage_type: DamageType = "physical"
    range_m: Meters = 2
    grapple: bool = False
    inflicts: tuple[Name, ...] = ()
    description: str = ""


class RangeTable(_Table):
    """UTTAS "Range Modifiers": increment upper bounds in meters, extended by ``width_step_m``.

    ``board``: the unit distances are typed and shown in — ``meters``, or ``feet`` ("If the game
    board is operating in feet instead of meters, the side of one square is assumed to be 5
    feet": a square is ``feet_per_space`` ft and ``meters_per_space`` m, so the increments,
    counted in squares, stay the text's). The rules still count meters (:attr:`scale`)."""

    increments_m: tuple[int, ...]
    width_step_m: Annotated[int, Field(ge=0, le=1000)]
    meters_per_space: Annotated[float, Field(gt=0, le=10)]
    disadvantage_per_increment: Count
    auto_fail_at: Annotated[int, Field(ge=1, le=20)]
    board: Literal["meters", "feet"] = "meters"
    feet_per_space: Annotated[float, Field(ge=0.5, le=100)] = 5

    @property
    def scale(self) -> Scale:
        """How distances are typed and shown on this board (:mod:`bot.engine.core.scale`)."""
        if self.board == "feet":
            return feet_board(self.meters_per_space, self.feet_per_space)
        return METERS

    @model_validator(mode="after")
    def _increasing(self) -> RangeTable:
        if not self.increments_m or any(
            b <= a for a, b in zip(self.increments_m, self.increments_m[1:], strict=False)
        ):
            raise ValueError("range increments must be a non-empty increasing list")
        return self


class ProneRules(_Table):
    adjacent_m: Meters
    far_m: Meters
    acrobatics_dc: Annotated[int, Field(ge=0, le=200)]
    acrobatics_skill: Name


class CalledShot(_Table):
    disadvantage: Count
    min_health_damage: Annotated[int, Field(ge=1, le=1000)]


class RestRules(_Table):
    short_rests_per_day: Annotated[int, Field(ge=0, le=24)]
    short_rest_hours: Annotated[int, Field(ge=0, le=48)]
    long_rest_hours: Annotated[int, Field(ge=0, le=48)]
    long_rest_interval_hours: Annotated[int, Field(ge=0, le=240)]
    health_per_week: Annotated[int, Field(ge=0, le=1000)]


class HealingRules(_Table):
    """UTTAS "Healing": the text defers the Heal power's and First Aid's amounts and limits to
    descriptions it does not include; these are the bot's defaults (``docs/rules/uttas.md``).

    ``power_active_points_per_die``: a Heal power rolls 1d6 of Health per this many Active
    Points (20 AP → 2d6); ``power_daily_share``: the Health one creature may regain from Heal
    powers in a day, as a share of its maximum; ``first_aid_skill`` and ``paramedics_skill``: the
    skills First Aid may roll ("using the Paramedics skill"; the healer's better one);
    ``first_aid_difficulty``: its difficulty; ``first_aid_health_per_die``: Health a success
    restores per die of the skill; ``first_aid_reach_m``: how near the patient must be (a Heal
    power reaches its own ``range_m``). First Aid checks overlap ("extensions of natural healing"):
    in a day a creature keeps the best one, not their sum; Heal powers and First Aid stack."""

    power_active_points_per_die: Annotated[int, Field(ge=1, le=1000)] = 10
    power_daily_share: Annotated[float, Field(ge=0, le=1)] = 0.5
    first_aid_skill: Name = "First Aid"
    paramedics_skill: Name = "Paramedics"
    first_aid_difficulty: Annotated[int, Field(ge=0, le=100)] = 8
    first_aid_health_per_die: Annotated[int, Field(ge=0, le=100)] = 1
    first_aid_reach_m: Meters = 2


class ItemRules(_Table):
    """Issue 11, "Items": the text's only item rule is that "draws and uses an item" is the
    turn's action; these are the bot's defaults for the rest (``docs/rules/uttas.md``).

    ``draw_actions``: actions a plain draw (a weapon or an item into free hands, not used)
    costs in a fight (0: free); ``draw_ends_turn``: whether that draw is the turn's action
    (ends the turn) or, like a later stance change, only costs its actions;
    ``stow_actions``: actions putting away or dropping what a hand holds costs (0: free);
    ``reach_m``: how near (meters) a combatant must be to use an item on someone else, when
    the encounter knows the distance between them."""

    draw_actions: Annotated[int, Field(ge=0, le=3)] = 1
    draw_ends_turn: bool = False
    stow_actions: Annotated[int, Field(ge=0, le=3)] = 0
    reach_m: Meters = 2


class CheckRules(_Table):
    """UTTAS checks against someone (issue 11, "opposed checks"; the text names Stealth against
    Perception in "Chase Scenes" and range penalties on Perception in "Range Modifiers", but no
    procedure — these are the bot's defaults, ``docs/rules/uttas.md``).

    ``hide_skills``: a check with one of them hides the roller (the Hidden condition, its total
    the score a seeker must beat); ``seek_skills``: a check with one of them against a hidden
    combatant is compared with that score, with the range penalties of "Range Modifiers"
    beyond ``view_range_m`` meters; ``opposed``: the skill a target opposes a check with (a
    skill not listed is opposed by the same skill); ``untrained_dice``: the dice a target rolls
    for a skill its sheet lacks. Ties go to the target (the roller must beat it, as Accuracy
    must be "higher than" Dodge)."""

    hide_skills: tuple[Name, ...] = ("Stealth",)
    seek_skills: tuple[Name, ...] = ("Perception", "Tracking")
    opposed: dict[Name, Name] = Field(
        default_factory=lambda: {
            "Perception": "Stealth",
            "Tracking": "Stealth",
            "Stealth": "Perception",
        }
    )
    view_range_m: Meters = 10
    untrained_dice: Annotated[int, Field(ge=0, le=20)] = 1


class PowerRules(_Table):
    """Powers that are not only damage (issue 11; :mod:`bot.engine.uttas.power_effects`). The
    text names Aid, Drain, Barrier and Invisibility but gives none of their numbers; these are
    the bot's defaults (``docs/rules/uttas.md``).

    ``active_points_per_die``: Aid and Drain roll 1d6 per this many Active Points (20 AP → 2d6),
    the points added to or taken from the characteristic; they last until ``lasts`` ends (the
    GM's ``/gm time end-of``), a new one on the same characteristic keeping the larger;
    ``barrier_condition``: the condition a Barrier puts on its target (an ``extra_conditions``
    entry, broken part by part); ``invisibility_base`` + Active Points ÷
    ``invisibility_points_per_score``: the score a seeker's Perception must beat."""

    active_points_per_die: Annotated[int, Field(ge=1, le=1000)] = 10
    lasts: Literal["scene", "day"] = "scene"
    barrier_condition: Name = "Barred"
    invisibility_base: Annotated[int, Field(ge=0, le=200)] = 10
    invisibility_points_per_score: Annotated[int, Field(ge=1, le=100)] = 5


class StaminaRules(_Table):
    allow_overexertion: bool
    meters_per_stamina: Annotated[int, Field(ge=1, le=1000)]
    meters_per_stamina_leap_swim: Annotated[int, Field(ge=1, le=1000)]
    strength_per_stamina: Annotated[int, Field(ge=1, le=100)]
    active_points_per_stamina: Annotated[int, Field(ge=1, le=100)]


class ExtraCondition(_Table):
    """A condition a power may inflict that the text does not define (e.g. Entangled)."""

    description: str = ""
    no_move: bool = False
    no_actions: bool = False
    grants_advantage: Count = 0
    break_attempts: Annotated[int, Field(ge=0, le=20)] = 0
    """A binding broken by attempts (an action each, ``/act action:break-free``): each breaks
    one part of it, and it ends after this many (the chase: "breaks down half of it" — 2);
    0: only the GM or its duration ends it."""


class UttasTables(_Table):
    """All GM-changeable UTTAS numbers. See ``docs/rules/uttas.md`` for each default's reason."""

    characteristic_dice: CharacteristicDice
    dodge: Derivation
    discipline: Derivation
    weapon_key_characteristic: dict[Literal["melee", "thrown", "mechanical"], Characteristic]
    reactions: dict[Literal["evade", "block", "move"], DefenceBonus]
    stances: dict[Name, Stance]
    default_stance: Name
    universal_stances: tuple[Name, ...]
    basic_maneuvers: tuple[BasicManeuver, ...]
    range: RangeTable
    prone: ProneRules
    called_shot: CalledShot
    grapple_contest_characteristic: Characteristic
    rest: RestRules
    stamina: StaminaRules
    extra_conditions: dict[Name, ExtraCondition]
    healing: HealingRules = HealingRules()
    items: ItemRules = ItemRules()
    checks: CheckRules = CheckRules()
    powers: PowerRules = PowerRules()
    speed_refill: Literal["turn_start", "turn_end"] | None = None
    """When the Speed pool refills (UTTAS "Actions and Speed"; see
    :class:`~bot.engine.core.economy.SpeedPool`): ``turn_start`` (the reading of rules version
    2), ``turn_end`` (version 1's), None: the encounter's rules version decides."""

    @model_validator(mode="after")
    def _barrier_condition_defined(self) -> UttasTables:
        """A Barrier's condition is one of ``extra_conditions`` (a GM naming another is refused
        when setting it); tables frozen before Barred existed keep the default name and refuse
        a Barrier when it is used."""
        wanted = self.powers.barrier_condition
        if wanted not in self.extra_conditions and wanted != PowerRules().barrier_condition:
            known = ", ".join(sorted(self.extra_conditions)) or "none"
            raise ValueError(
                f"powers.barrier_condition {wanted!r} is not one of extra_conditions ({known})"
            )
        return self

    @model_validator(mode="after")
    def _stances_known(self) -> UttasTables:
        missing = [
            s for s in (self.default_stance, *self.universal_stances) if s not in self.stances
        ]
        if missing:
            raise ValueError("unknown stance(s) in defaults: " + ", ".join(missing))
        return self

    def stance(self, name: str) -> tuple[str, Stance] | None:
        """A stance by case-insensitive name → (canonical name, effects)."""
        folded = name.casefold()
        for key, value in self.stances.items():
            if key.casefold() == folded:
                return key, value
        return None


def load_tables(
    source: Path | Mapping[str, Any] | None = None,
    *,
    overrides: Mapping[str, Any] | None = None,
) -> UttasTables:
    """Build the tables from a JSON file path or an already-parsed mapping (default:
    ``data/uttas/tables.json``), deep-merging ``overrides`` (a GM's per-server changes) on top.

    Raises :class:`InvalidInput` naming the first invalid field.
    """
    return tables.load(UttasTables, "UTTAS", DEFAULT_TABLES_PATH, source, overrides)


@lru_cache(maxsize=1)
def default_tables() -> UttasTables:
    """The shipped defaults (``data/uttas/tables.json``), loaded once."""
    return load_tables()
