"""UTTAS Game Master tools: set Health and Stamina, deal a hazard's damage, grant or take
dice, and change the encounter's settings (the turn order's tools are the core's,
:mod:`bot.engine.core.order`).
The text leaves these to the Game Master ("the GM decides"); the bot only keeps the numbers
consistent with the rules that follow from them ("Damage": 0 Health is death, 0 Stamina
unconsciousness)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import names
from bot.engine.core import interleave
from bot.engine.core.commands import ChangeSettings, describe_settings
from bot.engine.uttas import actions, attacks, rules
from bot.engine.uttas.commands import (
    Attack,
    GrantDice,
    Hazard,
    ResolveReadied,
    SetVitals,
    UseSkill,
)
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import HazardStruck, VitalsSet
from bot.engine.uttas.state import DEAD, STUNNED, UNCONSCIOUS
from bot.errors import InvalidInput
from bot.words import sentence

_Handler = Callable[[Tx, Any], None]
BOON_MAX = 10


def set_vitals(tx: Tx, cmd: SetVitals) -> None:
    """Set or change Health and Stamina, capped at the sheet's maximums (Stamina also at what
    maintained powers leave free). Reaching 0 Health kills, 0 Stamina knocks out; Stamina above
    0 again wakes an unconscious combatant who is not dead. Lost points interrupt a breather."""
    c = tx.view(cmd.target)
    m = tx.c(c.id)
    health_before, stamina_before = m.health, m.stamina
    if cmd.health is not None:
        m.health = cmd.health
    elif cmd.health_change is not None:
        m.health += cmd.health_change
    if cmd.stamina is not None:
        m.stamina = cmd.stamina
    elif cmd.stamina_change is not None:
        m.stamina += cmd.stamina_change
    m.health = max(-100_000, min(m.health, m.sheet.health))
    m.stamina = max(-100_000, min(m.stamina, tx.stamina_cap(m)))
    # What the GM takes away shows as Stamina damage; what they give back heals it first.
    m.stamina_damage = max(0, m.stamina_damage + stamina_before - m.stamina)
    tx.emit(
        VitalsSet(
            combatant=c.id,
            health=m.health,
            stamina=m.stamina,
            health_before=health_before,
            stamina_before=stamina_before,
            text=f"The GM sets {c.name} to Health {m.health}/{m.sheet.health}, "
            f"Stamina {m.stamina}/{m.sheet.stamina} "
            f"(was {health_before} and {stamina_before}).",
        )
    )
    if m.health < health_before or m.stamina < stamina_before:
        tx.interrupt_breather(c.id)
    if m.health <= 0:
        tx.kill(c.id, "by the GM", f"Health set to {m.health} by the GM")
    elif m.stamina <= 0:
        tx.knock_out(c.id, "by the GM", f"Stamina set to {m.stamina} by the GM")
    elif m.has(UNCONSCIOUS) and not m.has(DEAD):
        tx.lose(c.id, UNCONSCIOUS, "Stamina back above zero")
    tx.check_end()


def hazard(tx: Tx, cmd: Hazard) -> None:
    """A hazard's damage (UTTAS "Damage", as the chase's burning bush): ``dice`` d6 of its
    type; Health takes one point per die less Armor, Stamina the total less Defense — the
    target's against that type plus its stance's — and the conditions follow as after a hit
    ("Dead", "Unconscious", "Stunned"). Works in a fight and outside one."""
    t = tx.view(cmd.target)
    if t.has(DEAD):
        raise InvalidInput(f"{names.escaped(t.name)} is dead already.")
    roll = tx.roll(f"{cmd.source} ({cmd.damage_type})", cmd.dice)
    stance = tx.tables.stances.get(t.stance or "")
    armor = t.sheet.armor.get(cmd.damage_type, 0) + (stance.armor_bonus if stance else 0)
    defense = t.sheet.defense.get(cmd.damage_type, 0) + (stance.defense_bonus if stance else 0)
    armor, defense = max(0, armor), max(0, defense)
    health = rules.health_damage(cmd.dice, armor)
    stamina = rules.stamina_damage(roll.total, defense)
    m = tx.c(t.id)
    m.health -= health
    m.stamina -= stamina
    m.stamina_damage += stamina
    tx.emit(
        HazardStruck(
            combatant=t.id,
            source=cmd.source,
            damage_type=cmd.damage_type,
            roll=roll,
            armor=armor,
            defense=defense,
            health_damage=health,
            stamina_damage=stamina,
            health_left=m.health,
            stamina_left=m.stamina,
            text=f"{sentence(cmd.source)} hurts {t.name}: {roll.text} → {health} Health and "
            f"{stamina} Stamina damage (Armor {armor}, Defense {defense}); Health {m.health}, "
            f"Stamina {m.stamina} left.",
        )
    )
    if health or stamina:
        tx.interrupt_breather(t.id)
    if m.health <= 0:
        tx.kill(t.id, f"Health ran out ({cmd.source})", f"Health reduced to {m.health}")
    elif m.stamina <= 0:
        tx.knock_out(t.id, f"Stamina ran out ({cmd.source})", f"Stamina reduced to {m.stamina}")
    elif stamina > rules.effective(m, "body"):
        tx.gain(t.id, STUNNED, f"{cmd.source}, heavier than their Body")
    tx.check_end()


def grant_dice(tx: Tx, cmd: GrantDice) -> None:
    """Advantage (positive) or Disadvantage (negative) dice on the next roll or until removed;
    0 removes every die the GM granted or took."""
    m = tx.c(tx.view(cmd.target).id)
    if cmd.dice == 0:
        m.gm_next_roll = m.gm_every_roll = 0
        tx.note(f"The GM removes every bonus or penalty die from {m.name}.", m.id)
        return
    if cmd.until_removed:
        m.gm_every_roll = _clamp(m.gm_every_roll + cmd.dice)
        when = "every roll until removed"
    else:
        m.gm_next_roll = _clamp(m.gm_next_roll + cmd.dice)
        when = "the next roll"
    what = "Advantage" if cmd.dice > 0 else "Disadvantage"
    tx.note(f"The GM gives {m.name} {abs(cmd.dice)} {what} dice on {when}.", m.id)


def _clamp(n: int) -> int:
    return max(-BOON_MAX, min(BOON_MAX, n))


def _boost(cmd: Any, net: int) -> Any:
    if isinstance(cmd, Attack | UseSkill):
        return cmd.model_copy(
            update={
                "advantage": min(BOON_MAX, cmd.advantage + max(net, 0)),
                "disadvantage": min(BOON_MAX, cmd.disadvantage + max(-net, 0)),
            }
        )
    if isinstance(cmd, ResolveReadied) and isinstance(cmd.action, Attack | UseSkill):
        return cmd.model_copy(update={"action": _boost(cmd.action, net)})
    return cmd


def _attacks(cmd: Any) -> bool:
    """``cmd`` is an attack, or a readied attack resolving."""
    return isinstance(cmd, Attack) or (
        isinstance(cmd, ResolveReadied) and isinstance(cmd.action, Attack)
    )


def with_gm_dice(handler: _Handler) -> _Handler:
    """Wrap a rolling command's handler: the actor's GM dice join its roll (shown as "Game
    Master" Advantage or Disadvantage), and the next-roll dice are used up when it succeeds.
    From rules version 4 an attack's Accuracy rolls take them as each is rolled instead
    (:func:`bot.engine.uttas.hits.roll_hit`), and this leaves attacks alone."""

    def run(tx: Tx, cmd: Any) -> None:
        c = tx.view(cmd.actor)
        net = c.gm_next_roll + c.gm_every_roll
        if net == 0 or (_attacks(cmd) and tx.reads("gm_dice_on_every_roll")):
            handler(tx, cmd)  # `or` keeps the common case (no GM dice) to one test
            return
        handler(tx, _boost(cmd, net))
        if c.gm_next_roll:
            tx.c(c.id).gm_next_roll = 0

    return run


def change_settings(tx: Tx, cmd: ChangeSettings) -> None:
    """Change the settings named in the command; the rest keep their values (UTTAS has no
    interleaved order: :func:`bot.engine.core.interleave.check_setting` refuses it)."""
    interleave.check_setting(tx, cmd)
    st = tx.state
    changes = cmd.model_dump(exclude_none=True, exclude={"kind"})
    if not changes:
        raise InvalidInput("Name at least one setting to change.")
    mode = changes.pop("initiative_mode", None)
    if mode is not None:
        st.initiative_mode = mode
    if changes:
        st.settings = st.settings.model_copy(update=changes)
    shown = describe_settings(cmd.model_dump(exclude_none=True))
    tx.note(f"The GM changes the settings ({shown}).")


HANDLERS: dict[str, _Handler] = {
    "set_vitals": set_vitals,
    "hazard": hazard,
    "grant_dice": grant_dice,
    "change_settings": change_settings,
    "attack": with_gm_dice(lambda tx, c: attacks.declare(tx, c, on_turn=True)),
    "use_skill": with_gm_dice(actions.use_skill),
    "resolve_readied": with_gm_dice(actions.resolve_readied),
}
"""Handlers the ruleset adds to (or wraps in) its dispatch table."""
