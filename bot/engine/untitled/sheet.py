"""The Untitled character sheet: what a player writes down, validated with hard bounds.

Only *natural* values live here — skill levels, the speed rating, Health, the weapons, the
shield and the armor worn; what the rules derive from them (which level a roll adds, which
weight class the armor skill is) is a method; the dice themselves come from the tables
(:class:`bot.engine.untitled.tables.UntitledTables`) through :mod:`bot.engine.untitled.dice`.
The model is frozen and forbids unknown fields, like the other rulesets' sheets.

Sources: ``untitled-combat.txt`` — "the skill level the characters in-play have in their weapon,
armor and combat skills such as combat forms, defensive, parry and shield"; "Weapon or Weapon
Family skill"; "Combat Defense"; "the Combat Form the attacker is using"; "their skill level in
that armor"; "its maximum speed rating per move action"; "their Health pool" — and issue 13
("armor by weight class", light / medium / heavy). A skill missing from the sheet is untrained
(issue 13: "an untrained roll is 1d6 with no bonus").

Bounds, so that no sheet can make a roll or a computation expensive: levels 1–30, Health
1–10,000, meters 0–10,000, names ≤ 80 characters, at most 40 skills of a kind and 30 weapons.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bot import names
from bot.engine.untitled.terms import (
    TIERS,
    WEIGHT_CLASSES,
    Level,
    Meters,
    Reload,
    WeightClass,
)

__all__ = [
    "TIERS",
    "WEIGHT_CLASSES",
    "Armor",
    "ArmorSkills",
    "Shield",
    "Skill",
    "UntitledSheet",
    "Weapon",
]

Name = Annotated[str, names.validator(names.NAME_MAX)]
Health = Annotated[int, Field(ge=1, le=10_000)]
SKILLS_MAX = 40


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> _Frozen:
        # Immutable: a deep copy of an encounter shares its sheets instead of copying them.
        return self


class Skill(_Frozen):
    """A named skill and its level, 1–30 (a Weapon or Weapon Family — "Longbow", "Bows" —, a
    Combat Form, a shield skill)."""

    name: Name
    level: Level


class ArmorSkills(_Frozen):
    """Armor skill levels by weight class (issue 13: "armor by weight class"; the text: "their
    skill level in that armor", "a Novice in Light Armor"). None: untrained in that class."""

    light: Level | None = None
    medium: Level | None = None
    heavy: Level | None = None


class Weapon(_Frozen):
    """A weapon: the ``skill`` it is attacked with (a Weapon or Weapon Family skill on the
        sheet: "The 'To Hit' dice ... the skill level the character holds in their Weapon or Weapon
        Family skill"; one not on the sheet is untrained) and the ``form`` its damage uses (a
        Combat Form: "the dice associated with the Combat Form the attacker is using").

        ``kind`` ``melee`` reaches ``reach_m``; ``ranged`` shoots to ``range_m``. ``reload``: what
        reloading takes — a move action (the text's archer), a full-round action ("reloading a
        complex weapon") or nothing. ``hands``: 0–2. ``stowed``: the weapon starts a fight put away
    (the text's archer's bow "from off their back"; drawing it is a move action, or part of one)."""

    name: Name
    skill: Name
    form: Name
    kind: Literal["melee", "ranged"] = "melee"
    reach_m: Meters = 1
    range_m: Meters | None = None
    reload: Reload = "none"
    hands: Annotated[int, Field(ge=0, le=2)] = 1
    stowed: bool = False

    @model_validator(mode="after")
    def _range(self) -> Weapon:
        if self.kind == "ranged" and not self.range_m:
            raise ValueError(f"{self.name}: a ranged weapon gives range_m (more than 0)")
        if self.kind == "melee" and self.range_m is not None:
            raise ValueError(f"{self.name}: only a ranged weapon has range_m")
        return self


class Shield(_Frozen):
    """A shield and the shield skill it is used with ("the dice associated with their skill
    level in their chosen shield"); a skill not on the sheet is untrained."""

    name: Name
    skill: Name


class Armor(_Frozen):
    """The armor worn and its weight class: its wearer rolls the armor skill of that class
    ("the dice set associated with their skill level in that armor")."""

    name: Name
    weight: WeightClass


_N = TypeVar("_N", Skill, Weapon)


class UntitledSheet(_Frozen):
    """An Untitled character sheet (natural values only).

    ``health``: the Health pool's maximum ("deducted from their Health pool"). ``speed_m``:
    the speed rating, meters per move action ("move up-to its maximum speed rating per move
    action"; the text gives no number: the bot's default is 9 m). Skills: ``weapon_skills``
    (Weapon or Weapon Family), ``combat_forms``, ``combat_defense``, ``parry``,
    ``shield_skills``, ``armor_skills`` (by weight class); None or absent is untrained.
    ``weapons``; ``shield`` (carried, or None); ``armor`` (worn, or None).
    """

    system: Literal["untitled"] = "untitled"
    name: Name
    health: Health = 20
    speed_m: Meters = 9
    weapon_skills: tuple[Skill, ...] = Field(default=(), max_length=SKILLS_MAX)
    combat_forms: tuple[Skill, ...] = Field(default=(), max_length=SKILLS_MAX)
    combat_defense: Level | None = None
    parry: Level | None = None
    shield_skills: tuple[Skill, ...] = Field(default=(), max_length=SKILLS_MAX)
    armor_skills: ArmorSkills = Field(default_factory=ArmorSkills)
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=30)
    shield: Shield | None = None
    armor: Armor | None = None

    @model_validator(mode="before")
    @classmethod
    def _number_stored_duplicates(cls, data: Any, info: ValidationInfo) -> Any:
        """A stored sheet whose weapon or skill names became equal once normalised still
        loads: the later ones are numbered (``Bows 2``)."""
        if not names.is_stored(info):
            return data
        return names.number_stored_duplicates(
            data, ("weapons", "weapon_skills", "combat_forms", "shield_skills")
        )

    @model_validator(mode="after")
    def _unique(self) -> UntitledSheet:
        for field in ("weapons", "weapon_skills", "combat_forms", "shield_skills"):
            keys = [names.key(x.name) for x in getattr(self, field)]
            dupes = sorted({k for k in keys if keys.count(k) > 1})
            if dupes:
                raise ValueError(f"{field}: names must be unique: " + ", ".join(dupes))
        return self

    # --- levels -----------------------------------------------------------------------------

    def weapon(self, name: str) -> Weapon | None:
        """A weapon by name (compared by :func:`bot.names.key`)."""
        return _named(self.weapons, name)

    def weapon_skill(self, name: str) -> int | None:
        """The level of a Weapon or Weapon Family skill by name; None: untrained."""
        skill = _named(self.weapon_skills, name)
        return skill.level if skill else None

    def combat_form(self, name: str) -> int | None:
        """The level of a Combat Form by name; None: untrained."""
        skill = _named(self.combat_forms, name)
        return skill.level if skill else None

    def attack_level(self, weapon: Weapon) -> int | None:
        """The level an attack with ``weapon`` adds: its Weapon or Weapon Family skill's ("The
        'To Hit' dice and modifier ... the skill level the character holds in their Weapon or
        Weapon Family skill"). None: untrained."""
        return self.weapon_skill(weapon.skill)

    def damage_level(self, weapon: Weapon) -> int | None:
        """The level ``weapon``'s damage adds: its Combat Form's ("their skill level in that
        form added to the result"). None: untrained."""
        return self.combat_form(weapon.form)

    def defense_level(self) -> int | None:
        """The Combat Defense level ("the dice associated with their skill level in Combat
        Defense plus the skill level as a modifier"). None: untrained."""
        return self.combat_defense

    def shield_level(self) -> int | None:
        """The level of the carried shield's skill ("their skill level in their chosen
        shield"). None: untrained, or no shield (see :attr:`shield`)."""
        if self.shield is None:
            return None
        skill = _named(self.shield_skills, self.shield.skill)
        return skill.level if skill else None

    def armor_level(self) -> int | None:
        """The armor skill level of the worn armor's weight class ("their skill level in that
        armor"). None: no armor worn, or untrained in its class."""
        if self.armor is None:
            return None
        level: int | None = getattr(self.armor_skills, self.armor.weight)
        return level

    def skill_levels(self) -> dict[str, int]:
        """Every trained skill by its shown name ("Bows", "Combat Defense", "Light armor"), for
        a sheet's text and the ``/check`` choices."""
        out: dict[str, int] = {}
        for skill in (*self.weapon_skills, *self.combat_forms, *self.shield_skills):
            out[skill.name] = skill.level
        if self.combat_defense is not None:
            out["Combat Defense"] = self.combat_defense
        if self.parry is not None:
            out["Parry"] = self.parry
        for weight in WEIGHT_CLASSES:
            level = getattr(self.armor_skills, weight)
            if level is not None:
                out[f"{weight.title()} armor"] = level
        return out


def _named(items: tuple[_N, ...], name: str) -> _N | None:
    """The item called ``name`` (compared by :func:`bot.names.key`), or None."""
    folded = names.key(name)
    return next((x for x in items if names.key(x.name) == folded), None)
