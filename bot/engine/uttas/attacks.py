"""UTTAS attacks: "Attack" (declaring one, its hits, a coordinated attack of readied allies
"Perform a readied action"), who may react ("Perform a Reaction command") and the waiting attack
from its declaration to its end. How one hit is rolled and what its damage does is
:mod:`bot.engine.uttas.hits`."""

from __future__ import annotations

from typing import Any

from bot import names
from bot.engine.core.built import built
from bot.engine.core.events import AttackDeclared
from bot.engine.uttas import items, limbs, perception, rules
from bot.engine.uttas.commands import DEFAULT_RANGE_M, Attack
from bot.engine.uttas.core import Tx
from bot.engine.uttas.hits import NO_DEFENCE, Defence, apply_hit, roll_hit
from bot.engine.uttas.rules import AttackProfile
from bot.engine.uttas.state import (
    DEAD,
    GRAPPLING,
    HIDDEN,
    STAGGERED,
    SURRENDERED,
    UNCONSCIOUS,
    Combatant,
    PendingAttack,
)
from bot.engine.uttas.tables import UttasTables
from bot.errors import InvalidInput, RuleViolation
from bot.words import counted


def why_no_reaction(c: Combatant, tables: UttasTables) -> str | None:
    """Why ``c`` cannot react right now, in words, or ``None`` if it can (UTTAS "Perform a
    Reaction command": a reaction costs an action; none while Staggered, out of the fight,
    taking a breather ("Take a Breather"), waiting on a readied action or held in a grapple
    ("Grappled": the held creature may only try to escape or take control))."""
    effects = c.effects  # usually none: no condition is looked for (issue 15, "CPU diet")
    if effects:
        for condition in (DEAD, UNCONSCIOUS, SURRENDERED):
            if c.has(condition):
                return f"{names.escaped(c.name)} is {condition.lower()}"
    if c.actions_left < 1 or (effects and c.has(STAGGERED)):
        return f"{names.escaped(c.name)} has no actions left this round (Staggered)"
    if c.breathing:
        return (
            f"{names.escaped(c.name)} is taking a breather and cannot react until their next turn"
        )
    if c.readied is not None:
        return f"{names.escaped(c.name)} is waiting on a readied action and cannot react"
    if c.grappled_by is not None:  # UTTAS "Grappled": only escaping or taking control
        return (
            f"{names.escaped(c.name)} is held in a grapple and may only try to escape or take "
            "control of it"
        )
    return _taken_by_condition(c, tables) if effects else None


def _taken_by_condition(c: Combatant, tables: UttasTables) -> str | None:
    """``c`` is under a table condition that takes every action, in words, or None."""
    for name, extra in tables.extra_conditions.items():
        if extra.no_actions and c.has(name):
            return f"{names.escaped(c.name)} is {name.lower()}"
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
            f"{names.escaped(a.name)}'s {names.escaped(profile.name)} reaches "
            f"{tx.scale.show(profile.range_m)}; the target "
            f"is {tx.scale.show(reach_m)} away. Move closer first."
        )
    if profile.kind != "melee":
        beyond = rules.increments_beyond(reach_m, profile.range_m, tx.tables)
        if beyond >= tx.tables.range.auto_fail_at:
            raise RuleViolation(
                f"The target is out of range: {tx.scale.show(reach_m)} is {beyond} range "
                f"increments beyond {names.escaped(a.name)}'s {names.escaped(profile.name)} "
                f"({tx.scale.show(profile.range_m)}), which fails automatically."
            )
    if profile.hands > limbs.usable_arms(a):
        raise RuleViolation(
            f"{names.escaped(a.name)} has no free hand to use {names.escaped(profile.name)}."
        )
    items.require_in_hand(a, profile)  # issue 11: a dropped or stowed weapon is drawn first
    if a.has(GRAPPLING) and not (profile.light or profile.grab):
        raise RuleViolation(
            f"While grappling, {names.escaped(a.name)} can only use light weapons and Grab "
            "techniques."
        )
    blocked = limbs.blocked_limitation(a, profile.limitations)
    if blocked:
        raise RuleViolation(
            f"{names.escaped(profile.name)} needs {blocked} and {names.escaped(a.name)}'s limbs "
            "are held."
        )


