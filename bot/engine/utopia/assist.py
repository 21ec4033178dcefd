"""Assist, pledged before the aided action (``utopia-actions.txt`` "Assist"), three of its four
forms — the fourth, adding dice to a Block or Dodge, is built elsewhere.

* **A test** — 1 interrupt action; the aided creature's next test gains "a point of favor" and
  "the aiding creature's modifier, minimum of +1" (the helper's modifier in the same trait or
  subtrait); for a Strength test (Strength, Power or Fortitude: :data:`core.ROLL_ADDED`) the
  helper rolls the same test and its total is added instead ("Some tests, such as Strength
  tests, may add the aiding creature's roll"). The helper's own circumstantial favor is not
  known to the bot: the GM adds it with ``/gm advantage``.
* **A Leap** — 1 interrupt action, the helper touching the leaper: the helper's Power score is
  added to the leap distance.
* **A grapple** — 2 interrupt actions, the helper adjacent to the grappler: the helper's
  Agility test is added to the grappler's.

The text has the helper act "when another creature … takes an action"; the bot has no pause
before an action's roll, so the helper **pledges** first (``/act assist target: detail:``),
paying at once — interrupt actions off its turn, turn actions one for one on it
("Interchanging Actions"). The pledge is used by the aided creature's next matching action;
unused, it lapses when the aided creature's next turn ends (the IA are not refunded). Range:
"touching" and "adjacent" are read as within 1 m or engaged (:data:`grapple.ADJACENT_M`; the
bot has no finer positions); "within applicable range" for a test as within
:data:`TEST_RANGE_M` (the bot's default). A distance nobody set does not refuse.
"""

from __future__ import annotations

from bot import names
from bot.engine.core.economy import Cost
from bot.engine.utopia.commands import Assist
from bot.engine.utopia.core import Tx
from bot.engine.utopia.grapple import ADJACENT_M
from bot.engine.utopia.state import AssistForm, Pledge, UtopiaCombatant
from bot.errors import InvalidInput, RuleViolation

IA_COST: dict[AssistForm, int] = {"test": 1, "leap": 1, "grapple": 2}
"""Interrupt actions per form ("Assist") with the shipped tables; a grapple's is the
encounter's ``assist.grapple_ia`` (:func:`ia_cost`)."""


def ia_cost(tx: Tx, form: AssistForm) -> int:
    """The interrupt actions a pledge of ``form`` costs in this encounter."""
    return tx.tables.assist.grapple_ia if form == "grapple" else IA_COST[form]


TEST_RANGE_M = 2.0
"""The bot's reading of "within applicable range" for aiding a test (the text leaves it to
the GM): 2 m, or engaged."""
_RANGE: dict[AssistForm, tuple[float, str]] = {
    "test": (TEST_RANGE_M, "within reach to help"),
    "leap": (ADJACENT_M, "touching"),
    "grapple": (ADJACENT_M, "adjacent"),
}
_WHAT = {"test": "next test", "leap": "next Leap", "grapple": "next Grapple"}


def assist(tx: Tx, cmd: Assist) -> None:
    """Pledge ``cmd.actor``'s aid to ``cmd.target``'s next ``cmd.form`` action (module
    docstring). Raises :class:`RuleViolation` for a target out of range, out of the fight or
    already aided this way by the helper; :class:`InvalidInput` for aiding oneself."""
    h = tx.view(cmd.actor)
    t = tx.view(cmd.target)
    tx.require_can_act_now(h)
    if h.id == t.id:
        raise InvalidInput(f"{names.escaped(h.name)} cannot assist themselves.")
    if tx.is_out(t):
        raise RuleViolation(f"{names.escaped(t.name)} is out of the fight.")
    if t.side != h.side:
        raise RuleViolation(
            f"{names.escaped(h.name)} cannot assist {names.escaped(t.name)}: Assist aids a "
            f"creature on {names.escaped(h.name)}'s own side "
            "(as an Assist on a Block or Dodge does)."
        )
    if any(p.helper == h.id and p.form == cmd.form for p in t.pledges):
        raise RuleViolation(
            f"{names.escaped(h.name)} has already pledged to assist {names.escaped(t.name)}'s "
            f"{_WHAT[cmd.form]}."
        )
    _require_range(tx, h, t, cmd.form)
    tx.pay(h.id, Cost(kind="interrupt", amount=ia_cost(tx, cmd.form)), f"assist {t.name}")
    tx.c(h.id).aim = 0
    m = tx.c(t.id)
    m.pledges = (*m.pledges, Pledge(helper=h.id, form=cmd.form))
    gain = {
        "test": "a point of favor and their modifier (at least +1; a Strength test: their roll)",
        "leap": f"their Power score ({tx.scale.show(h.sheet.score('power'))}) added to the "
        "distance",
        "grapple": "their Agility test added to the grappler's",
    }[cmd.form]
    # The pledge lapses when the aided creature's turn ends (``Tx.after_own_turn``): the one
    # running now when it is the aided creature's, else its next.
    which = "" if tx.state.turn == t.id else "next "
    tx.note(
        f"{h.name} stands ready to assist {t.name}'s {_WHAT[cmd.form]}: {gain}, until the end "
        f"of {t.name}'s {which}turn.",
        h.id,
    )


def _require_range(tx: Tx, h: UtopiaCombatant, t: UtopiaCombatant, form: AssistForm) -> None:
    most, word = _RANGE[form]
    positions = tx.state.positions
    meters = positions.distance(h.id, t.id)
    if meters is not None and meters > most and not positions.are_engaged(h.id, t.id):
        raise RuleViolation(
            f"{names.escaped(t.name)} is {tx.scale.show(meters)} away: assisting with a {form} "
            f"needs {names.escaped(h.name)} {word} ({tx.scale.show(most)})."
        )


def leap_aid(tx: Tx, c: UtopiaCombatant) -> tuple[float, str]:
    """The meters the Assists pledged to ``c``'s Leap add (each helper's Power score, helpers
    still in the fight) and words naming them; the pledges are used up."""
    helpers = [p.helper for p in c.pledges if p.form == "leap"]
    if not helpers:
        return 0.0, ""
    tx.c(c.id).pledges = tuple(p for p in c.pledges if p.form != "leap")
    here = {x.id for x in tx.state.combatants}
    found = [tx.view(h) for h in helpers if h in here and not tx.is_out(tx.view(h))]
    meters = float(sum(h.sheet.score("power") for h in found))
    words = ", ".join(f"{h.name} +{tx.scale.show(h.sheet.score('power'))}" for h in found)
    return meters, (f", assisted: {words}" if words else "")
