"""UTTAS skills that take more than one turn ("Perform a skill": "If the Skill requires more than
one turn, they begin initiating the skill and complete it after the allotted amount of time has
passed"; issue 11, Missing 8).

Choices where the text is silent (``docs/rules/uttas.md``):

- **How many turns**: the sheet says, per skill (``UttasSheet.skill_turns``; 2–100). A skill
  not listed there takes one turn and rolls at once, as before.
- **Starting** it in a fight is the turn's action (1 action from the Speed pool; the turn ends)
  and counts as its first turn. Each of the combatant's following turns is spent continuing
  it: the turn's action (1 action, as Stunned's recovery is) goes on it and the turn ends by
  itself. On the last allotted turn it completes and the check is rolled then (with the
  Advantage/Disadvantage of that moment: a head disabled meanwhile adds its Disadvantage).
- **Interrupted** (no roll; the turns are lost) when the performer acts otherwise — spends an
  action on anything else, e.g. a reaction to an attack —, is Stunned, held in a grapple,
  knocked out, killed or surrenders, or the fight ends first. Stopping it yourself is free,
  at any time (``StopSkill``; ``/act action:stop-skill``).
- **Outside a fight** there are no turns: a check rolls at once, whatever its length.

While it lasts the combatant carries the effect :data:`PERFORMING` (shown in the tracker), and
its ``skill_in_progress`` holds the skill, the turns and the check's difficulty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

from bot import names
from bot.engine.core.commands import CommandBase, Id
from bot.engine.core.dice import Roll
from bot.engine.core.economy import Timing
from bot.engine.core.events import Event
from bot.engine.uttas.events import Checked
from bot.engine.uttas.state import (
    DEAD,
    GRAPPLED,
    STUNNED,
    SURRENDERED,
    UNCONSCIOUS,
    Combatant,
    SkillInProgress,
    UttasState,
)
from bot.errors import RuleViolation

if TYPE_CHECKING:
    from bot.engine.uttas.commands import UseSkill


class Tx(Protocol):
    """What this module uses of the UTTAS transaction (:class:`bot.engine.uttas.core.Tx`,
    which calls it from its turn start and its action payments: typed by shape, not imported,
    so the two modules do not import each other)."""

    @property
    def state(self) -> UttasState: ...

    def view(self, cid: str) -> Combatant: ...

    def c(self, cid: str) -> Combatant: ...

    def changed(self) -> list[Combatant]: ...

    def emit(self, event: Event) -> None: ...

    def note(
        self, text: str, cid: str | None = None, *, secret: bool = False, public: str = ""
    ) -> None: ...

    def gain(self, cid: str, condition: str, reason: str) -> None: ...

    def lose(self, cid: str, condition: str, reason: str) -> None: ...

    def check_roll(
        self, c: Combatant, purpose: str, dice: int, *, advantage: int, disadvantage: int
    ) -> Roll: ...

    def spend_actions(
        self, cid: str, amount: int, reason: str, timing: Timing, *, on_skill: bool = False
    ) -> None: ...

    def action_done(self, cid: str, on_turn: bool) -> None: ...


PERFORMING = "Performing a skill"
"""The effect a combatant carries while a multi-turn skill is under way."""
INTERRUPTING = (STUNNED, GRAPPLED, UNCONSCIOUS, DEAD, SURRENDERED)
"""Conditions that interrupt a skill in progress."""


class StopSkill(CommandBase):
    """Stop the skill in progress (free, at any time): it never completes and rolls nothing."""

    kind: Literal["stop_skill"] = "stop_skill"
    actor: Id


def turns_of(c: Combatant, skill: str) -> int:
    """Turns ``skill`` takes for ``c`` (1: an ordinary check)."""
    return c.sheet.skill_turn_count(skill)


def begin(tx: Tx, cmd: UseSkill, *, on_turn: bool) -> None:
    """Start a multi-turn skill: the turn's action; the turn ends. Refused as a readied action
    (it would be off the turn) and while another skill is in progress."""
    c = tx.view(cmd.actor)
    turns = turns_of(c, cmd.skill)
    name = next((s for s in c.sheet.skills if names.key(s) == names.key(cmd.skill)), cmd.skill)
    if not on_turn:
        raise RuleViolation(
            f"{name} takes {turns} turns: it is begun on {names.escaped(c.name)}'s own turn, not "
            "as a readied action."
        )
    if c.skill_in_progress is not None:
        raise RuleViolation(
            f"{names.escaped(c.name)} is still performing "
            f"{names.escaped(c.skill_in_progress.skill)}: stop it first (`/act action:stop-skill`)."
        )
    tx.spend_actions(c.id, 1, f"starting {name} (turn 1 of {turns})", "turn")
    tx.c(c.id).skill_in_progress = SkillInProgress(
        skill=name,
        turns=turns,
        difficulty=cmd.difficulty,
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage,
    )
    tx.gain(c.id, PERFORMING, f"began {name}, {turns} turns")
    tx.note(
        f"{c.name} begins {name}: it takes {turns} turns and completes at the end of the "
        f"{_ordinal(turns)} (the next {turns - 1} spent on it).",
        c.id,
    )
    tx.action_done(c.id, True)


def continue_turn(tx: Tx, c: Combatant) -> str | None:
    """At the start of ``c``'s turn (``c`` changeable): a skill in progress takes the turn —
    1 action — and completes on its last turn, rolling the check. Returns what the turn was
    spent on, or None when no skill is in progress."""
    going = c.skill_in_progress
    if going is None:
        return None
    held = next((x for x in INTERRUPTING if c.has(x)), None)
    if held is not None:  # interrupted (normally already, by the command that caused it)
        interrupt(tx, c.id, f"{c.name} is {held.lower()}")
        return None
    done = going.done + 1
    what = f"{going.skill} (turn {done} of {going.turns})"
    tx.spend_actions(c.id, 1, what, "turn", on_skill=True)
    if done < going.turns:
        c.skill_in_progress = going.model_copy(update={"done": done})
        return f"continuing {going.skill} (turn {done} of {going.turns})"
    c.skill_in_progress = None
    tx.lose(c.id, PERFORMING, f"completed {going.skill}")
    _roll(tx, c, going)
    return f"completing {going.skill}"


def stop(tx: Tx, cmd: StopSkill) -> None:
    """``StopSkill``: the performer gives up (free)."""
    c = tx.view(cmd.actor)
    if c.skill_in_progress is None:
        raise RuleViolation(f"{names.escaped(c.name)} is performing no skill.")
    interrupt(tx, c.id, f"{c.name} stopped")


def interrupt(tx: Tx, cid: str, why: str) -> None:
    """End ``cid``'s skill in progress without a roll, saying ``why``."""
    c = tx.c(cid)
    going = c.skill_in_progress
    if going is None:
        return
    c.skill_in_progress = None
    tx.lose(cid, PERFORMING, "interrupted")
    tx.note(
        f"{c.name}'s {going.skill} is interrupted after {going.done} of {going.turns} turns "
        f"({why}): it does not complete.",
        cid,
    )


