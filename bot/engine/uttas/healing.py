"""UTTAS "Healing": the Heal power and First Aid restore Health (natural healing and rests are
in :mod:`bot.engine.uttas.setup`). The text defers their amounts and limits to descriptions it
does not include; the bot's defaults live in the tables' ``healing`` section
(``docs/rules/uttas.md``): a Heal power rolls 1d6 per ``power_active_points_per_die`` Active
Points and a creature regains at most ``power_daily_share`` of its Health from Heal powers in
a day; First Aid is an action rolling the First Aid skill against ``first_aid_difficulty`` and a
success restores ``first_aid_health_per_die`` Health per skill die — First Aid checks overlap
(in a day only the best counts), Heal powers and First Aid stack. A limb disabled by an injury
works again once its Health is healed (:meth:`Tx.restore_healed_limbs`, after every command).

In a fight healing is the turn's action; outside one (before it begins or after it ended) it
needs no turn and costs no action — Stamina is still spent on a power.
"""

from __future__ import annotations

from bot import names
from bot.engine.core.dice import Roll
from bot.engine.uttas.commands import FirstAid
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import Checked, Recovered
from bot.engine.uttas.sheet import Power
from bot.engine.uttas.state import DEAD, Combatant, HealedToday
from bot.errors import RuleViolation

DAY_S = 86_400


def _today(tx: Tx, c: Combatant) -> HealedToday:
    """What ``c`` regained today (a new in-game day starts afresh)."""
    day = tx.state.game_time_s // DAY_S
    return c.healed if c.healed.day == day else HealedToday(day=day)


def _require_healable(target: Combatant) -> None:
    if target.has(DEAD):
        raise RuleViolation(
            f"{names.escaped(target.name)} is dead: there is no way to recover from it."
        )
    if target.health >= target.sheet.health:
        raise nothing_to_heal(target)


def nothing_to_heal(target: Combatant) -> RuleViolation:
    """The refusal to heal an unhurt ``target``; a member who may not see its numbers (a
    hidden NPC's) is told nothing of its pools — "no Health damage" would say its damage, if
    any, is Stamina."""
    name = names.escaped(target.name)
    return RuleViolation(
        f"{name} has no Health damage to heal.",
        about=target.id,
        withheld=f"{name} has nothing this can heal now; nothing was spent.",
    )


def heal_with_power(tx: Tx, healer: Combatant, power: Power, target_id: str) -> None:
    """A Heal power activated on ``target_id`` (its action and Stamina already paid)."""
    target = tx.view(target_id)
    _require_healable(target)
    tx.require_within(healer, target, power.range_m, f"{power.name} heals")
    table = tx.tables.healing
    dice = max(1, power.active_points // table.power_active_points_per_die)
    today = _today(tx, target)
    cap = int(target.sheet.health * table.power_daily_share)
    room = max(0, cap - today.power)
    if room <= 0:
        limit = f"{names.escaped(target.name)} has reached today's limit of Health from Heal powers"
        raise RuleViolation(
            f"{limit} ({cap}); the next day gives it back.",
            about=target.id,
            withheld=f"{limit}; the next day gives it back.",
        )
    roll = tx.roll(f"{healer.name}'s {power.name}", dice)
    amount = min(roll.total, room, target.sheet.health - target.health)
    m = tx.c(target.id)
    m.healed = today.model_copy(update={"power": today.power + amount})
    _restore(tx, m, amount, f"{healer.name}'s {power.name}", roll, limit=room < roll.total)


def first_aid(tx: Tx, cmd: FirstAid) -> None:
    """UTTAS "Healing", First Aid: an action (in a fight) rolling the First Aid skill against
    the table's difficulty; a success restores Health per skill die, up to the best First Aid
    the target had today (checks overlap)."""
    c = tx.view(cmd.actor)
    target = tx.view(cmd.target)
    table = tx.tables.healing
    in_fight = tx.state.phase == "active"
    if in_fight:
        tx.require_turn(c)
        tx.require_not_held(c, "give first aid")
    else:
        tx.require_can_act(c)
    wanted = {table.first_aid_skill.casefold(), table.paramedics_skill.casefold()}
    known = [k for k in c.sheet.skills if k.casefold() in wanted]
    if not known:
        raise RuleViolation(
            f"{names.escaped(c.name)} has neither {table.first_aid_skill} nor "
            f"{table.paramedics_skill}."
        )
    skill = max(known, key=lambda k: c.sheet.skills[k])  # the better of the two
    _require_healable(target)
    tx.require_within(c, target, table.first_aid_reach_m, f"{skill} is given")
    dice = c.sheet.skills[skill]
    best = _today(tx, target).first_aid
    if dice * table.first_aid_health_per_die <= best:
        nothing = f"{names.escaped(c.name)}'s {skill} can add nothing today: "
        overlap = "(First Aid checks overlap; the next day gives it back)."
        raise RuleViolation(
            f"{nothing}{names.escaped(target.name)} already had First Aid worth {best} Health "
            + overlap,
            about=target.id,
            withheld=f"{nothing}{names.escaped(target.name)} already had better First Aid "
            + overlap,
        )
    if in_fight:
        tx.spend_actions(c.id, 1, f"{skill} on {target.name}", "turn")
    roll = tx.check_roll(c, f"{c.name}'s {skill} on {target.name}", dice, gm=True)
    success = roll.total >= table.first_aid_difficulty
    verdict = "success" if success else "failure"
    tx.emit(
        Checked(
            combatant=c.id,
            roll=roll,
            difficulty=table.first_aid_difficulty,
            success=success,
            verdict=verdict,
            text=f"{roll.text} vs {table.first_aid_difficulty} — {verdict}.",
        )
    )
    if success:
        worth = dice * table.first_aid_health_per_die
        today = _today(tx, target)
        amount = min(max(0, worth - today.first_aid), target.sheet.health - target.health)
        m = tx.c(target.id)
        m.healed = today.model_copy(update={"first_aid": max(today.first_aid, worth)})
        _restore(tx, m, amount, f"{c.name}'s {skill}", None, limit=worth <= today.first_aid)
    if in_fight:
        tx.action_done(c.id, True)


def _restore(
    tx: Tx, m: Combatant, amount: int, source: str, roll: Roll | None, *, limit: bool
) -> None:
    """``m`` (changeable) regains ``amount`` Health from ``source``; ``limit``: a daily limit
    cut it short."""
    m.health = m.health + amount
    note = " (today's limit reached)" if limit else ""
    tx.emit(
        Recovered(
            combatant=m.id,
            source=source,
            roll=roll,
            health=amount,
            text=f"{m.name} regains {amount} Health from {source}{note}; "
            f"now {m.health}/{m.sheet.health}.",
        )
    )
