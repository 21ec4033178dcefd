"""Joining, beginning and ending, the standard actions that are not attacks (``utopia-actions.txt``
"Aim", "Travel" — halved for a grappler, refused to the grappled ("Grapple") —, "Deep Breath",
"Leap", "Hold Action", "Interchanging Actions") and the Game Master's tools."""

from __future__ import annotations

from bot import names
from bot.engine.core import interleave
from bot.engine.core.commands import (
    Begin,
    ChangeSettings,
    RemoveCombatant,
)
from bot.engine.core.economy import Cost
from bot.engine.core.events import CombatantJoined, Moved, RoundStarted
from bot.engine.utopia.assist import leap_aid
from bot.engine.utopia.commands import (
    AddCombatant,
    Aim,
    DeepBreath,
    Exchange,
    HoldAction,
    Leap,
    SetCondition,
    SetVitals,
    Travel,
)
from bot.engine.utopia.core import Tx
from bot.engine.utopia.grapple import drag_along, grappler_of, travel_limit
from bot.engine.utopia.interleave import leaving
from bot.engine.utopia.state import (
    CONDITIONS,
    DOWN,
    VITAL_MIN,
    AssistDecision,
    UtopiaCombatant,
    hit_of,
)
from bot.errors import InvalidInput, RuleViolation
from bot.words import counted


def add_combatant(tx: Tx, cmd: AddCombatant) -> None:
    """A creature joins: full SHP, DHP and Stamina (or as its campaign record left them, never
    above the sheet's maxima); joining a running fight places it by a Speed test."""
    st = tx.state
    tx.admit(cmd.name)
    cid = f"c{st.next_id}"
    st.next_id += 1
    sheet = cmd.sheet
    c = UtopiaCombatant(
        id=cid,
        name=cmd.name,
        controller_id=cmd.controller_id,
        is_npc=cmd.is_npc,
        side=cmd.side or ("foes" if cmd.is_npc else "party"),
        sheet=sheet,
        join_seq=st.next_id,
        shp=sheet.shp,
        dhp=sheet.dhp,
        stamina=sheet.stamina,
        character_id=cmd.character_id,
    )
    c.pools = tx.economy.fresh(tx.capacity(c))
    r = cmd.record
    if r is not None:
        c.shp = sheet.shp if r.shp is None else min(r.shp, sheet.shp)
        c.dhp = sheet.dhp if r.dhp is None else min(r.dhp, sheet.dhp)
        c.stamina = sheet.stamina if r.stamina is None else min(r.stamina, sheet.stamina)
        c.effects = list(r.effects)
    tx.add(c)
    tx.emit(CombatantJoined(combatant=cid, text=f"{cmd.name} joins the encounter ({c.side})."))
    if c.dhp <= 0:
        tx.gain(cid, DOWN, tx.of_them("its", "their") + " DHP is 0 or below", f"DHP {c.dhp}")
    if st.phase == "active":
        tx.order.place(tx, cid)


def remove_combatant(tx: Tx, cmd: RemoveCombatant) -> None:
    """A creature leaves; damage waiting on its defense or from its attack is cancelled, and
    the Assists it gave — to a Block or Dodge still waiting to roll, or pledged to another's
    next test, Leap or grapple — go with it (nothing counts on a creature that is not there)."""
    c = tx.view(cmd.combatant)
    st = tx.state
    sides_before = {x.side for x in st.combatants}
    for p in list(st.decisions):
        hit = hit_of(p)
        if c.id in (hit.attacker, hit.target):
            tx.settle_decision(p.id)
            tx.note(f"The damage from {hit.source} is cancelled.")
        elif (
            isinstance(p, AssistDecision)
            and c.id in p.assists
            and tx.reads("leaving_takes_assists")
        ):
            kept = {helper: n for helper, n in p.assists.items() if helper != c.id}
            tx.settle_decision(p.id)
            tx.open_decision(AssistDecision(hit=p.hit, defense=p.defense, assists=kept))
            t = tx.view(hit.target)
            tx.note(f"{c.name}'s Assist on {t.name}'s {p.defense.title()} goes with them.")
    for other in st.combatants:  # its pledged Assists ("Assist") go with it too
        if not tx.reads("leaving_takes_assists"):
            break  # rules version 1 left them (a test or Leap skips one no longer here)
        if other.id != c.id and any(p.helper == c.id for p in other.pledges):
            tx.c(other.id).pledges = tuple(p for p in other.pledges if p.helper != c.id)
            tx.note(f"{c.name}'s pledged Assist to {other.name} goes with them.")
    if st.phase == "active" and st.turn == c.id:
        leaving(tx, c.id)  # an interleaved go never comes back to the leaver
    tx.leave_fight(c, len(sides_before))