def declare(tx: Tx, cmd: Attack, *, on_turn: bool) -> None:
    """UTTAS "Attack": one action per hit; Stamina per "Stamina Costs". Sets ``pending`` when
    the target (or an ally) may react, else resolves at once."""
    a = tx.view(cmd.actor)
    _require_may_attack(tx, a, on_turn=on_turn)
    t = tx.view(cmd.target)
    reach = _distance(tx, cmd, a, t)
    profile = _checked_attack(tx, cmd, a, t, reach)
    label = profile.name if cmd.hits == 1 else f"{profile.name} ({cmd.hits} hits)"
    tx.spend_actions(a.id, cmd.hits, label, "turn" if on_turn else "off_turn")
    pay_stamina(tx, a, profile, label, hits=cmd.hits)
    tx.c(a.id).__dict__["free_stance_available"] = False  # a clone: skip pydantic's __setattr__
    joint = _coordinated(tx, cmd, a, t, reach) if cmd.with_readied else {}
    unseen = cmd.hidden or a.has(HIDDEN)  # "the attack's source was hidden": no reaction
    perception.reveal(tx, a, "gave themselves away by attacking")
    # Built from the engine's own values (the profile's name is a sheet's or the tables' clean
    # name): not validated again (bot.engine.core.built).
    p = built(
        PendingAttack,
        attacker=a.id,
        target=t.id,
        attack=profile.name,
        range_m=reach,
        hidden=unseen,
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage,
        aimed_limb=cmd.aimed_limb,
        limbs=list(cmd.limbs),
        hits_total=cmd.hits,
        joint=joint,
        on_turn=on_turn,
        spent_out=tx.is_out(tx.view(a.id)),
    )
    open_or_resolve(tx, p)


def pay_stamina(tx: Tx, c: Combatant, prof: AttackProfile, label: str, *, hits: int = 1) -> None:
    """UTTAS "Stamina Costs" of an attack, a counterattack or a coordinated attack: the
    profile's Stamina per hit. A maintained power ("Activating Powers": double, held "for as
    long as they Maintain the Power") is recorded as maintained — rules version 4 — so dropping
    it frees the Stamina, and it cannot be used again while maintained (as ``ActivatePower``);
    versions 1–3 held the Stamina without the record, so it was held for good."""
    cost = prof.stamina * hits
    if prof.maintained and tx.reads("maintained_attacks"):
        tx.require_not_maintaining(c, prof.name)
        tx.maintain(c.id, prof.name, cost, label)
    else:
        tx.spend_stamina(c.id, cost, label, held=prof.maintained)


def _require_may_attack(tx: Tx, a: Combatant, *, on_turn: bool) -> None:
    """UTTAS "Combat": an attack is the action of one's turn, or — off the turn — a readied
    action resolving ("Perform a readied action"), never while a decision waits; a grappled
    creature may only escape or take control ("Grappled")."""
    if on_turn:
        tx.require_turn(a)
    else:
        tx.require_active()
        tx.require_no_pending()
        tx.require_can_act(a)
    tx.require_not_held(a, "attack")


def _distance(tx: Tx, cmd: Attack, a: Combatant, t: Combatant) -> float:
    """The attack's distance in meters: as given, else as the encounter's positions say (1 m
    when engaged, the declared distance; decision E), else :data:`DEFAULT_RANGE_M`."""
    if cmd.range_m is not None:
        return cmd.range_m
    known = tx.state.positions.distance(a.id, t.id)
    return DEFAULT_RANGE_M if known is None else known


def unseen(t: Combatant) -> str:
    """The refusal of an attack on ``t`` while it is Hidden (``/attack`` and ``/odds``)."""
    return (
        f"{names.escaped(t.name)} is hidden: find them first (a Perception check against them, "
        f"{names.code(f'/check skill:Perception target:{t.name}')})."
    )


def _checked_attack(tx: Tx, cmd: Attack, a: Combatant, t: Combatant, reach: float) -> AttackProfile:
    """The attack's profile, once it is one ``a`` can make on ``t``: not on itself or the dead,
    no more hits than the attack allows ("Attack"), within reach or range and with the hands
    for it (:func:`_usable`), and a grapple naming limbs the attacker can hold
    (:func:`_grapple_limbs`)."""
    if t.id == a.id:
        raise InvalidInput(f"{names.escaped(a.name)} cannot attack themselves.")
    if t.has(DEAD):
        raise RuleViolation(f"{names.escaped(t.name)} is already dead.")
    if t.has(HIDDEN):
        raise RuleViolation(unseen(t))
    profile = tx.profile(a.id, cmd.attack)
    if cmd.hits > profile.max_hits:
        raise RuleViolation(
            f"{names.escaped(profile.name)} can hit at most {counted(profile.max_hits, 'time')}."
        )
    _usable(tx, a, profile, reach_m=reach)
    if profile.grapple:
        _grapple_limbs(tx, cmd, a, t)
    elif cmd.limbs:
        raise InvalidInput(
            f"`limbs:` names what a Grapple grabs; {names.escaped(profile.name)} grabs nothing."
        )
    for limb in (*cmd.limbs, *([cmd.aimed_limb] if cmd.aimed_limb else [])):
        if limb not in limbs.valid_limbs(t):
            raise InvalidInput(f"{names.escaped(t.name)} has no limb called {names.quoted(limb)}.")
    return profile


