"""Grappling (``utopia-actions.txt`` "Grapple") — and who holds or scales whom, which
"Scale" (:mod:`bot.engine.utopia.scale`) shares: restraining an adjacent creature, what being
grappled forbids and doubles, and the attempts to break free.

* **Grapple** — 3 TA and 2 Stamina; the target is adjacent (within 1 m or engaged) and at most
  one size larger. The grappler makes an Agility test with a point of disfavor per size
  category between them; the target answers with "its choice of a Strength or Agility
  contest" — the bot takes the better of its two scores (ties: Strength), a documented
  default. The target fails when its total is below the grappler's (a tie holds it off, as a
  test meeting its difficulty succeeds).
* **Grappled** — no Travel, and (rules version 6; the text is silent) no Leap: restrained,
  it moves only with its grappler; Attack, Block and Dodge cost double when they target a
  creature other than the grappler; the grappler's Travel distance is halved (rounded up) and
  the grappled creature moves with it.
* **Escape** — 2 TA on its turn or 1 IA off it, and 2 Stamina, once per turn: the same contest
  again. The grappler contests when it has the Stamina (the bot's default), losing 2; if it
  cannot, the grappled creature breaks free.
"""

from __future__ import annotations

import math

from bot import names
from bot.engine.core.economy import Cost
from bot.engine.utopia.commands import Escape, Grapple
from bot.engine.utopia.core import Tx
from bot.engine.utopia.events import Tested
from bot.engine.utopia.state import UtopiaCombatant
from bot.engine.utopia.terms import SIZES, Trait
from bot.errors import InvalidInput, RuleViolation

ADJACENT_M = 1.0
"""The bot's reading of "adjacent": within 1 m (the reach of a weaponless attack) or engaged."""


def grappler_of(tx: Tx, c: UtopiaCombatant) -> str | None:
    """The id of the creature grappling ``c`` — None when nobody is, or when its grappler
    left the fight or is out (the hold ends with it)."""
    return _active(tx, c.grappled_by)


def grappled_ones(tx: Tx, grappler: str) -> list[str]:
    """The creatures ``grappler`` holds now."""
    return [x.id for x in tx.state.combatants if grappler_of(tx, x) == grappler]


def _active(tx: Tx, cid: str | None) -> str | None:
    """``cid`` when that creature is in the fight and not out, else None."""
    if cid is None:
        return None
    found = next((x for x in tx.state.combatants if x.id == cid), None)
    return None if found is None or tx.is_out(found) else cid


def scaling_of(tx: Tx, c: UtopiaCombatant) -> str | None:
    """The id of the creature ``c`` has scaled ("Scale") — None when none, or when that
    creature left the fight or is out."""
    return _active(tx, c.scaling)


def scalers_of(tx: Tx, cid: str) -> list[str]:
    """The creatures on ``cid`` now ("Scale")."""
    return [x.id for x in tx.state.combatants if not tx.is_out(x) and scaling_of(tx, x) == cid]


def cost_factor(tx: Tx, c: UtopiaCombatant, other: str | None) -> int:
    """What an Attack, Block or Dodge by ``c`` aimed at ``other`` costs, as a multiple:
    "When grappled, the Attack, Block, and Dodge action requires twice the number of actions
    if it targets a creature other than the grappler" (``grapple.cost_multiplier``); "When
    scaled, the Attack, Block, and Dodge action requires twice the number of actions if it
    targets the creature scaling it" (``scale.cost_multiplier``). The larger applies; else 1."""
    factor = 1
    gid = grappler_of(tx, c)
    if gid is not None and other != gid:
        factor = tx.tables.grapple.cost_multiplier
    if other is not None and other in scalers_of(tx, c.id):
        factor = max(factor, tx.tables.scale.cost_multiplier)
    return factor


