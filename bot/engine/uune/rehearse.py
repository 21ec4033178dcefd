"""Uune rehearsal policy for ``/rehearse`` (issue 18; ``docs/rehearse.md``): how each
combatant plays a rehearsed conflict, both sides alike (Uune SRD "Conflict", "Actions",
"Attack", "Defend", "Focus", "NPCs and Statblocks").

``simple`` (the only one), on its own turn ("Conflict": one action per turn; the PCs in the
order they stand, nobody chosen to go next):

- a PC **attacks the most hurt NPC** ("Attack": enemies not Incapacitated, the smallest share of
  their vitality left first), proposing **its usual resources**: the resources the GM approved
  for the scene, then the sheet's resources with the most dice (proficiency included; ties in the
  sheet's order) up to :data:`USUAL` in all;
- an NPC **attacks the most hurt PC** with its statblock's attacks in the statblock's order
  ("NPCs and Statblocks"); a combatant that can do neither ends its turn.

The Game Master's side **approves every resource proposed** (the difficulty of an Attack or a
Defend comes from the rules). As the target of an NPC's attack a PC **Defends** ("Defend")
proposing the same usual resources. Spends ("Focus", "Vitality"): a PC whose roll falls short
of the hits needed and has the focus **forces its first missing resource die to hit**, again
while it still falls short and can pay; otherwise it keeps the roll. It never spends vitality,
and an NPC never forces a reroll. Any other decision (a bond's claim, a plain action's
difficulty) is left to the bot's default (``Ruleset.lapse``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.rehearse import TurnPolicy
from bot.engine.uune.commands import Approve, Attack, NpcAttack, Propose, Spend
from bot.engine.uune.sheet import UuneSheet, UuneStatblock
from bot.engine.uune.state import (
    OUT,
    ApprovalDecision,
    SpendDecision,
    UuneCombatant,
    UuneState,
)
from bot.engine.uune.tables import UuneTables
from bot.engine.uune.terms import BASE_DIE

POLICIES: tuple[str, ...] = ("simple",)
"""The policies ``/rehearse policy:`` offers for Uune."""
USUAL = 3
"""How many resources a PC proposes for its Attack and its Defend."""


def usual_resources(c: UuneCombatant) -> tuple[str, ...]:
    """``c``'s usual resources (module docstring): its standing ones, then the sheet's with
    the most dice first (ties in the sheet's order), :data:`USUAL` in all; none for an NPC."""
    sheet = c.sheet
    if not isinstance(sheet, UuneSheet):
        return ()
    on_sheet = sheet.resources()
    by_dice = sorted(on_sheet, key=lambda r: (-sheet.resource_dice(r), on_sheet.index(r)))
    chosen = dict.fromkeys(r for r in (*c.standing, *by_dice) if r in on_sheet)
    return tuple(chosen)[:USUAL]


class UunePolicy(TurnPolicy):
    """``simple`` (see the module's docstring). ``lapse``: the ruleset's default answer to a
    decision (``Ruleset.lapse``)."""

    system = "Uune"
    policies = POLICIES
    out = OUT

    def __init__(self, tables: UuneTables, name: str, lapse: Any) -> None:
        super().__init__(name)
        self.tables = tables
        self.lapse = lapse

    def _left(self, c: UuneCombatant) -> float:
        return c.health.now(self.tables) / max(1, c.health.base)

    def _answer(self, state: UuneState, p: Any) -> Iterator[CommandBase]:
        ref = p.id or None
        if isinstance(p, ApprovalDecision) and p.purpose in ("attack", "defend"):
            usual = usual_resources(state.get(p.actor))
            more = tuple(r for r in usual if r not in p.proposed)
            if p.purpose == "defend" and not p.proposed and more:
                yield Propose(actor=p.actor, resources=more, decision=ref)
            yield Approve(actor=p.actor, all="approve", decision=ref)
        elif isinstance(p, SpendDecision):
            me = state.get(p.actor)
            if not p.roll.success and me.focus >= self.tables.focus.force_cost:
                hit_on = self.tables.dice.hit_on
                for i, die in enumerate(p.roll.roll.dice):
                    if die.label != BASE_DIE and die.value < hit_on:
                        yield Spend(actor=me.id, choice="focus_force", dice=(i + 1,), decision=ref)
                        break
            yield Spend(actor=p.actor, choice="keep", decision=ref)
        yield self.lapse(state, p)

    def _turn(self, state: UuneState, me: UuneCombatant) -> Iterator[CommandBase]:
        """Lazily, best first: a command is built only when the one before it was refused."""
        npc = isinstance(me.sheet, UuneStatblock)
        enemies = sorted(
            (
                c
                for c in state.combatants
                if c.side != me.side
                and not self.is_down(c)
                and isinstance(c.sheet, UuneSheet) == npc  # a PC attacks NPCs, an NPC PCs
            ),
            key=self._left,
        )
        for enemy in enemies:
            if isinstance(me.sheet, UuneStatblock):
                for a in me.sheet.attacks:
                    yield NpcAttack(actor=me.id, target=enemy.id, attack=a.name)
            else:
                yield Attack(actor=me.id, target=enemy.id, resources=usual_resources(me))
        yield EndTurn(actor=me.id)
