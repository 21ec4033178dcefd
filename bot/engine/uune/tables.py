"""The GM-changeable Uune tables: every number the Uune SRD gives that a facilitator may want to
change, and every default the bot chose where the text is silent (the NPC's forced reroll, the
luck check's die, the rounding of passive actions, the reading of the leveling table).

``data/uune/tables.json`` holds the defaults (each a row of ``docs/rules/uune.md``). A server
may override any part: :func:`load_tables` deep-merges a partial mapping over the defaults and
validates the result (:func:`bot.engine.core.tables.load`). The engine never reads files
itself beyond the shipped defaults; it receives a :class:`UuneTables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot import names
from bot.engine.core import tables
from bot.engine.uune.terms import (
    STRESS_KINDS,
    WOUND_KINDS,
    Crowd,
    Income,
    Living,
    StealthLevel,
    StressKind,
    WoundKind,
)
from bot.errors import InvalidInput

DEFAULT_TABLES_PATH = Path(__file__).resolve().parents[3] / "data" / "uune" / "tables.json"
Small = Annotated[int, Field(ge=0, le=20)]
Positive = Annotated[int, Field(ge=1, le=20)]
Vitality = Annotated[int, Field(ge=0, le=1000)]
Hits = Annotated[int, Field(ge=0, le=10)]


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rung(_Table):
    """One rung of the difficulty ladder ("Actions": Difficulty, Description, Required Hits)."""

    hits: Hits
    name: Annotated[str, Field(min_length=1, max_length=40)]
    description: Annotated[str, Field(max_length=100)] = ""


class Dice(_Table):
    """ "Actions": ``base_dice`` d ``sides`` plus ``dice_per_resource`` per approved resource;
    dice showing ``hit_on`` or more are hits ("Any dice which land on 5 or 6 are hits")."""

    sides: Annotated[int, Field(ge=2, le=20)] = 6
    hit_on: Annotated[int, Field(ge=2, le=20)] = 5  # 1: every die a hit, no roll at all (a
    # pool counting hits needs a face that misses: bot.engine.core.pools.Sides)
    base_dice: Positive = 1
    dice_per_resource: Positive = 1

    @model_validator(mode="after")
    def _hit_on_a_face(self) -> Dice:
        if self.hit_on > self.sides:
            raise ValueError(f"dice.hit_on ({self.hit_on}) is a face of a d{self.sides}")
        return self


class Passive(_Table):
    """ "What are Passive Actions?": 1/``divisor`` of the available resources count as hits,
    rounded ``rounding`` (the text does not say; the bot rounds down)."""

    divisor: Positive = 3
    rounding: Literal["down", "nearest", "up"] = "down"


class Luck(_Table):
    """ "Luck Checks": a 50/50 outcome. The text names a coin flip or a dice roll; the bot rolls
    a d``sides`` and succeeds on ``success_on`` or more (4–6 on a d6)."""

    sides: Annotated[int, Field(ge=2, le=20)] = 6
    success_on: Positive = 4

    @model_validator(mode="after")
    def _success_on_a_face(self) -> Luck:
        if self.success_on > self.sides:
            raise ValueError(f"luck.success_on ({self.success_on}) is a face of a d{self.sides}")
        return self


class Focus(_Table):
    """ "Focus": at most ``max`` points, +``per_proficiency_point`` per proficiency point in
    focus, +``stimulated`` per level of Stimulated ("Effect: Stimulated"); a point (``force_cost``)
    forces a resource to hit, a point (``reroll_cost``) rerolls ``reroll_dice`` resources."""

    max: Small = 2
    per_proficiency_point: Small = 1
    stimulated: Small = 1
    force_cost: Positive = 1
    reroll_cost: Positive = 1
    reroll_dice: Positive = 2


class VitalityRules(_Table):
    """ "Vitality": ``default`` points; spend ``reroll_cost`` to reroll a die, ``bump_cost`` to
    bump a die by ``bump_by``."""

    default: Annotated[int, Field(ge=1, le=10_000)] = 100
    reroll_cost: Vitality = 5
    bump_cost: Vitality = 10
    bump_by: Positive = 1


class NpcForcedReroll(_Table):
    """ "General NPC Guideines": "NPCs can spend vitality to force a PC to reroll a hit die".
    The text gives no cost: ``vitality`` is the bot's default (10, as a bump), GM-editable."""

    vitality: Vitality = 10


