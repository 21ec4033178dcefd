"""Rests and healing outside a fight (``utopia-actions.txt`` "Deep Breath": "Out of combat time
still flows (normally), and if you do nothing, you restore up to 60 stamina per minute ... to
achieve maximum stamina regeneration you must take a short rest").

The text names the short rest and no more. What a rest restores follows the game's official
Foundry VTT system (``VoltaicGRiD/utopia-foundryvtt``, ``documents/actor.mjs`` ``rest()`` at
the pinned commit): SHP and Stamina to their maxima, DHP left as it is (Foundry restores DHP
only for its ``creature`` actors). The pools each rest restores are the tables' ``rest``
entries (``data/utopia/tables.json``): a rest the tables do not give (by default the long rest)
and natural healing of DHP over weeks (0 DHP a week by default: neither the text nor Foundry
has it) are refused by :class:`~bot.engine.utopia.ruleset.UtopiaRuleset` before anything
runs."""

from __future__ import annotations

from bot.engine.utopia.commands import NaturalHealing, Rest
from bot.engine.utopia.core import Tx
from bot.engine.utopia.state import DOWN, UtopiaCombatant
from bot.errors import RuleViolation


def _targets(tx: Tx, ids: tuple[str, ...]) -> list[UtopiaCombatant]:
    return [tx.view(i) for i in ids] if ids else list(tx.state.combatants)


def rest(tx: Tx, cmd: Rest) -> None:
    """A short (or, when the tables give one, long) rest: each creature's pools named by the
    tables' ``rest.<kind>`` return to the sheet's maxima. Raises :class:`RuleViolation` during
    a fight, or for a rest the tables do not give."""
    if tx.state.phase == "active":
        raise RuleViolation("Rest once the fight is over.")
    pools = getattr(tx.tables.rest, cmd.rest)
    if pools is None:
        raise RuleViolation(no_rest(cmd.rest))
    for c in _targets(tx, cmd.combatants):
        m = tx.c(c.id)
        for pool in pools:
            setattr(m, pool, max(getattr(m, pool), getattr(c.sheet, pool)))
        _lift_down(tx, m, f"a {cmd.rest} rest")
        tx.note(
            f"{c.name} takes a {cmd.rest} rest: SHP {m.shp}/{c.sheet.shp}, DHP "
            f"{m.dhp}/{c.sheet.dhp}, Stamina {m.stamina}/{c.sheet.stamina}.",
            c.id,
            secret=True,
            public=f"{c.name} takes a {cmd.rest} rest.",
        )


def natural_healing(tx: Tx, cmd: NaturalHealing) -> None:
    """``weeks`` of natural healing: the tables' ``rest.dhp_per_week`` DHP a week, never above
    the sheet's maximum. Raises :class:`RuleViolation` during a fight or when the tables give
    no healing."""
    if tx.state.phase == "active":
        raise RuleViolation("Heal naturally once the fight is over.")
    per = tx.tables.rest.dhp_per_week
    if per <= 0:
        raise RuleViolation(NO_HEALING)
    for c in _targets(tx, cmd.combatants):
        m = tx.c(c.id)
        m.dhp = max(m.dhp, min(c.sheet.dhp, m.dhp + per * cmd.weeks))
        _lift_down(tx, m, "natural healing")
        tx.note(
            f"{c.name} heals to DHP {m.dhp}/{c.sheet.dhp}.",
            c.id,
            secret=True,
            public=f"{c.name} heals.",
        )


def _lift_down(tx: Tx, m: UtopiaCombatant, reason: str) -> None:
    if m.dhp > 0 and m.has(DOWN):
        tx.lose(m.id, DOWN, f"{reason} raised {tx.of_them('its', 'their')} DHP")


def no_rest(kind: str) -> str:
    """The refusal of a rest the tables do not give."""
    return (
        f"Utopia has no {kind} rest: the text names only the short rest (and the game's "
        "Foundry system has one rest, restoring SHP and Stamina). Use a short rest; a GM may "
        f"give the {kind} rest in the server's tables: `/tables set ruleset:utopia "
        f'entry:rest.{kind} value:["shp", "dhp", "stamina"]` (the pools it restores; for '
        "encounters started from then on)."
    )


NO_HEALING = (
    "Utopia gives no natural healing over weeks: neither its text nor its Foundry system "
    "restores DHP with time. Set DHP with `/gm vital`, or give a number in the server's "
    "tables: `/tables set ruleset:utopia entry:rest.dhp_per_week value:2` (for encounters "
    "started from then on)."
)
