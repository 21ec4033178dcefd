"""Uune's decisions in words (:class:`~bot.engine.core.decisions.DecisionWords`): the GM's
approval before a roll and the spends after it."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.core.audience import View
from bot.engine.core.contract import ReactionOption
from bot.engine.core.decisions import DecisionWords
from bot.engine.uune.core import Tx
from bot.engine.uune.options import shown
from bot.engine.uune.state import ApprovalDecision, SpendDecision


def approval_words(tx: Tx, d: ApprovalDecision, public: View) -> DecisionWords:
    """ "Actions": the GM names the difficulty and approves or refuses each resource ("Bonds":
    grants or refuses a point of focus for acting on a bond)."""
    who = public.name(d.actor)
    if d.purpose == "bond":
        bond = ", ".join(public.text(r) for r in d.proposed)
        return DecisionWords(
            title=f"{tx.view(d.actor).name} acts on a bond"[:256],
            ask=f"GM: grant {who} a point of focus for acting on {bond}, or refuse it."[:1500],
            ping=f"**{who}** asks the GM for a point of focus",
            about=f"{who}'s focus from a bond",
            noun="approval",
            waiting_on=f"the GM's answer to {who}'s bond",
            lapse="the focus is not granted",
            ran_out="The window ran out: the focus is not granted",
            open_choices=True,
            window="approval",
        )
    action = public.text(d.action)
    if d.purpose == "defend" and not d.undecided():  # its roller proposes first ("Defend")
        rung = tx.tables.rung(d.difficulty or 0)
        return DecisionWords(
            title=f"{tx.view(d.actor).name}'s roll for {d.action}"[:256],
            ask=(
                f"{who}: propose resources for {action} (difficulty {rung.hits}: {rung.name}) "
                "with `/act action:propose`, or roll now."
            )[:1500],
            ping=f"**{who}** defends",
            about=f"{who}'s Defend",
            noun="approval",
            waiting_on=f"{who}'s Defend",
            lapse="the Defend is rolled with what is approved",
            ran_out="The window ran out: the Defend is rolled with what is approved",
            open_choices=True,
            window="Defend",
        )
    undecided = ", ".join(public.text(shown(tx, r)) for r in d.undecided()) or "none"
    need = (
        "name the difficulty and "
        if d.difficulty is None
        else f"(difficulty {d.difficulty}: {tx.tables.rung(d.difficulty).name}) "
    )
    lapse = (
        "the resources not answered are refused and the roll is made"
        if d.difficulty is not None
        else "the action is called off"
    )
    ask = f"GM: {need}approve or refuse {who}'s resources for {action}: {undecided}."
    if not d.undecided() and d.difficulty is None:  # no resource waits: only the difficulty
        ask = (
            f"GM: name the difficulty of {who}'s {action} (every resource is answered)."
            if d.proposed
            else f"GM: name the difficulty of {who}'s {action} (no resources proposed; "
            "`/act action:propose` adds some)."
        )
    return DecisionWords(
        title=f"{tx.view(d.actor).name}'s roll for {d.action}"[:256],
        ask=ask[:1500],
        ping=f"**{who}** waits for the GM's approval",
        about=f"the approval of {who}'s roll",
        noun="approval",
        waiting_on=f"the GM's approval of {who}'s roll",
        lapse=lapse,
        ran_out=f"The approval window ran out: {lapse}",
        open_choices=True,
        window="approval",
    )


def spend_words(
    tx: Tx, d: SpendDecision, deciders: Mapping[str, list[ReactionOption]], public: View
) -> DecisionWords:
    """ "Focus", "Vitality": the roll may still change before it is final."""
    who = public.name(d.actor)
    npcs = [public.name(cid) for cid in deciders if cid != d.actor]
    also = f" {', '.join(npcs)} may force a reroll of a hit die." if npcs else ""
    return DecisionWords(
        title=f"{tx.view(d.actor).name}'s roll for {d.action}"[:256],
        ask=(
            f"{who}: {public.text(d.roll.shown())}. Keep the roll, or spend focus or "
            f"vitality on it.{also}"
        )[:1500],
        ping=f"**{who}** may spend on their roll",
        about=f"{who}'s roll",
        noun="roll",
        waiting_on=f"{who} to keep their roll",
        lapse="the roll stands as it is",
        ran_out="The window ran out: the roll stands as it is",
        open_choices=False,
        gm_chooses="forced reroll",
        window="roll",
    )
