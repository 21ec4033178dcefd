"""Utopia rehearsal policies for ``/rehearse`` (issue 18; ``docs/rehearse.md``): how each
creature plays a rehearsed fight, both sides alike.

``simple`` (the default), on its own turn (``utopia-actions.txt``: turn actions spent one by
one):

1. **Breathe when low**: with Stamina at or under a quarter of its sheet's, a Deep Breath
   (1 TA for 1 Stamina).
2. **Attack the most hurt enemy in reach**, as long as the rules accept: enemies not Down, the
   smallest share of their Surface and Deep HP left first; its weapons in the sheet's order,
   then weaponless.
3. Otherwise a Travel toward the most hurt enemy when it is known to be farther than melee;
   then it ends its turn (the turn actions left are lost).

As the target of damage it takes **the best affordable defense**: of Block (Block Rating d4)
and Dodge (Dodge Rating d12), the one whose dice average more, when the rules let it pay (an
interrupt action off its turn); otherwise none. It never Takes Cover and leaves an Assist
decision to the bot's default (``Ruleset.lapse``: the defender rolls).

``reckless``: it never defends and never takes a Deep Breath.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.positions import ENGAGED_M
from bot.engine.core.rehearse import TurnPolicy
from bot.engine.utopia.commands import Attack, DeepBreath, Defend, Travel
from bot.engine.utopia.state import OUT, DamageDecision, UtopiaCombatant, UtopiaState
from bot.engine.utopia.tables import UtopiaTables

POLICIES: tuple[str, ...] = ("simple", "reckless")
"""The policies ``/rehearse policy:`` offers for Utopia, the default first."""
LOW_STAMINA = 0.25
"""The share of its sheet's Stamina at or under which ``simple`` takes a Deep Breath."""


def _left(c: UtopiaCombatant) -> float:
    return (c.shp + c.dhp) / max(1, c.sheet.shp + c.sheet.dhp)


class UtopiaPolicy(TurnPolicy):
    """One of :data:`POLICIES` (see the module's docstring). ``lapse``: the ruleset's default
    answer to a decision (``Ruleset.lapse``)."""

    system = "Utopia"
    policies = POLICIES
    out = OUT

    def __init__(self, tables: UtopiaTables, name: str, lapse: Any) -> None:
        super().__init__(name)
        self.tables = tables
        self.careful = name == "simple"
        self.lapse = lapse

    def _answer(self, state: UtopiaState, p: Any) -> Iterator[CommandBase]:
        ref = p.id or None
        if isinstance(p, DamageDecision):
            if self.careful:
                t = state.get(p.target).sheet
                block = t.block_rating * (self.tables.block.sides + 1)
                dodge = t.dodge_rating * (self.tables.dodge.sides + 1)
                order = ("dodge", "block") if dodge >= block else ("block", "dodge")
                for choice in order:
                    yield Defend(actor=p.target, choice=choice, decision=ref)
            yield Defend(actor=p.target, choice="none", decision=ref)  # as ``lapse`` would
            return
        yield self.lapse(state, p)

    def _turn(self, state: UtopiaState, me: UtopiaCombatant) -> Iterator[CommandBase]:
        """Lazily, best first: a command is built only when the one before it was refused."""
        if self.careful and me.stamina <= LOW_STAMINA * me.sheet.stamina:
            yield DeepBreath(actor=me.id)
        enemies = sorted(
            (c for c in state.combatants if c.side != me.side and not self.is_down(c)), key=_left
        )
        weapons: list[str | None] = [w.name for w in me.sheet.weapons]
        for enemy in enemies:
            for weapon in [*weapons, None]:
                yield Attack(actor=me.id, target=enemy.id, weapon=weapon)
        if enemies:
            gap = state.positions.distance(me.id, enemies[0].id)
            if gap is not None and gap > ENGAGED_M:  # unknown: every weapon is in reach
                yield Travel(actor=me.id, toward=enemies[0].id)
        yield EndTurn(actor=me.id)
