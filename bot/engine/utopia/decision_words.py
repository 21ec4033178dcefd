"""Utopia's pending decision in words (``Ruleset.decision_words``): damage rolled against a
creature waiting for its Block, Dodge or Take Cover (``utopia-actions.txt`` "Block", "Dodge",
"Take Cover"). Its lapse: no defense, the damage is taken."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.core.audience import View
from bot.engine.core.contract import ReactionOption
from bot.engine.core.decisions import DecisionWords
from bot.engine.utopia.state import DamageDecision, UtopiaState


def decision_words(
    state: UtopiaState,
    p: DamageDecision,
    deciders: Mapping[str, list[ReactionOption]],
    public: View,
    unable: str = "",
) -> DecisionWords:
    """``p`` in words for the channel: the damage shows only where the target's numbers do;
    each defense with what it would spend ("Block (1 IA)", on its turn "Block (1 TA)");
    ``unable``: why the target can no longer afford any defense (said instead of an empty
    choice)."""
    attacker, target = public.name(p.attacker), public.name(p.target)
    source = public.escape(p.source)
    amount = f"{p.damage} {p.damage_type} damage" if public.reveals(p.target) else "damage"
    plain = {c.id: str(c.name) for c in state.combatants}
    title = f"{plain.get(p.attacker, 'someone')} hits {plain.get(p.target, 'someone')}"
    if p.target in deciders and not public.reveals(p.target):
        who = f"the GM chooses **{target}**'s defense"
    elif p.target in deciders and unable:
        who = f"**{target}** cannot defend ({unable}): **Take it** settles it"
    elif p.target in deciders:
        who = f"**{target}** may {_choices(deciders[p.target])}"
    else:
        who = f"**{target}** cannot defend"
    return DecisionWords(
        title=f"{title} with {p.source}"[:256],
        ask=f"**{attacker}** hits **{target}** with **{source}** for {amount}: {who}.",
        ping=f"**{attacker}** hits **{target}** with **{source}**",
        about=f"the damage to **{target}**",
        noun="damage",
        waiting_on=f"**{target}**'s defense",
        lapse="the damage is taken with no defense",
        ran_out="The window ran out: the damage is taken with no defense",
        gm_chooses="defense",
    )


_SAID = {"cover": "Take Cover"}
"""A defense's name in a sentence where its button's label says more ("Take Cover behind an
obstacle": the player's claim is the button's)."""


def _choices(options: list[ReactionOption]) -> str:
    """``Block (1 IA), Dodge (1 IA) or Take Cover (1 IA)``: each defense with its cost."""
    named = [
        f"{_SAID.get(o.choice, o.label)} ({', '.join(f'{n} {k}' for k, n in o.costs.items())})"
        for o in options
        if o.choice != "none"
    ]
    if len(named) < 2:
        return "".join(named)
    return ", ".join(named[:-1]) + " or " + named[-1]
