"""The Uune character sheet (:class:`UuneSheet`) and NPC statblock (:class:`UuneStatblock`):
what a player or facilitator writes down, validated with hard bounds.

Sources (Uune SRD headings): "Experiences", "Items and Inventory" (up to 10 items, money apart,
"What are Special Items?"), "Proficiency Points" (on an existing resource, never the base
action die), "Focus" (max 2, +1 per proficiency point in focus), "Bonds", "Shticks" (at most
3), "Vitality" (100), "Leveling", "Character Creation" / "Level 1", and "NPCs and
Statblocks" (Wellbeing, Scores, Actions, Roleplay).

Only natural values live here; wounds, stress and current vitality of a character are play
state (:mod:`bot.engine.uune.health`, the campaign record of decision A). The level rules
(:func:`level_problems`) run in a model validator with the shipped tables, or the tables given
in the validation context (``{"uune_tables": UuneTables}``); a sheet read back from the
database (:data:`bot.names.STORED`) is never refused for them.

Bounds: names ≤ 80 characters, free text ≤ 500, level 1–100, money ≤ 10,000,000, vitality
1–10,000, at most 3 shticks (the tables' ``shticks.max``), 30 experiences, 30 bonds, 20
features, 10 items (``inventory.items``), 50 proficiency entries. A resource's name (shtick,
experience, feature, resource item) is unique and has no ``:`` (``/act`` reads what follows a
colon as the resources, and a roll keeps a helper's as ``<helper id>:<resource>``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bot import names
from bot.engine.uune.form import lists_from_form
from bot.engine.uune.health import Stress, Wounds
from bot.engine.uune.tables import UuneTables, default_tables
from bot.engine.uune.terms import (
    BASE_DIE,
    FOCUS,
    BondKind,
    Difficulty,
    Income,
    Reach,
    Text,
)

Name = Annotated[str, names.validator(names.NAME_MAX)]
Words = Annotated[str, Field(min_length=1, max_length=500)]
CONTEXT_TABLES = "uune_tables"
"""Validation-context key for the tables the level rules check against."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> _Frozen:
        return self


class Shtick(_Frozen):
    """ "Shticks": a main ability at ``level`` (a shtick point buys a new shtick at level 1 or
    raises one by 1, so the points spent are the sum of the levels)."""

    name: Name
    level: Annotated[int, Field(ge=1, le=100)] = 1
    description: Text = ""


class Bond(_Frozen):
    """ "Bonds": a MOTIVATION, OBJECTION or FLAW, and the words that elaborate it."""

    kind: BondKind
    text: Words


class Experience(_Frozen):
    """ "Experiences": a development in the character's life, in a sentence or two."""

    name: Name
    description: Text = ""


class Feature(_Frozen):
    """A feature or ability a module gives ("Proficiency Points": "items, experiences,
    features, and abilities"), usable as a resource."""

    name: Name
    description: Text = ""


class Item(_Frozen):
    """ "Items and Inventory": one item. A special item ("What are Special Items?") has
    ``special`` words saying its rules; it may not count as a resource (``resource`` False) and
    may take ``space`` other than 1 of the inventory. An ordinary item is a resource and takes
    1."""

    name: Name
    special: Annotated[str, Field(max_length=500)] | None = None
    resource: bool = True
    space: Annotated[int, Field(ge=0, le=10)] = 1

    @model_validator(mode="after")
    def _only_special_items_differ(self) -> Item:
        if self.special is None and (not self.resource or self.space != 1):
            raise ValueError(
                f"item {self.name!r}: only a special item (with 'special' words) may take "
                f"space other than 1 or not be a resource"
            )
        if self.special is not None and not self.special.strip():
            raise ValueError(f"item {self.name!r}: 'special' says the item's rules in words")
        return self


class Proficiency(_Frozen):
    """ "Proficiency Points": ``points`` placed on the resource named ``on`` (an item, an
    experience, a shtick, a feature, or ``focus``); each gives one more resource die when it is
    used."""

    on: Name
    points: Annotated[int, Field(ge=1, le=100)] = 1


FOCUS_MAX = 100
"""The most focus a sheet, a combatant or a campaign record holds (their models' bound)."""


