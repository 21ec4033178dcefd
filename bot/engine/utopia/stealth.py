"""Stealth (``utopia-actions.txt`` "Stealth") and what being unnoticed does to an attack
("Block", "Dodge", "Take Cover": "If a creature is subject to damage from an instance it is
aware of").

* **The test** — one Stunt test "contested against each other present creatures' Awareness
  score" (double the score for a creature gifted in Awareness); a creature stays unaware when
  the Stunt total meets its score (the score read as the test's difficulty). "Present" is every
  creature of another side in the fight and not out (the bot's default: allies are in on it).
* **Circumstances** — words in ``detail:`` (:data:`CIRCUMSTANCES`): ``suspicious`` (a point of
  disfavor), ``sight`` (entering an unsuspecting creature's line of sight: 2 points),
  ``distracting`` (a point of favor), ``seen`` (already seen: each creature instead makes an
  Awareness test against the Stunt total and notices when it meets it; the stealthy creature
  gains a point of disfavor, each other a point of favor). ``amount:`` 0–2: "double the amount
  of time", a point of favor each, "up to twice per action".
* **The numbers** are the encounter's ``stealth`` tables
  (:class:`~bot.engine.utopia.tables.Stealth`: the test and the score it meets, each
  circumstance's favor and disfavor, the gifted multiplier, the doublings allowed — at most the
  text's two), so a server's ``/tables set`` changes them; the defaults are the text's, above.
* **The cost** — the text gives none for the test: it accompanies "an action". The bot's
  default: Stealth is its own action of 1 TA (2 IA off the turn), and each doubling of the time
  doubles it (2 TA, then 4 TA).
* **Unnoticed** — the creatures that did not notice it are kept (``hidden_from``) until it
  attacks or takes Stealth again. An attack on a creature that has not noticed the attacker
  offers it no Block, Dodge or Take Cover (no decision opens), and any attack reveals the
  attacker to everyone (the bot's default).
"""

from __future__ import annotations

from typing import Any, cast

from bot import names
from bot.engine.core.dice import Roll
from bot.engine.core.economy import Cost
from bot.engine.utopia.commands import Circumstance, Stealth
from bot.engine.utopia.core import Tx
from bot.engine.utopia.events import Tested
from bot.engine.utopia.state import UtopiaCombatant
from bot.engine.utopia.tables import Stealth as StealthTable
from bot.errors import InvalidInput, RuleViolation
from bot.words import counted

CIRCUMSTANCES: dict[str, tuple[int, int, str]] = {
    "suspicious": (0, 1, "creatures were suspicious or knew where to look: 1 disfavor"),
    "seen": (0, 1, "already seen: they test Awareness with a favor; 1 disfavor"),
    "sight": (0, 2, "entering an unsuspecting creature's line of sight: 2 disfavor"),
    "distracting": (1, 0, "distracting terrain or circumstance: 1 favor"),
}
"""The words ``detail:`` takes: ``(favor, disfavor, what it means)`` ("Stealth") with the
shipped tables; :func:`effects` gives an encounter's."""
TA_COST = 1
"""The bot's default cost of Stealth, doubled per doubling of the time."""
MAX_DOUBLINGS = 2
""""This effect may be used up to twice per action" (the command allows no more; the tables'
``extra_time_favor_max`` may lower it)."""


def effects(rules: StealthTable) -> dict[str, tuple[int, int]]:
    """Each circumstance's ``(favor, disfavor)`` by the encounter's tables."""
    return {
        "suspicious": (0, rules.suspicious_disfavor),
        "seen": (0, rules.seen_disfavor),
        "sight": (0, rules.entering_sight_disfavor),
        "distracting": (rules.distracting_favor, 0),
    }


def circumstances(detail: str | None) -> tuple[Circumstance, ...]:
    """The words of ``detail`` (separated by spaces or commas, any case), each once. Raises
    :class:`InvalidInput` naming an unknown word and listing the known ones."""
    words = (detail or "").replace(",", " ").casefold().split()
    for word in words:
        if word not in CIRCUMSTANCES:
            raise InvalidInput(
                f"Stealth has no circumstance {names.quoted(word, 30)}. `detail:` takes any of: "
                + "; ".join(f"`{k}` ({v[2]})" for k, v in CIRCUMSTANCES.items())
                + "."
            )
    return tuple(cast("Circumstance", w) for w in dict.fromkeys(words))


