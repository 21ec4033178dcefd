"""UTTAS encounter management: adding and removing combatants, initiative ("Combat"), Game
Master adjustments, and out-of-fight recovery ("Natural Healing", "Take a Breather" uses)."""

from __future__ import annotations

from bot import names
from bot.engine.core import effects
from bot.engine.core.commands import Begin, RemoveCombatant
from bot.engine.core.events import (
    CombatantJoined,
    RoundStarted,
)
from bot.engine.uttas import limbs, rules
from bot.engine.uttas.commands import (
    AddCombatant,
    AdjustCharacteristic,
    NaturalHealing,
    Rest,
    SetCondition,
)
from bot.engine.uttas.core import ECONOMY, Tx
from bot.engine.uttas.events import Recovered
from bot.engine.uttas.record import apply_record
from bot.engine.uttas.state import (
    BASE_CONDITIONS,
    DEAD,
    DISABLED,
    GRAPPLED,
    GRAPPLING,
    PRONE,
    SPRINTING,
    STAGGERED,
    UNCONSCIOUS,
    Combatant,
    DisabledLimb,
)
from bot.errors import InvalidInput, NotFound, RuleViolation
from bot.words import counted

HOUR = 3600
DAY = 24 * HOUR
WEEK = 7 * DAY


def add_combatant(tx: Tx, cmd: AddCombatant) -> None:
    """Add a fighter. Names are unique as :func:`bot.names.key` compares them (case, invisible
    characters and lookalikes ignored); ids (``c1``, ``c2``…) are never reused. Joining a running
    fight places it in the order by the encounter's initiative mode."""
    st = tx.state
    tx.admit(cmd.name)
    for s in cmd.sheet.stances:
        if tx.tables.stance(s) is None:
            raise InvalidInput(
                f"{names.escaped(cmd.name)}'s sheet lists an unknown stance {names.quoted(s)}. "
                f"Known: {', '.join(names.escaped(s) for s in tx.tables.stances)}."
            )
    cid = f"c{st.next_id}"
    st.next_id += 1
    side = cmd.side or ("foes" if cmd.is_npc else "party")
    c = Combatant(
        id=cid,
        name=cmd.name,
        controller_id=cmd.controller_id,
        is_npc=cmd.is_npc,
        side=side,
        sheet=cmd.sheet,
        join_seq=st.next_id,
        health=cmd.sheet.health,
        stamina=cmd.sheet.stamina,
        pools=ECONOMY.fresh(cmd.sheet.speed),
        stance=tx.tables.default_stance,
        character_id=cmd.character_id,
    )
    c.breather_uses = rules.dice_of(c, "body", tx.tables, natural=True)
    if cmd.record is not None:
        apply_record(c, cmd.record, tx.tables)
        if c.has(DEAD):
            raise RuleViolation(
                f"{names.escaped(cmd.name)} is dead in this campaign. A server GM can bring them "
                "back with `/campaign reset`."
            )
    tx.add(c)
    tx.emit(CombatantJoined(combatant=cid, text=f"{cmd.name} joins the encounter ({side})."))
    if st.phase == "active":
        tx.order.place(tx, cid)


def remove_combatant(tx: Tx, cmd: RemoveCombatant) -> None:
    """Remove a fighter. If it holds the turn, the turn passes on first — unless its leaving
    ends the fight (rules version 3: the fight ends and no turn starts;
    :meth:`~bot.engine.core.tx.CoreTx.leave_fight`); a pending attack it makes or is the
    target of is cancelled; an ally striking with one (a coordinated attack, ``joint``) only
    takes its own attack out of it, and the attack waits on, anew, for its reaction; grapples it
    is in end."""
    c = tx.view(cmd.combatant)
    st = tx.state
    sides_before = {x.side for x in st.combatants}
    for p in st.decisions:
        if c.id in (p.attacker, p.target):
            tx.settle_decision(p.id)
            tx.note("The pending attack is cancelled.")
        elif c.id in p.joint:
            # A decision never changes in place: settled, and opened again without the leaver.
            tx.settle_decision(p.id)
            rest = {ally: name for ally, name in p.joint.items() if ally != c.id}
            tx.open_decision(p.model_copy(update={"joint": rest}))
            attacker, target = tx.view(p.attacker).name, tx.view(p.target).name
            tx.note(
                f"{c.name}'s coordinated {p.joint[c.id]} is called off: {c.name} left. "
                f"{attacker}'s {p.attack} still waits for {target}'s reaction.",
                c.id,
            )
    tx.release_grapple(c.id, f"{c.name} left")
    for other in st.combatants:
        if other.readied is not None and other.readied.watch == c.id:
            tx.c(other.id).readied = None
            tx.note(f"{other.name}'s readied action lapses: {c.name} left.", other.id)
    tx.leave_fight(c, len(sides_before))