def _grapple_limbs(tx: Tx, cmd: Attack, a: Combatant, t: Combatant) -> None:
    """UTTAS "Conditions", Grappled: the grappler names the limbs it grabs, one per arm (extra
    arms from the Extra Limbs power count) — per *working* arm from rules version 4 ("Arms/
    Hands": a disabled arm "cannot be used for any actions"), so with none working there is no
    grapple; a creature already held cannot be grabbed again."""
    if not cmd.limbs:
        raise InvalidInput("Name the limb(s) the grapple grabs.")
    working = tx.reads("grapple_working_arms")
    most = limbs.usable_arms(a) if working else limbs.arm_count(a)
    if most <= 0:
        raise RuleViolation(
            f"{names.escaped(a.name)} has no working arm to grapple with (a disabled arm cannot "
            "be used for any actions)."
        )
    if len(cmd.limbs) > most:
        why = " (a disabled arm holds nothing)" if working and most < limbs.arm_count(a) else ""
        raise RuleViolation(
            f"{names.escaped(a.name)} can hold at most {counted(most, 'limb')}{why}."
        )
    twice = next((x for i, x in enumerate(cmd.limbs) if x in cmd.limbs[:i]), None)
    if twice is not None:
        raise InvalidInput(f"The grapple names the {twice} twice: name each limb once.")
    if t.grappled_by is not None:
        raise RuleViolation(f"{names.escaped(t.name)} is already grappled.")


def coordinating(state: Any, attacker: str) -> list[str]:
    """The names of the allies in ``state`` (a UTTAS fight's) whose readied coordinated attack
    strikes together with ``attacker``'s next attack (UTTAS "Perform a readied action": "both
    ... perform their attacks at the exact same time"): what ``/attack together:`` offers."""
    return [
        c.name
        for c in state.combatants
        if c.readied is not None
        and c.readied.trigger == "coordinated"
        and c.readied.watch == attacker
    ]


def _coordinated(tx: Tx, cmd: Attack, a: Combatant, t: Combatant, reach: float) -> dict[str, str]:
    """UTTAS "Perform a readied action": allies who readied a coordinated attack with ``a`` on
    ``t`` strike at the same instant, each paying its action and Stamina; returns ally id →
    attack name."""
    joint: dict[str, str] = {}
    for ally_id in cmd.with_readied:
        ally = tx.view(ally_id)
        r = ally.readied
        if r is None or r.trigger != "coordinated" or r.watch != a.id:
            raise RuleViolation(
                f"{names.escaped(ally.name)} has no coordinated attack readied with "
                f"{names.escaped(a.name)}."
            )
        if r.target != t.id:
            raise RuleViolation(
                f"{names.escaped(ally.name)}'s coordinated attack is aimed at someone else."
            )
        ap = tx.profile(ally.id, r.attack or "")
        _usable(tx, ally, ap, reach_m=reach)
        tx.spend_actions(ally.id, 1, f"coordinated {ap.name}", "off_turn")
        pay_stamina(tx, ally, ap, ap.name)
        tx.c(ally.id).readied = None
        joint[ally.id] = ap.name
    return joint


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


