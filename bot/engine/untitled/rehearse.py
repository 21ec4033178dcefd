"""Untitled rehearsal policies for ``/rehearse`` (issue 18; ``docs/rehearse.md``): how each
creature plays a rehearsed fight, both sides alike.

``simple`` (the default), on its own turn (Untitled "Combat": a standard action and move
actions):

1. **Attack the most hurt enemy in reach**: enemies not Down, the smallest share of their
   Health pool left first; with each, its weapons in the sheet's order — the first the rules
   accept (in reach, drawn, loaded) is used.
2. Otherwise, in this order, what the rules accept: **reload** a ranged weapon, **draw** a
   weapon, **move toward** the most hurt enemy when it is known to be farther than melee; then
   it ends its turn.

As a defender with a shield it **raises the shield** (its dice are added to Combat Defense: the
best answer, it costs nothing); any other choice an attack waits on is left to the bot's default
(``Ruleset.lapse``). Untitled has no breather: "breathe when low" has no counterpart.

``reckless``: the same (Untitled's defense costs nothing, so there is nothing to leave out).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.positions import ENGAGED_M
from bot.engine.core.rehearse import TurnPolicy
from bot.engine.untitled.commands import Attack, Defend, Draw, Move, Reload
from bot.engine.untitled.state import OUT, UntitledCombatant, UntitledState

POLICIES: tuple[str, ...] = ("simple", "reckless")
"""The policies ``/rehearse policy:`` offers for Untitled, the default first."""


class UntitledPolicy(TurnPolicy):
    """One of :data:`POLICIES` (see the module's docstring). ``lapse``: the ruleset's default
    answer to a decision (``Ruleset.lapse``)."""

    system = "Untitled"
    policies = POLICIES
    out = OUT

    def __init__(self, name: str, lapse: Any) -> None:
        super().__init__(name)
        self.lapse = lapse

    def _answer(self, state: UntitledState, p: Any) -> Iterator[CommandBase]:
        ref = p.id or None
        if p.stage == "reaction":
            yield Defend(actor=p.target, choice="shield", decision=ref)
            yield Defend(actor=p.target, choice="none", decision=ref)
        yield self.lapse(state, p)

    def _turn(self, state: UntitledState, me: UntitledCombatant) -> Iterator[CommandBase]:
        """Lazily, best first: a command is built only when the one before it was refused."""
        enemies = sorted(
            (c for c in state.combatants if c.side != me.side and not self.is_down(c)),
            key=lambda c: c.health / max(1, c.sheet.health),
        )
        weapons = [w.name for w in me.sheet.weapons]
        for enemy in enemies:
            for weapon in weapons:
                yield Attack(actor=me.id, target=enemy.id, weapon=weapon)
        if me.unloaded:
            yield Reload(actor=me.id)
        for weapon in me.stowed:
            if weapon in weapons:
                yield Draw(actor=me.id, weapon=weapon)
        if enemies:
            gap = state.positions.distance(me.id, enemies[0].id)
            if gap is not None and gap > ENGAGED_M:  # unknown: every weapon is in reach
                yield Move(actor=me.id, toward=enemies[0].id)
        yield EndTurn(actor=me.id)