def begin(tx: Tx, cmd: Begin) -> None:
    """UTTAS "Combat", initiative, either mode of the text:

    * ``agility``: order by Agility; combatants tied on Agility roll their Agility dice, higher
      first.
    * ``roll``: everyone rolls their Agility dice, highest first; ties go to higher Agility.

    Whatever still ties is ordered stably by the order combatants were added (earlier first).
    Starts round 1 and the first turn."""
    st = tx.state
    tx.require_can_begin()
    if cmd.initiative_mode:
        st.initiative_mode = cmd.initiative_mode
    tx.order.arrange(tx)
    for c in st.combatants:
        m = tx.c(c.id)
        m.pools = ECONOMY.fresh(c.sheet.speed)
        m.readied, m.breathing = None, False
        m.effects = [e for e in m.effects if e.name not in (STAGGERED, SPRINTING)]
    st.phase, st.round, st.turn, st.decisions, st.winner = "active", 1, None, [], None
    tx.emit(RoundStarted(round=1, text="Round 1 begins."))
    if not tx.start_turn(st.order[0]):
        tx.next_turn(st.order[0])
    tx.check_end(force=True)


def _targets(tx: Tx, ids: tuple[str, ...]) -> list[Combatant]:
    chosen = [tx.view(i) for i in ids] if ids else list(tx.state.combatants)
    return [c for c in chosen if not c.has(DEAD)]