def open_or_resolve(tx: Tx, p: PendingAttack) -> None:
    """UTTAS "Perform a Reaction command": a declared hit waits for a reaction when its target
    (or an ally) may react — a decision opens — else it resolves at once with no defence, and
    the next hit of a multi-hit attack follows."""
    while True:
        if _reaction_possible(tx, p):
            p = tx.open_decision(p)
            a, t = tx.view(p.attacker), tx.view(p.target)
            hit = f" (hit {p.hit_index} of {p.hits_total})" if p.hits_total > 1 else ""
            tx.emit(
                built(
                    AttackDeclared,
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
        tx.settle_decision(p.id)
        _settle(tx, p, NO_DEFENCE)
        nxt = _next_hit(tx, p)
        if nxt is None:
            _finish(tx, p)
            return
        p = nxt


def _next_hit(tx: Tx, p: PendingAttack) -> PendingAttack | None:
    if p.hit_index >= p.hits_total:
        return None
    attacker = tx.view(p.attacker)
    if tx.view(p.target).has(DEAD) or attacker.has(DEAD):
        return None
    if tx.is_out(attacker) and not p.spent_out:  # paid-for hits complete (see PendingAttack)
        return None
    return p.model_copy(update={"hit_index": p.hit_index + 1, "joint": {}, "awaiting": "reaction"})


def _finish(tx: Tx, p: PendingAttack) -> None:
    """The attack is over: the sides are re-counted if someone dropped out (see
    :meth:`CoreTx.check_end`), then the attacker's turn, if the attack was its turn's action,
    passes on. An attacker who paid with its last Stamina (``spent_out``) dropped out in the
    command that declared the attack, while the battle could not end; it is counted now."""
    tx.settle_decision(p.id)
    tx.state.__dict__["last_action_by"] = p.attacker  # the command's own copy (as above)
    if p.spent_out:
        tx.outs_changed = True
    tx.check_end()
    if (
        tx.state.phase == "active"
        and p.on_turn
        and tx.state.turn == p.attacker
        and not (
            tx.state.decisions
            and any(d.on_turn and d.attacker == p.attacker for d in tx.state.decisions)
        )
    ):
        tx.finish_turn(p.attacker)


def drop_orphaned_attack(tx: Tx) -> None:
    """Cancel a waiting attack whose attacker is out of the fight (Dead or Unconscious, e.g. from
    a Game Master's Health change or a counterattack) or whose target died: nobody can complete
    it (UTTAS "Conditions": such creatures cannot take actions) — unless paying for the attack
    is what knocked the attacker out (``PendingAttack.spent_out``): Stamina is consumed "to
    complete the action", so it completes. The attacker's turn, if the attack was its turn's
    action, passes on."""
    for p in tx.state.decisions:
        attacker, target = tx.view(p.attacker), tx.view(p.target)
        if p.spent_out and not attacker.has(DEAD):
            continue  # paid with the attacker's last Stamina: it completes first
        if attacker.has(DEAD) or attacker.has(UNCONSCIOUS):
            why = f"{attacker.name} is {'dead' if attacker.has(DEAD) else 'unconscious'}"
        elif target.has(DEAD):
            why = f"{target.name} is dead"
        else:
            continue
        tx.note(f"{attacker.name}'s {p.attack} is cancelled: {why}.", attacker.id)
        _finish(tx, p)


def settle_if_undecidable(tx: Tx) -> None:
    """A waiting attack that nobody can decide any more — its target was knocked out by a GM
    tool and no ally can take the hit — resolves at once with no reaction, as one that nobody
    could decide when it was declared (UTTAS "Perform a Reaction command"); a surrender whose
    attacker is out of the fight stops (:func:`stop_for_fallen_attacker`)."""
    for p in tx.state.decisions:
        if p.awaiting == "reaction" and not _reaction_possible(tx, p):
            tx.settle_decision(p.id)
            open_or_resolve(tx, p)
        elif p.awaiting == "attacker" and tx.is_out(tx.view(p.attacker)):
            stop_for_fallen_attacker(tx, p)


def _continue(tx: Tx, p: PendingAttack) -> None:
    nxt = _next_hit(tx, p)
    if nxt is None:
        _finish(tx, p)
    else:
        open_or_resolve(tx, nxt)


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
        roll_hit(tx, p.attacker, tid, prof, p, defence, auto_hit=auto_hit, no_defence=no_defence)
    ]
    for ally, name in p.joint.items():
        aprof = tx.profile(ally, name)
        ap = p
        if tx.reads("gm_dice_on_every_roll"):  # the ally's own roll: not the attacker's dice
            ap = p.model_copy(update={"advantage": 0, "disadvantage": 0})
        hits.append(
            roll_hit(tx, ally, tid, aprof, ap, defence, auto_hit=auto_hit, no_defence=no_defence)
        )
    for h in hits:
        apply_hit(tx, h, p)


def stop_for_fallen_attacker(tx: Tx, p: PendingAttack) -> None:
    """A surrender whose attacker is out of the fight (it spent its last Stamina on the swing,
    or a GM tool dropped it): the attacker cannot choose to complete the attack, so it stops —
    as when nobody chooses (``Ruleset.lapse``)."""
    a, t = tx.view(p.attacker), tx.view(p.target)
    tx.settle_decision(p.id)
    tx.outs_changed = True
    tx.note(f"{t.name} surrenders; {a.name} is down and cannot complete the attack: it stops.")
    _finish(tx, p)