def begin(tx: Tx, cmd: Begin) -> None:
    """Utopia "Standard Actions": every creature makes a Speed test, highest first (ties: the
    higher Speed score, then who joined first); round 1 and the first turn start."""
    st = tx.state
    tx.require_can_begin()
    tx.order.arrange(tx)
    for c in st.combatants:
        m = tx.c(c.id)
        m.pools = tx.economy.fresh(tx.capacity(m))
        m.aim, m.cover, m.open_guard = 0, False, False
    st.phase, st.round, st.turn, st.decisions, st.winner = "active", 1, None, [], None
    tx.emit(RoundStarted(round=1, text="Round 1 begins."))
    if not tx.start_turn(st.order[0]):
        tx.next_turn(st.order[0])
    tx.check_end(force=True)


def change_settings(tx: Tx, cmd: ChangeSettings) -> None:
    """Change the settings named (the initiative mode does not apply: Utopia always rolls;
    the interleaved order only in setup, :func:`bot.engine.core.interleave.check_setting`)."""
    interleave.change_settings(tx, cmd)


def _act(tx: Tx, actor: str) -> UtopiaCombatant:
    c = tx.view(actor)
    tx.require_can_act_now(c)
    return c


def aim(tx: Tx, cmd: Aim) -> None:
    """ "Aim": 1 TA for a point of favor on the next ranged attack (any other action first
    loses it)."""
    c = _act(tx, cmd.actor)
    tx.pay(c.id, Cost(kind="turn", amount=tx.tables.aim.ta), "aim")
    tx.c(c.id).aim = tx.tables.aim.favor
    tx.note(f"{c.name} aims: favor on their next ranged attack.", c.id)


def travel(tx: Tx, cmd: Travel) -> None:
    """ "Travel": 1 TA to move up to the travel distance of the mode (land, water, air); what
    is not used is lost. Moving leaves melee, or closes on ``toward``."""
    c = _act(tx, cmd.actor)
    most = c.sheet.travel_m(cmd.mode)
    if most <= 0:
        raise RuleViolation(f"{names.escaped(c.name)} cannot travel by {cmd.mode}.")
    most = travel_limit(tx, c, most)
    meters = most if cmd.meters is None else cmd.meters
    if meters > most:
        ta = tx.tables.travel.ta
        raise RuleViolation(
            f"{names.escaped(c.name)} travels at most {tx.scale.show(most)} by {cmd.mode} per "
            "Travel "
            f"({ta} TA): give `amount:` {tx.scale.show(most)} or less (or leave it out), and "
            "Travel again for the rest."
        )
    _check_move(tx, c, "travel", meters, cmd.toward)
    prior = c.run_up_m
    tx.pay(c.id, Cost(kind="turn", amount=tx.tables.travel.ta), f"travel {tx.scale.show(meters)}")
    m = tx.c(c.id)
    m.aim, m.run_up_m = 0, prior + meters
    _move(tx, c.id, meters, cmd.toward)
    tx.emit(
        Moved(
            combatant=c.id,
            meters=meters,
            mode=cmd.mode,
            how="full",
            text=f"{c.name} travels {tx.scale.show(meters)} by {cmd.mode}.",
        )
    )


def _check_move(tx: Tx, c: UtopiaCombatant, verb: str, meters: float, toward: str | None) -> None:
    """Refuse, before anything is paid, a Travel or Leap of no distance (``amount:0`` is a
    distance the player typed, not "as far as it can") or one toward the mover itself."""
    if meters <= 0:
        raise InvalidInput(
            f"A {verb} of {tx.scale.show(0)} spends actions on nothing: give `amount:` more "
            f"than {tx.scale.show(0)}, or leave it out to {verb} as far as "
            f"{names.escaped(c.name)} can."
        )
    if toward is not None and tx.view(toward).id == c.id and tx.reads("no_travel_toward_oneself"):
        raise InvalidInput(f"{names.escaped(c.name)} cannot {verb} toward themselves.")


def _move(tx: Tx, cid: str, meters: float, toward: str | None) -> None:
    """``cid`` moved ``meters``: it leaves melee, or closes on ``toward`` (engaged within
    1 m); whoever it grapples comes along."""
    positions = tx.state.positions
    other = tx.view(toward).id if toward else None
    if other is not None and other != cid:
        known = positions.distance(cid, other)
        left = max(0.0, (known if known is not None else meters) - meters)
        positions = positions.moved(cid)
        positions = (
            positions.engage(cid, other) if left <= 1 else positions.with_distance(cid, other, left)
        )
    else:
        positions = positions.moved(cid)
    tx.state.positions = positions
    drag_along(tx, cid)