def rest(tx: Tx, cmd: Rest) -> None:
    """UTTAS "Natural Healing": a short rest (1 hour) recovers half the Stamina damage and every
    breather use, at most twice a day; a long rest (8 hours) recovers all Stamina, once per 24
    hours. A disabled body recovers no Stamina from a short rest. Times are in-game."""
    st = tx.state
    if st.phase == "active":
        raise RuleViolation("Rest once the fight is over.")
    r = tx.tables.rest
    now = st.game_time_s
    for c in _targets(tx, cmd.combatants):
        m = tx.c(c.id)
        if cmd.rest == "short":
            recent = [t for t in m.short_rests_at if now - t < DAY]
            if len(recent) >= r.short_rests_per_day:
                tx.note(f"{c.name} already took {len(recent)} short rests today: no benefit.", c.id)
                continue
            m.short_rests_at = [*recent, now]
            m.breather_uses = rules.dice_of(m, "body", tx.tables, natural=True)
            if limbs.body_disabled(m):
                tx.note(f"{c.name}'s body is disabled: no Stamina from resting.", c.id)
            else:
                damage = tx.stamina_cap(m) - m.stamina
                tx.recover_stamina(c.id, damage // 2, "short rest")
        else:
            if (
                m.long_rest_at is not None
                and now - m.long_rest_at < r.long_rest_interval_hours * HOUR
            ):
                tx.note(
                    f"{c.name} had a long rest less than "
                    f"{r.long_rest_interval_hours} hours ago: no benefit.",
                    c.id,
                )
                continue
            m.long_rest_at = now
            m.breather_uses = rules.dice_of(m, "body", tx.tables, natural=True)
            tx.recover_stamina(c.id, tx.stamina_cap(m) - m.stamina, "long rest")
    hours = r.short_rest_hours if cmd.rest == "short" else r.long_rest_hours
    st.game_time_s += hours * HOUR


def natural_healing(tx: Tx, cmd: NaturalHealing) -> None:
    """UTTAS "Natural Healing": Health recovers 1 point per week (table). A limb disabled by an
    injury works again once the Health that attack took is healed ("Disabled Limb")."""
    if tx.state.phase == "active":
        raise RuleViolation("Heal naturally once the fight is over.")
    per = tx.tables.rest.health_per_week
    for c in _targets(tx, cmd.combatants):
        m = tx.c(c.id)
        before = m.health
        m.health = min(m.sheet.health, m.health + per * cmd.weeks)
        tx.emit(
            Recovered(
                combatant=c.id,
                source=f"{counted(cmd.weeks, 'week')} of natural healing",
                health=m.health - before,
                text=f"{c.name} heals {m.health - before} Health; now {m.health}.",
            )
        )
        tx.restore_healed_limbs(m)
    tx.state.game_time_s += cmd.weeks * WEEK


def set_condition(tx: Tx, cmd: SetCondition) -> None:
    """Game Master: put a condition on or take it off. Grappled/Grappling follow grapples and
    Staggered follows the Speed pool, so they cannot be set by hand."""
    c = tx.view(cmd.target)
    known = {x.casefold(): x for x in (*BASE_CONDITIONS, *tx.tables.extra_conditions)}
    name = known.get(cmd.condition.casefold())
    if name is None:
        raise NotFound(
            f"Unknown condition {names.escaped(repr(cmd.condition))}. Known: "
            f"{', '.join(names.escaped(k) for k in known.values())}."
        )
    if name in (GRAPPLED, GRAPPLING, STAGGERED):
        raise RuleViolation(f"{name} follows the rules; it cannot be set by hand.")
    if name in (DISABLED, UNCONSCIOUS, DEAD) and cmd.present and cmd.lasts != "until_removed":
        raise RuleViolation(f"{name} follows the rules; it has no set duration.")
    if name == DISABLED:
        _set_disabled_limb(tx, c, cmd)
        return
    if cmd.present:
        _put_condition_on(tx, c, name, cmd)
    else:
        tx.lose(c.id, name, "by the Game Master")
        if name == PRONE and c.has(UNCONSCIOUS):
            tx.note(f"{c.name} is still unconscious.", c.id)
    tx.check_end()


def _set_disabled_limb(tx: Tx, c: Combatant, cmd: SetCondition) -> None:
    """Game Master: disable one named limb (it works again once Health is back to the sheet's,
    UTTAS "Conditions", Disabled Limb) or restore it; Disabled lasts while any limb is."""
    if not cmd.limb or cmd.limb not in limbs.valid_limbs(c):
        raise InvalidInput(
            f"Name one of {names.escaped(c.name)}'s limbs: {', '.join(limbs.valid_limbs(c))}."
        )
    m = tx.c(c.id)
    if cmd.present:
        m.disabled_limbs.append(
            DisabledLimb(limb=cmd.limb, source="injury", restore_at_health=m.sheet.health)
        )
        tx.gain(c.id, DISABLED, f"{cmd.limb} disabled by the Game Master")
    else:
        m.disabled_limbs = [d for d in m.disabled_limbs if d.limb != cmd.limb]
        if not m.disabled_limbs:
            tx.lose(c.id, DISABLED, "by the Game Master")


def _put_condition_on(tx: Tx, c: Combatant, name: str, cmd: SetCondition) -> None:
    """Game Master: Unconscious and Dead through what they do (UTTAS "Conditions": an
    Unconscious creature falls Prone; the Dead never act); any other condition for the
    duration ``cmd.lasts`` names."""
    if name == UNCONSCIOUS:
        tx.knock_out(c.id, "by the Game Master")
    elif name == DEAD:
        tx.kill(c.id, "by the Game Master")
    else:
        scope, ends = tx.lasting(cmd.lasts, c.id, cmd.rounds)
        held = c.effect(name)
        if held is not None and (held.scope, held.ends) == (scope, ends):
            lasts = effects.how_long(held, lambda cid: tx.view(cid).name)
            if tx.reads("unchanged_condition_refused"):
                how = f", {names.escaped(lasts)}" if lasts else ""
                raise RuleViolation(
                    f"{names.escaped(c.name)} is already {names.escaped(name)}{how}: "
                    "nothing to change."
                )
            tx.note(f"{c.name} is already {name}{', ' + lasts if lasts else ''}: nothing changed.")
            return
        extra = tx.tables.extra_conditions.get(name)
        parts = extra.break_attempts if extra is not None and extra.break_attempts else 1
        tx.gain(c.id, name, "by the Game Master", scope=scope, ends=ends, renew=True, level=parts)


def adjust_characteristic(tx: Tx, cmd: AdjustCharacteristic) -> None:
    """Aid/Drain: change a characteristic's effective value (breather rolls use the changed Body,
    the number of breathers does not — UTTAS "Take a Breather")."""
    m = tx.c(tx.view(cmd.target).id)
    m.characteristic_mods[cmd.characteristic] = max(
        -100, min(100, m.characteristic_mods.get(cmd.characteristic, 0) + cmd.delta)
    )
    word = cmd.characteristic.title()  # the rules text's word: Agility, Body…
    tx.note(
        f"{m.name}'s {word} is now {rules.effective(m, cmd.characteristic)} "
        f"({m.characteristic_mods[cmd.characteristic]:+d}).",
        m.id,
        secret=True,
        public=f"{m.name}'s {word} changes.",
    )
