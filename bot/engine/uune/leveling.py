"""Leveling up (Uune SRD "Leveling": "Whenever the player characters reach a story milestone,
as determined by the facilitator, they will level up. Whenever you level up, increase your
characters level on their sheet and add additional items as dictated by the table below").

The table is read as totals per level (``docs/rules/uune.md``, "The leveling table: the bot's
reading"; ``leveling`` in ``data/uune/tables.json``): what a level-up gives is the next row
less the current one. The sheet's level rises; the player then places what it gained (a
shtick point, a proficiency point, an experience, a bond) by editing the sheet, which the
level rules check against the new row (:func:`bot.engine.uune.sheet.level_problems`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot import names
from bot.engine.uune.commands import LevelUp
from bot.engine.uune.core import Tx
from bot.engine.uune.sheet import UuneSheet
from bot.engine.uune.tables import UuneTables
from bot.errors import RuleViolation

GAINED = (
    ("shtick_points", "shtick point"),
    ("experiences", "experience"),
    ("proficiency_points", "proficiency point"),
    ("bonds", "bond"),
)


class LevelGains(BaseModel):
    """What reaching ``level`` adds: the leveling row's totals less the previous row's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    level: int
    shtick_points: int = 0
    experiences: int = 0
    proficiency_points: int = 0
    bonds: int = 0

    def words(self) -> str:
        """ "1 shtick point, 1 experience" (or "nothing new to place")."""
        parts = []
        for field, noun in GAINED:
            n = int(getattr(self, field))
            if n:
                parts.append(f"{n} {noun}" + ("s" if n > 1 else ""))
        return ", ".join(parts) or "nothing new to place"


def level_up(sheet: UuneSheet, tables: UuneTables) -> tuple[UuneSheet, LevelGains]:
    """``sheet`` one level higher and what the level gives. Raises :class:`RuleViolation` at
    the top of the leveling table."""
    if sheet.level >= len(tables.leveling):
        raise RuleViolation(
            f"{names.escaped(sheet.name)} is level {sheet.level}: the leveling table stops at "
            f"{len(tables.leveling)}."
        )
    before, after = tables.level(sheet.level), tables.level(sheet.level + 1)
    gains = LevelGains(
        level=sheet.level + 1,
        **{f: int(getattr(after, f)) - int(getattr(before, f)) for f, _ in GAINED},
    )
    # The next row's totals are never below this one's (maxima only grow), so the sheet stays
    # valid: no re-validation needed.
    return sheet.model_copy(update={"level": sheet.level + 1}), gains


def level_up_command(tx: Tx, cmd: LevelUp) -> None:
    """The GM levels a PC up at a story milestone: its sheet's level rises and the note says
    what it gained to place."""
    c = tx.view(cmd.target)
    if not isinstance(c.sheet, UuneSheet):
        raise RuleViolation(f"{names.escaped(c.name)} is an NPC: statblocks have no level.")
    sheet, gains = level_up(c.sheet, tx.tables)
    tx.c(c.id).sheet = sheet
    tx.note(f"{c.name} reaches level {gains.level}: {gains.words()} to place on the sheet.", c.id)
