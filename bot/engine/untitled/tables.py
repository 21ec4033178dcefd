"""The GM-changeable Untitled tables: every number ``untitled-combat.txt`` or issue 13 gives that
a Storyteller may want to change, and every default the bot chose where the text is silent.

``data/untitled/tables.json`` holds the defaults (each a row of ``docs/rules/untitled.md``). A
server may override any part: :func:`load_tables` deep-merges a partial mapping over the
defaults and validates the result through :func:`bot.engine.core.tables.load`. The engine never
reads files itself; it receives an :class:`UntitledTables`.

The ladder and the armor rows are lists: a server's override replaces a whole list (the
shared loader merges mappings key by key, not lists), so a Storyteller setting the Legendary
dice gives the ladder again — :meth:`UntitledTables.with_legendary` builds that override.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.engine.core import tables
from bot.engine.untitled.terms import (
    LEVEL_MAX,
    TIERS,
    DiceText,
    Level,
    Tier,
    WeightClass,
)
from bot.errors import InvalidInput

_SIDES = {"light": 4, "medium": 6, "heavy": 8}
"""An example die per weight class for the refusal's hint (issue 13's rows: d4, d6, d8)."""

DEFAULT_TABLES_PATH = Path(__file__).resolve().parents[3] / "data" / "untitled" / "tables.json"


class _Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _contiguous(rows: Sequence[Any], what: str) -> None:
    """Rows cover levels 1 to :data:`LEVEL_MAX` with no gap or overlap, the last open-ended
    (``high`` None) and only the last. Raises ``ValueError`` naming the first fault."""
    expected = 1
    for i, row in enumerate(rows):
        if row.low != expected:
            raise ValueError(f"{what} row {i + 1} starts at level {row.low}, not {expected}")
        last = i == len(rows) - 1
        if row.high is None:
            if not last:
                raise ValueError(f"{what}: only the last row is open-ended (21+)")
            return
        if row.high < row.low:
            raise ValueError(f"{what} row {i + 1}: high {row.high} is below low {row.low}")
        expected = row.high + 1
    if expected <= LEVEL_MAX:
        raise ValueError(f"{what}: the last row is open-ended so every level up to 30 has dice")


class Rung(_Table):
    """One rung of the skill ladder ("Skill Level 1-4 ... Skill Tier Novice ... Skill Dice
    2d6"): levels ``low``–``high`` (``high`` None: and above) are ``tier`` and roll ``dice``
    plus the level. ``dice`` None: the Storyteller has not set them yet (Legendary,
    "Storyteller")."""

    tier: Tier
    low: Level
    high: Level | None
    dice: DiceText | None


class ArmorRow(_Table):
    """Armor dice for armor-skill levels ``low``–``high`` per weight class (issue 13: "levels
    1–4: Light 1d4 / Medium 1d6 / Heavy 1d8; ... above 18: the Storyteller's call"). None: not
    set (the Storyteller's call), refused until set."""

    low: Level
    high: Level | None
    light: DiceText | None
    medium: DiceText | None
    heavy: DiceText | None


class Untrained(_Table):
    """A roll without the skill (issue 13: "an untrained roll is 1d6 with no bonus"):
    ``dice``, and whether a level would be added (``bonus``; there is no level to add, so the
    default is False and True is refused)."""

    dice: DiceText = "1d6"
    bonus: Literal[False] = False


class Critical(_Table):
    """Issue 13: "an attack that reaches at least double the defense is a critical and rolls
    damage one skill tier higher". ``multiplier``: the attack total must reach ``multiplier``
    × the defense total; ``tiers_up``: how many rungs higher the damage dice are;
    ``extra_dice_at_top``: past the top of the ladder (a Legendary critical, or a Grandmaster's
    while the Legendary dice are not set) the damage adds this many dice of the largest die of
    its own dice (bot's reading: the text names no tier above Legendary)."""

    multiplier: Annotated[int, Field(ge=1, le=10)] = 2
    tiers_up: Annotated[int, Field(ge=0, le=5)] = 1
    extra_dice_at_top: Annotated[int, Field(ge=0, le=10)] = 1


class DefenseRule(_Table):
    """ "A tie will go to the defender." (``tie``: who wins equal totals.)"""

    tie: Literal["defender", "attacker"] = "defender"


class RoundRule(_Table):
    """ "Each round is intended to represent six (6) seconds"; "up-to two movement actions and a
    standard action" (or one full-round action instead)."""

    seconds: Annotated[int, Field(ge=1, le=600)] = 6
    move: Annotated[int, Field(ge=0, le=10)] = 2
    standard: Annotated[int, Field(ge=0, le=10)] = 1


class UntitledTables(_Table):
    """Every Untitled number a Storyteller may change (``data/untitled/tables.json``).

    ``untrained_armor``: the dice armor worn without any skill in its weight class mitigates
    (None: nothing — the bot's reading, since an untrained 1d6 would out-roll a Novice's 1d4
    in light armor)."""

    ladder: tuple[Rung, ...] = Field(min_length=1, max_length=len(TIERS))
    untrained: Untrained = Field(default_factory=Untrained)
    armor: tuple[ArmorRow, ...] = Field(min_length=1, max_length=30)
    untrained_armor: DiceText | None = None
    critical: Critical = Field(default_factory=Critical)
    defense: DefenseRule = Field(default_factory=DefenseRule)
    round: RoundRule = Field(default_factory=RoundRule)
    order_die: Annotated[int, Field(ge=2, le=1000)] = 20
    """The die each creature rolls when the Storyteller asks for one for the order ("may ask
    for a die roll to help randomize the order or resolve a tie"; the text names no die: the
    bot's default is a d20)."""

    @model_validator(mode="after")
    def _ladder_in_order(self) -> UntitledTables:
        _contiguous(self.ladder, "ladder")
        _contiguous(self.armor, "armor")
        tiers = [r.tier for r in self.ladder]
        if tiers != list(TIERS[: len(tiers)]):
            raise ValueError("ladder: the tiers go " + ", ".join(TIERS) + " in that order")
        return self

    # --- reading the ladder -----------------------------------------------------------------

    def rung(self, level: int) -> Rung:
        """The ladder's rung for ``level`` (1–30). Raises :class:`InvalidInput` for a level off
        the ladder."""
        if not 1 <= level <= LEVEL_MAX:
            raise InvalidInput(f"A skill level is 1 to {LEVEL_MAX}, not {level}.")
        return next(r for r in self.ladder if r.high is None or r.low <= level <= r.high)

    def tier(self, level: int) -> Tier:
        """The tier name of ``level`` ("1-4 Novice ... 21+ Legendary")."""
        return self.rung(level).tier

    def skill_dice(self, level: int) -> str:
        """The dice of ``level``'s tier (without the level added). Raises
        :class:`InvalidInput` while that tier's dice are not set (Legendary: "Storyteller")."""
        rung = self.rung(level)
        if rung.dice is None:
            raise InvalidInput(
                f"Level {level} is {rung.tier.title()}: its dice are the Storyteller's to set "
                + (
                    "(this encounter: `/gm settings rule:Legendary dice value:3d12`; the "
                    "server: tables `ladder`, the legendary row's `dice`)."
                    if rung.tier == "legendary"
                    else f"(tables `ladder`, the {rung.tier} row's `dice`, e.g. 3d12)."
                )
            )
        return rung.dice

    def armor_dice(self, level: int, weight: WeightClass) -> str:
        """The dice ``weight`` armor rolls for an armor-skill ``level`` (issue 13). Raises
        :class:`InvalidInput` while that row is not set (above 18: the Storyteller's call)."""
        if not 1 <= level <= LEVEL_MAX:
            raise InvalidInput(f"A skill level is 1 to {LEVEL_MAX}, not {level}.")
        row = next(r for r in self.armor if r.high is None or r.low <= level <= r.high)
        dice: str | None = getattr(row, weight)
        if dice is None:
            span = f"{row.low}+" if row.high is None else f"{row.low}–{row.high}"
            here = (
                f"this encounter: `/gm settings rule:{weight.title()} armor above 18 "
                f"value:5d{_SIDES[weight]}`; the server: "
                if level > 18
                else ""
            )
            raise InvalidInput(
                f"{weight.title()} armor at level {level}: the dice for levels {span} are the "
                f"Storyteller's call ({here}tables `armor`, the {span} row's `{weight}`)."
            )
        return dice

    def with_legendary(self, dice: str) -> dict[str, Any]:
        """The override (for :func:`load_tables`) that sets the Legendary tier's dice, the rest
        of the ladder unchanged."""
        ladder = [r.model_dump() for r in self.ladder]
        for row in ladder:
            if row["tier"] == "legendary":
                row["dice"] = dice
        return {"ladder": ladder}


def load_tables(
    source: Path | Mapping[str, Any] | None = None,
    *,
    overrides: Mapping[str, Any] | None = None,
) -> UntitledTables:
    """Build the tables from a JSON file path or an already-parsed mapping (default:
    ``data/untitled/tables.json``), deep-merging ``overrides`` (a Storyteller's per-server
    changes) on top.

    Raises :class:`InvalidInput` naming the first invalid field.
    """
    return tables.load(UntitledTables, "Untitled", DEFAULT_TABLES_PATH, source, overrides)


@lru_cache(maxsize=1)
def default_tables() -> UntitledTables:
    """The shipped defaults (``data/untitled/tables.json``), loaded once."""
    return load_tables()
