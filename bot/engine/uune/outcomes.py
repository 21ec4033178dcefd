"""What a special action's final roll does (Uune SRD "Stealth", "Downtime", "Insight",
"Observe") and what the GM's answer to a bond claim does ("Bonds"). Called by
:func:`bot.engine.uune.rolls.resolve` once the roll is final; pure state changes through the
transaction, no dice."""

from __future__ import annotations

from typing import get_args

from bot.engine.uune import checks, health
from bot.engine.uune.core import Tx
from bot.engine.uune.state import ApprovalDecision, SpendDecision, StealthLevel

STEALTH_LEVELS: tuple[StealthLevel, ...] = get_args(StealthLevel)
"""Observed, Hidden, Undetected: the "Stealth" table's rows, lowest first."""
EMOTIONS = "anger, contempt, disgust, enjoyment, fear, sadness or surprise"
""" "Insight": the rough emotions the facilitator chooses from."""


def special(tx: Tx, d: SpendDecision) -> bool:
    """Resolve ``d`` when it is a special action's roll; returns False for any other."""
    handler = _OUTCOMES.get(d.purpose)
    if handler is None:
        return False
    handler(tx, d)
    return True


def _stealth(tx: Tx, d: SpendDecision) -> None:
    """ "Stealth": a success reaches the level sought (``d.detail``); the bot's reading of a
    failure (the text is silent): the character is Observed."""
    c, roll = tx.view(d.actor), d.roll
    level: StealthLevel = "observed"
    if roll.success and d.detail in STEALTH_LEVELS:
        level = d.detail
    tx.c(c.id).stealth = level
    verdict = "succeeds" if roll.success else "fails"
    tx.note(
        f"{c.name}'s Stealth {verdict} ({roll.hits} of {roll.required} hits): "
        f"{c.name} is {level.title()}.",
        c.id,
    )


def _downtime(tx: Tx, d: SpendDecision) -> None:
    """ "Downtime": on a success 50 vitality back, the heaviest stress heals a step and, after
    a day, the heaviest wound (:func:`bot.engine.uune.health.downtime`)."""
    c, roll, t = tx.view(d.actor), d.roll, tx.tables
    living, _, day = (d.detail or "comfortable").partition(";")
    needed = t.downtime.living[living]  # type: ignore[index]
    # The roll already counted Impaired and help: pass the hits as meeting the need or not.
    result = health.downtime(
        c.health, needed if roll.success else 0, living, t, a_day_passed=day == "day"
    )
    if not result.success:
        tx.note(f"{c.name}'s Downtime fails ({roll.hits} of {roll.required} hits).", c.id)
        return
    tx.set_health(c.id, result.health, "downtime")
    steps = []
    if result.wound_step == "unstable":
        steps.append("the heaviest wound is not stabilised and does not heal")
    elif result.wound_step != "none":
        steps.append(f"the heaviest wound heals a step ({result.wound_step})")
    if result.stress_step != "none":
        steps.append(f"the heaviest stress heals a step ({result.stress_step})")
    healed = "; " + "; ".join(steps) if steps else ""
    tx.note(
        f"{c.name}'s Downtime succeeds: {t.downtime.restore} vitality restored{healed} "
        f"({tx.vitality_line(tx.view(c.id))}).",
        c.id,
    )


def _insight(tx: Tx, d: SpendDecision) -> None:
    """ "Insight": hits meeting the NPC's Social give a rough emotion (the GM's words)."""
    c, roll = tx.view(d.actor), d.roll
    npc = tx.view(d.target) if d.target else None
    who = npc.name if npc else "them"
    if checks.insight_reads(roll.hits, roll.required):
        tx.note(
            f"{c.name} catches {who}'s body language: the GM gives a rough emotion ({EMOTIONS}).",
            c.id,
        )
    else:
        tx.note(f"{c.name} does not observe anything in particular about {who}.", c.id)


def _observe(tx: Tx, d: SpendDecision) -> None:
    """ "Observe": the senses that notice something odd by the hits over the difficulty."""
    c, roll = tx.view(d.actor), d.roll
    senses = checks.observe_senses(roll.hits, roll.required, tx.tables)
    what = d.detail or "something odd"
    if senses == 0:
        tx.note(f"{c.name} notices nothing odd ({roll.hits} of {roll.required} hits).", c.id)
    else:
        n = "one sense" if senses == 1 else f"{senses} senses"
        tx.note(
            f"{c.name} observes {what}: something odd with {n} — the GM says what.",
            c.id,
        )


def _stabilise(tx: Tx, d: SpendDecision) -> None:
    """ "Wounds": a success stabilises every lethal and heavy wound of the target, so they
    mend with Downtime; a failure leaves them as they were."""
    c, roll = tx.view(d.actor), d.roll
    if d.target is None:
        return
    target = tx.view(d.target)
    if not roll.success:
        tx.note(
            f"{c.name} fails to stabilise {target.name}'s wounds "
            f"({roll.hits} of {roll.required} hits).",
            c.id,
        )
        return
    tx.set_health(target.id, health.stabilise(target.health), "stabilised")
    tx.note(
        f"{c.name} stabilises {target.name}'s wounds ({roll.hits} of {roll.required} hits): "
        "they will mend with Downtime.",
        target.id,
    )


_OUTCOMES = {
    "stabilise": _stabilise,
    "stealth": _stealth,
    "downtime": _downtime,
    "insight": _insight,
    "observe": _observe,
}


def grant_bond(tx: Tx, d: ApprovalDecision) -> None:
    """ "Bonds": the GM granted (approved) or refused the claim; granted, the PC gains a point
    of focus (up to its maximum) and has used its bond focus for the scene."""
    c = tx.view(d.actor)
    if not d.approved:
        tx.note(f"The GM does not grant {c.name} focus for acting on a bond.", c.id)
        return
    top = tx.focus_max(c)
    m = tx.c(c.id)
    m.focus, m.bond_focus = min(top, c.focus + 1), True
    tx.note(f"{c.name} acts on a bond and gains a point of focus ({m.focus}/{top}).", c.id)
