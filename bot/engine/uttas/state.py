"""The UTTAS encounter state: its combatant (sheet snapshot and live fields beside the core's)
and its pending decision, an attack waiting for a reaction (``uttas-gameplay.txt``).

:class:`UttasState` is ``EncounterState[Combatant, PendingAttack]``; JSON stored by earlier
versions (one flat combatant document) loads unchanged.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from bot.engine.core.decisions import DecisionBase
from bot.engine.core.state import CombatantBase, EncounterState, Name, with_fields
from bot.engine.uttas.sheet import UttasSheet

DEAD, UNCONSCIOUS, STUNNED, STAGGERED = "Dead", "Unconscious", "Stunned", "Staggered"
PRONE, GRAPPLED, GRAPPLING, DISABLED = "Prone", "Grappled", "Grappling", "Disabled limb"
SURRENDERED, SPRINTING, HIDDEN = "Surrendered", "Sprinting", "Hidden"
BASE_CONDITIONS = (
    DEAD,
    UNCONSCIOUS,
    STUNNED,
    STAGGERED,
    PRONE,
    GRAPPLED,
    GRAPPLING,
    DISABLED,
    SURRENDERED,
    SPRINTING,
    HIDDEN,
)
OUT = (DEAD, UNCONSCIOUS, SURRENDERED)


class DisabledLimb(BaseModel):
    """A disabled limb (UTTAS "Disabled Limb"). ``source``: ``grapple`` (until the hold breaks) or
    ``injury`` (until Health is back to ``restore_at_health``)."""

    model_config = ConfigDict(extra="forbid")

    limb: str
    source: Literal["grapple", "injury"]
    restore_at_health: int | None = None


class HealedToday(BaseModel):
    """Health a creature regained on in-game day ``day`` (``game_time_s`` ÷ 86 400) from Heal
    powers (``power``) and the best First Aid check (``first_aid``) — UTTAS "Healing": their
    limits stack, First Aid checks overlap."""

    model_config = ConfigDict(extra="forbid")

    day: int = 0
    power: int = Field(default=0, ge=0)
    first_aid: int = Field(default=0, ge=0)


class MaintainedPower(BaseModel):
    """A maintained power and the Stamina it holds (UTTAS "Activating Powers")."""

    model_config = ConfigDict(extra="forbid")

    power: Name
    stamina_held: int


class Readied(BaseModel):
    """A readied action waiting for its trigger (UTTAS "Ready an Action").

    ``trigger``: ``action`` (after ``watch`` completes an action), ``movement`` (interrupts
    ``watch``'s movement), ``coordinated`` (strike with ally ``watch`` at the same instant, using
    ``attack`` against ``target``). ``plan`` is the player's free-text description.
    """

    model_config = ConfigDict(extra="forbid")

    trigger: Literal["action", "movement", "coordinated"]
    watch: str
    plan: str = ""
    attack: Name | None = None
    target: str | None = None
    round: int = 0


class SkillInProgress(BaseModel):
    """A skill that takes more than one turn, begun and not yet complete (UTTAS "Perform a
    skill"; :mod:`bot.engine.uttas.skills_long`): ``turns`` allotted, ``done`` spent on it so
    far (the starting turn counts), the check's ``difficulty`` and the GM's boons."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    skill: Name
    turns: int = Field(ge=2, le=100)
    done: int = Field(default=1, ge=1, le=100)
    difficulty: int | None = None
    advantage: int = 0
    disadvantage: int = 0


class Combatant(CombatantBase):
    """One fighter: identity, sheet snapshot and live combat status.

    ``stamina_damage`` is the Stamina lost to damage and not yet recovered: how hurt the
    combatant looks (Stamina spent on its own actions does not show). ``pools`` holds the
    action economy's pools (UTTAS: ``{"speed": n}``, the actions left this
    round). ``conditions`` lists condition names (see ``Ruleset.conditions()``). Turn-scoped
    fields reset at the start of each of the combatant's turns. Health and Stamina are current
    values (Stamina may go negative while Unconscious).
    """

    sheet: UttasSheet
    health: int
    stamina: int
    stamina_damage: int = 0
    stamina_held: int = 0
    stance: Name | None = None
    disabled_limbs: list[DisabledLimb] = Field(default_factory=list)
    grappled_by: str | None = None
    grappling: str | None = None
    characteristic_mods: dict[str, int] = Field(default_factory=dict)
    breather_uses: int = 0
    breathing: bool = False
    maintained: list[MaintainedPower] = Field(default_factory=list)
    readied: Readied | None = None
    stealth: int | None = None
    """While Hidden: the Stealth total a seeker must beat (None: hidden by the GM, no roll)."""
    skill_in_progress: SkillInProgress | None = None
    # turn-scoped
    free_stance_available: bool = False
    half_move_used: dict[str, float] = Field(default_factory=dict)
    moved_this_turn: bool = False
    movement_ended: bool = False
    healed: HealedToday = Field(default_factory=HealedToday)
    # round-scoped: words spoken (UTTAS "Talk": 25 words per 6 seconds) in round ``words_round``
    words_said: int = 0
    words_round: int = 0
    acrobatics_tried: bool = False
    # rest bookkeeping, in in-game seconds (EncounterState.game_time_s)
    short_rests_at: list[int] = Field(default_factory=list)
    long_rest_at: int | None = None
    # Game Master adjustments: net Advantage dice (negative: Disadvantage) on the next Accuracy
    # or skill roll only, and on every one until removed.
    gm_next_roll: int = 0
    gm_every_roll: int = 0
    # issue 11, "Items": what each arm holds (arm → weapon or item name; a two-handed weapon
    # under both), what a disabled arm dropped (until drawn again) and the uses spent of each
    # limited item (item name → uses; kept in the campaign record). See items.py.
    holding: dict[str, Name] = Field(default_factory=dict)
    dropped: list[Name] = Field(default_factory=list)
    item_uses: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _hands_at_the_start(cls, data: Any, info: ValidationInfo) -> Any:
        """A combatant made without ``holding`` — a new one, or one stored before items —
        holds its sheet's starting weapons (:meth:`UttasSheet.starting_hands`) in the arms
        that work."""
        if not isinstance(data, dict) or "holding" in data or "sheet" not in data:
            return data
        sheet = data["sheet"]
        if not isinstance(sheet, UttasSheet):
            sheet = UttasSheet.model_validate(sheet, context=info.context)
        off = {d["limb"] if isinstance(d, dict) else d.limb for d in data.get("disabled_limbs", ())}
        return {**data, "sheet": sheet, "holding": sheet.starting_hands(off)}

    @property
    def actions_left(self) -> int:
        """Actions left in the Speed pool this round (UTTAS "Actions and Speed")."""
        return self.pools.get("speed", 0)

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Stored before effects: a sprint (``sprinting``) lasted until the sprinter's next
        turn; its Sprinting condition becomes an effect that ends then."""
        sprinting = data.pop("sprinting", False)
        data = super().upgrade(data)
        if sprinting:
            data["effects"] = [
                {**e, "ends": {"moment": "turn_start", "of": data.get("id")}}
                if e.get("name") == SPRINTING
                else e
                for e in data["effects"]
            ]
        return data

    def clone(self) -> Combatant:
        """A copy safe to change: containers copied, the frozen sheet shared."""
        # One dict for the copy (every changed combatant is cloned: the hot path): the
        # containers of CombatantBase.clone (pools, effects) and this class's, each copied as
        # dict(…) and list(…) do (tests/engine/test_built_models.py checks that none is shared).
        d = self.__dict__
        limbs = d["disabled_limbs"]
        return with_fields(
            self,
            {
                **d,
                "pools": {**d["pools"]},
                "effects": [*d["effects"]],
                "disabled_limbs": [x.model_copy() for x in limbs] if limbs else [],
                "characteristic_mods": {**d["characteristic_mods"]},
                "maintained": [*d["maintained"]],
                "half_move_used": {**d["half_move_used"]},
                "short_rests_at": [*d["short_rests_at"]],
                "holding": {**d["holding"]},
                "dropped": [*d["dropped"]],
                "item_uses": {**d["item_uses"]},
            },
        )


class PendingAttack(DecisionBase):
    """An attack waiting for a decision (UTTAS "Perform a Reaction command", "Surrender").

    ``awaiting``: ``reaction`` — the target (or an ally, to take one for the team) chooses;
    ``attacker`` — the target surrendered and the attacker chooses to complete or stop.
    ``hit_index``/``hits_total``: which hit of a multi-hit attack this is. ``joint``: allies
    (id → attack name) whose readied coordinated attacks land at the same instant.
    ``spent_out``: paying for it took the attacker's last Stamina — it still completes ("Stamina
    Costs": Stamina is consumed "to complete the action"), then the attacker is out.
    ``id``, ``created_at`` and ``marker`` as every decision has
    (:class:`~bot.engine.core.decisions.DecisionBase`).
    """

    model_config = ConfigDict(extra="forbid")

    attacker: str
    target: str
    attack: Name
    range_m: float = 2
    hidden: bool = False
    advantage: int = 0
    disadvantage: int = 0
    aimed_limb: str | None = None
    limbs: list[str] = Field(default_factory=list)
    hit_index: int = 1
    hits_total: int = 1
    joint: dict[str, Name] = Field(default_factory=dict)
    awaiting: Literal["reaction", "attacker"] = "reaction"
    kind: str = "attack"
    on_turn: bool = True
    spent_out: bool = False


CHASE_MARKS_KEPT = 30


class ChaseMark(BaseModel):
    """How far each pursuer was from the quarry in round ``round`` (meters; None: unknown)."""

    model_config = ConfigDict(extra="forbid")

    round: int
    gaps: dict[str, float | None]


class Chase(BaseModel):
    """A chase scene (UTTAS "Chase Scenes"): ``pursuers`` chase ``quarry`` since round
    ``since_round``; ``marks`` keep the gap of each round (the last :data:`CHASE_MARKS_KEPT`)."""

    model_config = ConfigDict(extra="forbid")

    quarry: str
    pursuers: list[str]
    since_round: int
    marks: list[ChaseMark] = Field(default_factory=list)


class UttasState(EncounterState[Combatant, PendingAttack]):
    """A UTTAS encounter. ``chase``: the chase scene running, if any."""

    chase: Chase | None = None
