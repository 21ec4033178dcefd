"""Scaling (``utopia-actions.txt`` "Scale"): climbing onto an adjacent creature of the same size
or larger, and the attempts to shake a scaler off.

* **Scale** — 3 TA and 4 Stamina. The target contests with Strength if it is the scaler's size,
  Agility if it is larger, against the scaler's Agility test, which has a point of disfavor
  per size category the target is larger. The target fails when its total is below the
  scaler's (a tie holds the scaler off).
* **Scaled** — Attack, Block and Dodge aimed at the scaler cost double
  (:func:`bot.engine.utopia.grapple.cost_factor`); the scaler moves with the scaled creature,
  and climbs down if it moves by itself (the bot's default). Carry capacity and encumbrance are
  not modelled (the sheet holds no weights).
* **Shake off** — 2 TA on the scaled creature's turn or 1 IA off it, once per turn, no Stamina
  (the text names none): its Strength or Agility (the better) against the scaler's Agility
  test. The scaler contests when it has the Stamina (the bot's default), losing 2; if it
  cannot, it is shaken off.
"""

from __future__ import annotations

from bot import names
from bot.engine.core.economy import Cost
from bot.engine.utopia.commands import Scale, ShakeOff
from bot.engine.utopia.core import Tx
from bot.engine.utopia.grapple import contest, require_adjacent, scalers_of, scaling_of, size_gap
from bot.engine.utopia.terms import Trait
from bot.errors import InvalidInput, RuleViolation


def scale(tx: Tx, cmd: Scale) -> None:
    """ "Scale": 3 TA and 4 Stamina to climb onto an adjacent creature the same size or larger,
    by a contest. Raises :class:`RuleViolation` for a smaller target, one not adjacent or out,
    or a scaler already on someone."""
    a = tx.view(cmd.actor)
    t = tx.view(cmd.target)
    tx.require_can_act_now(a)
    rule = tx.tables.scale
    if a.id == t.id:
        raise InvalidInput(f"{names.escaped(a.name)} cannot scale themselves.")
    if tx.is_out(t):
        raise RuleViolation(f"{names.escaped(t.name)} is already out of the fight.")
    on = scaling_of(tx, a)
    if on is not None:
        raise RuleViolation(
            f"{names.escaped(a.name)} is already on {names.escaped(tx.view(on).name)}."
        )
    gap = size_gap(a, t)
    if gap < 0:
        raise RuleViolation(
            f"{names.escaped(t.name)} ({t.sheet.size}) is smaller than {names.escaped(a.name)} "
            f"({a.sheet.size}): only a creature of the same size or larger can be scaled."
        )
    require_adjacent(tx, a, t, "scaling")
    tx.pay(a.id, Cost(kind="turn", amount=rule.ta), f"scale {t.name}")
    tx.pay_stamina(a.id, rule.stamina, f"scale {t.name}")
    tx.c(a.id).aim = 0
    trait: Trait = "strength" if gap == 0 else "agility"
    if contest(tx, a, t, gap * rule.disfavor_per_size, trait):
        tx.c(a.id).scaling = t.id
        tx.state.positions = tx.state.positions.engage(a.id, t.id)
        tx.note(
            f"{a.name} climbs onto {t.name}: attacking, blocking or dodging {a.name} costs "
            f"{t.name} double.",
            t.id,
        )


def shake_off(tx: Tx, cmd: ShakeOff) -> None:
    """The scaled creature tries to shake a scaler off: 2 TA on its turn or 1 IA off it, once
    per turn. The scaler contests (2 Stamina) when it can; otherwise, or on losing, it falls
    off."""
    c = tx.view(cmd.actor)
    tx.require_can_act_now(c)
    on_me = scalers_of(tx, c.id)
    if not on_me:
        raise RuleViolation(f"Nobody is scaling {names.escaped(c.name)}.")
    if cmd.target is None:
        if len(on_me) > 1:
            scalers = ", ".join(names.escaped(tx.view(x).name) for x in on_me)
            raise InvalidInput(
                f"Say which scaler {names.escaped(c.name)} shakes off (`target:`): {scalers}."
            )
        sid = on_me[0]
    else:
        sid = tx.view(cmd.target).id
        if sid not in on_me:
            raise RuleViolation(
                f"{names.escaped(tx.view(sid).name)} is not scaling {names.escaped(c.name)}."
            )
    if c.shake_turn == tx.state.turn_seq:
        raise RuleViolation(
            f"{names.escaped(c.name)} already tried to shake a scaler off this turn."
        )
    rule = tx.tables.scale
    s = tx.view(sid)
    cost = tx.either(c, rule.escape_ta, rule.escape_ia)
    tx.pay(c.id, cost, f"shake {s.name} off")
    m = tx.c(c.id)
    m.aim, m.shake_turn = 0, tx.state.turn_seq
    if s.stamina >= rule.contest_stamina:
        tx.c(s.id).stamina = s.stamina - rule.contest_stamina
        tx.note(f"{s.name} holds on (Stamina −{rule.contest_stamina}).", s.id)
        disfavor = max(0, size_gap(s, c)) * rule.disfavor_per_size
        if contest(tx, s, tx.view(c.id), disfavor):
            return
    else:
        tx.note(f"{s.name} lacks the Stamina to hold on.", s.id)
    tx.c(s.id).scaling = None
    tx.note(f"{c.name} shakes {s.name} off.", c.id)
