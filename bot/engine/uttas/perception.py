"""Checks against someone (issue 11, "opposed checks"): hiding with Stealth, seeking with
Perception or Tracking, and opposed checks in general.

The text names the pieces, not a procedure: "Characters can use skills such as Stealth ... to
hide" ("Chase Scenes"), the arsonist hides "rolling 6d6 for a score of 21" and Willow's
"Perception check ... scoring a 23" finds him ("Chase Scenes in Action"); "Characters can make
Accuracy and Perception checks against targets within the first range increment without
penalty", one increment beyond is a Disadvantage, two take 2d6 off, three fail ("Range
Modifiers"); and a character who "doesn't see the attack coming, ... because the attack's source
was hidden" cannot react ("Perform a Reaction command"). The numbers and names the bot chose are
the tables' ``checks`` (:class:`~bot.engine.uttas.tables.CheckRules`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import names
from bot.engine.core.dice import Roll
from bot.engine.uttas import rules
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import Checked
from bot.engine.uttas.state import HIDDEN, Combatant
from bot.errors import RuleViolation


@dataclass(frozen=True)
class Seeking:
    """A check aimed at ``target``: ``seek`` when the skill is a seeking one (range penalties
    apply), ``disadvantage`` from the range, ``distance_m`` when known."""

    target: Combatant
    seek: bool
    disadvantage: int
    distance_m: float | None


def _listed(skill: str, listed: tuple[str, ...]) -> bool:
    return names.key(skill) in {names.key(s) for s in listed}


def is_hiding_skill(tx: Tx, skill: str) -> bool:
    """Whether a check with ``skill`` hides the roller (``checks.hide_skills``)."""
    return _listed(skill, tx.tables.checks.hide_skills)


def aim(tx: Tx, c: Combatant, skill: str, target_id: str, range_m: float | None) -> Seeking:
    """Check that ``c`` may aim ``skill`` at ``target_id`` and what the range costs. Raises
    :class:`RuleViolation` for itself as the target, or a seeking check three increments or more
    beyond the viewing range (UTTAS "Range Modifiers": it "automatically fails" — nothing is
    spent on it)."""
    t = tx.view(target_id)
    if t.id == c.id:
        raise RuleViolation(f"{names.escaped(c.name)} cannot check against themselves.")
    seek = _listed(skill, tx.tables.checks.seek_skills)
    distance = range_m if range_m is not None else tx.state.positions.distance(c.id, t.id)
    beyond = 0
    if seek and distance is not None:
        beyond = rules.increments_beyond(distance, tx.tables.checks.view_range_m, tx.tables)
        if beyond >= tx.tables.range.auto_fail_at:
            raise RuleViolation(
                f"{names.escaped(t.name)} is {tx.scale.show(distance)} away, {beyond} range "
                "increments beyond "
                f"{names.escaped(c.name)}'s {tx.scale.show(tx.tables.checks.view_range_m)}: the "
                "check fails automatically."
            )
    per = tx.tables.range.disadvantage_per_increment
    return Seeking(target=t, seek=seek, disadvantage=beyond * per, distance_m=distance)


def range_words(tx: Tx, s: Seeking) -> str:
    """The range penalty in words (empty when none), in the board's unit."""
    if not s.disadvantage or s.distance_m is None:
        return ""
    return f" ({tx.scale.show(s.distance_m)} away: {s.disadvantage} Disadvantage)"


def hide(tx: Tx, c: Combatant, roll: Roll, success: bool | None) -> None:
    """A hiding check: unless it failed a difficulty, ``c`` is Hidden until the scene ends, a
    seeker beats its total, or it attacks; hiding again replaces the score."""
    if success is False:
        return
    m = tx.c(c.id)
    m.stealth = roll.total
    if c.has(HIDDEN):
        tx.note(f"{c.name} hides again.", c.id)
        return
    tx.gain(c.id, HIDDEN, "hid", f"Stealth {roll.total}", scope="scene")


def reveal(tx: Tx, c: Combatant, why: str) -> None:
    """``c`` is Hidden no more (found, or it gave itself away)."""
    if c.has(HIDDEN):
        tx.lose(c.id, HIDDEN, why)
        tx.c(c.id).stealth = None


def contest(tx: Tx, c: Combatant, skill: str, against: str | None, roll: Roll, s: Seeking) -> None:
    """Compare ``c``'s ``roll`` with the target: a seeking check against a Hidden target beats
    its Stealth score or not (found: it is no longer Hidden); any other check is opposed by the
    target's roll of ``against`` (default: the tables' ``checks.opposed`` skill, else the same
    skill; the sheet's dice, else ``checks.untrained_dice``). Ties go to the target."""
    t = s.target
    far = range_words(tx, s)
    if s.seek and t.has(HIDDEN):
        score = t.stealth or 0
        ok = roll.total > score
        verdict = f"finds {t.name}" if ok else f"{t.name} stays hidden"
        tx.emit(
            Checked(
                combatant=c.id,
                roll=roll,
                difficulty=None,
                against_score=score,
                opponent=t.id,
                success=ok,
                verdict=verdict,
                aside=far,
                text=f"{roll.text} vs {t.name}'s Stealth {score}{far}: {verdict}.",
            )
        )
        if ok:
            reveal(tx, t, f"found by {c.name}")
        return
    skill_against = against or _opposed_skill(tx, skill)
    dice = t.sheet.skill_dice(skill_against)
    untrained = "" if dice is not None else ", untrained"
    theirs = tx.check_roll(  # the target's roll is a skill check too ("Head", rules v4)
        t,
        f"{t.name}'s {skill_against}{untrained}",
        dice if dice is not None else tx.tables.checks.untrained_dice,
        head=tx.reads("opposing_head"),
        gm=True,
    )
    ok = roll.total > theirs.total
    verdict = "success" if ok else f"{t.name} wins"
    tx.emit(
        Checked(
            combatant=c.id,
            roll=roll,
            opposing=theirs,
            opponent=t.id,
            difficulty=None,
            success=ok,
            verdict=verdict,
            aside=far,
            text=f"{roll.text} vs {theirs.text}{far}: {verdict}.",
        )
    )


def _opposed_skill(tx: Tx, skill: str) -> str:
    folded = names.key(skill)
    for mine, theirs in tx.tables.checks.opposed.items():
        if names.key(mine) == folded:
            return theirs
    return skill
