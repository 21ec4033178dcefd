"""UTTAS "Chase Scenes": scaffolding for the Game Master, not invented rules.

The text sets one condition — "If both the pursuer and their target have the same movement and
Speed, the characters enter a Chase Scene"; with more of either the pursuer overtakes ("combat
continues as normal"), with less "the target will eventually escape" — and says "there is no set
way of conducting Chase Scenes". So the bot starts a chase only when the condition holds
(:func:`start_chase`, naming the reason when it does not), keeps who chases whom and how far
apart they are each round (the encounter's positions, decision E; :func:`follow`), lets moves of
the chase's members keep their gap (they are "assumed to be constantly moving at their fastest
available movement speed"; :func:`kept_gaps`), and ends the chase when the GM says so or when
the quarry or every pursuer is out of the fight. The checks a chase uses are ordinary commands:
hiding and seeking (:mod:`bot.engine.uttas.perception`), Knowledge or Tracking checks, hazards,
powers such as Entangle.
"""

from __future__ import annotations

from bot import names
from bot.engine.core.scale import METERS, Scale
from bot.engine.uttas import limbs
from bot.engine.uttas.commands import EndChase, StartChase
from bot.engine.uttas.core import Tx
from bot.engine.uttas.sheet import MOVEMENT_MODES
from bot.engine.uttas.state import CHASE_MARKS_KEPT, Chase, ChaseMark, Combatant
from bot.errors import RuleViolation
from bot.words import counted


def fastest(c: Combatant, tx: Tx) -> float:
    """``c``'s fastest available movement speed now, in meters (UTTAS "Chase Scenes"; disabled
    legs and stances count, as :func:`bot.engine.uttas.limbs.speed` says)."""
    return max(limbs.speed(c, mode, tx.tables) for mode in MOVEMENT_MODES)


def _pace(c: Combatant, tx: Tx) -> str:
    return f"{tx.scale.show(fastest(c, tx))} and Speed {c.sheet.speed}"


def start_chase(tx: Tx, cmd: StartChase) -> None:
    """Game Master: ``pursuer`` chases ``quarry`` — only when their fastest movement and their
    Speed are the same (UTTAS "Chase Scenes"). Raises :class:`RuleViolation` with the text's
    outcome otherwise (the pursuer overtakes, or the quarry escapes), when either is out of the
    fight, or when another chase runs; a second pursuer of the same quarry joins the chase."""
    tx.require_active()
    q, p = tx.view(cmd.quarry), tx.view(cmd.pursuer)
    if q.id == p.id:
        raise RuleViolation(f"{names.escaped(q.name)} cannot chase themselves.")
    for c in (q, p):
        if tx.is_out(c):
            raise RuleViolation(
                f"{names.escaped(c.name)} is out of the fight and cannot take part in a chase."
            )
    chase = tx.state.chase
    if chase is not None and chase.quarry != q.id:
        raise RuleViolation(
            f"{names.escaped(tx.view(chase.quarry).name)} is already being chased: end that chase "
            "first."
        )
    if chase is not None and p.id in chase.pursuers:
        raise RuleViolation(f"{names.escaped(p.name)} is already chasing {names.escaped(q.name)}.")
    _require_same_pace(tx, q, p)
    if cmd.gap_m is not None:
        tx.state.positions = tx.state.positions.with_distance(p.id, q.id, cmd.gap_m)
    pursuers = [*(chase.pursuers if chase else []), p.id]
    since = chase.since_round if chase else tx.state.round
    tx.state.chase = Chase(quarry=q.id, pursuers=pursuers, since_round=since)
    _mark(tx)
    gap = tx.state.positions.distance(p.id, q.id)
    apart = f", {tx.scale.show(gap)} apart" if gap is not None else ""
    apart = apart or " (how far apart: `/gm place distance`)"
    joins = "joins the chase of" if chase else "chases"
    tx.note(f"Chase scene: {p.name} {joins} {q.name}{apart} — both at {_pace(q, tx)}.")


def _require_same_pace(tx: Tx, q: Combatant, p: Combatant) -> None:
    qm, pm, qs, ps = fastest(q, tx), fastest(p, tx), q.sheet.speed, p.sheet.speed
    if (qm, qs) == (pm, ps):
        return
    paces = f"{names.escaped(p.name)}: {_pace(p, tx)}; {names.escaped(q.name)}: {_pace(q, tx)}"
    if pm >= qm and ps >= qs:
        raise RuleViolation(
            f"No chase scene: {names.escaped(p.name)} can overtake {names.escaped(q.name)} "
            f"({paces}), so combat continues as normal."
        )
    raise RuleViolation(
        f"No chase scene: {names.escaped(p.name)} cannot keep pace with {names.escaped(q.name)} "
        f"({paces}), so {names.escaped(q.name)} will eventually escape."
    )


