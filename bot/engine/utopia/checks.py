"""Tests on demand and the Game Master's favor (``utopia-actions.txt`` and issue 12's
documented defaults: "A test is 3d6 + modifier against a difficulty"; "Favor and disfavor
cancel one for one").

* **``/check``** — a test of any trait or subtrait (:data:`SCORE_NAMES`): 3d6 + its modifier
  against ``difficulty:``, or opposed by ``target:`` testing ``against:`` (default: the same
  score). The text gives a test no cost of its own — the action it belongs to carries the cost
  — so the bot's default is that a ``/check`` costs no TA or IA and needs no turn, in a fight
  or outside one; only a creature that is out (Down) cannot test. An opposed test succeeds
  when the roller's total beats the opposing total: a tie goes to the one opposing, as in the
  bot's Grapple and Scale contests.
* **The GM's favor** (``/gm advantage``) — points of favor (negative: disfavor) on the target's
  next test of any kind (a check, a ranged attack's Dexterity test, a contest's, the turn
  order's Speed test), or on every test until removed; 0 removes all the GM gave. They join
  the test's own favor and disfavor, which cancel one for one (:meth:`Tx.test`).
"""

from __future__ import annotations

from typing import cast

from bot import names
from bot.engine.utopia.commands import GrantFavor, Test
from bot.engine.utopia.core import Tx
from bot.engine.utopia.events import Tested
from bot.engine.utopia.terms import SUBTRAITS, TRAITS, Subtrait, Trait
from bot.errors import InvalidInput, RuleViolation

SCORE_NAMES: tuple[str, ...] = (*TRAITS, *SUBTRAITS)
"""What a test can be of: the six traits and the twelve subtraits."""
FAVOR_MAX = 10
"""The most favor (or disfavor) the GM's grants add up to on one creature."""


def score_name(raw: str) -> Trait | Subtrait:
    """``raw`` (any case, spaces around) as a trait or subtrait. Raises :class:`InvalidInput`
    listing them."""
    key = raw.strip().casefold()
    if key not in SCORE_NAMES:
        raise InvalidInput(
            f"Utopia has no trait or subtrait {names.quoted(raw, 40)}. Traits: "
            + ", ".join(TRAITS)
            + "; subtraits: "
            + ", ".join(SUBTRAITS)
            + "."
        )
    return cast("Trait | Subtrait", key)


def test(tx: Tx, cmd: Test) -> None:
    """``/check``: the actor's test, against a difficulty or opposed (module docstring)."""
    c = tx.view(cmd.actor)
    tx.require_can_act(c)
    name = cmd.score.title()
    if cmd.target is None:
        roll = tx.test(c, cmd.score, f"{c.name}'s {name} test")
        ok = None if cmd.difficulty is None else roll.total >= cmd.difficulty
        verdict = "" if ok is None else ("success" if ok else "failure")
        against = "" if cmd.difficulty is None else f" against difficulty {cmd.difficulty}"
        tx.emit(
            Tested(
                combatant=c.id,
                score=cmd.score,
                roll=roll,
                difficulty=cmd.difficulty,
                success=ok,
                verdict=verdict,
                text=f"{roll.text}{against}" + (f": {verdict}." if verdict else "."),
            )
        )
        return
    t = tx.view(cmd.target)
    if t.id == c.id:
        raise InvalidInput(f"{names.escaped(c.name)} cannot oppose their own test.")
    if tx.is_out(t):
        raise RuleViolation(
            f"{names.escaped(t.name)} is out of the fight and cannot oppose a test."
        )
    theirs_name = cmd.against or cmd.score
    mine = tx.test(c, cmd.score, f"{c.name}'s {name} test")
    theirs = tx.test(t, theirs_name, f"{t.name}'s {theirs_name.title()} test")
    ok = mine.total > theirs.total
    verdict = f"{c.name} prevails" if ok else f"{t.name} prevails"
    tx.emit(
        Tested(
            combatant=c.id,
            score=cmd.score,
            roll=mine,
            success=ok,
            opponent=t.id,
            opposing=theirs,
            verdict=verdict,
            text=f"{mine.text} against {theirs.text}: {verdict}.",
        )
    )


def grant_favor(tx: Tx, cmd: GrantFavor) -> None:
    """The GM's favor (positive) or disfavor (negative) on the target's next test, or on every
    test until removed; 0 removes all the GM gave or took."""
    c = tx.view(cmd.target)
    m = tx.c(c.id)
    if cmd.points == 0:
        m.gm_favor_next = m.gm_favor_every = 0
        tx.note(f"The GM removes every favor and disfavor they gave {c.name}.", c.id)
        return
    if cmd.until_removed:
        m.gm_favor_every = _clamp(m.gm_favor_every + cmd.points)
        when = "every test until removed"
    else:
        m.gm_favor_next = _clamp(m.gm_favor_next + cmd.points)
        when = "their next test"
    what = "favor" if cmd.points > 0 else "disfavor"
    points = "point" if abs(cmd.points) == 1 else "points"
    tx.note(f"The GM gives {c.name} {abs(cmd.points)} {points} of {what} on {when}.", c.id)


def _clamp(n: int) -> int:
    return max(-FAVOR_MAX, min(FAVOR_MAX, n))
