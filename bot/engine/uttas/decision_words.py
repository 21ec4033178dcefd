"""UTTAS's pending decisions in words (``Ruleset.decision_words``): an attack waiting for its
target's reaction — or for an ally to take the hit — and, after a surrender, the attacker's
choice to complete the attack or stop (``uttas-gameplay.txt``: "Perform a Reaction command",
"Take one for the team", "Surrender")."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.core.audience import View
from bot.engine.core.contract import ReactionOption
from bot.engine.core.decisions import DecisionWords
from bot.engine.uttas.state import PendingAttack, UttasState


def decision_words(
    state: UttasState,
    p: PendingAttack,
    deciders: Mapping[str, list[ReactionOption]],
    public: View,
) -> DecisionWords:
    """``p`` in words for the channel (``public``: names escaped, hidden numbers known)."""
    attacker, target = public.name(p.attacker), public.name(p.target)
    attack = public.escape(p.attack)
    title = f"{_plain(state, p.attacker)} attacks {_plain(state, p.target)} with {p.attack}"
    lapse = "it resolves with no reaction"
    if p.awaiting == "attacker":
        return DecisionWords(
            title=title,
            ask=f"**{target}** surrendered: complete the attack with **{attack}** or stop?",
            ping=f"**{target}** surrendered to **{attacker}**",
            about=f"the attack on **{target}**",
            noun="attack",
            waiting_on=f"**{attacker}**'s choice to complete the attack or stop",
            lapse="the attacker stops and accepts the surrender",
            ran_out="The window ran out: the attacker stops and accepts the surrender",
            open_choices=True,
            window="surrender",
        )
    return DecisionWords(
        title=title,
        ask=f"**{attacker}** attacks **{target}** with **{attack}**: "
        f"{_who_decides(p, deciders, public)}.",
        ping=f"**{attacker}** attacks **{target}** with **{attack}**",
        about=f"the attack on **{target}**",
        noun="attack",
        waiting_on=f"**{target}**'s reaction",
        lapse=lapse,
        ran_out="The reaction window ran out: resolved with no reaction",
    )


def _plain(state: UttasState, cid: str) -> str:
    for c in state.combatants:
        if c.id == cid:
            return str(c.name)
    return "someone"


def _who_decides(
    p: PendingAttack, deciders: Mapping[str, list[ReactionOption]], public: View
) -> str:
    """Each decider's part: the target reacts with a button (or the GM chooses, for an NPC
    whose numbers are hidden); each ally may take the hit."""
    target = public.name(p.target)
    parts: list[str] = []
    for cid, options in deciders.items():
        name = public.name(cid)
        hidden = not public.reveals(cid)
        if cid == p.target:
            # `/dodge` and `/block` only where the buttons offer an Evade or a Block: a
            # combatant taking a breather has neither, and `/block` would be refused.
            typed = [
                command
                for choice, command in (("evade", "`/dodge`"), ("block", "`/block`"))
                if any(o.choice == choice for o in options)
            ]
            also = f" (or {', '.join(typed)})" if typed else ""
            parts.append(
                f"the GM chooses **{name}**'s reaction"
                if hidden
                else f"**{name}** reacts with a button{also}"
            )
        elif hidden:  # whether it can afford to is its secret
            parts.append(f"the GM may have **{name}** take the hit for **{target}**")
        elif any(o.choice == "intercept" for o in options):
            parts.append(f"**{name}** may take the hit for **{target}**")
    if p.target not in deciders:
        parts.insert(0, f"**{target}** cannot react")
    return "; ".join(parts)