class Harm(_Table):
    """What one wound or stress of a kind takes off maximum (``max``) and current
    (``current``) vitality ("Wounds", "Stress")."""

    max: Vitality
    current: Vitality


class Healing(_Table):
    """ "Wounds"/"Stress": a heavy wound (stress) heals into ``heavy_to_light`` light ones."""

    heavy_to_light: Small = 4


class Downtime(_Table):
    """ "Downtime": hits needed per living condition; a success restores ``restore``."""

    living: dict[Living, Hits]
    restore: Vitality = 50


class PerRound(_Table):
    """ "Effect: Bleeding": ``vitality`` lost at the start of each round."""

    vitality: Vitality = 10


class Impaired(_Table):
    """ "Effect: Impared": "All actions require +1 hits" (per level)."""

    extra_hits: Small = 1


class Intoxicated(_Table):
    """ "Effect: Intoxicated": "must reroll all 6s" — dice showing ``reroll_face`` or more."""

    reroll_face: Positive = 6


class Stealth(_Table):
    """ "Stealth": resources per stealth level; difficulty added per crowd size."""

    levels: dict[StealthLevel, Small]
    crowd: dict[Crowd, Small]


class Observe(_Table):
    """ "Observe": senses noticed at a margin of 0 (meet), 1 and 2 or more over."""

    senses_at_margin: tuple[Small, ...] = Field(default=(1, 2, 3), min_length=1, max_length=10)


class Inventory(_Table):
    """ "Items and Inventory": "You may write down up to 10 items"."""

    items: Annotated[int, Field(ge=0, le=50)] = 10


class Shticks(_Table):
    """ "Shticks": "You may have a maximum of 3 shticks"."""

    max: Annotated[int, Field(ge=0, le=20)] = 3


class Creation(_Table):
    """ "Level 1": starting money is ``income_dice`` d ``income_sides`` times the income's
    multiplier."""

    income_dice: Positive = 5
    income_sides: Annotated[int, Field(ge=2, le=20)] = 6
    income: dict[Income, Annotated[int, Field(ge=0, le=10_000)]]


class Prices(_Table):
    """ "Value / Rarity Table": ``grid[value - 1][rarity - 1]`` is the price."""

    values: tuple[str, ...] = Field(min_length=1, max_length=10)
    rarities: tuple[str, ...] = Field(min_length=1, max_length=10)
    grid: tuple[tuple[Annotated[int, Field(ge=0, le=10_000_000)], ...], ...]

    @model_validator(mode="after")
    def _square(self) -> Prices:
        if len(self.grid) != len(self.values) or any(
            len(row) != len(self.rarities) for row in self.grid
        ):
            raise ValueError("prices.grid has a row per value and a column per rarity")
        return self


class Level(_Table):
    """One row of "Leveling", as totals at that level (docs/rules/uune.md: the reading)."""

    level: Annotated[int, Field(ge=1, le=100)]
    shtick_points: Annotated[int, Field(ge=0, le=100)]
    experiences: Annotated[int, Field(ge=0, le=100)]
    proficiency_points: Annotated[int, Field(ge=0, le=100)]
    bonds: Annotated[int, Field(ge=0, le=100)]