def travel_limit(tx: Tx, c: UtopiaCombatant, most: float) -> float:
    """``c``'s Travel distance ``most`` while grappling: halved, rounded up. Raises
    :class:`RuleViolation` when ``c`` is grappled ("Grappled creatures cannot take the Travel
    action")."""
    gid = grappler_of(tx, c)
    if gid is not None:
        raise RuleViolation(
            f"{names.escaped(c.name)} is grappled by {names.escaped(tx.view(gid).name)} and "
            "cannot travel."
        )
    if grappled_ones(tx, c.id):
        return float(math.ceil(most / 2))
    return most


def drag_along(tx: Tx, mover: str) -> None:
    """After ``mover`` moved: every creature it grapples "moves similarly" ("Grapple") and so
    does every creature scaling it ("Scale") — they stay engaged with it. A scaler that moves
    by itself climbs down (the bot's default: the text is silent)."""
    positions = tx.state.positions
    for other in [*grappled_ones(tx, mover), *scalers_of(tx, mover)]:
        positions = positions.moved(other).engage(mover, other)
    tx.state.positions = positions
    on = scaling_of(tx, tx.view(mover))
    if on is not None:
        m = tx.c(mover)
        m.scaling = None
        tx.note(f"{m.name} climbs down from {tx.view(on).name}.", mover)


def require_adjacent(tx: Tx, a: UtopiaCombatant, t: UtopiaCombatant, doing: str) -> None:
    """Raises :class:`RuleViolation` when ``t`` is known to be farther than :data:`ADJACENT_M`
    from ``a`` and not engaged with it."""
    positions = tx.state.positions
    meters = positions.distance(a.id, t.id)
    if meters is not None and meters > ADJACENT_M and not positions.are_engaged(a.id, t.id):
        raise RuleViolation(
            f"{names.escaped(t.name)} is {tx.scale.show(meters)} away: {doing} needs them adjacent "
            f"({tx.scale.show(ADJACENT_M)})."
        )


def size_gap(a: UtopiaCombatant, t: UtopiaCombatant) -> int:
    """Size categories from ``a`` to ``t`` (positive: ``t`` is larger)."""
    return _size_gap(a, t)


def _size_gap(a: UtopiaCombatant, t: UtopiaCombatant) -> int:
    """Size categories from ``a`` to ``t`` (positive: ``t`` is larger)."""
    return SIZES.index(t.sheet.size) - SIZES.index(a.sheet.size)


def better_of(c: UtopiaCombatant) -> Trait:
    """The target's "choice of a Strength or Agility contest": the higher score (ties:
    Strength) — the bot's documented default, as a player would choose."""
    return "agility" if c.sheet.score("agility") > c.sheet.score("strength") else "strength"


def contest(
    tx: Tx,
    actor: UtopiaCombatant,
    target: UtopiaCombatant,
    disfavor: int,
    trait: Trait | None = None,
    *,
    grappling: bool = False,
) -> bool:
    """The ``actor``'s Agility test (with ``disfavor``) against the target's ``trait`` test
    (None: :func:`better_of`); dice: the actor's first (``grappling``: the actor grapples, and
    the Assists pledged to its grapple add their Agility tests, "Assist"). True when the
    target's total is below the actor's (the actor holds it, or stays on it)."""
    mine = tx.test(
        actor, "agility", f"{actor.name}'s Agility test", disfavor=disfavor, grappling=grappling
    )
    trait = trait or better_of(target)
    theirs = tx.test(target, trait, f"{target.name}'s {trait.title()} test")
    won = theirs.total < mine.total
    verdict = f"{actor.name} prevails" if won else f"{target.name} prevails"
    tx.emit(  # each side's numbers shown only to those who may see them
        Tested(
            combatant=actor.id,
            score="agility",
            roll=mine,
            success=won,
            opponent=target.id,
            opposing=theirs,
            verdict=verdict,
            text=f"{mine.text} against {theirs.text}: {verdict}.",
        )
    )
    return won