def end_chase(tx: Tx, cmd: EndChase) -> None:
    """Game Master: the chase ends — the quarry ``caught``, ``escaped``, or ``called off``.
    Raises :class:`RuleViolation` when no chase runs."""
    chase = tx.state.chase
    if chase is None:
        raise RuleViolation("No chase is running in this encounter.")
    name = tx.view(chase.quarry).name
    how = {"caught": f"{name} is caught", "escaped": f"{name} escapes"}
    _end(tx, chase, how.get(cmd.outcome, "the GM calls it off"))


def _end(tx: Tx, chase: Chase, how: str) -> None:
    tx.state.chase = None
    rounds = max(1, tx.state.round - chase.since_round + 1)
    # rules version 6 counts in plain English; versions 1-5 wrote "round(s)" and still do
    lasted = counted(rounds, "round") if tx.reads("counted_words") else f"{rounds} round(s)"
    tx.note(f"The chase ends after {lasted}: {how}.")


def follow(tx: Tx) -> None:
    """After every command: the chase ends when the quarry is out of the fight (caught), every
    pursuer is (it escapes), or the fight is over; otherwise the round's gaps are recorded."""
    chase = tx.state.chase
    if chase is None:
        return
    here = {c.id for c in tx.state.combatants}
    if chase.quarry not in here:  # the GM removed the quarry
        _end(tx, chase, "the one it chased left the encounter")
        return
    if any(p not in here for p in chase.pursuers):  # a pursuer left: the others go on
        left = [p for p in chase.pursuers if p in here]
        if not left:
            _end(tx, chase, "nobody is left chasing")
            return
        chase = chase.model_copy(update={"pursuers": left})
        tx.state.chase = chase
    quarry = tx.view(chase.quarry)
    if tx.is_out(quarry):
        _end(tx, chase, f"{quarry.name} is caught")
    elif all(tx.is_out(tx.view(p)) for p in chase.pursuers):
        _end(tx, chase, f"{quarry.name} escapes, nobody is left to chase them")
    elif tx.state.phase != "active":
        _end(tx, chase, "the fight is over")
    else:
        _mark(tx)


def _mark(tx: Tx) -> None:
    """Record the gaps of this round (replacing an earlier record of the same round)."""
    chase = tx.state.chase
    assert chase is not None
    positions = tx.state.positions
    gaps = {p: positions.distance(p, chase.quarry) for p in chase.pursuers}
    last = chase.marks[-1] if chase.marks else None
    if last is not None and last.round == tx.state.round and last.gaps == gaps:
        return
    earlier = [m for m in chase.marks if m.round != tx.state.round]
    marks = [*earlier, ChaseMark(round=tx.state.round, gaps=gaps)][-CHASE_MARKS_KEPT:]
    tx.state.chase = chase.model_copy(update={"marks": marks})


def kept_gaps(tx: Tx, cid: str) -> dict[str, float]:
    """The gaps a chase member keeps when it moves without saying where to (both sides are
    "constantly moving"): other member id → meters."""
    chase = tx.state.chase
    if chase is None or cid not in (chase.quarry, *chase.pursuers):
        return {}
    others = [chase.quarry] if cid != chase.quarry else chase.pursuers
    kept: dict[str, float] = {}
    for other in others:
        gap = tx.state.positions.distance(cid, other)
        if gap is not None:
            kept[other] = gap
    return kept


def lines(chase: Chase | None, name: dict[str, str], scale: Scale = METERS) -> list[str]:
    """The chase in words for the tracker: who chases whom, the gaps now and by round (in
    ``scale``'s unit)."""
    if chase is None:
        return []
    q = name.get(chase.quarry, chase.quarry)
    who = ", ".join(name.get(p, p) for p in chase.pursuers)
    out = [f"{who} chasing {q} since round {chase.since_round}"]
    for p in chase.pursuers:
        history = [
            f"R{m.round} {scale.show(gap)}"
            if (gap := m.gaps.get(p)) is not None
            else f"R{m.round} ?"
            for m in chase.marks
            if p in m.gaps
        ]
        if history:
            out.append(f"{name.get(p, p)} ↔ {q}: " + " · ".join(history[-8:]))
    return out
