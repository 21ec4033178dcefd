"""UTTAS reactions: "Perform a Reaction command" (Defend, Counterattack, change stance),
"Surrender" and "Take one for the team", plus the list of affordable reactions for buttons."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from bot import names
from bot.engine.core.built import built
from bot.engine.core.contract import ReactionOption
from bot.engine.core.events import AttackDeclared, ReactionChosen
from bot.engine.uttas import limbs, rules
from bot.engine.uttas.attacks import (
    _ally_can_intercept,
    _continue,
    _finish,
    _settle,
    _usable,
    can_react,
    pay_stamina,
    stop_for_fallen_attacker,
    why_no_reaction,
)
from bot.engine.uttas.commands import React, ResolveSurrender
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import StanceChanged
from bot.engine.uttas.hits import NO_DEFENCE, Defence, apply_hit, roll_hit
from bot.engine.uttas.movement import why_cannot_step
from bot.engine.uttas.rules import AttackProfile
from bot.engine.uttas.state import DEAD, OUT, SURRENDERED, Combatant, PendingAttack, UttasState
from bot.engine.uttas.tables import UttasTables
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound, RuleViolation


def _defence_for(tx: Tx, c: Combatant, choice: str, maneuver: str | None) -> Defence:
    """A Defend reaction's bonuses: the named martial art of that type, else the table's basic
    Block/Evade/Move (the text gives no numbers; see ``data/uttas/tables.json``)."""
    if maneuver:
        folded = maneuver.casefold()
        for m in c.sheet.martial_arts:
            if m.name.casefold() == folded:
                if m.maneuver != choice:
                    raise RuleViolation(
                        f"{names.escaped(m.name)} is a {names.escaped(m.maneuver)} technique, not "
                        f"{choice}."
                    )
                return Defence(
                    m.name, m.dodge_bonus, m.discipline_bonus, m.armor_bonus, m.defense_bonus
                )
        raise NotFound(
            f"{names.escaped(c.name)} knows no martial art called {names.quoted(maneuver)}."
        )
    basic = tx.tables.reactions[choice]  # type: ignore[index]
    return Defence(
        basic.label,
        basic.dodge_bonus,
        basic.discipline_bonus,
        basic.armor_bonus,
        basic.defense_bonus,
    )


def counter_profile(tx: Tx, c: Combatant, maneuver: str | None) -> AttackProfile:
    """UTTAS "Counterattack": only a Martial Arts counter or a power with a Trigger; none
    while the head is disabled if it is a Triggered action ("Head")."""
    if not maneuver:
        raise InvalidInput("Name the counter technique or triggered power.")
    folded = maneuver.casefold()
    for m in c.sheet.martial_arts:
        if m.name.casefold() == folded and m.maneuver == "counter":
            if m.triggered and limbs.head_disabled(c):
                raise RuleViolation(
                    f"{names.escaped(c.name)}'s head is disabled: no Triggered actions."
                )
            return rules.martial_profile(c, m, tx.tables)
    for pw in c.sheet.powers:
        if pw.name.casefold() == folded and pw.triggered and pw.targets is not None:
            if limbs.head_disabled(c):
                raise RuleViolation(
                    f"{names.escaped(c.name)}'s head is disabled: no Triggered actions."
                )
            return rules.attack_profile(c, pw.name, tx.tables)
    raise RuleViolation(
        f"{names.escaped(c.name)} has no counterattack called {names.quoted(maneuver)}: counters "
        "come only from a Martial Arts counter or a power with a Trigger."
    )


def react(tx: Tx, cmd: React) -> None:
    """UTTAS "Perform a Reaction command", "Surrender" and "Take one for the team": the answer
    to the attack waiting for a reaction, by its target or (taking the hit) an ally. Raises
    :class:`Conflict` when no attack waits or ``cmd`` was meant for an earlier one,
    :class:`NotAllowed` when ``cmd.actor`` may not answer it and :class:`RuleViolation` when the
    reaction is not possible now."""
    tx.require_active()
    p = _answered(tx, cmd)
    if p is None or p.awaiting != "reaction":
        raise Conflict("There is no attack waiting for a reaction.")
    _require_issued_after_opening(tx, cmd, p)
    actor = tx.view(cmd.actor)
    t = tx.view(p.target)
    a = tx.view(p.attacker)
    if cmd.choice == "intercept":
        _take_one_for_the_team(tx, p, actor, t, a)
        return
    if actor.id != t.id:
        raise NotAllowed(
            f"Only {names.escaped(t.name)} can react to this attack (allies may take the hit)."
        )
    if cmd.choice == "none":
        _no_reaction(tx, p, t)
        return
    if cmd.choice == "surrender":
        _surrender(tx, p, t, a)
        return
    reason = why_no_reaction(t, tx.tables)
    if reason is not None:
        raise RuleViolation(f"{reason}: no reaction is possible.")
    if cmd.choice in ("evade", "block", "move"):
        _defend(tx, p, t, cmd.choice, cmd.maneuver)
    elif cmd.choice == "stance":
        _change_stance(tx, p, t, cmd.stance)
    else:
        _counterattack(tx, p, t, a, cmd.maneuver)


def _take_one_for_the_team(
    tx: Tx, p: PendingAttack, actor: Combatant, t: Combatant, a: Combatant
) -> None:
    """UTTAS "Take one for the team": an ally of the target who can react spends an action;
    the attack hits the ally automatically, with no defence of any kind."""
    if not _ally_can_intercept(tx, actor, p):
        if actor.side != t.side or actor.id in (p.target, p.attacker):
            raise NotAllowed(f"Only an ally of {names.escaped(t.name)} can take the hit for them.")
        why = why_no_reaction(actor, tx.tables)
        raise RuleViolation(f"{why or names.escaped(actor.name) + ' cannot react now'}.")
    tx.spend_actions(actor.id, 1, f"taking {a.name}'s {p.attack} for {t.name}", "off_turn")
    tx.emit(
        ReactionChosen(
            combatant=actor.id,
            choice="intercept",
            label="Take one for the team",
            text=f"{actor.name} throws themselves in front of {t.name}!",
        )
    )
    tx.settle_decision(p.id)
    _settle(tx, p, NO_DEFENCE, auto_hit=True, no_defence=True, target=actor.id)
    _continue(tx, p)


def _no_reaction(tx: Tx, p: PendingAttack, t: Combatant) -> None:
    """UTTAS "Perform a Reaction command" declined: the hit is rolled with no Defend bonus."""
    tx.emit(
        built(
            ReactionChosen,
            combatant=t.id,
            choice="none",
            label="No reaction",
            text=f"{t.name} does not react.",
        )
    )
    tx.settle_decision(p.id)
    _settle(tx, p, NO_DEFENCE)
    _continue(tx, p)


def _surrender(tx: Tx, p: PendingAttack, t: Combatant, a: Combatant) -> None:
    """UTTAS "Surrender": the target renders itself helpless; the attack waits for the
    attacker, who completes it or stops (:func:`resolve_surrender`)."""
    tx.gain(t.id, SURRENDERED, "surrendered")
    tx.settle_decision(p.id)
    if tx.is_out(a):  # it collapsed paying for the swing: nobody can choose to complete it
        stop_for_fallen_attacker(tx, p)
        return
    tx.open_decision(p.model_copy(update={"awaiting": "attacker"}))
    tx.emit(
        AttackDeclared(
            combatant=a.id,
            target=t.id,
            attack=p.attack,
            hit_index=p.hit_index,
            hits_total=p.hits_total,
            awaiting="attacker",
            text=f"{t.name} surrenders! {a.name} may complete the attack or stop.",
        )
    )


def _defend(tx: Tx, p: PendingAttack, t: Combatant, choice: str, maneuver: str | None) -> None:
    """UTTAS "Perform a Reaction command", Defend: a Block, Evade or Move — basic or a Martial
    Arts maneuver (:func:`_defence_for`) — costs an action and adds its bonuses to this hit."""
    d = _defence_for(tx, t, choice, maneuver)
    if choice == "move" and tx.reads("move_reaction_moves"):
        why = why_cannot_step(t, tx.tables)
        if why is not None:
            raise RuleViolation(f"{why}: a Move reaction steps away, and they cannot move.")
    tx.spend_actions(t.id, 1, d.label, "off_turn")
    tx.emit(
        built(
            ReactionChosen,
            combatant=t.id,
            choice=choice,
            label=d.label,
            text=f"{t.name} reacts: {d.label}.",
        )
    )
    if choice == "move":
        _step_away(tx, t, p.attacker)
    tx.settle_decision(p.id)
    _settle(tx, p, d)
    _continue(tx, p)


STEP_AWAY_M = 2.0
"""The Move reaction steps away from the attacker (the table's own description: up to 2 m)."""


def _step_away(tx: Tx, t: Combatant, attacker: str) -> None:
    """Decision E: a Move reaction leaves the target's melee; it ends up that much farther from
    the attacker when the distance was known (engaged: 1 m + the step)."""
    st = tx.state
    before = st.positions.distance(t.id, attacker)
    st.positions = st.positions.moved(t.id)
    if before is not None:
        st.positions = st.positions.with_distance(t.id, attacker, before + STEP_AWAY_M)


def _change_stance(tx: Tx, p: PendingAttack, t: Combatant, stance: str | None) -> None:
    """UTTAS "Perform a Reaction command", Change Stances: for an action the target shifts into
    a stance it knows, which applies to this hit."""
    if not stance:
        raise InvalidInput("Name the stance to change into.")
    name = check_stance(tx, t, stance)
    if name == t.stance:
        raise RuleViolation(f"{names.escaped(t.name)} is already in the {name} stance.")
    tx.spend_actions(t.id, 1, f"changing to the {name} stance", "off_turn")
    before = t.stance
    tx.c(t.id).stance = name
    tx.emit(
        StanceChanged(
            combatant=t.id,
            before=before,
            after=name,
            actions=1,
            text=f"{t.name} shifts into the {name} stance in reaction.",
        )
    )
    tx.settle_decision(p.id)
    _settle(tx, p, NO_DEFENCE)
    _continue(tx, p)


def _counterattack(
    tx: Tx, p: PendingAttack, t: Combatant, a: Combatant, maneuver: str | None
) -> None:
    """UTTAS "Perform a Reaction command", Counterattack: the target pays an action and the
    counter's Stamina, takes the hit undefended, then — if still in the fight and the attacker
    alive — strikes back at once; nobody may react to a counter (a reaction to a reaction)."""
    prof = counter_profile(tx, t, maneuver)
    _usable(tx, t, prof, reach_m=p.range_m)
    tx.spend_actions(t.id, 1, f"counterattack {prof.name}", "off_turn")
    pay_stamina(tx, t, prof, f"counterattack {prof.name}")
    tx.emit(
        ReactionChosen(
            combatant=t.id,
            choice="counter",
            label=prof.name,
            text=f"{t.name} counterattacks with {prof.name}!",
        )
    )
    tx.settle_decision(p.id)
    _settle(tx, p, NO_DEFENCE)
    if not tx.is_out(tx.view(t.id)) and not tx.view(a.id).has(DEAD):
        counter = PendingAttack(  # its Accuracy roll takes t's own GM dice (roll_hit, v4)
            attacker=t.id,
            target=a.id,
            attack=prof.name,
            range_m=p.range_m,
            on_turn=False,
        )
        # A counterattack is a reaction: nobody may react to it.
        apply_hit(
            tx,
            roll_hit(tx, t.id, a.id, prof, counter, NO_DEFENCE, auto_hit=False, no_defence=False),
            counter,
        )
    _continue(tx, p)


def _answered(tx: Tx, cmd: React | ResolveSurrender) -> PendingAttack | None:
    """The attack ``cmd`` answers: the one it names (:class:`Conflict` when that one is no
    longer open), else the newest; None when none waits."""
    if cmd.decision is None:
        return tx.state.pending
    p = tx.state.decision(cmd.decision)
    if p is None:
        raise Conflict("That attack is no longer waiting (it was settled or taken back).")
    return p


def _require_issued_after_opening(tx: Tx, cmd: React | ResolveSurrender, p: PendingAttack) -> None:
    """A decision issued no later than the waiting one opened (``PendingAttack.marker``) was
    meant for an earlier one — the previous hit of a flurry, the reaction before a surrender,
    or nothing yet — and is refused with :class:`Conflict` (issue 9 §3)."""
    if cmd.issued is None or cmd.issued > p.marker:
        return
    a, t = names.escaped(tx.view(p.attacker).name), names.escaped(tx.view(p.target).name)
    hit = f" (hit {p.hit_index} of {p.hits_total})" if p.hits_total > 1 else ""
    waiting = (
        f"{a}'s choice to complete the attack on {t} or stop, after {t} surrendered"
        if p.awaiting == "attacker"
        else f"{a}'s {names.escaped(p.attack)} on {t}{hit}"
    )
    raise Conflict(
        f"That was sent before {waiting} started waiting, so it was meant for something else "
        "and changed nothing. Look at the fight as it stands and decide again."
    )


def resolve_surrender(tx: Tx, cmd: ResolveSurrender) -> None:
    """UTTAS "Surrender": the attacker completes the attack or stops, ending its turn. Raises
    :class:`Conflict` when no surrender waits or ``cmd`` was issued before it did."""
    tx.require_active()
    p = _answered(tx, cmd)
    if p is None or p.awaiting != "attacker":
        raise Conflict("Nobody is waiting on a surrender decision.")
    _require_issued_after_opening(tx, cmd, p)
    a, t = tx.view(p.attacker), tx.view(p.target)
    if cmd.actor != a.id:
        raise NotAllowed(
            f"Only {names.escaped(a.name)} decides whether to accept {names.escaped(t.name)}'s "
            "surrender."
        )
    tx.settle_decision(p.id)
    # The target left the fight when it surrendered, but the battle could not end while the
    # attacker chose; it is counted now ("the battle ends when one side ... surrenders").
    tx.outs_changed = True
    if cmd.complete:
        tx.note(f"{a.name} completes the attack on the helpless {t.name}.", a.id)
        _settle(tx, p, NO_DEFENCE, auto_hit=True, no_defence=True)
        _continue(tx, p)
        return
    tx.note(f"{a.name} accepts {t.name}'s surrender and stops.", a.id)
    _finish(tx, p)


def check_stance(tx: Tx, c: Combatant, name: str) -> str:
    """A stance the character knows (its sheet's list plus the universal ones)."""
    found = tx.tables.stance(name)
    if found is None:
        raise NotFound(
            f"There is no stance called {names.quoted(name)}. "
            f"Known: {', '.join(names.escaped(s) for s in tx.tables.stances)}."
        )
    canon = found[0]
    known = {s.casefold() for s in (*c.sheet.stances, *tx.tables.universal_stances)}
    if canon.casefold() not in known:
        raise RuleViolation(
            f"{names.escaped(c.name)} does not know the {names.escaped(canon)} stance."
        )
    return canon


def reaction_options(
    state: UttasState,
    tables: UttasTables,
    combatant_id: str,
    p: PendingAttack | None = None,
    *,
    steps_checked: bool = True,
) -> list[ReactionOption]:
    """What ``combatant_id`` can choose against the waiting attack ``p`` (default: the newest,
    ``state.pending``) right now, one entry per button: the target's Defend/Counterattack/stance
    options it can afford plus "none" and "surrender"; an ally's "take one for the team". Empty
    when nothing waits on it, and for a target who is out of the fight (dead, unconscious,
    surrendered): it has nothing to choose. ``steps_checked``: a Move reaction is offered only to
    a creature that can move (rules version 4,
    :func:`~bot.engine.uttas.movement.why_cannot_step`)."""
    p = p if p is not None else state.pending
    if p is None or p.awaiting != "reaction" or p.hidden:
        return []
    c = state.get(combatant_id)
    t = state.get(p.target)
    if c.id != t.id:
        # Sides first: whether an enemy could react is never asked (issue 15, "CPU diet").
        if c.side == t.side and c.id != p.attacker and can_react(c, tables):
            return [
                built(
                    ReactionOption,
                    choice="intercept",
                    label=f"Take the hit for {t.name}",
                    actions=1,
                )
            ]
        return []
    if any(c.has(condition) for condition in OUT):
        return []  # out of the fight: no choice to make (allies may still take the hit)
    out = [NO_REACTION]
    if can_react(c, tables):
        defences = _defend_options(c, tables)
        if steps_checked and why_cannot_step(c, tables) is not None:
            defences = [o for o in defences if o.choice != "move"]
        out += defences
        out += _counter_options(state, tables, c, p)
        out += _stance_options(c, tables)
    out.append(SURRENDER)
    return out


NO_REACTION = ReactionOption(choice="none", label="No reaction")
SURRENDER = ReactionOption(choice="surrender", label="Surrender")
"""The target's two choices that never change (options are frozen: every list shares them)."""


def _defend_options(c: Combatant, tables: UttasTables) -> list[ReactionOption]:
    """UTTAS "Perform a Reaction command", Defend: the basic Evade, Block and Move, then the
    character's Martial Arts maneuvers of those kinds."""
    out = [*_kept(tables, "defend", lambda: _basic_defences(tables))]
    for m in c.sheet.martial_arts:
        if m.maneuver in ("evade", "block", "move"):
            out.append(ReactionOption(choice=m.maneuver, label=m.name, maneuver=m.name, actions=1))
    return out


def _basic_defences(tables: UttasTables) -> tuple[ReactionOption, ...]:
    return tuple(
        ReactionOption(choice=key, label=tables.reactions[key].label, actions=1)
        for key in ("evade", "block", "move")
    )


def _counter_options(
    state: UttasState, tables: UttasTables, c: Combatant, p: PendingAttack
) -> list[ReactionOption]:
    """UTTAS "Perform a Reaction command", Counterattack: each Martial Arts counter and
    triggered power that :func:`counter_profile` and the attack's distance allow and whose
    Stamina ``c`` has (or may overexert for)."""
    out: list[ReactionOption] = []
    sheet = c.sheet
    if not sheet.martial_arts and not sheet.powers:  # most sheets: nothing to look through
        return out
    cands = [m.name for m in sheet.martial_arts if m.maneuver == "counter"]
    cands += [pw.name for pw in sheet.powers if pw.triggered and pw.targets]
    if not cands:  # most sheets: no working copy of the state is made for nothing
        return out
    probe = Tx(state, tables, _NoDice(), _EPOCH)
    for name in cands:
        try:
            prof = counter_profile(probe, c, name)
            _usable(probe, c, prof, reach_m=p.range_m)
            if prof.maintained:  # maintained already: refused until dropped (rules v4)
                probe.require_not_maintaining(c, prof.name)
        except (RuleViolation, InvalidInput, NotFound):
            continue
        if prof.stamina <= c.stamina or tables.stamina.allow_overexertion:
            out.append(
                ReactionOption(
                    choice="counter",
                    label=f"Counter: {prof.name}",
                    maneuver=prof.name,
                    actions=1,
                    stamina=prof.stamina,
                )
            )
    return out


def _stance_options(c: Combatant, tables: UttasTables) -> list[ReactionOption]:
    """UTTAS "Perform a Reaction command", Change Stances: every stance ``c`` knows (the
    universal ones, then its sheet's) other than the one it is in."""
    known = c.sheet.stances
    each = _kept(tables, ("stances", known), lambda: _known_stances(tables, known))
    return [option for name, option in each if name != c.stance]


def _known_stances(
    tables: UttasTables, sheet_stances: tuple[str, ...]
) -> tuple[tuple[str, ReactionOption], ...]:
    """Each stance of the table's universal ones and then ``sheet_stances`` (each name once)
    that the table has: (its name in the table, the option to change into it)."""
    out = []
    for s in dict.fromkeys([*tables.universal_stances, *sheet_stances]):
        found = tables.stance(s)
        if found:
            name = found[0]
            label = f"Stance: {name}"
            out.append((name, ReactionOption(choice="stance", label=label, stance=name, actions=1)))
    return tuple(out)


_T = TypeVar("_T")
_KEPT: dict[int, tuple[UttasTables, dict[Hashable, Any]]] = {}
KEPT_TABLES = 32
"""How many tables' options :func:`_kept` keeps (one set per ruleset in use; oldest dropped)."""
KEPT_PER_TABLES = 256
"""How many keys (distinct sheets' stance lists…) :func:`_kept` keeps per tables at most (all
dropped when full, then built again as asked)."""


def _kept(tables: UttasTables, key: Hashable, make: Callable[[], _T]) -> _T:
    """What ``make`` builds from ``tables`` (frozen) for ``key``, built once per tables object:
    the options that depend on the tables and a sheet's names alone (issue 15, "CPU diet").
    The tables are held with them, so their id names them while kept."""
    kept = _KEPT.get(id(tables))
    if kept is None or kept[0] is not tables:
        if len(_KEPT) >= KEPT_TABLES:
            _KEPT.pop(next(iter(_KEPT)))
        kept = _KEPT[id(tables)] = (tables, {})
    made = kept[1]
    found = made.get(key)
    if found is None:
        if len(made) >= KEPT_PER_TABLES:
            made.clear()
        found = made[key] = make()
    return cast(_T, found)


def may_decide(state: UttasState, p: PendingAttack) -> list[Combatant]:
    """Everyone who could have a choice on the attack ``p`` or :func:`may_be_asked`, in the
    state's order: nobody when it is hidden from its target; the attacker after a surrender;
    else the target and each combatant on its side but the attacker (UTTAS "Perform a
    Reaction command", "Take one for the team"). Looks at sides only: who of them can react
    now is :func:`reaction_options`' to say."""
    if p.hidden:
        return []
    if p.awaiting == "attacker":
        return [c for c in state.combatants if c.id == p.attacker]
    target = state.get(p.target)
    return [
        c for c in state.combatants if c is target or (c.side == target.side and c.id != p.attacker)
    ]


def may_be_asked(state: UttasState, combatant_id: str, p: PendingAttack | None = None) -> bool:
    """Whether ``combatant_id`` might decide the waiting attack ``p`` (default: the newest) by
    what every player sees: the target while it is in the fight, and each ally on its side (not
    the attacker) still in the fight — whether it has an action left, is taking a breather or
    waits on a readied action is not considered (those are its secrets; UTTAS "Take one for the
    team")."""
    p = p if p is not None else state.pending
    if p is None or p.hidden:
        return False
    if p.awaiting == "attacker":
        return combatant_id == p.attacker
    c, t = state.get(combatant_id), state.get(p.target)
    if any(c.has(condition) for condition in OUT):
        return False
    return c.id == t.id or (c.side == t.side and c.id != p.attacker)


class _NoDice:
    def roll(self, count: int, sides: int) -> list[int]:  # pragma: no cover - never rolls
        raise RuntimeError("reaction_options never rolls")


_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
