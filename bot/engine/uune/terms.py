"""The words of Uune: difficulty names, bond kinds, wound and stress kinds, living conditions,
starting incomes, stealth levels, crowd sizes and attack ranges. Shared by the sheet
(:mod:`bot.engine.uune.sheet`), the tables (:mod:`bot.engine.uune.tables`), the dice and the
vitality rules.

Source: the Uune SRD (``uune-srd.txt`` in the team's ``shared/rules/`` folder); section names
below are its headings.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

BondKind = Literal["motivation", "objection", "flaw"]
""""Bonds": MOTIVATION, OBJECTION or FLAW."""
WoundKind = Literal["lethal", "heavy", "light"]
""""Wounds", heaviest first."""
WOUND_KINDS: tuple[WoundKind, ...] = ("lethal", "heavy", "light")
StressKind = Literal["traumatic", "heavy", "light"]
""""Stress", heaviest first."""
STRESS_KINDS: tuple[StressKind, ...] = ("traumatic", "heavy", "light")
Living = Literal["luxurious", "comfortable", "sparse", "dire"]
""""Downtime": the living conditions."""
Income = Literal["destitute", "impoverished", "poor", "average", "well off", "rich"]
""""Level 1": the starting income choices."""
StealthLevel = Literal["observed", "hidden", "undetected"]
""""Stealth": the stealth levels."""
Crowd = Literal["one", "few", "group", "crowd"]
""""Stealth": +0 for one person, +1 for a few, +2 for a group, +3 for a crowd."""
Reach = Literal["melee", "ranged"]
""""NPCs and Statblocks": whether an attack is melee or ranged."""

FOCUS = "focus"
"""The resource name a proficiency point on focus uses ("Focus": "If you put a proficiency
point into your focus, your focus maximum increases by 1")."""
BASE_DIE = "action"
"""The label of the base action die ("Actions": "grab 1d6"); proficiency points may not go on
it ("Proficiency Points")."""

Difficulty = Annotated[int, Field(ge=0, le=10)]
"""Required hits on the ladder ("Actions": No Roll 0 … Impossible 10)."""
Text = Annotated[str, Field(max_length=500)]
"""Free words (a bond, a special item's rule, an incentive): at most 500 characters."""
