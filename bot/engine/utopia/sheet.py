"""The Utopia character sheet: what a player writes down, validated with hard bounds.

Only *natural* values live here; what the rules derive (a trait's score, a modifier, the Block
and Dodge dice, a defense, a leap) is a method, and where a GM's number is involved it takes
the tables (:class:`bot.engine.utopia.tables.UtopiaTables`). The model is frozen and forbids
unknown fields, like :class:`bot.engine.uttas.sheet.UttasSheet`.

Sources: ``utopia-actions.txt`` (section names below are its headings) and the facts issue 12
lists as "documented defaults" (from the game's published rules as its Foundry VTT system
implements them: traits and subtraits, modifier = score − 4, gifted, Block Nd4 / Dodge Nd12,
the damage types and their innate defense of 1). Every one is a row of ``docs/rules/utopia.md``.

Bounds, so that no sheet can make a roll or a computation expensive: subtrait scores 1–50,
ratings 0–100, pools 1–10,000, meters 0–10,000, defenses 0–1,000, names ≤ 80 characters,
damage expressions of at most 100 dice of at most 1,000 sides.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bot import names
from bot.engine.utopia.tables import UtopiaTables
from bot.engine.utopia.terms import (
    DAMAGE_TYPES,
    SIZES,
    SUBTRAITS,
    SUBTRAITS_OF,
    TRAIT_OF,
    TRAITS,
    DamageText,
    DamageType,
    Meters,
    Size,
    Slot,
    Subtrait,
    Trait,
    TravelMode,
    check_damage,
)

__all__ = [
    "DAMAGE_TYPES",
    "SIZES",
    "SUBTRAITS",
    "SUBTRAITS_OF",
    "TRAITS",
    "TRAIT_OF",
    "Armor",
    "DamageType",
    "Spell",
    "Subtrait",
    "Trait",
    "UtopiaSheet",
    "Weapon",
    "check_damage",
]

Name = Annotated[str, names.validator(names.NAME_MAX)]
Score = Annotated[int, Field(ge=1, le=50)]
Rating = Annotated[int, Field(ge=0, le=100)]
PoolMax = Annotated[int, Field(ge=1, le=10_000)]
DefenseValue = Annotated[int, Field(ge=0, le=1000)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> _Frozen:
        # Immutable: a deep copy of an encounter shares its sheets instead of copying them.
        return self


class Subtraits(_Frozen):
    """The twelve subtrait scores, 1–50 (issue 12: "Traits and their subtraits"; a score is
    never below 1, as Foundry raises a 0 to 1). The default 1 is an untrained score."""

    dexterity: Score = 1
    speed: Score = 1
    power: Score = 1
    fortitude: Score = 1
    engineering: Score = 1
    memory: Score = 1
    resolve: Score = 1
    awareness: Score = 1
    portrayal: Score = 1
    stunt: Score = 1
    appeal: Score = 1
    language: Score = 1


class Travel(_Frozen):
    """Meters a creature moves with one Travel action ("Travel": "move a number of meters
    equal to its travel distance"; land, water and air). ``land`` None: the Speed subtrait
    score (Foundry's innate land travel ``@spd.total``); water and air 0: cannot."""

    land: Meters | None = None
    water: Meters = 0
    air: Meters = 0


class Weapon(_Frozen):
    """A weapon ("Attack": "the amount of turn actions necessary is depicted by the used
    weapon"; issue 12: fast 1, moderate 2, slow 3 TA).

    ``damage`` is a dice expression (:func:`check_damage`) of ``damage_type``;
    ``damage_modifier``: a trait or subtrait whose modifier adds to the damage (None: none).
    ``ignores_shp``: its damage goes to DHP ("if a weapon ignores SHP"). ``kind`` ``melee``
    reaches ``reach_m``; ``ranged`` has ``close_m`` and ``far_m`` ("Ranged Weapons": favor
    within close range, disfavor within far range, beyond it impossible). ``hands``: 0–2; 0 is
    a natural weapon (a bite, a stomp), never sheathed (rules version 5).
    """

    name: Name
    ta_cost: Annotated[int, Field(ge=1, le=3)] = 2
    damage: DamageText
    damage_type: DamageType = "physical"
    damage_modifier: Trait | Subtrait | None = None
    ignores_shp: bool = False
    kind: Literal["melee", "ranged"] = "melee"
    reach_m: Meters = 1
    close_m: Meters | None = None
    far_m: Meters | None = None
    hands: Annotated[int, Field(ge=0, le=2)] = 1

    @model_validator(mode="after")
    def _ranges(self) -> Weapon:
        if self.kind == "ranged":
            if self.close_m is None or self.far_m is None:
                raise ValueError(f"{self.name}: a ranged weapon gives close_m and far_m")
            if not 0 < self.close_m <= self.far_m:
                raise ValueError(
                    f"{self.name}: close_m ({self.close_m:g}) is more than 0 and at most "
                    f"far_m ({self.far_m:g})"
                )
        elif self.close_m is not None or self.far_m is not None:
            raise ValueError(f"{self.name}: only a ranged weapon has close_m and far_m")
        return self


class Spell(_Frozen):
    """A spell the creature can cast ("Casting a spell": 3 TA, the tables' ``spell.ta``).
    ``stamina``: what casting it costs; ``damage`` (optional) of ``damage_type``;
    ``range_m``: 0 is touch. ``description``: what it does, in words (≤ 300 characters)."""

    name: Name
    stamina: Annotated[int, Field(ge=0, le=1000)] = 0
    damage: DamageText | None = None
    damage_type: DamageType = "energy"
    range_m: Meters = 0
    description: Annotated[str, Field(max_length=300)] = ""


class Armor(_Frozen):
    """A piece of armor ("Equipment Actions": donning or doffing a neck or ring item takes 3 TA,
    any other armor 6). ``defenses``: what it adds per damage type while ``worn``."""

    name: Name
    slot: Slot = "chest"
    defenses: dict[DamageType, DefenseValue] = Field(default_factory=dict)
    worn: bool = True


class UtopiaSheet(_Frozen):
    """A Utopia character sheet (natural values only).

    ``subtraits``: the twelve scores; ``gifted``: subtraits whose modifier is never below 0.
    ``shp``/``dhp``/``stamina``: the maxima of Surface HP, Deep HP and Stamina.
    ``block_rating``/``dodge_rating``: N of Nd4 and Nd12 (the species sets it).
    ``defenses``: defenses per damage type on top of the innate ones (species, talents);
    ``armor`` adds its own while worn. ``turn_actions``/``interrupt_actions``: None is the
    tables' default (6 TA, 2 IA); the Ultimate specialist talents raise them up to 9 and 3.
    """

    system: Literal["utopia"] = "utopia"
    name: Name
    subtraits: Subtraits = Field(default_factory=Subtraits)
    gifted: tuple[Subtrait, ...] = Field(default=(), max_length=12)
    shp: PoolMax = 10
    dhp: PoolMax = 10
    stamina: PoolMax = 10
    block_rating: Rating = 1
    dodge_rating: Rating = 1
    defenses: dict[DamageType, DefenseValue] = Field(default_factory=dict)
    travel: Travel = Field(default_factory=Travel)
    size: Size = "medium"
    turn_actions: Annotated[int, Field(ge=1, le=9)] | None = None
    interrupt_actions: Annotated[int, Field(ge=1, le=3)] | None = None
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=30)
    spells: tuple[Spell, ...] = Field(default=(), max_length=50)
    armor: tuple[Armor, ...] = Field(default=(), max_length=20)

    @model_validator(mode="before")
    @classmethod
    def _number_stored_duplicates(cls, data: Any, info: ValidationInfo) -> Any:
        """A stored sheet whose weapon, spell and armor names became equal once normalised
        still loads: the later ones are numbered (``Club 2``)."""
        if not names.is_stored(info):
            return data
        return names.number_stored_duplicates(data, ("weapons", "spells", "armor"))

    @model_validator(mode="after")
    def _unique(self) -> UtopiaSheet:
        named: list[Weapon | Spell | Armor] = [*self.weapons, *self.spells, *self.armor]
        keys = [names.key(x.name) for x in named]
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        if dupes:
            raise ValueError("weapon, spell and armor names must be unique: " + ", ".join(dupes))
        if len(set(self.gifted)) != len(self.gifted):
            raise ValueError("gifted lists a subtrait twice")
        return self

    # --- scores and modifiers ---------------------------------------------------------------

    def score(self, name: Trait | Subtrait) -> int:
        """A subtrait's score, or a trait's: the sum of its two subtraits (issue 12,
        documented defaults: "a trait's score is the sum of its subtraits")."""
        if name in SUBTRAITS_OF:
            first, second = SUBTRAITS_OF[name]
            return self.score(first) + self.score(second)
        return int(getattr(self.subtraits, name))

    def modifier(self, name: Trait | Subtrait, offset: int = 4) -> int:
        """Score − ``offset`` (the tables' ``test.modifier_offset``, 4); a gifted subtrait's
        modifier is never below 0 (issue 12, documented defaults: "modifier = score − 4 (a
        gifted score's modifier is never below 0)"; Foundry ``_prepareTraits``)."""
        value = self.score(name) - offset
        return max(value, 0) if name in self.gifted else value

    # --- defending --------------------------------------------------------------------------

    def block_dice(self, tables: UtopiaTables, *, cover: bool = False) -> tuple[int, int]:
        """``(count, sides)`` of a Block roll: ``block_rating`` d ``tables.block.sides`` (issue
        12: "Block Rating is Nd4"), the count multiplied by ``tables.take_cover.multiplier``
        under cover ("Take Cover": "doubling its Block Rating and Dodge Rating")."""
        factor = tables.take_cover.multiplier if cover else 1
        return self.block_rating * factor, tables.block.sides

    def dodge_dice(self, tables: UtopiaTables, *, cover: bool = False) -> tuple[int, int]:
        """``(count, sides)`` of a Dodge roll: ``dodge_rating`` d ``tables.dodge.sides`` (issue
        12: "Dodge Rating Nd12"), doubled under cover as :meth:`block_dice`."""
        factor = tables.take_cover.multiplier if cover else 1
        return self.dodge_rating * factor, tables.dodge.sides

    def defense(
        self, damage_type: DamageType, tables: UtopiaTables, worn: Set[str] | None = None
    ) -> int:
        """The defense against ``damage_type``: the innate one (issue 12: Physical, Energy,
        Heat, Chill and Psyche "each with an innate defense of 1"; ``tables.innate_defense``)
        plus ``defenses`` plus the armor worn (``worn``: the names of the pieces worn now;
        None: the pieces marked ``worn``)."""
        on = {a.name for a in self.armor if a.worn} if worn is None else worn
        worn_total = sum(a.defenses.get(damage_type, 0) for a in self.armor if a.name in on)
        innate = tables.innate_defense.get(damage_type, 0)
        return innate + self.defenses.get(damage_type, 0) + worn_total

    # --- acting -----------------------------------------------------------------------------

    def turn_actions_max(self, tables: UtopiaTables) -> int:
        """TA on its turn ("Turn Actions": 6; "an Ultimate specialist talent ... up to 9"):
        the sheet's ``turn_actions``, else ``tables.actions.turn``, at most
        ``tables.actions.turn_max``."""
        value = self.turn_actions if self.turn_actions is not None else tables.actions.turn
        return min(value, tables.actions.turn_max)

    def interrupt_actions_max(self, tables: UtopiaTables) -> int:
        """IA off its turn ("Interrupt Actions": 2; "up to 3"): the sheet's
        ``interrupt_actions``, else ``tables.actions.interrupt``, at most
        ``tables.actions.interrupt_max``."""
        value = (
            self.interrupt_actions
            if self.interrupt_actions is not None
            else tables.actions.interrupt
        )
        return min(value, tables.actions.interrupt_max)

    def travel_m(self, mode: TravelMode) -> float:
        """Meters one Travel action moves in ``mode`` ("Travel"); land defaults to the Speed
        score (:class:`Travel`). 0: it cannot travel that way."""
        if mode == "land":
            land = self.travel.land
            return float(self.score("speed")) if land is None else float(land)
        return float(getattr(self.travel, mode))

    def leap_m(self, *, after_travel: bool = False) -> int:
        """Leap distance or height in meters ("Leap": "equal to its Power score"; after at least
        2 m of travel directly before, "its Strength score instead")."""
        return self.score("strength") if after_travel else self.score("power")

    def weapon(self, name: str) -> Weapon | None:
        """A weapon by name (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return next((w for w in self.weapons if names.key(w.name) == folded), None)

    def armor_piece(self, name: str) -> Armor | None:
        """A piece of armor by name (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return next((a for a in self.armor if names.key(a.name) == folded), None)

    def spell(self, name: str) -> Spell | None:
        """A spell by name (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return next((s for s in self.spells if names.key(s.name) == folded), None)
