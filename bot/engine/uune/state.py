"""Uune's live state: the combatant (a PC from its sheet, an NPC from its statblock; vitality,
wounds and stress as :class:`~bot.engine.uune.health.Health`, focus), the two decisions an
action roll waits on and the encounter state.

Sources (Uune SRD headings): "Conflict" (rounds; one action per turn), "Actions" (the GM names
the difficulty and approves resources; 1d6 + 1d6 per approved resource), "Focus" and
"Vitality" (spends before the roll is final), "Attack", "Defend", "NPCs and Statblocks".
The stages are the core's (:mod:`bot.engine.core.decisions`): approval ``before_roll``, spends
``after_roll``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot import names
from bot.engine.core.decisions import DecisionBase
from bot.engine.core.effects import Effect
from bot.engine.core.state import CombatantBase, EncounterState
from bot.engine.uune.dice import ActionRoll
from bot.engine.uune.health import Health
from bot.engine.uune.sheet import FOCUS_MAX, UuneSheet, UuneStatblock
from bot.engine.uune.tables import UuneTables

INCAPACITATED = "Incapacitated"
""" "Vitality": "If your character has zero vitality, they become incapacitated and cannot take
actions"."""
OUT: tuple[str, ...] = (INCAPACITATED,)
GRAPPLED, STUNNED, INTOXICATED = "Grappled", "Stunned", "Intoxicated"
IMPAIRED, BLEEDING, STIMULATED = "Impaired", "Bleeding", "Stimulated"
EFFECTS: tuple[str, ...] = (GRAPPLED, STUNNED, INTOXICATED, IMPAIRED, BLEEDING, STIMULATED)
""" "Effects": the common effects of the text ("Effect: Grappled" … "Effect: Stimulated"; the
text spells Impaired "Impared"), each with "Default scope: Scene"."""
CONDITIONS: tuple[str, ...] = (INCAPACITATED, *EFFECTS)
StealthLevel = Literal["observed", "hidden", "undetected"]
""" "Stealth": Observed (actively perceived), Hidden (presence known, not position),
Undetected (nobody knows you are here)."""
Ref = Annotated[str, Field(max_length=12)]
Label = Annotated[str, Field(min_length=1, max_length=names.NAME_MAX)]
"""A resource's or an NPC attack's name: as long as a sheet lets a name be."""
Purpose = Literal[
    "action", "attack", "defend", "stealth", "downtime", "insight", "observe", "stabilise", "bond"
]
"""What an action roll is for: a plain action (success or failure), an Attack on an NPC, the
Defend roll an NPC's attack asks of its target, or a special action that follows the roll's
rules (Stealth, Downtime, Insight, Observe) or stabilises another's wounds ("Wounds");
``bond``: a claim of focus for acting on a bond,
which the GM grants or refuses and which rolls nothing ("Bonds")."""


class UuneCombatant(CombatantBase):
    """A Uune combatant. ``sheet``: a PC's :class:`UuneSheet` or an NPC's
    :class:`UuneStatblock` (by its ``kind``); ``health``: vitality, wounds and stress;
    ``focus``: focus points now (a PC's; at most its maximum); ``standing``: resources the GM
    approved for the rest of the scene ("Actions": the bot's option of approving routine
    resources once, issue 14); ``stealth``: its stealth level ("Stealth"); ``centered`` and
    ``bond_focus``: whether it centered outside a conflict ("Center": "once per scene") and
    gained focus from a bond ("Bonds": "Once per scene") in this scene."""

    sheet: Annotated[UuneSheet | UuneStatblock, Field(discriminator="kind")]
    health: Health
    focus: Annotated[int, Field(ge=0, le=FOCUS_MAX)] = 0
    standing: tuple[Label, ...] = Field(default=(), max_length=50)
    stealth: StealthLevel = "observed"
    centered: bool = False
    bond_focus: bool = False

    def resource_names(self) -> list[str]:
        """A PC's resources (shticks, experiences, features, resource items); none for an
        NPC ("NPCs never roll")."""
        return self.sheet.resources() if isinstance(self.sheet, UuneSheet) else []


