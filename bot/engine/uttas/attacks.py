"""UTTAS attacks and reactions: "Attack", "Perform a Reaction command", "Accuracy Checks",
"Damage", "Range Modifiers", "Surrender", "Take one for the team", and the conditions attacks
cause ("Stunned", "Unconscious", "Dead", "Grappled", "Disabled Limb", "Prone")."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core.dice import Roll
from bot.engine.core.events import AttackDeclared
from bot.engine.uttas import limbs, rules
from bot.engine.uttas.commands import Attack
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import AttackResolved
from bot.engine.uttas.rules import AttackProfile
from bot.engine.uttas.state import (
    DEAD,
    DISABLED,
    GRAPPLED,
    GRAPPLING,
    PRONE,
    STAGGERED,
    STUNNED,
    SURRENDERED,
    UNCONSCIOUS,
    Combatant,
    DisabledLimb,
    PendingAttack,
)
from bot.engine.uttas.tables import UttasTables
from bot.errors import InvalidInput, RuleViolation


@dataclass(frozen=True, slots=True)
class Defence:
    """Bonuses a Defend reaction adds against one attack."""

    label: str
    dodge: int = 0
    discipline: int = 0
    armor: int = 0
    defense: int = 0


NO_DEFENCE = Defence("none")


def why_no_reaction(c: Combatant, tables: UttasTables) -> str | None:
    """Why ``c`` cannot react right now, in words, or ``None`` if it can (UTTAS "Perform a
    Reaction command": a reaction costs an action; none while Staggered, out of the fight,
    taking a breather ("Take a Breather") or waiting on a readied action)."""
    for condition in (DEAD, UNCONSCIOUS, SURRENDERED):
        if c.has(condition):
            return f"{c.name} is {condition.lower()}"
    if c.actions_left < 1 or c.has(STAGGERED):
        return f"{c.name} has no actions left this round (Staggered)"
    if c.breathing:
        return f"{c.name} is taking a breather and cannot react until their next turn"
    if c.readied is not None:
        return f"{c.name} is waiting on a readied action and cannot react"
    for name, extra in tables.extra_conditions.items():
        if extra.no_actions and c.has(name):
            return f"{c.name} is {name.lower()}"
    return None


def can_react(c: Combatant, tables: UttasTables) -> bool:
    """Whether ``c`` may react now (see :func:`why_no_reaction`)."""
    return why_no_reaction(c, tables) is None


def _usable(tx: Tx, a: Combatant, profile: AttackProfile, *, reach_m: float) -> None:
    """Refuse an attack that cannot work: out of melee reach, or so far beyond a ranged attack's
    normal range that it would fail automatically (UTTAS "Range Modifiers": three increments);
    no action or Stamina is spent on it."""
    if profile.kind == "melee" and reach_m > profile.range_m:
        raise RuleViolation(
            f"{a.name}'s {profile.name} reaches {profile.range_m:g} m; the target "
            f"is {reach_m:g} m away. Move closer first."
        )
    if profile.kind != "melee":
        beyond = rules.increments_beyond(reach_m, profile.range_m, tx.tables)
        if beyond >= tx.tables.range.auto_fail_at:
            raise RuleViolation(
                f"The target is out of range: {reach_m:g} m is {beyond} range increments beyond "
                f"{a.name}'s {profile.name} ({profile.range_m:g} m), which fails automatically."
            )
    if profile.hands > limbs.usable_arms(a):
        raise RuleViolation(f"{a.name} has no free hand to use {profile.name}.")
    if a.has(GRAPPLING) and not (profile.light or profile.grab):
        raise RuleViolation(
            f"While grappling, {a.name} can only use light weapons and Grab techniques."
        )
    blocked = limbs.blocked_limitation(a, profile.limitations)
    if blocked:
        raise RuleViolation(f"{profile.name} needs {blocked} and {a.name}'s limbs are held.")


def declare(tx: Tx, cmd: Attack, *, on_turn: bool) -> None:
    """UTTAS "Attack": one action per hit; Stamina per "Stamina Costs". Sets ``pending`` when
    the target (or an ally) may react, else resolves at once."""
    a = tx.view(cmd.actor)
    if on_turn:
        tx.require_turn(a)
    else:
        tx.require_active()
        tx.require_no_pending()
        tx.require_can_act(a)
    tx.require_not_held(a, "attack")
    t = tx.view(cmd.target)
    if t.id == a.id:
        raise InvalidInput(f"{a.name} cannot attack themselves.")
    if t.has(DEAD):
        raise RuleViolation(f"{t.name} is already dead.")
    profile = tx.profile(a.id, cmd.attack)
    if cmd.hits > profile.max_hits:
        raise RuleViolation(f"{profile.name} can hit at most {profile.max_hits} time(s).")
    _usable(tx, a, profile, reach_m=cmd.range_m)
    if profile.grapple:
        if not cmd.limbs:
            raise InvalidInput("Name the limb(s) the grapple grabs.")
        most = limbs.arm_count(a)
        if len(cmd.limbs) > most:
            raise RuleViolation(f"{a.name} can hold at most {most} limb(s).")
        if t.grappled_by is not None:
            raise RuleViolation(f"{t.name} is already grappled.")
    for limb in (*cmd.limbs, *([cmd.aimed_limb] if cmd.aimed_limb else [])):
        if limb not in limbs.valid_limbs(t):
            raise InvalidInput(f"{t.name} has no limb called {limb!r}.")
    label = profile.name if cmd.hits == 1 else f"{profile.name} ({cmd.hits} hits)"
    tx.spend_actions(a.id, cmd.hits, label, "turn" if on_turn else "off_turn")
    tx.spend_stamina(a.id, profile.stamina * cmd.hits, label, held=profile.maintained)
    tx.c(a.id).free_stance_available = False
    joint: dict[str, str] = {}
    for ally_id in cmd.with_readied:
        ally = tx.view(ally_id)
        r = ally.readied
        if r is None or r.trigger != "coordinated" or r.watch != a.id:
            raise RuleViolation(f"{ally.name} has no coordinated attack readied with {a.name}.")
        if r.target != t.id:
            raise RuleViolation(f"{ally.name}'s coordinated attack is aimed at someone else.")
        ap = tx.profile(ally.id, r.attack or "")
        _usable(tx, ally, ap, reach_m=cmd.range_m)
        tx.spend_actions(ally.id, 1, f"coordinated {ap.name}", "off_turn")
        tx.spend_stamina(ally.id, ap.stamina, ap.name, held=ap.maintained)
        tx.c(ally.id).readied = None
        joint[ally.id] = ap.name
    p = PendingAttack(
        attacker=a.id,
        target=t.id,
        attack=profile.name,
        range_m=cmd.range_m,
        hidden=cmd.hidden,
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage,
        aimed_limb=cmd.aimed_limb,
        limbs=list(cmd.limbs),
        hits_total=cmd.hits,
        joint=joint,
        on_turn=on_turn,
        created_at=tx.now.isoformat(),
    )
    _open_or_resolve(tx, p)


def _reaction_possible(tx: Tx, p: PendingAttack) -> bool:
    """UTTAS: no reaction against an attack the target cannot perceive."""
    if p.hidden:
        return False
    t = tx.view(p.target)
    if not tx.is_out(t):
        return True  # the target can at least decide "none" or surrender
    return any(_ally_can_intercept(tx, c, p) for c in tx.state.combatants)


def _ally_can_intercept(tx: Tx, c: Combatant, p: PendingAttack) -> bool:
    t = tx.view(p.target)
    return c.side == t.side and c.id not in (p.target, p.attacker) and can_react(c, tx.tables)


def _open_or_resolve(tx: Tx, p: PendingAttack) -> None:
    while True:
        if _reaction_possible(tx, p):
            tx.state.pending = p
            a, t = tx.view(p.attacker), tx.view(p.target)
            hit = f" (hit {p.hit_index} of {p.hits_total})" if p.hits_total > 1 else ""
            tx.emit(
                AttackDeclared(
                    combatant=a.id,
                    target=t.id,
                    attack=p.attack,
                    hit_index=p.hit_index,
                    hits_total=p.hits_total,
                    awaiting="reaction",
                    text=f"{a.name} attacks {t.name} with {p.attack}{hit}: {t.name} may react.",
                )
            )
            return
        tx.state.pending = None
        _settle(tx, p, NO_DEFENCE)
        nxt = _next_hit(tx, p)
        if nxt is None:
            _finish(tx, p)
            return
        p = nxt


def _next_hit(tx: Tx, p: PendingAttack) -> PendingAttack | None:
    if p.hit_index >= p.hits_total:
        return None
    if tx.view(p.target).has(DEAD) or tx.is_out(tx.view(p.attacker)):
        return None
    return p.model_copy(update={"hit_index": p.hit_index + 1, "joint": {}, "awaiting": "reaction"})


def _finish(tx: Tx, p: PendingAttack) -> None:
    """The attack is over: the sides are re-counted if someone dropped out (see
    :meth:`CoreTx.check_end`), then the attacker's turn, if the attack was its turn's action,
    passes on."""
    tx.state.pending = None
    tx.state.last_action_by = p.attacker
    tx.check_end()
    if tx.state.phase == "active" and p.on_turn and tx.state.turn == p.attacker:
        tx.finish_turn(p.attacker)


def drop_orphaned_attack(tx: Tx) -> None:
    """Cancel a waiting attack whose attacker is out of the fight (Dead or Unconscious, e.g. from
    a Game Master's Health change or a counterattack) or whose target died: nobody can complete
    it (UTTAS "Conditions": such creatures cannot take actions). The attacker's turn, if the
    attack was its turn's action, passes on."""
    p = tx.state.pending
    if p is None:
        return
    attacker, target = tx.view(p.attacker), tx.view(p.target)
    if attacker.has(DEAD) or attacker.has(UNCONSCIOUS):
        why = f"{attacker.name} is {'dead' if attacker.has(DEAD) else 'unconscious'}"
    elif target.has(DEAD):
        why = f"{target.name} is dead"
    else:
        return
    tx.note(f"{attacker.name}'s {p.attack} is cancelled: {why}.", attacker.id)
    _finish(tx, p)


def settle_if_undecidable(tx: Tx) -> None:
    """A waiting attack that nobody can decide any more — its target was knocked out by a GM
    tool and no ally can take the hit — resolves at once with no reaction, as one that nobody
    could decide when it was declared (UTTAS "Perform a Reaction command")."""
    p = tx.state.pending
    if p is None or p.awaiting != "reaction" or _reaction_possible(tx, p):
        return
    tx.state.pending = None
    _open_or_resolve(tx, p)


def _continue(tx: Tx, p: PendingAttack) -> None:
    nxt = _next_hit(tx, p)
    if nxt is None:
        _finish(tx, p)
    else:
        _open_or_resolve(tx, nxt)


@dataclass(slots=True)
class _Hit:
    attacker: str
    target: str
    profile: AttackProfile
    event: AttackResolved
    damage_roll: Roll | None


def _compute(
    tx: Tx,
    attacker_id: str,
    target_id: str,
    profile: AttackProfile,
    p: PendingAttack,
    defence: Defence,
    *,
    auto_hit: bool,
    no_defence: bool,
) -> _Hit:
    """Roll one hit without changing anything (so simultaneous hits see the same state)."""
    tables = tx.tables
    a, t = tx.view(attacker_id), tx.view(target_id)
    adv: list[str] = [f"Game Master x{p.advantage}"] * (p.advantage > 0)
    dis: list[str] = [f"Game Master x{p.disadvantage}"] * (p.disadvantage > 0)
    n_adv, n_dis = p.advantage, p.disadvantage
    a_st = tables.stances.get(a.stance or "")
    t_st = tables.stances.get(t.stance or "") if not no_defence else None
    if a_st and a_st.accuracy_advantage:
        adv.append(f"{a.name}'s {a.stance} stance")
        n_adv += a_st.accuracy_advantage
    if a_st and a_st.accuracy_disadvantage:
        dis.append(f"{a.name}'s {a.stance} stance")
        n_dis += a_st.accuracy_disadvantage
    if t_st and t_st.grants_advantage:
        adv.append(f"{t.name}'s {t.stance} stance")
        n_adv += t_st.grants_advantage
    if t_st and t_st.grants_disadvantage:
        dis.append(f"{t.name}'s {t.stance} stance")
        n_dis += t_st.grants_disadvantage
    for cond in (STAGGERED, STUNNED, GRAPPLED, GRAPPLING):
        if t.has(cond):
            adv.append(f"{t.name} is {cond}")
            n_adv += 1
    for name, extra in tables.extra_conditions.items():
        if extra.grants_advantage and t.has(name):
            adv.append(f"{t.name} is {name}")
            n_adv += extra.grants_advantage
    if t.has(PRONE) and p.range_m <= tables.prone.adjacent_m:
        adv.append(f"{t.name} is Prone and adjacent")
        n_adv += 1
    elif t.has(PRONE) and p.range_m > tables.prone.far_m:
        dis.append(f"{t.name} is Prone, more than {tables.prone.far_m:g} m away")
        n_dis += 1
    if limbs.head_disabled(a):
        dis.append(f"{a.name}'s head is disabled")
        n_dis += 1
    if p.aimed_limb:
        dis.append(f"aimed at the {p.aimed_limb}")
        n_dis += tables.called_shot.disadvantage
    beyond = 0
    if profile.kind != "melee":
        beyond = rules.increments_beyond(p.range_m, profile.range_m, tables)
        if 0 < beyond < tables.range.auto_fail_at:
            dis.append(f"{beyond} range increment(s) beyond {profile.range_m:g} m")
            n_dis += beyond * tables.range.disadvantage_per_increment
    stat = profile.targets
    st_bonus = 0
    if t_st:
        st_bonus = t_st.dodge_bonus if stat == "dodge" else t_st.discipline_bonus
    tn = (
        rules.derived_defence(t, stat, tables)
        + st_bonus
        + (defence.dodge if stat == "dodge" else defence.discipline)
    )
    auto: str | None = None
    accuracy = None
    if t.has(SURRENDERED) or auto_hit:
        auto, hit = "hit", True
    elif beyond >= tables.range.auto_fail_at:
        auto, hit = "miss", False
    else:
        accuracy = tx.roll(
            f"{a.name}'s Accuracy ({profile.name})",
            3,
            advantage=n_adv,
            disadvantage=n_dis,
            modifier=rules.accuracy_bonus(a, profile.key),
        )
        hit = rules.hits(accuracy.total, tn)
    dmg = None
    armor = defense = h_dmg = s_dmg = 0
    if hit:
        dmg = tx.roll(f"{profile.name} damage ({profile.damage_type})", profile.dice)
        armor = t.sheet.armor.get(profile.damage_type, 0) + defence.armor
        defense = t.sheet.defense.get(profile.damage_type, 0) + defence.defense
        if t_st:
            armor += t_st.armor_bonus
            defense += t_st.defense_bonus
        armor, defense = max(0, armor), max(0, defense)
        h_dmg = rules.health_damage(profile.dice, armor)
        s_dmg = rules.stamina_damage(dmg.total, defense)
    stat_name = "Dodge" if stat == "dodge" else "Discipline"
    if auto == "miss":
        text = f"{a.name}'s {profile.name} cannot reach {t.name} ({p.range_m:g} m): it fails."
    elif not hit:
        total = accuracy.total if accuracy else 0
        text = f"{a.name}'s {profile.name} misses {t.name}: Accuracy {total} does not beat "
        text += f"{stat_name} {tn}."
    else:
        how = (
            f"hits {t.name} automatically"
            if auto
            else (
                f"hits {t.name}: Accuracy {accuracy.total if accuracy else 0} "
                f"beats {stat_name} {tn}"
            )
        )
        text = (
            f"{a.name}'s {profile.name} {how}" + f" for {h_dmg} Health and {s_dmg} Stamina damage"
            f" (Armor {armor}, Defense {defense})."
        )
    event = AttackResolved(
        combatant=a.id,
        attacker=a.id,
        target=t.id,
        attack=profile.name,
        hit_index=p.hit_index,
        target_stat=stat_name,
        target_number=tn,
        accuracy=accuracy,
        advantages=tuple(adv),
        disadvantages=tuple(dis),
        auto=auto,
        hit=hit,
        damage=dmg,
        damage_type=profile.damage_type,
        reaction="" if defence is NO_DEFENCE else defence.label,
        armor=armor,
        defense=defense,
        health_damage=h_dmg,
        stamina_damage=s_dmg,
        text=text,
    )
    return _Hit(a.id, t.id, profile, event, dmg)


def _apply(tx: Tx, hit: _Hit, p: PendingAttack) -> None:
    """UTTAS "Damage" and the conditions it causes ("Dead", "Unconscious", "Stunned")."""
    e = hit.event
    if not e.hit:
        tx.emit(e)
        return
    t = tx.c(hit.target)
    before = t.health
    t.health -= e.health_damage
    t.stamina -= e.stamina_damage
    t.stamina_damage += e.stamina_damage
    tx.emit(e.model_copy(update={"health_left": t.health, "stamina_left": t.stamina}))
    if e.health_damage or e.stamina_damage:
        tx.interrupt_breather(t.id)
    if t.health <= 0:
        tx.kill(t.id, "Health ran out", f"Health reduced to {t.health}")
        return
    if t.stamina <= 0:
        tx.knock_out(t.id, "Stamina ran out", f"Stamina reduced to {t.stamina}")
    elif e.stamina_damage > rules.effective(t, "body"):
        tx.gain(
            t.id,
            STUNNED,
            "a blow heavier than their Body",
            f"{e.stamina_damage} Stamina damage exceeds Body {rules.effective(t, 'body')}",
        )
    prof = hit.profile
    if prof.grapple and not tx.is_out(t) and hit.attacker == p.attacker:
        holder = tx.c(hit.attacker)
        holder.grappling, t.grappled_by = t.id, holder.id
        t.disabled_limbs += [DisabledLimb(limb=x, source="grapple") for x in p.limbs]
        tx.gain(t.id, GRAPPLED, f"held by {holder.name} ({', '.join(p.limbs)})")
        tx.gain(holder.id, GRAPPLING, f"holding {t.name}")
        tx.gain(t.id, DISABLED, "limbs held in a grapple")
    for cond in prof.inflicts:
        if cond in tx.tables.extra_conditions or cond == PRONE:
            tx.gain(t.id, cond, prof.name)
        else:
            tx.note(f"{prof.name} would inflict {cond!r}, which this table does not define.")
    if (
        p.aimed_limb
        and hit.attacker == p.attacker
        and (e.health_damage >= tx.tables.called_shot.min_health_damage)
    ):
        t.disabled_limbs.append(
            DisabledLimb(limb=p.aimed_limb, source="injury", restore_at_health=before)
        )
        tx.gain(t.id, DISABLED, f"{p.aimed_limb} disabled by {prof.name}")


def _settle(
    tx: Tx,
    p: PendingAttack,
    defence: Defence,
    *,
    auto_hit: bool = False,
    no_defence: bool = False,
    target: str | None = None,
) -> None:
    """Resolve the current hit (and coordinated allies' attacks at the same instant)."""
    tid = target or p.target
    prof = tx.profile(p.attacker, p.attack)
    hits = [
        _compute(tx, p.attacker, tid, prof, p, defence, auto_hit=auto_hit, no_defence=no_defence)
    ]
    for ally, name in p.joint.items():
        aprof = tx.profile(ally, name)
        hits.append(
            _compute(tx, ally, tid, aprof, p, defence, auto_hit=auto_hit, no_defence=no_defence)
        )
    for h in hits:
        _apply(tx, h, p)