def _grapple_disfavor(tx: Tx, grappler: UtopiaCombatant, target: UtopiaCombatant) -> int:
    """ "a point of disfavor for each size category smaller or larger"."""
    return abs(_size_gap(grappler, target)) * tx.tables.grapple.disfavor_per_size


def grapple(tx: Tx, cmd: Grapple) -> None:
    """ "Grapple": 3 TA and 2 Stamina to restrain an adjacent creature at most one size
    larger, by a contest (:func:`contest`). Raises :class:`RuleViolation` for a target too
    large, not adjacent, out, or already held."""
    a = tx.view(cmd.actor)
    t = tx.view(cmd.target)
    tx.require_can_act_now(a)
    rule = tx.tables.grapple
    if a.id == t.id:
        raise InvalidInput(f"{names.escaped(a.name)} cannot grapple themselves.")
    if tx.is_out(t):
        raise RuleViolation(f"{names.escaped(t.name)} is already out of the fight.")
    held_by = grappler_of(tx, t)
    if held_by is not None:
        raise RuleViolation(
            f"{names.escaped(t.name)} is already grappled by "
            f"{names.escaped(tx.view(held_by).name)}."
        )
    if _size_gap(a, t) > rule.max_sizes_larger:
        raise RuleViolation(
            f"{names.escaped(t.name)} ({t.sheet.size}) is more than {rule.max_sizes_larger} size "
            f"larger than {names.escaped(a.name)} ({a.sheet.size}): they cannot be grappled."
        )
    require_adjacent(tx, a, t, "grappling")
    tx.pay(a.id, Cost(kind="turn", amount=rule.ta), f"grapple {t.name}")
    tx.pay_stamina(a.id, rule.stamina, f"grapple {t.name}")
    tx.c(a.id).aim = 0
    if contest(tx, a, t, _grapple_disfavor(tx, a, t), grappling=True):  # "Assist" joins it
        m = tx.c(t.id)
        m.grappled_by = a.id
        m.escape_turn = None
        tx.state.positions = tx.state.positions.engage(a.id, t.id)
        tx.note(
            f"{a.name} grapples {t.name}: {tx.of_them('it cannot', 'they cannot')} travel, and "
            f"attacking, blocking or dodging anyone but {a.name} costs double.",
            t.id,
        )


def escape(tx: Tx, cmd: Escape) -> None:
    """An attempt to break a grapple: 2 TA on the creature's turn or 1 IA off it, and 2
    Stamina, once per turn. The grappler contests (2 Stamina) when it can; otherwise, or on
    losing the contest, the grapple ends."""
    c = tx.view(cmd.actor)
    tx.require_can_act_now(c)
    gid = grappler_of(tx, c)
    if gid is None:
        raise RuleViolation(f"{names.escaped(c.name)} is not grappled.")
    rule = tx.tables.grapple
    if c.escape_turn == tx.state.turn_seq:
        raise RuleViolation(f"{names.escaped(c.name)} already tried to break free this turn.")
    g = tx.view(gid)
    cost = tx.either(c, rule.escape_ta, rule.escape_ia)
    tx.pay(c.id, cost, f"break free of {g.name}")
    tx.pay_stamina(c.id, rule.escape_stamina, f"break free of {g.name}")
    m = tx.c(c.id)
    m.aim, m.escape_turn = 0, tx.state.turn_seq
    if g.stamina >= rule.contest_stamina:
        tx.c(g.id).stamina = g.stamina - rule.contest_stamina
        tx.note(f"{g.name} contests (Stamina −{rule.contest_stamina}).", g.id)
        if contest(tx, g, tx.view(c.id), _grapple_disfavor(tx, g, c)):
            return
    else:
        tx.note(f"{g.name} lacks the Stamina to contest.", g.id)
    tx.c(c.id).grappled_by = None
    tx.note(f"{c.name} breaks free of {g.name}.", c.id)