class Helper(BaseModel):
    """A PC helping the roll ("Help"): its id and the resources it proposes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    helper: Ref
    resources: tuple[Label, ...] = Field(default=(), max_length=20)


class ApprovalDecision(DecisionBase):
    """An action roll waiting for the GM (stage ``before_roll``): ``actor`` proposes
    ``proposed`` resources for ``action`` at ``difficulty`` on the ladder (None: not named
    yet); ``approved`` and ``refused`` hold the GM's answers so far; ``helpers`` the PCs
    helping. ``purpose``: ``attack`` rolls against ``target``'s Defensiveness; ``defend``
    against ``attacker``'s attack named ``attack``."""

    kind: Literal["approval"] = "approval"
    stage: Literal["reaction", "before_roll", "after_roll", "after_damage"] = "before_roll"
    actor: Ref
    action: Annotated[str, Field(min_length=1, max_length=100)]
    purpose: Purpose = "action"
    difficulty: Annotated[int, Field(ge=0, le=10)] | None = None
    target: Ref | None = None
    attacker: Ref | None = None
    attack: Label | None = None
    detail: Label | None = None
    """What a special action needs: Downtime's living conditions (``comfortable``, or
    ``comfortable;day`` when a day passed), Stealth's goal (``hidden``/``undetected``/
    ``keep``), Observe's what."""
    proposed: tuple[Label, ...] = Field(default=(), max_length=30)
    approved: tuple[Label, ...] = Field(default=(), max_length=30)
    refused: tuple[Label, ...] = Field(default=(), max_length=30)
    helpers: tuple[Helper, ...] = Field(default=(), max_length=5)

    def undecided(self) -> list[str]:
        """The proposed resources the GM has not answered yet."""
        done = {*self.approved, *self.refused}
        return [r for r in self.proposed if r not in done]


class SpendDecision(DecisionBase):
    """A rolled action waiting to become final (stage ``after_roll``): the ``roll`` may still
    change by the actor's focus and vitality spends ("Focus", "Vitality") and an NPC's forced
    reroll ("General NPC Guideines") until the actor keeps it or the window runs out. The
    other fields are the approval's (what the roll is for)."""

    kind: Literal["spend"] = "spend"
    stage: Literal["reaction", "before_roll", "after_roll", "after_damage"] = "after_roll"
    actor: Ref
    action: Annotated[str, Field(min_length=1, max_length=100)]
    purpose: Purpose = "action"
    roll: ActionRoll
    target: Ref | None = None
    attacker: Ref | None = None
    attack: Label | None = None
    detail: Label | None = None


UuneDecision = Annotated[ApprovalDecision | SpendDecision, Field(discriminator="kind")]
"""What a Uune fight can wait on: the GM's approval before a roll, or spends after it."""


class UuneRecord(BaseModel):
    """A Uune character's state between fights (campaign record): its health and focus (None:
    as the sheet says) and the effects that outlast a fight."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    health: Health | None = None
    focus: Annotated[int, Field(ge=0, le=FOCUS_MAX)] | None = None
    effects: tuple[Effect, ...] = ()


UuneState = EncounterState[UuneCombatant, UuneDecision]


OUTLASTING = ("day", "quest", "arc", "campaign")
"""The scopes of the effects a campaign record keeps ("Scopes and Scoped Mechanics": the
conflict's scene ends with the fight; a day, quest, arc or campaign goes on)."""


def record_of(c: Any, tables: UuneTables) -> UuneRecord:
    """What of ``c`` outlasts the fight: health, focus and the effects lasting beyond a scene.

    The record is ``c`` as its scene's end leaves it, so a character joining with it joins the
    same (the contract's round trip): the effects that end with the scene are gone, and focus
    above the maximum they leave falls to it ("Effect: Stimulated": a maximum raised for the
    scene does not outlast it, as when the effect ends in play)."""
    keep = tuple(e for e in c.effects if e.scope in OUTLASTING)
    focus = c.focus
    if isinstance(c.sheet, UuneSheet):
        stimulated = sum(e.level for e in keep if e.name == STIMULATED)
        focus = min(focus, c.sheet.focus_max(tables, stimulated))
    return UuneRecord(health=c.health, focus=focus, effects=keep)