def leap(tx: Tx, cmd: Leap) -> None:
    """ "Leap": 3 TA and 3 Stamina; up to the Power score in meters, or the Strength score
    when at least 2 m of travel came directly before (``run_up_m``). On other worlds the
    distance changes ("Environmental Effects"): not modelled — the GM sets the distance. A
    grappled creature cannot leap (rules version 6): it is restrained, moving only as its
    grappler moves ("Grapple"), and breaks free first; versions 1 to 5 let it leap away and
    stay grappled by a grappler it was no longer beside."""
    c = _act(tx, cmd.actor)
    gid = grappler_of(tx, c)
    if gid is not None and tx.reads("grappled_cannot_leap"):
        raise RuleViolation(
            f"{names.escaped(c.name)} is grappled by {names.escaped(tx.view(gid).name)} and "
            "cannot leap away: break free first (`/act action:escape`)."
        )
    rule = tx.tables.leap
    run_up = c.run_up_m >= rule.run_up_m
    aid_m, aided = leap_aid(tx, c)  # "Assist": the helpers' Power scores
    most = float(c.sheet.leap_m(after_travel=run_up)) + aid_m
    meters = most if cmd.meters is None else cmd.meters
    score = "Strength" if run_up else "Power"
    if meters > most:
        raise RuleViolation(
            f"{names.escaped(c.name)} leaps at most {tx.scale.show(most)} (their {score} "
            f"score{aided}"
            + (f", after {tx.scale.show(c.run_up_m)} of travel)." if run_up else ").")
        )
    _check_move(tx, c, "leap", meters, cmd.toward)
    tx.pay(c.id, Cost(kind="turn", amount=rule.ta), f"leap {tx.scale.show(meters)}")
    tx.pay_stamina(c.id, rule.stamina, f"leap {tx.scale.show(meters)}")
    tx.c(c.id).aim = 0
    _move(tx, c.id, meters, cmd.toward)
    tx.emit(
        Moved(
            combatant=c.id,
            meters=meters,
            mode="leap",
            how="full",
            text=f"{c.name} leaps {tx.scale.show(meters)} ({score} score"
            + (" after a run-up" if run_up else "")
            + f"{aided}).",
        )
    )


def deep_breath(tx: Tx, cmd: DeepBreath) -> None:
    """ "Deep Breath": 1 TA to regain 1 Stamina (never above the sheet's). Taken at full
    Stamina too — the text does not forbid it, and its TA passes the go in the interleaved
    order (a default action may be it) — the note then says nothing was regained."""
    c = _act(tx, cmd.actor)
    rule = tx.tables.deep_breath
    tx.pay(c.id, Cost(kind="turn", amount=rule.ta), "take a deep breath")
    m = tx.c(c.id)
    m.aim = 0
    full = m.stamina >= c.sheet.stamina
    m.stamina = min(c.sheet.stamina, m.stamina + rule.stamina)
    tx.note(
        f"{c.name} takes a deep breath: Stamina {m.stamina}"
        + (" (already full: nothing regained)." if full else "."),
        c.id,
        secret=True,
        public=f"{c.name} takes a deep breath.",
    )


def hold_action(tx: Tx, cmd: HoldAction) -> None:
    """ "Hold Action": ``hold.interrupt_actions`` IA (1) conserved for ``hold.turn_actions`` TA
    each (2; :class:`~bot.engine.core.economy.UtopiaActions`), used once, lost if unused by the
    end of the creature's following turn. Only on its own turn."""
    c = _act(tx, cmd.actor)
    if tx.state.turn != c.id:
        raise RuleViolation(f"{names.escaped(c.name)} holds actions on their own turn only.")
    held = tx.tables.hold.interrupt_actions
    tx.pay(c.id, Cost(kind="hold", amount=held), "hold an action")
    tx.c(c.id).aim = 0
    what = "an interrupt action" if held == 1 else counted(held, "interrupt action")
    tx.note(f"{c.name} holds {what} until the end of their next turn.", c.id)


