"""UTTAS exact odds for ``/odds`` (issue 18): the Accuracy check and the damage of one attack,
for every basic reaction the target could take, from the numbers the engine rolls with.

UTTAS "Accuracy Checks": 3d6 ± Advantage dice + ``[key + Dexterity] / 2`` must be strictly
higher than Dodge or Discipline; "Damage": Health takes one point per damage die less Armor,
Stamina the rolled total less Defense; "Perform a Reaction command": Evade, Block and Move add
the table's bonuses (``tables.reactions``) — none against an Unconscious or Surrendered target,
which "cannot take any actions" and is asked for no reaction: only the no-reaction line, saying
so (a dead one gets no odds: ``UttasRuleset.odds_out``). The figures come from
:func:`bot.engine.uttas.plausibility.swing` (exact distributions, never sampled), which reads
:func:`~bot.engine.uttas.hits.accuracy_odds` — the same Advantages (the Game Master's dice on
the attacker included), stances, conditions and range increments
:func:`~bot.engine.uttas.hits.roll_hit` rolls with.
"""

from __future__ import annotations

from fractions import Fraction

from bot.engine.core.odds import DamageSummary, Odds, OddsLine, damage_summary
from bot.engine.core.scale import METERS, Scale
from bot.engine.uttas.hits import NO_DEFENCE, accuracy_odds
from bot.engine.uttas.plausibility import Reaction, swing
from bot.engine.uttas.rules import attack_profile
from bot.engine.uttas.state import OUT, Combatant, PendingAttack, UttasState
from bot.engine.uttas.tables import UttasTables

REACTIONS: tuple[Reaction, ...] = ("none", "evade", "block", "move")
"""The reactions ``/odds`` shows a line for: none, and the table's basic Defend reactions."""


def uttas_odds(
    tables: UttasTables,
    state: UttasState,
    a: Combatant,
    t: Combatant,
    attack: str,
    range_m: float | None,
    scale: Scale = METERS,
) -> Odds:
    """The exact odds of ``a``'s ``attack`` on ``t`` at ``range_m`` meters (None: the distance
    the encounter's positions give, else 2 m), written on the board's ``scale``. Raises
    :class:`~bot.errors.NotFound` for an attack ``a`` does not have."""
    if range_m is None:
        known = state.positions.distance(a.id, t.id)
        range_m = 2.0 if known is None else known
    profile = attack_profile(a, attack, tables)
    gm = a.gm_next_roll + a.gm_every_roll  # the GM's dice join the attack's roll (gm.with_gm_dice)
    more, fewer = max(gm, 0), max(-gm, 0)
    p = PendingAttack(
        attacker=a.id,
        target=t.id,
        attack=profile.name,
        range_m=range_m,
        advantage=more,
        disadvantage=fewer,
    )
    why, _, _ = accuracy_odds(a, t, profile, p, NO_DEFENCE, tables)
    modifiers = tuple(f"+1d6 Advantage: {r}" for r in why.advantages) + tuple(
        f"-1d6 Disadvantage: {r}" for r in why.disadvantages
    )
    helpless = next((name for name in OUT if t.has(name)), None)
    if helpless is not None:  # "cannot take any actions": the attack asks it for no reaction
        modifiers = (*modifiers, f"{t.name} is {helpless}: they cannot react")
    lines: list[OddsLine] = []
    plain = None
    for reaction in REACTIONS:
        if reaction != "none" and (reaction not in tables.reactions or helpless is not None):
            continue
        s = swing(tables, a, t, profile.name, reaction, range_m, advantage=more, disadvantage=fewer)
        plain = plain or s
        word = "no reaction" if reaction == "none" else tables.reactions[reaction].label
        note = f"{s.accuracy_dice}d6 + {s.accuracy_bonus} must beat {s.target_number}"
        lines.append(OddsLine(reaction=word, chance=s.hit, note=note))
    assert plain is not None  # "none" is always measured
    damage = (
        DamageSummary(
            pool="Health",
            low=plain.health_damage,
            median=plain.health_damage,
            high=plain.health_damage,
        ),
        damage_summary("Stamina", plain.damage or {0: Fraction(1)}),
    )
    words = f"{a.name}'s {profile.name} against {t.name} at {scale.show(range_m)}"
    return Odds(attack=words, modifiers=modifiers, lines=tuple(lines), damage=damage)
