"""Utopia's live state: the combatant (its sheet snapshot, SHP, DHP — which may go below 0 —,
Stamina, Aim and Take Cover), the decision a damage roll opens (Block, Dodge or Take Cover,
``utopia-actions.txt`` "Block", "Dodge", "Take Cover") and the encounter state.

The action pools (TA, IA, held IA) live in ``CombatantBase.pools`` and change only through the
economy (:class:`bot.engine.utopia.core.SheetActions`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.decisions import DecisionBase
from bot.engine.core.effects import Effect
from bot.engine.core.state import CombatantBase, EncounterState
from bot.engine.utopia.sheet import UtopiaSheet
from bot.engine.utopia.terms import DamageType

DOWN = "Down"
"""The bot's default (the text is silent): a creature whose DHP fell to 0 or below is out of
the fight until the GM raises its DHP (``docs/rules/utopia.md``)."""
OUT: tuple[str, ...] = (DOWN,)
CONDITIONS: tuple[str, ...] = (DOWN,)
VITAL_MIN, VITAL_MAX = -100_000, 100_000
"""What a vital (SHP, DHP, Stamina) of a combatant or a campaign record holds: DHP may go
negative, never below ``VITAL_MIN`` (a state or record past it could not be read back)."""
Vital = Annotated[int, Field(ge=VITAL_MIN, le=VITAL_MAX)]


AssistForm = Literal["test", "leap", "grapple"]


class Pledge(BaseModel):
    """An Assist pledged to a creature ("Assist"): ``helper`` aids its next ``form`` action
    (a test, a Leap, a Grapple) before the end of its next turn
    (:mod:`bot.engine.utopia.assist`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    helper: Annotated[str, Field(max_length=12)]
    form: AssistForm


class UtopiaCombatant(CombatantBase):
    """A Utopia creature in a fight. ``shp``/``dhp``/``stamina``: what is left (``dhp`` may go
    negative; "damage beyond SHP spills into DHP"). ``aim``: favor waiting for its next ranged
    attack ("Aim"; lost by any other action). ``cover``: it took cover this turn ("Take Cover":
    Block and Dodge Ratings doubled for the rest of the turn). ``open_guard``: it paid an attack
    with interrupt actions and "cannot defend, until it's the next creature's turn"
    ("Interchanging Actions"). ``grappled_by``: the creature grappling it ("Grapple"; the
    hold lasts while that creature is in the fight and not Down). ``escape_turn``: the
    ``turn_seq`` of its last attempt to break free ("up to once per turn"). ``run_up_m``:
    meters of Travel taken since its last other paid action ("Leap": "at least 2 meters of
    travel directly prior"). ``sheathed``: its weapons put away (the bot's default: every
    weapon starts drawn); ``worn``: the names of the armor it wears (None: as the sheet says)
    ("Equipment Actions"). ``scaling``: the creature it has climbed onto ("Scale"; it lasts while
    that creature is in the fight and not Down); ``shake_turn``: the ``turn_seq`` of its last
    attempt to shake a scaler off. ``gm_favor_next``/``gm_favor_every``: the GM's favor
    (negative: disfavor) on its next test / on every test until removed (``/gm advantage``,
    :mod:`bot.engine.utopia.checks`). ``hidden_from``: the creatures that have not noticed it
    since its last Stealth ("Stealth", :mod:`bot.engine.utopia.stealth`). ``pledges``: the
    Assists pledged to it, waiting for its next matching action ("Assist")."""

    sheet: UtopiaSheet
    shp: Vital
    dhp: Vital
    stamina: Vital
    aim: Annotated[int, Field(ge=0, le=10)] = 0
    cover: bool = False
    open_guard: bool = False
    grappled_by: Annotated[str, Field(max_length=12)] | None = None
    escape_turn: Annotated[int, Field(ge=0)] | None = None
    run_up_m: Annotated[float, Field(ge=0, le=100_000)] = 0
    scaling: Annotated[str, Field(max_length=12)] | None = None
    shake_turn: Annotated[int, Field(ge=0)] | None = None
    sheathed: tuple[Annotated[str, Field(max_length=100)], ...] = Field(default=(), max_length=30)
    worn: tuple[Annotated[str, Field(max_length=100)], ...] | None = Field(
        default=None, max_length=20
    )
    gm_favor_next: Annotated[int, Field(ge=-10, le=10)] = 0
    gm_favor_every: Annotated[int, Field(ge=-10, le=10)] = 0
    hidden_from: tuple[Annotated[str, Field(max_length=12)], ...] = Field(
        default=(), max_length=100
    )
    pledges: tuple[Pledge, ...] = Field(default=(), max_length=60)

    def wears(self) -> set[str]:
        """The names of the armor it wears now (``worn``, else the sheet's ``worn`` flags)."""
        if self.worn is not None:
            return set(self.worn)
        return {a.name for a in self.sheet.armor if a.worn}


class DamageDecision(DecisionBase):
    """Damage rolled against ``target`` and waiting for its defense (stage ``after_damage``):
    Block, Dodge, Take Cover, or none ("Block", "Dodge", "Take Cover"). ``damage`` is what it
    would take after its defenses; ``source`` the weapon (or "weaponless attack"). A creature
    blocks or dodges one source once: after Take Cover a new decision opens with
    ``covered`` set, offering Block and Dodge only."""

    kind: Literal["damage"] = "damage"
    stage: Literal["reaction", "before_roll", "after_roll", "after_damage"] = "after_damage"
    attacker: str
    target: str
    source: str
    damage_type: DamageType
    rolled: int = Field(ge=0)
    damage: int = Field(ge=0)
    ignores_shp: bool = False
    covered: bool = False


class AssistDecision(DecisionBase):
    """A Block or Dodge chosen against ``hit`` (its own decision settled, the cost paid) and
    waiting for allies within 1 m to Assist ("Assist": "spend an interrupt action to add 1d4 to
    a blocking creature's Block Rating or 1d12 to a dodging creature's Dodge Rating, any number
    of times per event"). ``defense``: ``block`` or ``dodge``; ``assists``: helper id → the
    interrupt actions it spent (one die each). The defender's "Roll now" — or the window
    running out — rolls it (:mod:`bot.engine.utopia.assist_defense`)."""

    kind: Literal["assist"] = "assist"
    stage: Literal["reaction", "before_roll", "after_roll", "after_damage"] = "after_damage"
    hit: DamageDecision
    defense: Literal["block", "dodge"]
    assists: dict[Annotated[str, Field(max_length=12)], Annotated[int, Field(ge=1, le=100)]] = (
        Field(default_factory=dict, max_length=50)
    )


UtopiaDecision = Annotated[DamageDecision | AssistDecision, Field(discriminator="kind")]
"""What a Utopia fight can wait on: damage waiting for a defense, or a defense for Assists."""


def hit_of(p: DamageDecision | AssistDecision) -> DamageDecision:
    """The damage a decision is about (an Assist decision's is the hit it defends against)."""
    return p.hit if isinstance(p, AssistDecision) else p


class UtopiaRecord(BaseModel):
    """A Utopia character's state between fights (campaign record): SHP, DHP and Stamina left
    (None: full, as the sheet says) and the effects that outlast a fight."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    shp: Vital | None = None
    dhp: Vital | None = None
    stamina: Vital | None = None
    effects: tuple[Effect, ...] = ()


UtopiaState = EncounterState[UtopiaCombatant, UtopiaDecision]


def record_of(c: Any) -> UtopiaRecord:
    """What of ``c`` outlasts the fight: its vitals and the effects lasting beyond a scene."""
    keep = tuple(e for e in c.effects if e.scope in ("day", "quest", "arc", "campaign"))
    return UtopiaRecord(shp=c.shp, dhp=c.dhp, stamina=c.stamina, effects=keep)