def exchange(tx: Tx, cmd: Exchange) -> None:
    """ "Interchanging Actions": off turn, IA become a TA (2 IA, the tables'
    ``actions.interrupt_per_turn_action``) — which the bot spends at once on what needs it, so
    this command only checks and says so; on the turn, TA become 1 IA (1 TA,
    ``actions.turn_per_interrupt_action``), kept as a held IA until the end of the creature's
    next turn."""
    c = _act(tx, cmd.actor)
    own = tx.state.turn == c.id
    ta, ia = tx.economy.turn_per_interrupt_action, tx.economy.interrupt_per_turn_action
    if cmd.to == "interrupt":
        if not own:
            raise RuleViolation(f"{names.escaped(c.name)} turns TA into IA on their own turn only.")
        # Version 5: the spend says what it buys ("spends 1 TA to gain 1 IA"), not the
        # exchange the next line says ("spends 1 TA to turn 1 TA into 1 IA").
        why = "gain 1 IA" if tx.reads("ta_to_ia_says_gain") else f"turn {ta} TA into 1 IA"
        tx.pay(c.id, Cost(kind="turn", amount=ta), why)
        m = tx.c(c.id)
        m.pools = {**m.pools, "held_new": m.pools.get("held_new", 0) + 1}
        tx.note(f"{c.name} turns {ta} TA into 1 IA.", c.id)
        return
    raise RuleViolation(
        f"{ia} IA are spent as 1 TA when an action needs it: take the action itself (the bot "
        "pays it with interrupt actions)."
    )


def set_vitals(tx: Tx, cmd: SetVitals) -> None:
    """Game Master: set or change SHP, DHP, Stamina (SHP and Stamina within 0 and the sheet's
    maximum; DHP at most the maximum and at least ``VITAL_MIN``, and Down at 0 or below), and
    the TA and IA left (within 0 and the creature's TA or IA: what other aid costs, "Assist",
    is the GM's call)."""
    c = tx.view(cmd.target)
    m = tx.c(c.id)
    _set_actions(tx, m, cmd)
    for field in ("shp", "dhp", "stamina"):
        given = getattr(cmd, field)
        if given is None:
            continue
        value, relative = given
        new = getattr(m, field) + value if relative else value
        top = getattr(c.sheet, field)
        new = max(VITAL_MIN if field == "dhp" else 0, min(new, top))
        setattr(m, field, new)
    if m.dhp <= 0 and not m.has(DOWN):
        tx.gain(c.id, DOWN, f"the GM lowered {tx.of_them('its', 'their')} DHP", f"DHP {m.dhp}")
    elif m.dhp > 0 and m.has(DOWN):
        tx.lose(c.id, DOWN, f"the GM raised {tx.of_them('its', 'their')} DHP")
    pools = m.pools
    tx.note(
        f"The GM sets {c.name}: SHP {m.shp}, DHP {m.dhp}, Stamina {m.stamina}, "
        f"{pools.get('turn', 0)} TA, {pools.get('interrupt', 0)} IA.",
        c.id,
        secret=True,
        public=f"The GM changes {c.name}'s vitals.",
    )
    tx.check_end(force=True)
    tx.pass_turn_if_unable()


def _set_actions(tx: Tx, m: UtopiaCombatant, cmd: SetVitals) -> None:
    """The GM's change to the TA and IA left (``cmd.ta``, ``cmd.ia``), within 0 and the
    creature's TA and IA (the sheet's, else the tables')."""
    for field, pool, top in (
        ("ta", "turn", m.sheet.turn_actions_max(tx.tables)),
        ("ia", "interrupt", m.sheet.interrupt_actions_max(tx.tables)),
    ):
        given = getattr(cmd, field)
        if given is None:
            continue
        value, relative = given
        new = m.pools.get(pool, 0) + value if relative else value
        m.pools = {**m.pools, pool: max(0, min(new, top))}


def set_condition(tx: Tx, cmd: SetCondition) -> None:
    """Game Master: a condition on or off (Utopia's: Down)."""
    c = tx.view(cmd.target)
    wanted = next((n for n in CONDITIONS if n.casefold() == cmd.condition.casefold()), None)
    if wanted is None:
        raise InvalidInput(
            f"Utopia has no condition {names.quoted(cmd.condition)}; its conditions: "
            + ", ".join(CONDITIONS)
            + "."
        )
    if cmd.present:
        if c.has(wanted):
            raise RuleViolation(f"{names.escaped(c.name)} is already {wanted}.")
        tx.gain(c.id, wanted, "the Game Master says so")
    else:
        if not c.has(wanted):
            raise RuleViolation(f"{names.escaped(c.name)} is not {wanted}.")
        tx.lose(c.id, wanted, "the Game Master says so")
    tx.check_end(force=True)
    tx.pass_turn_if_unable()
