"""Vitality, wounds and stress as pure functions on a small frozen model (:class:`Health`), and
the outcomes of the two special actions that deal wounds (Attack, Defend).

Sources (Uune SRD headings): "Vitality" (100 points; 0 is incapacitated), "Wounds" and "Stress"
(what each kind takes off maximum and current vitality; stabilising; the healing ladders),
"Downtime" (living conditions, 50 restored), "Effect: Bleeding" (10 a round), "Attack" and
"Defend". Every number comes from :class:`~bot.engine.uune.tables.UuneTables`.

The model holds what changes in play: current vitality, wound and stress counts, and how many
lethal and heavy wounds are not stabilised yet. Maximum vitality is derived:
``base − Σ max-effects of wounds and stress`` (never below 0), and current vitality never
exceeds it. Nothing here mutates: every function returns a new :class:`Health`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot import names
from bot.engine.uune.tables import UuneTables
from bot.engine.uune.terms import StressKind, WoundKind
from bot.errors import InvalidInput

COUNT_MAX = 100
"""The most wounds or stresses of one kind a creature's record counts (:data:`Count`)."""
Count = Annotated[int, Field(ge=0, le=COUNT_MAX)]
Points = Annotated[int, Field(ge=0, le=10_000)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> _Frozen:
        return self


class Wounds(_Frozen):
    """Wound counts by kind ("Wounds")."""

    lethal: Count = 0
    heavy: Count = 0
    light: Count = 0


class Stress(_Frozen):
    """Stress counts by kind ("Stress")."""

    traumatic: Count = 0
    heavy: Count = 0
    light: Count = 0


class Health(_Frozen):
    """A creature's vitality, wounds and stress.

    ``base``: maximum vitality with no wound or stress (the sheet's, 100 by default);
    ``current``: vitality now (None: the maximum); ``unstable_lethal``/``unstable_heavy``: how
    many of the lethal and heavy wounds are not stabilised yet (at most the counts)."""

    base: Annotated[int, Field(ge=1, le=10_000)] = 100
    current: Points | None = None
    wounds: Wounds = Field(default_factory=Wounds)
    stress: Stress = Field(default_factory=Stress)
    unstable_lethal: Count = 0
    unstable_heavy: Count = 0

    @model_validator(mode="after")
    def _unstable_within_counts(self) -> Health:
        if self.unstable_lethal > self.wounds.lethal or self.unstable_heavy > self.wounds.heavy:
            raise ValueError("unstable_lethal/unstable_heavy are at most the lethal/heavy wounds")
        return self

    def maximum(self, tables: UuneTables) -> int:
        """Maximum vitality: ``base`` less what each wound and stress takes off the maximum
        ("Wounds": lethal 100, heavy 50, light 10; "Stress": traumatic 100, heavy 50, light
        10), never below 0."""
        lost = sum(tables.wounds[k].max * int(getattr(self.wounds, k)) for k in tables.wounds)
        lost += sum(tables.stress[k].max * int(getattr(self.stress, k)) for k in tables.stress)
        return max(0, self.base - lost)

    def now(self, tables: UuneTables) -> int:
        """Current vitality, at most :meth:`maximum` ("current" None is the maximum)."""
        top = self.maximum(tables)
        return top if self.current is None else min(self.current, top)

    def incapacitated(self, tables: UuneTables) -> bool:
        """ "Vitality": "If your character has zero vitality, they become incapacitated and
        cannot take actions"."""
        return self.now(tables) <= 0

    def _with(self, tables: UuneTables, current: int, **changes: Any) -> Health:
        """``self`` with ``changes`` and vitality ``current`` (clamped to the new maximum). A
        count stops at :data:`COUNT_MAX` (a wound dealt in play, a heavy healing into four
        light): a copy is not validated, and a count the model refuses left a campaign record
        that could not be read back when the fight ended. The GM's own deal past it is
        refused by name (:func:`bot.engine.uune.conflict.take_harm`)."""
        moved = self.model_copy(update=changes)
        wounds = _capped(moved.wounds)
        moved = moved.model_copy(
            update={
                "wounds": wounds,
                "stress": _capped(moved.stress),
                "unstable_lethal": min(moved.unstable_lethal, wounds.lethal),
                "unstable_heavy": min(moved.unstable_heavy, wounds.heavy),
            }
        )
        top = moved.maximum(tables)
        return moved.model_copy(update={"current": max(0, min(current, top))})


_CountsT = TypeVar("_CountsT", Wounds, Stress)


def _capped(counts: _CountsT) -> _CountsT:
    """``counts`` with each kind at most :data:`COUNT_MAX`."""
    over = {k: COUNT_MAX for k, n in counts.model_dump().items() if n > COUNT_MAX}
    return counts.model_copy(update=over) if over else counts


def wound(health: Health, kind: WoundKind, tables: UuneTables) -> Health:
    """``health`` with one more wound of ``kind``: the maximum falls by the kind's ``max`` and
    current vitality by its ``current`` (light: both by 10; lethal 100 and heavy 50 off the
    maximum only), current clamped to the new maximum. A new lethal or heavy wound is not
    stabilised ("Lethal and heavy wounds will need to be stabilized")."""
    harm = tables.wounds[kind]
    counts = health.wounds.model_copy(update={kind: getattr(health.wounds, kind) + 1})
    unstable = {}
    if kind == "lethal":
        unstable["unstable_lethal"] = health.unstable_lethal + 1
    elif kind == "heavy":
        unstable["unstable_heavy"] = health.unstable_heavy + 1
    return health._with(tables, health.now(tables) - harm.current, wounds=counts, **unstable)


def stress(health: Health, kind: StressKind, tables: UuneTables) -> Health:
    """``health`` with one more stress of ``kind`` ("Stress": traumatic 100, heavy 50, light 10
    off both maximum and current vitality)."""
    harm = tables.stress[kind]
    counts = health.stress.model_copy(update={kind: getattr(health.stress, kind) + 1})
    return health._with(tables, health.now(tables) - harm.current, stress=counts)


def stabilise(health: Health) -> Health:
    """Every lethal and heavy wound stabilised ("will need to be stabilized by a medic or
    healer before they will mend"): the medic's action itself is the caller's."""
    return health.model_copy(update={"unstable_lethal": 0, "unstable_heavy": 0})


HealStep = Literal["lethal→heavy", "heavy→light", "light→none", "unstable", "none"]


def heal_wound(health: Health, tables: UuneTables) -> tuple[Health, HealStep]:
    """Heal the heaviest wound one step ("Wounds": lethal → heavy; heavy → 4 light
    (``tables.healing.heavy_to_light``); light → none). If the heaviest is a lethal or heavy
    wound not stabilised yet, nothing heals (``"unstable"``: only the heaviest heals, and it
    will not mend unstabilised). Current vitality does not rise (the maximum may)."""
    w = health.wounds
    now = health.now(tables)
    if w.lethal:
        if health.unstable_lethal >= w.lethal:
            return health, "unstable"
        counts = w.model_copy(update={"lethal": w.lethal - 1, "heavy": w.heavy + 1})
        return health._with(tables, now, wounds=counts), "lethal→heavy"
    if w.heavy:
        if health.unstable_heavy >= w.heavy:
            return health, "unstable"
        light = w.light + tables.healing.heavy_to_light
        counts = w.model_copy(update={"heavy": w.heavy - 1, "light": light})
        return health._with(tables, now, wounds=counts), "heavy→light"
    if w.light:
        counts = w.model_copy(update={"light": w.light - 1})
        return health._with(tables, now, wounds=counts), "light→none"
    return health, "none"


StressStep = Literal["traumatic→heavy", "heavy→light", "light→none", "none"]


def heal_stress(health: Health, tables: UuneTables) -> tuple[Health, StressStep]:
    """Heal the heaviest stress one step ("Stress": traumatic → heavy; heavy → 4 light; light →
    none). Current vitality does not rise."""
    s = health.stress
    now = health.now(tables)
    if s.traumatic:
        counts = s.model_copy(update={"traumatic": s.traumatic - 1, "heavy": s.heavy + 1})
        return health._with(tables, now, stress=counts), "traumatic→heavy"
    if s.heavy:
        light = s.light + tables.healing.heavy_to_light
        counts = s.model_copy(update={"heavy": s.heavy - 1, "light": light})
        return health._with(tables, now, stress=counts), "heavy→light"
    if s.light:
        counts = s.model_copy(update={"light": s.light - 1})
        return health._with(tables, now, stress=counts), "light→none"
    return health, "none"


def lose(health: Health, amount: int, tables: UuneTables) -> Health:
    """``amount`` vitality lost (Bleeding, an NPC's vitality spent), never below 0."""
    if amount < 0:
        raise InvalidInput("Vitality lost cannot be negative.")
    return health._with(tables, health.now(tables) - amount)


def restore(health: Health, amount: int, tables: UuneTables) -> Health:
    """``amount`` vitality regained, never above the maximum."""
    if amount < 0:
        raise InvalidInput("Vitality restored cannot be negative.")
    return health._with(tables, health.now(tables) + amount)


def spend(health: Health, amount: int, tables: UuneTables) -> Health:
    """Vitality spent by choice ("Vitality": 5 to reroll, 10 to bump). Raises
    :class:`InvalidInput` when the creature has less than ``amount``: a spend is paid in
    full or not at all."""
    have = health.now(tables)
    if amount > have:
        raise InvalidInput(f"That costs {amount} vitality; only {have} is left.")
    return lose(health, amount, tables)


def bleed(health: Health, tables: UuneTables, levels: int = 1) -> Health:
    """ "Effect: Bleeding": ``tables.bleeding.vitality`` (10) lost at the start of each round,
    per level."""
    return lose(health, tables.bleeding.vitality * max(0, levels), tables)


class DowntimeResult(_Frozen):
    """What a Downtime did: success, the hits needed, and the healing steps taken."""

    success: bool
    needed: int
    health: Health
    wound_step: HealStep = "none"
    stress_step: StressStep = "none"


def downtime(
    health: Health,
    hits: int,
    living: str,
    tables: UuneTables,
    *,
    a_day_passed: bool = True,
) -> DowntimeResult:
    """ "Downtime": ``hits`` against the living conditions' number (Luxurious 2, Comfortable 3,
    Sparse 4, Dire 5). On a success: ``tables.downtime.restore`` (50) vitality back, the
    heaviest stress heals a step ("After a successful downtime action") and, when
    ``a_day_passed``, the heaviest wound too ("After a day and a successful downtime action").
    Raises :class:`InvalidInput` for unknown living conditions."""
    needed = tables.downtime.living.get(living.strip().casefold())  # type: ignore[call-overload]
    if needed is None:
        known = ", ".join(tables.downtime.living)
        raise InvalidInput(f"Living conditions are one of {known}, not {names.quoted(living)}.")
    if hits < needed:
        return DowntimeResult(success=False, needed=needed, health=health)
    after, stress_step = heal_stress(health, tables)
    wound_step: HealStep = "none"
    if a_day_passed:
        after, wound_step = heal_wound(after, tables)
    after = restore(after, tables.downtime.restore, tables)
    return DowntimeResult(
        success=True, needed=needed, health=after, wound_step=wound_step, stress_step=stress_step
    )


AttackOutcome = Literal["lethal", "heavy", "light", "fail"]


def attack_outcome(hits: int, required: int) -> AttackOutcome:
    """ "Attack" against an NPC whose Defensiveness (plus any Impaired) is ``required``:
    double the required hits → lethal wound; meet it → heavy; miss by 1 → light; else fail.
    With ``required`` 0 the bot asks at least 1 hit for lethal (double of 0 is 0)."""
    if hits >= max(1, 2 * required):
        return "lethal"
    if hits >= required:
        return "heavy"
    if hits == required - 1:
        return "light"
    return "fail"


DefendOutcome = Literal["none", "light", "heavy", "lethal"]


def defend_outcome(hits: int, difficulty: int) -> DefendOutcome:
    """ "Defend" against an NPC attack of ``difficulty``: meet it → no wound (dodged or
    parried); otherwise no hits at all → lethal ("catastrophically fail"), short by 1 → light,
    short by more → heavy. Success is checked first, so a difficulty-0 attack is always
    avoided."""
    if hits >= difficulty:
        return "none"
    if hits == 0:
        return "lethal"
    if hits == difficulty - 1:
        return "light"
    return "heavy"
