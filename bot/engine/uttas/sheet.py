"""The UTTAS character sheet: what a player writes down, validated with hard bounds.

Only *natural* values live here; everything the rules derive (Dodge, Discipline, characteristic
dice, Accuracy) is computed from the sheet and the GM's tables (:mod:`bot.engine.uttas.tables`),
so nobody types a derived value twice. The model is frozen: an encounter keeps a snapshot, and
the live state (current Health/Stamina, conditions, …) lives on the combatant instead.

Every number is bounded so that no sheet can make a roll or a computation expensive: characteristics
0–100, dice counts 0–100, Speed 1–20, Health/Stamina 1–10,000, meters 0–10,000, names ≤ 80 chars.

Every name on a sheet (the sheet's own, weapons, powers, martial arts, stances, skills, extra
limbs, the conditions a power inflicts, damage types) is normalised by :mod:`bot.names`: typed
input with control characters or blank names is refused; a sheet read back from storage
(validated with ``context=bot.names.STORED``) is normalised without refusing, and weapon, power,
martial-art and item names that became equal get a number (``Club``, ``Club 2``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    model_validator,
)

from bot import names

Name = Annotated[str, names.validator(names.NAME_MAX)]
DamageType = Annotated[str, names.validator(30, lower=True)]
Characteristic = Literal[
    "agility", "body", "charisma", "dexterity", "ego", "intelligence", "strength"
]
CHARACTERISTICS: tuple[Characteristic, ...] = (
    "agility",
    "body",
    "charisma",
    "dexterity",
    "ego",
    "intelligence",
    "strength",
)
MovementMode = Literal["run", "leap", "swim", "fly", "warp"]
MOVEMENT_MODES: tuple[MovementMode, ...] = ("run", "leap", "swim", "fly", "warp")
Target = Literal["dodge", "discipline"]

CharValue = Annotated[int, Field(ge=0, le=100)]
DiceCount = Annotated[int, Field(ge=0, le=100)]
Meters = Annotated[float, Field(ge=0, le=10_000)]
ArmorValue = Annotated[int, Field(ge=0, le=100)]
DefenseValue = Annotated[int, Field(ge=0, le=1000)]
Bonus = Annotated[int, Field(ge=-50, le=50)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> _Frozen:
        # Immutable: a deep copy of an encounter shares its sheets instead of copying them.
        return self


class Movement(_Frozen):
    """Movement speeds in meters per full move (UTTAS "Moving"). 0 = cannot move that way."""

    run: Meters = 10
    leap: Meters = 0
    swim: Meters = 0
    fly: Meters = 0
    warp: Meters = 0


class Weapon(_Frozen):
    """A weapon (UTTAS "Stamina Costs", "Damage").

    ``kind``: ``melee`` and ``thrown`` add the wielder's Strength dice to ``damage_dice`` and cost
    1 Stamina per Strength die; ``mechanical`` (bows, guns) uses ``damage_dice`` only.
    ``required_strength`` adds 1 Stamina per 5 points. ``range_m`` is the normal range in meters
    (melee: reach). ``max_hits`` > 1 lets one attack hit several times, one action per hit.
    ``light`` weapons may be used while grappling (UTTAS "Grappled").
    """

    name: Name
    kind: Literal["melee", "thrown", "mechanical"] = "melee"
    damage_dice: DiceCount = 0
    damage_type: DamageType = "physical"
    required_strength: CharValue = 0
    range_m: Meters = 2
    hands: Annotated[int, Field(ge=0, le=4)] = 1
    max_hits: Annotated[int, Field(ge=1, le=10)] = 1
    light: bool = False


PowerEffect = Literal["aid", "drain", "barrier", "invisibility"]
HELPFUL: tuple[str, ...] = ("aid", "barrier", "invisibility")
"""Power effects that do not adversely affect a character (no Accuracy roll)."""


class Power(_Frozen):
    """A power (UTTAS "Activating Powers", "Accuracy Checks").

    Costs 1 Stamina per 5 ``active_points``; a ``maintained`` power costs double and that Stamina
    is held while it is maintained. ``targets`` is the defence the Accuracy roll is compared with
    (``None``: not an attack, no Accuracy roll). ``movement_mode``: a movement power for that mode.
    ``triggered``: may be used as a Counterattack reaction. ``limitations``: Gestures/Incantation
    (UTTAS "Disabled Limb", "Grappled"). ``inflicts``: conditions a hit applies (e.g. Prone,
    Entangled). ``heals``: a Heal power ("Healing"): activated on a target, it restores Health
    (amount and daily limit: the tables' ``healing``). ``effect``: what a power that is not
    only damage does (:mod:`bot.engine.uttas.power_effects`): ``aid`` raises ``characteristic``
    of its target, ``drain`` lowers it (an attack: it needs an Accuracy roll), ``barrier``
    bars its target's way, ``invisibility`` hides its user.
    """

    name: Name
    active_points: Annotated[int, Field(ge=0, le=1000)]
    key_characteristic: Characteristic = "ego"
    targets: Target | None = "dodge"
    damage_type: DamageType = "energy"
    damage_dice: DiceCount = 0
    maintained: bool = False
    range_m: Meters = 10
    movement_mode: MovementMode | None = None
    triggered: bool = False
    limitations: tuple[Literal["gestures", "incantation"], ...] = ()
    inflicts: tuple[Name, ...] = ()
    max_hits: Annotated[int, Field(ge=1, le=10)] = 1
    heals: bool = False
    effect: PowerEffect | None = None
    characteristic: Characteristic | None = None

    @model_validator(mode="before")
    @classmethod
    def _helpful_powers_are_not_attacks(cls, data: Any) -> Any:
        """Aid, Barrier and Invisibility are not attacks: with no ``targets`` given they make
        no Accuracy roll (the default ``targets`` is for attack powers)."""
        if isinstance(data, dict) and data.get("effect") in HELPFUL and "targets" not in data:
            return {**data, "targets": None}
        return data

    @model_validator(mode="after")
    def _adverse_powers_roll_accuracy(self, info: ValidationInfo) -> Power:
        """UTTAS "Accuracy Checks": "every power adversely affecting another character requires
        an Accuracy roll" — a power that deals damage, inflicts a condition or drains needs
        ``targets``; Aid and Drain name the ``characteristic`` they change. Sheets already stored
        load as they are."""
        if self.effect in ("aid", "drain") and self.characteristic is None:
            raise ValueError(f"{self.name}: an {self.effect} power names its `characteristic`")
        adverse = self.damage_dice > 0 or bool(self.inflicts) or self.effect == "drain"
        if adverse and self.targets is None and not names.is_stored(info):
            raise ValueError(
                f"{self.name} adversely affects its target, so it needs an Accuracy roll: give "
                "it `targets` (dodge or discipline)"
            )
        if self.effect in HELPFUL and self.targets is not None:
            raise ValueError(
                f"{self.name}: an {self.effect} power is not an attack (`targets`: null)"
            )
        return self

    @model_validator(mode="before")
    @classmethod
    def _the_heal_power(cls, data: Any) -> Any:
        """The text's "Heal power": a power named Heal that is not an attack heals unless the
        sheet says otherwise (so sheets written before ``heals`` existed, and those stored in
        running fights, heal as they say)."""
        if (
            isinstance(data, dict)
            and "heals" not in data
            and str(data.get("name", "")).strip().casefold() == "heal"
            and "targets" in data
            and data["targets"] is None
        ):
            return {**data, "heals": True}
        return data


class MartialArt(_Frozen):
    """A Martial Arts maneuver bought with character points (UTTAS "Reactions").

    ``maneuver``: ``attack`` (used on your turn), ``block``/``evade``/``move`` (custom Defend
    reactions), ``counter`` (Counterattack reaction). ``bonus_dice`` add damage but no Stamina
    cost. ``dodge_bonus``/``armor_bonus``/``defense_bonus`` apply when used as a defence. ``grab``:
    usable inside a grapple. ``range_m``: a ranged martial art (an ``attack`` or ``counter``
    thrown or shot at range, in meters: its normal range for the range increments, UTTAS "Range
    Modifiers"); ``None`` (the default) is a melee technique with a 2 m reach. Its bonus dice
    add no Stamina either ("Stamina Costs": "Damage added through ranged Martial Arts do not add
    to the Stamina cost").
    """

    name: Name
    maneuver: Literal["attack", "block", "evade", "move", "counter"]
    key_characteristic: Characteristic = "strength"
    bonus_dice: DiceCount = 0
    damage_type: DamageType = "physical"
    dodge_bonus: Bonus = 0
    discipline_bonus: Bonus = 0
    armor_bonus: Bonus = 0
    defense_bonus: Bonus = 0
    grab: bool = False
    triggered: bool = False
    range_m: Annotated[float, Field(gt=0, le=10_000)] | None = None

    @model_validator(mode="after")
    def _range_for_strikes(self) -> MartialArt:
        """Only a strike (``attack`` or ``counter``) reaches at range; a defence has no range."""
        if self.range_m is not None and self.maneuver not in ("attack", "counter"):
            raise ValueError(
                f"range_m: only an attack or counter martial art is ranged, not a {self.maneuver}"
            )
        if self.range_m is not None and self.grab:
            raise ValueError("range_m: a Grab technique holds in melee; it cannot be ranged")
        return self


class ExtraLimb(_Frozen):
    """A limb from the Extra Limbs power; each extra arm lets a grapple hold one more limb."""

    name: Name
    is_arm: bool = True


class ItemEffect(_Frozen):
    """What using an item does that the bot applies itself: it restores ``restores`` (Health or
    Stamina) by ``dice`` d6 plus ``bonus`` (issue 11, "Items"; the text gives no item rules:
    ``docs/rules/uttas.md``). Health restored this way restores limbs like any healing."""

    restores: Literal["health", "stamina"]
    dice: DiceCount = 0
    bonus: Annotated[int, Field(ge=0, le=1000)] = 0

    @model_validator(mode="after")
    def _does_something(self) -> ItemEffect:
        if self.dice == 0 and self.bonus == 0:
            raise ValueError("an item's effect restores something: give dice or a bonus")
        return self


ItemText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)]


class Item(_Frozen):
    """An item carried on the sheet (UTTAS "Perform an action": "draws and uses an item").

    ``description``: what it is and does, in words (≤ 300 characters), shown when it is used.
    ``effect``: what the bot applies when it is used (None: the GM applies what the
    description says; using it shows the description as a note). ``uses``: how many times it
    can be used in all (None: unlimited); uses spent are kept in the character's campaign
    record, so raising ``uses`` restocks it. ``hands``: hands it takes to hold (0–2).
    """

    name: Name
    description: ItemText = ""
    effect: ItemEffect | None = None
    uses: Annotated[int, Field(ge=1, le=100)] | None = None
    hands: Annotated[int, Field(ge=0, le=2)] = 1


RIGHT_ARM, LEFT_ARM = "right arm", "left arm"


class UttasSheet(_Frozen):
    """An UTTAS character sheet (natural values only).

    Characteristics are 0–100; their dice are derived from the GM's table unless
    ``characteristic_dice`` overrides one (dice bought separately). ``speed`` is the number of
    actions per round. ``armor``/``defense`` map a damage type (lower case) to the reduction of
    Health/Stamina damage. ``dodge_bonus``/``discipline_bonus`` add to the derived values.
    ``skills`` map a skill name to its dice count; ``skill_turns`` the turns a skill takes when
    it takes more than one (UTTAS "Perform a skill": "If the Skill requires more than one turn,
    they begin initiating the skill and complete it after the allotted amount of time has
    passed"; :mod:`bot.engine.uttas.skills_long`), 2–100, each a skill of ``skills``.
    ``stances`` lists the stances the character knows (from the GM's stance table).
    ``items`` are what it carries to draw and use (:class:`Item`).
    """

    system: Literal["uttas"] = "uttas"
    name: Name
    agility: CharValue = 10
    body: CharValue = 10
    charisma: CharValue = 10
    dexterity: CharValue = 10
    ego: CharValue = 10
    intelligence: CharValue = 10
    strength: CharValue = 10
    characteristic_dice: dict[Characteristic, DiceCount] = Field(default_factory=dict)
    speed: Annotated[int, Field(ge=1, le=20)] = 4
    health: Annotated[int, Field(ge=1, le=10_000)] = 10
    stamina: Annotated[int, Field(ge=1, le=10_000)] = 20
    dodge_bonus: Bonus = 0
    discipline_bonus: Bonus = 0
    armor: dict[DamageType, ArmorValue] = Field(default_factory=dict)
    defense: dict[DamageType, DefenseValue] = Field(default_factory=dict)
    movement: Movement = Field(default_factory=Movement)
    stances: tuple[Name, ...] = ()
    weapons: tuple[Weapon, ...] = Field(default=(), max_length=30)
    powers: tuple[Power, ...] = Field(default=(), max_length=50)
    martial_arts: tuple[MartialArt, ...] = Field(default=(), max_length=30)
    skills: dict[Name, DiceCount] = Field(default_factory=dict, max_length=100)
    skill_turns: dict[Name, Annotated[int, Field(ge=2, le=100)]] = Field(
        default_factory=dict, max_length=100
    )
    extra_limbs: tuple[ExtraLimb, ...] = Field(default=(), max_length=8)
    items: tuple[Item, ...] = Field(default=(), max_length=30)

    @model_validator(mode="before")
    @classmethod
    def _number_stored_duplicates(cls, data: Any, info: ValidationInfo) -> Any:
        """A stored sheet whose weapon, power and martial-art names became equal once
        normalised still loads: the later ones are numbered (``Club 2``)."""
        if not names.is_stored(info):
            return data
        return names.number_stored_duplicates(data, ("weapons", "powers", "martial_arts", "items"))

    @model_validator(mode="after")
    def _unique_names(self) -> UttasSheet:
        keys = [names.key(w.name) for w in self.weapons]
        keys += [names.key(p.name) for p in self.powers]
        keys += [names.key(m.name) for m in self.martial_arts]
        keys += [names.key(i.name) for i in self.items]
        dupes = sorted({n for n in keys if keys.count(n) > 1})
        if dupes:
            raise ValueError(
                "weapon, power, martial-art and item names must be unique: " + ", ".join(dupes)
            )
        return self

    @model_validator(mode="after")
    def _turns_of_known_skills(self) -> UttasSheet:
        known = {names.key(s) for s in self.skills}
        unknown = sorted(s for s in self.skill_turns if names.key(s) not in known)
        if unknown:
            raise ValueError(
                "skill_turns names skills the sheet does not have: " + ", ".join(unknown)
            )
        return self

    def skill_turn_count(self, skill: str) -> int:
        """Turns ``skill`` takes (compared by :func:`bot.names.key`): 1 unless ``skill_turns``
        says more."""
        folded = names.key(skill)
        return next((n for s, n in self.skill_turns.items() if names.key(s) == folded), 1)

    def value(self, characteristic: Characteristic) -> int:
        """The natural value of a characteristic."""
        return int(getattr(self, characteristic))

    def skill_dice(self, skill: str) -> int | None:
        """Dice of a skill by name (compared by :func:`bot.names.key`), or None if the sheet
        lacks it."""
        folded = names.key(skill)
        for name, dice in self.skills.items():
            if names.key(name) == folded:
                return dice
        return None

    def power(self, name: str) -> Power | None:
        """A power by name (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return next((p for p in self.powers if names.key(p.name) == folded), None)

    def item(self, name: str) -> Item | None:
        """An item by name (compared by :func:`bot.names.key`)."""
        folded = names.key(name)
        return next((i for i in self.items if names.key(i.name) == folded), None)

    def arms(self) -> tuple[str, ...]:
        """The arms (hands) that can hold something, in the order a fighter fills them: right,
        left, then each extra arm from the Extra Limbs power (lower case, as limbs are named)."""
        extra = tuple(e.name.casefold() for e in self.extra_limbs if e.is_arm)
        return (RIGHT_ARM, LEFT_ARM, *extra)

    def starting_hands(self, disabled: Collection[str] = ()) -> dict[str, str]:
        """What a fighter holds when it joins a fight (issue 11, "Items"; a default the text
        does not give): its weapons that need hands, in sheet order, each in as many working
        arms as it needs while they last; a weapon that no longer fits is carried, not held.
        Items start put away. Returns arm → weapon name (a two-handed weapon under both)."""
        free = [arm for arm in self.arms() if arm not in disabled]
        held: dict[str, str] = {}
        for w in self.weapons:
            if w.hands and w.hands <= len(free):
                for arm in free[: w.hands]:
                    held[arm] = w.name
                free = free[w.hands :]
        return held

    def movement_power(self, mode: MovementMode) -> Power | None:
        """The power that grants or boosts ``mode``, if any (UTTAS "Stamina Costs")."""
        return next((p for p in self.powers if p.movement_mode == mode), None)