class UuneTables(_Table):
    """Every GM-changeable Uune number (see the module docstring)."""

    difficulty: tuple[Rung, ...] = Field(min_length=1, max_length=11)
    dice: Dice = Field(default_factory=Dice)
    passive: Passive = Field(default_factory=Passive)
    luck: Luck = Field(default_factory=Luck)
    focus: Focus = Field(default_factory=Focus)
    vitality: VitalityRules = Field(default_factory=VitalityRules)
    npc_forced_reroll: NpcForcedReroll = Field(default_factory=NpcForcedReroll)
    wounds: dict[WoundKind, Harm]
    stress: dict[StressKind, Harm]
    healing: Healing = Field(default_factory=Healing)
    downtime: Downtime
    bleeding: PerRound = Field(default_factory=PerRound)
    impaired: Impaired = Field(default_factory=Impaired)
    intoxicated: Intoxicated = Field(default_factory=Intoxicated)
    stealth: Stealth
    observe: Observe = Field(default_factory=Observe)
    inventory: Inventory = Field(default_factory=Inventory)
    shticks: Shticks = Field(default_factory=Shticks)
    creation: Creation
    prices: Prices
    leveling: tuple[Level, ...] = Field(min_length=1, max_length=100)

    @model_validator(mode="after")
    def _complete(self) -> UuneTables:
        if [r.hits for r in self.difficulty] != list(range(len(self.difficulty))):
            raise ValueError("difficulty lists the rungs 0, 1, 2, … in order")
        for label, kinds, have in (
            ("wounds", WOUND_KINDS, self.wounds),
            ("stress", STRESS_KINDS, self.stress),
        ):
            missing = [k for k in kinds if k not in have]
            if missing:
                raise ValueError(f"{label} lacks {', '.join(missing)}")
        if [r.level for r in self.leveling] != list(range(1, len(self.leveling) + 1)):
            raise ValueError("leveling lists the levels 1, 2, … in order")
        return self

    # --- look-ups ---------------------------------------------------------------------------

    def rung(self, difficulty: int | str) -> Rung:
        """The ladder's rung for a number of hits or a name (case-insensitive, ``very easy``).
        Raises :class:`InvalidInput` naming the ladder for anything else."""
        for r in self.difficulty:
            if difficulty == r.hits or (
                isinstance(difficulty, str) and difficulty.strip().casefold() == r.name.casefold()
            ):
                return r
        top = self.difficulty[-1]
        raise InvalidInput(
            f"No difficulty {names.quoted(str(difficulty))}: the ladder runs from 0 "
            f"({names.escaped(self.difficulty[0].name)}) to {top.hits} ({names.escaped(top.name)})."
        )

    def level(self, level: int) -> Level:
        """The leveling row of ``level``. Raises :class:`InvalidInput` past the table."""
        if not 1 <= level <= len(self.leveling):
            raise InvalidInput(
                f"Level {level} is not on the leveling table (1–{len(self.leveling)})."
            )
        return self.leveling[level - 1]

    def price(self, value: int, rarity: int) -> int:
        """ "Value / Rarity Table": the price of an item of ``value`` and ``rarity`` (both from
        1). Raises :class:`InvalidInput` outside the table."""
        if not (1 <= value <= len(self.prices.values) and 1 <= rarity <= len(self.prices.rarities)):
            raise InvalidInput(
                f"Value runs 1–{len(self.prices.values)} and rarity 1–{len(self.prices.rarities)}."
            )
        return self.prices.grid[value - 1][rarity - 1]


def load_tables(
    source: Path | Mapping[str, Any] | None = None,
    *,
    overrides: Mapping[str, Any] | None = None,
) -> UuneTables:
    """Build the tables from a JSON file path or an already-parsed mapping (default:
    ``data/uune/tables.json``), deep-merging ``overrides`` (a GM's per-server changes) on top.

    Raises :class:`InvalidInput` naming the first invalid field."""
    return tables.load(UuneTables, "Uune", DEFAULT_TABLES_PATH, source, overrides)


@lru_cache(maxsize=1)
def default_tables() -> UuneTables:
    """The shipped defaults (``data/uune/tables.json``), loaded once."""
    return load_tables()