def watchers(tx: Tx, c: UtopiaCombatant) -> list[UtopiaCombatant]:
    """The creatures present to notice ``c``: another side's, in the fight and not out."""
    return [x for x in tx.state.combatants if x.side != c.side and not tx.is_out(x)]


def stealth(tx: Tx, cmd: Stealth) -> None:
    """ "Stealth": a Stunt test against each watcher's Awareness (module docstring)."""
    c = tx.view(cmd.actor)
    tx.require_can_act_now(c)
    rules = tx.tables.stealth
    most = min(MAX_DOUBLINGS, rules.extra_time_favor_max)
    if cmd.doubled > most:
        raise InvalidInput(f"Doubling the time gives favor at most {counted(most, 'time')}.")
    others = watchers(tx, c)
    if not others:
        raise RuleViolation(f"Nobody is present for {names.escaped(c.name)} to stay hidden from.")
    ta = TA_COST * 2**cmd.doubled
    tx.pay(c.id, Cost(kind="turn", amount=ta), "move with stealth")
    tx.c(c.id).aim = 0
    amounts = effects(rules)
    favor = cmd.doubled + sum(amounts[w][0] for w in cmd.circumstances)
    disfavor = sum(amounts[w][1] for w in cmd.circumstances)
    what = f"{c.name}'s {rules.test.title()} test (Stealth)"
    roll = tx.test(c, rules.test, what, favor=favor, disfavor=disfavor)
    seen = "seen" in cmd.circumstances
    hidden: list[str] = []
    for o in others:
        if not (_seen_by if seen else _scored_by)(tx, c, o, roll):
            hidden.append(o.id)
    tx.c(c.id).hidden_from = tuple(hidden)


def _scored_by(tx: Tx, c: UtopiaCombatant, o: UtopiaCombatant, roll: Roll) -> bool:
    """Whether ``o`` notices ``c``: its Awareness score (doubled if gifted) above the Stunt."""
    rules = tx.tables.stealth
    gifted = rules.against in o.sheet.gifted
    score = o.sheet.score(rules.against) * (rules.gifted_multiplier if gifted else 1)
    noticed = roll.total < score
    times = rules.gifted_multiplier
    shown = "" if not gifted else " (gifted: doubled)" if times == 2 else f" (gifted: ×{times})"
    what = f"{o.name}'s {rules.against.title()} {score}{shown}"
    _said(tx, c, o, roll, noticed, what, against_score=score)
    return noticed


def _seen_by(tx: Tx, c: UtopiaCombatant, o: UtopiaCombatant, roll: Roll) -> bool:
    """ "Seen": ``o`` makes an Awareness test (a point of favor) against the Stunt total and
    notices ``c`` when it meets it."""
    rules = tx.tables.stealth
    what = f"{o.name}'s {rules.against.title()} test"
    theirs = tx.test(o, rules.against, what, favor=rules.seen_favor_to_seekers)
    noticed = theirs.total >= roll.total
    _said(tx, c, o, roll, noticed, theirs.text, opposing=theirs)
    return noticed


def _said(
    tx: Tx,
    c: UtopiaCombatant,
    o: UtopiaCombatant,
    roll: Roll,
    noticed: bool,
    against: str,
    **opposed: Any,
) -> None:
    """The Stunt test against ``o`` as a :class:`Tested` event (``opposed``: its ``opposing``
    roll or ``against_score``, each shown only where ``o``'s numbers are)."""
    verdict = f"{o.name} notices {c.name}" if noticed else f"{c.name} stays unnoticed by {o.name}"
    tx.emit(
        Tested(
            combatant=c.id,
            score=tx.tables.stealth.test,
            roll=roll,
            success=not noticed,
            opponent=o.id,
            verdict=verdict,
            text=f"{roll.text} against {against}: {verdict}.",
            **opposed,
        )
    )


def unaware(tx: Tx, attacker: UtopiaCombatant, target: UtopiaCombatant) -> bool:
    """Whether ``target`` has not noticed ``attacker`` (it cannot Block, Dodge or Take Cover:
    "subject to damage from an instance it is aware of"); either way the attack reveals the
    attacker to everyone (the bot's default), said when it was hidden."""
    if not attacker.hidden_from:
        return False
    was = target.id in attacker.hidden_from
    tx.c(attacker.id).hidden_from = ()
    tx.note(
        f"{attacker.name}'s attack gives them away"
        + (f": {target.name} did not see it coming and cannot defend." if was else "."),
        attacker.id,
    )
    return was
