"""Uune's standing reactions (issue 17, "Standing reactions"; :mod:`bot.engine.core.standing`).

Uune SRD "Defend": "When avoiding an NPC's attack, complete the following special action. This
does not use your turn action while in conflict" — the one roll a PC makes off its turn, so the
one a standing reaction answers. Its window that can run out unanswered is the rolled Defend's
:class:`~bot.engine.uune.state.SpendDecision` (stage ``after_roll``): the PC keeps the roll or
spends on it ("Focus", "Vitality"; the choices of :mod:`bot.engine.uune.options`). The approval
before the roll is the GM's (its lapse rolls with what was approved), so no standing reaction
answers it.

A step names a spend — it is taken when it is offered, i.e. sensible and affordable now (a
missed die to reroll, the focus or vitality to pay) — or ``keep``. A spend changes the roll,
which waits again with a fresh window: when that one runs out too, the rule is read again
(so ``reroll with vitality if I can afford it, else keep`` rerolls while a die missed and the
vitality lasts, one die per window, then keeps)."""

from __future__ import annotations

from typing import Any

from bot.engine.core.contract_models import ReactionOption
from bot.engine.core.standing import StandingWords
from bot.engine.uune.state import SpendDecision

WORDS = StandingWords(
    choices={
        "keep": "keep",
        "keep the roll": "keep",
        "keep it": "keep",
        "reroll with vitality": "vitality_reroll",
        "vitality reroll": "vitality_reroll",
        "bump with vitality": "vitality_bump",
        "vitality bump": "vitality_bump",
        "bump": "vitality_bump",
        "reroll with focus": "focus_reroll",
        "focus reroll": "focus_reroll",
        "force with focus": "focus_force",
        "focus force": "focus_force",
    },
    example="reroll with focus if I can afford it, else keep",
)
"""The words a Uune standing reaction understands: the spends of "Focus" (force a resource die
to hit, reroll the lowest missed resource dice) and "Vitality" (reroll a missed die, bump a die
one face short of a hit), and keeping the roll. No conditions: every step always applies."""


def applies(decision: Any) -> bool:
    """Whether a standing reaction answers ``decision``: a rolled Defend's spends only."""
    return isinstance(decision, SpendDecision) and decision.purpose == "defend"


def choice_of(option: ReactionOption) -> str:
    """The spend an option is, without its dice (``vitality_reroll:2`` is ``vitality_reroll``:
    the rule names the spend, the option the die it is sensible on)."""
    return option.choice.partition(":")[0]
