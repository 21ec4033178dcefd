"""UTTAS rehearsal policies for ``/rehearse`` (issue 18; ``docs/rehearse.md``): how each
combatant plays a rehearsed fight, both sides alike.

``simple`` (the default), on its own turn (UTTAS "Combat": one action per turn):

1. **Breathe when low**: with Stamina at or under a quarter of its sheet's and a breather left
   ("Take a Breather"), it takes a breather.
2. **Attack the most hurt enemy in reach**: enemies still in the fight, most hurt first (the
   smallest share of Health left, then of Stamina); with each, the attacks of
   ``Ruleset.attack_names`` in their order (weapons, attack powers, martial arts, basic
   maneuvers) — the first the rules accept (in reach, affordable) is made.
3. Nobody in reach: a full Move toward the most hurt enemy; else it ends its turn.

As the target of an attack ("Perform a Reaction command"), it takes the best basic Defend
reaction it can afford — the table's largest Dodge bonus (ties: Armor, then Defense bonus;
shipped tables: Evade) — when that leaves it at least one action of its Speed pool for its own
turn; otherwise no reaction. It never surrenders, intercepts or counterattacks; a target whose
attacker must choose after a surrender completes the attack.

``reckless``: as ``simple`` but it never reacts and never takes a breather.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.engine.core.commands import CommandBase, EndTurn
from bot.engine.core.rehearse import TurnPolicy
from bot.engine.uttas.commands import Attack, Breather, Move, React, ResolveSurrender
from bot.engine.uttas.state import OUT, Combatant, UttasState
from bot.engine.uttas.tables import UttasTables

POLICIES: tuple[str, ...] = ("simple", "reckless")
"""The policies ``/rehearse policy:`` offers for UTTAS, the default first."""
LOW_STAMINA = 0.25
"""The share of its sheet's Stamina at or under which the ``simple`` policy takes a breather."""
DEFEND = ("evade", "block", "move")


def _hurt(c: Combatant) -> tuple[float, float]:
    return c.health / max(1, c.sheet.health), c.stamina / max(1, c.sheet.stamina)


class UttasPolicy(TurnPolicy):
    """One of :data:`POLICIES` over ``tables`` (see the module's docstring)."""

    system = "UTTAS"
    policies = POLICIES
    out = OUT

    def __init__(self, tables: UttasTables, attack_names: Any, name: str) -> None:
        super().__init__(name)
        self.tables = tables
        self.attack_names = attack_names
        self.careful = name == "simple"
        ranked = sorted(
            (k for k in DEFEND if k in tables.reactions),
            key=lambda k: (
                tables.reactions[k].dodge_bonus,
                tables.reactions[k].armor_bonus,
                tables.reactions[k].defense_bonus,
            ),
            reverse=True,
        )
        self.best_defend = ranked[0] if ranked else None

    def _answer(self, state: UttasState, p: Any) -> list[CommandBase]:
        ref = p.id or None
        if p.awaiting == "attacker":
            return [ResolveSurrender(actor=p.attacker, complete=True, decision=ref)]
        out: list[CommandBase] = []
        t = state.get(p.target)
        if (
            self.careful
            and self.best_defend is not None
            and t.actions_left >= 2
            and not t.breathing
        ):
            out.append(React(actor=t.id, choice=self.best_defend, decision=ref))
        out.append(React(actor=t.id, choice="none", decision=ref))
        return out

    def _turn(self, state: UttasState, me: Combatant) -> Iterator[CommandBase]:
        """Lazily, best first: a command is built only when the one before it was refused."""
        sheet = me.sheet
        if (
            self.careful
            and me.breather_uses > 0
            and me.stamina <= LOW_STAMINA * sheet.stamina
            and not me.moved_this_turn
        ):
            yield Breather(actor=me.id)
        enemies = sorted(
            (c for c in state.combatants if c.side != me.side and not self.is_down(c)),
            key=_hurt,
        )
        attacks = self.attack_names(me)
        for enemy in enemies:
            for a in attacks:
                yield Attack(actor=me.id, target=enemy.id, attack=a)
        if enemies and not me.moved_this_turn and sheet.movement.run > 0:
            yield Move(
                actor=me.id, meters=float(sheet.movement.run), full=True, toward=enemies[0].id
            )
        yield EndTurn(actor=me.id)