class UuneSheet(_Frozen):
    """A Uune player character (see the module docstring for sources and bounds).

    ``focus``: focus points marked now (at most :meth:`focus_max`); ``vitality``: maximum
    vitality before wounds and stress (100); ``money``: apart from items; ``income``: the
    starting income chosen at level 1 (None: not recorded)."""

    system: Literal["uune"] = "uune"
    kind: Literal["character"] = "character"
    name: Name
    level: Annotated[int, Field(ge=1, le=100)] = 1
    shticks: tuple[Shtick, ...] = Field(default=(), max_length=20)
    bonds: tuple[Bond, ...] = Field(default=(), max_length=30)
    experiences: tuple[Experience, ...] = Field(default=(), max_length=30)
    features: tuple[Feature, ...] = Field(default=(), max_length=20)
    items: tuple[Item, ...] = Field(default=(), max_length=50)
    proficiency: tuple[Proficiency, ...] = Field(default=(), max_length=50)
    focus: Annotated[int, Field(ge=0, le=FOCUS_MAX)] = 0
    vitality: Annotated[int, Field(ge=1, le=10_000)] = 100
    money: Annotated[int, Field(ge=0, le=10_000_000)] = 0
    income: Income | None = None
    backstory: Annotated[str, Field(max_length=2000)] = ""

    @model_validator(mode="before")
    @classmethod
    def _number_stored_duplicates(cls, data: Any, info: ValidationInfo) -> Any:
        if not names.is_stored(info):
            return lists_from_form(data)
        return names.number_stored_duplicates(data, ("shticks", "experiences", "features", "items"))

    @model_validator(mode="after")
    def _rules(self, info: ValidationInfo) -> UuneSheet:
        keys = [names.key(r) for r in self.resources()]
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        if dupes:
            raise ValueError(
                "shtick, experience, feature and item names must be unique: " + ", ".join(dupes)
            )
        if names.is_stored(info):
            return self
        colons = [r for r in self.resources() if ":" in r]
        if colons:  # a helper's resource is kept as "<helper id>:<resource>" in a roll too
            raise ValueError(
                "a shtick, experience, feature or resource item's name may not contain ':' "
                "(`/act` reads what follows a colon as the resources proposed): "
                + ", ".join(names.quoted(r) for r in colons)
            )
        context = info.context if isinstance(info.context, dict) else {}
        found = context.get(CONTEXT_TABLES)
        tables = found if isinstance(found, UuneTables) else default_tables()
        problems = level_problems(self, tables)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    # --- resources --------------------------------------------------------------------------

    def resources(self) -> list[str]:
        """Every named resource on the sheet: shticks, experiences, features, then items that
        count as resources ("Experiences", "Items and Inventory", "What are Special Items?")."""
        return [
            *(s.name for s in self.shticks),
            *(e.name for e in self.experiences),
            *(f.name for f in self.features),
            *(i.name for i in self.items if i.resource),
        ]

    def proficiency_on(self, name: str) -> int:
        """Proficiency points on the resource ``name`` (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return sum(p.points for p in self.proficiency if names.key(p.on) == folded)

    def resource_dice(self, name: str) -> int:
        """Dice the resource ``name`` adds when approved: 1 plus its proficiency points
        ("Proficiency Points": "whenever you use that resource, you gain an additional
        resource from it"). Raises ``KeyError`` for a name not on the sheet."""
        folded = names.key(name)
        if folded not in {names.key(r) for r in self.resources()}:
            raise KeyError(name)
        return 1 + self.proficiency_on(name)

    def focus_max(self, tables: UuneTables, stimulated: int = 0) -> int:
        """ "Focus": ``tables.focus.max`` (2) + ``per_proficiency_point`` per proficiency point
        in focus, + ``tables.focus.stimulated`` per level of Stimulated; never past
        :data:`FOCUS_MAX`, the most a sheet, a combatant or a campaign record holds (a server's
        tables allow 20 a level: Stimulated 5 gave 102, and the fight's state and the record
        could not be read back)."""
        f = tables.focus
        return min(
            FOCUS_MAX,
            f.max
            + f.per_proficiency_point * self.proficiency_on(FOCUS)
            + (f.stimulated * max(0, stimulated)),
        )

    def shtick_points(self) -> int:
        """Shtick points spent: the sum of the shticks' levels."""
        return sum(s.level for s in self.shticks)

    def proficiency_points(self) -> int:
        """Proficiency points placed."""
        return sum(p.points for p in self.proficiency)

    def inventory_space(self) -> int:
        """Inventory taken: each item's ``space`` (1 for an ordinary item)."""
        return sum(i.space for i in self.items)


def level_problems(sheet: UuneSheet, tables: UuneTables) -> list[str]:
    """Every way ``sheet`` breaks the level rules, each naming the field, its value and what is
    allowed (empty: none). "Level 1": exactly the level's shtick points spent, its bonds, at
    least its experiences (the facilitator may give more), no proficiency points, and money at
    most ``income_dice`` × ``income_sides`` × the income's multiplier. Above level 1 the
    leveling row's totals are maxima for shtick points, proficiency points and bonds, and a
    minimum for experiences. Always: at most ``shticks.max`` shticks, ``inventory.items``
    inventory space, focus at most the maximum, proficiency only on resources of the sheet or
    focus (never the base action die)."""
    if sheet.level > len(tables.leveling):
        return [f"level is {sheet.level} (the leveling table runs 1–{len(tables.leveling)})"]
    return [*_sheet_problems(sheet, tables), *_count_problems(sheet, tables)]


def _sheet_problems(sheet: UuneSheet, tables: UuneTables) -> list[str]:
    """The rules for every level: shticks, inventory space, proficiency targets, focus."""
    out: list[str] = []
    if len(sheet.shticks) > tables.shticks.max:
        out.append(f"shticks: {len(sheet.shticks)} (at most {tables.shticks.max})")
    space = sheet.inventory_space()
    if space > tables.inventory.items:
        out.append(f"items take {space} inventory space (at most {tables.inventory.items})")
    known = {names.key(r) for r in sheet.resources()} | {names.key(FOCUS)}
    for p in sheet.proficiency:
        if names.key(p.on) == names.key(BASE_DIE):
            out.append("proficiency on the base action die is not allowed")
        elif names.key(p.on) not in known:
            out.append(
                f"proficiency on {p.on!r}: not a shtick, experience, feature or item of the "
                f"sheet, nor focus"
            )
    top = sheet.focus_max(tables)
    if sheet.focus > top:
        out.append(f"focus is {sheet.focus} (at most {top})")
    return out


Bound = Literal["exactly", "at most", "at least"]


def _count_problems(sheet: UuneSheet, tables: UuneTables) -> list[str]:
    """The leveling row's counts: exact at level 1 (except experiences, a minimum), maxima
    above it; the starting money at level 1."""
    row = tables.level(sheet.level)
    first = sheet.level == 1
    grows: Bound = "exactly" if first else "at most"
    checks: tuple[tuple[str, int, int, Bound], ...] = (
        ("shtick points spent", sheet.shtick_points(), row.shtick_points, grows),
        ("bonds", len(sheet.bonds), row.bonds, grows),
        ("proficiency points", sheet.proficiency_points(), row.proficiency_points, grows),
        ("experiences", len(sheet.experiences), row.experiences, "at least"),
    )
    out = [
        f"{label}: {value} (at level {sheet.level}: {bound} {target})"
        for label, value, target, bound in checks
        if (bound == "exactly" and value != target)
        or (bound == "at most" and value > target)
        or (bound == "at least" and value < target)
    ]
    if first and sheet.income is not None:
        c = tables.creation
        most = c.income_dice * c.income_sides * c.income[sheet.income]
        if sheet.money > most:
            out.append(
                f"money is {sheet.money} (a {sheet.income} start gives at most {most}: "
                f"{c.income_dice}d{c.income_sides} × {c.income[sheet.income]})"
            )
    return out


def to_place(sheet: UuneSheet, tables: UuneTables) -> str:
    """What the leveling row of ``sheet``'s level leaves to place ("Leveling": "add additional
    items as dictated by the table"), in words — "1 proficiency point, 1 experience" — or
    "nothing" (a level past the table: nothing). Shtick points, proficiency points and bonds:
    the row's total less what the sheet has; experiences: the row's minimum less the sheet's."""
    if not 1 <= sheet.level <= len(tables.leveling):
        return "nothing"
    row = tables.level(sheet.level)
    counts = (
        (row.shtick_points - sheet.shtick_points(), "shtick point"),
        (row.experiences - len(sheet.experiences), "experience"),
        (row.proficiency_points - sheet.proficiency_points(), "proficiency point"),
        (row.bonds - len(sheet.bonds), "bond"),
    )
    words = [f"{n} {noun}" + ("s" if n > 1 else "") for n, noun in counts if n > 0]
    return ", ".join(words) or "nothing"


class NpcAttack(_Frozen):
    """An NPC's attack ("NPCs and Statblocks", Actions): the ``difficulty`` of the PC's Defend,
    ``reach`` melee or ranged, and any ``specials`` (spells, items, utility) in words."""

    name: Name
    difficulty: Difficulty
    reach: Reach = "melee"
    specials: tuple[Words, ...] = Field(default=(), max_length=10)


class UuneStatblock(_Frozen):
    """A Uune NPC ("NPCs and Statblocks"): Wellbeing (``vitality`` maximum, ``vitality_now``
    current — None is the maximum —, wounds, stress), Scores (``social``, ``perceptiveness``,
    ``defensiveness`` on the difficulty ladder), Actions (``attacks``) and Roleplay (at least
    one ``incentives`` and one ``objections``). NPCs never roll: these scores set what the PCs
    roll against."""

    system: Literal["uune"] = "uune"
    kind: Literal["npc"] = "npc"
    name: Name
    vitality: Annotated[int, Field(ge=1, le=10_000)] = 100
    vitality_now: Annotated[int, Field(ge=0, le=10_000)] | None = None
    wounds: Wounds = Field(default_factory=Wounds)
    stress: Stress = Field(default_factory=Stress)
    social: Difficulty = 0
    perceptiveness: Difficulty = 0
    defensiveness: Difficulty = 0
    attacks: tuple[NpcAttack, ...] = Field(default=(), max_length=20)
    incentives: tuple[Words, ...] = Field(min_length=1, max_length=10)
    objections: tuple[Words, ...] = Field(min_length=1, max_length=10)
    notes: Annotated[str, Field(max_length=2000)] = ""

    @model_validator(mode="after")
    def _checks(self) -> UuneStatblock:
        if self.vitality_now is not None and self.vitality_now > self.vitality:
            raise ValueError(
                f"vitality_now is {self.vitality_now}; at most vitality ({self.vitality})"
            )
        keys = [names.key(a.name) for a in self.attacks]
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        if dupes:
            raise ValueError("attack names must be unique: " + ", ".join(dupes))
        return self

    def attack(self, name: str) -> NpcAttack | None:
        """An attack by name (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return next((a for a in self.attacks if names.key(a.name) == folded), None)