def check_interruptions(tx: Tx) -> None:
    """After every command: a skill in progress is interrupted when its performer gained an
    interrupting condition (:data:`INTERRUPTING`) or the fight is no longer running. (Acting
    otherwise interrupts it as the action is paid: ``Tx.spend_actions``.)"""
    over = tx.state.phase != "active"
    # Only a combatant this command changed can have gained a condition (the hot path: every
    # command); when the fight is over, every performer's skill ends.
    pool = tx.state.combatants if over else tx.changed()
    busy = [c for c in pool if c.skill_in_progress is not None]
    if not busy:
        return
    for c in busy:
        held = next((x for x in INTERRUPTING if c.has(x)), None)
        if held is not None:
            interrupt(tx, c.id, f"{c.name} is {held.lower()}")
        elif over:
            interrupt(tx, c.id, "the fight ended first")


def _roll(tx: Tx, c: Combatant, going: SkillInProgress) -> None:
    """The completed skill's check: its dice (Advantage/Disadvantage apply; a disabled head
    adds a Disadvantage) against the difficulty given when it began."""
    dice = c.sheet.skill_dice(going.skill) or 0
    roll = tx.check_roll(
        c,
        f"{c.name}'s {going.skill} ({going.turns} turns)",
        dice,
        advantage=going.advantage,
        disadvantage=going.disadvantage,
    )
    ok = None if going.difficulty is None else roll.total >= going.difficulty
    verdict = "" if ok is None else (" — success" if ok else " — failure")
    dc = "" if going.difficulty is None else f" vs {going.difficulty}"
    tx.emit(
        Checked(
            combatant=c.id,
            roll=roll,
            difficulty=going.difficulty,
            success=ok,
            verdict="" if ok is None else ("success" if ok else "failure"),
            text=f"{c.name} completes {going.skill}: {roll.text}{dc}{verdict}.",
        )
    )


_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else _SUFFIX.get(n % 10, "th")
    return f"{n}{suffix}"
