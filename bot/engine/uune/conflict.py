"""Conflict rounds and the Game Master's tools (Uune SRD "Conflict", "Vitality"): joining,
beginning (every PC, then every NPC), the players choosing which PC goes next, one action per
turn, movement (changing narrative position costs the action; other movement is free),
ending turns and fights, vitals and conditions."""

from __future__ import annotations

from bot import names
from bot.engine.core import interleave
from bot.engine.core import order as order_rules
from bot.engine.core.commands import (
    Begin,
    ChangeSettings,
    MoveInOrder,
    NaturalHealing,
    RemoveCombatant,
    Rest,
)
from bot.engine.core.events import CombatantJoined, Moved, RoundStarted
from bot.engine.uune import health, rolls
from bot.engine.uune.commands import AddCombatant, ChooseNext, Move, SetVitals, TakeHarm
from bot.engine.uune.core import Tx
from bot.engine.uune.health import Health
from bot.engine.uune.sheet import UuneSheet
from bot.engine.uune.state import GRAPPLED, INCAPACITATED, ApprovalDecision, UuneCombatant
from bot.errors import InvalidInput, RuleViolation


def add_combatant(tx: Tx, cmd: AddCombatant) -> None:
    """A PC joins from its sheet (focus as marked, 100 vitality by default), an NPC from its
    statblock (its vitality, wounds and stress); a character joins as its campaign record left
    it. A PC sheet must join as a PC and a statblock as an NPC."""
    st = tx.state
    tx.admit(cmd.name)
    sheet = cmd.sheet
    pc = isinstance(sheet, UuneSheet)
    if pc == cmd.is_npc:
        raise InvalidInput(
            f"**{names.escaped(cmd.name)}**: a Uune character sheet joins as a PC and a statblock "
            "as an NPC."
        )
    if isinstance(sheet, UuneSheet):
        health, focus = Health(base=sheet.vitality), sheet.focus
    else:
        health = Health(
            base=sheet.vitality,
            current=sheet.vitality_now,
            wounds=sheet.wounds,
            stress=sheet.stress,
        )
        focus = 0
    r = cmd.record
    effects = []
    if r is not None:
        health = r.health.model_copy(update={"base": health.base}) if r.health else health
        focus = focus if r.focus is None else r.focus
        effects = list(r.effects)
    cid = f"c{st.next_id}"
    st.next_id += 1
    c = UuneCombatant(
        id=cid,
        name=cmd.name,
        controller_id=cmd.controller_id,
        is_npc=cmd.is_npc,
        side=cmd.side or ("foes" if cmd.is_npc else "party"),
        sheet=sheet,
        join_seq=st.next_id,
        health=health,
        focus=focus,
        character_id=cmd.character_id,
        effects=effects,
    )
    c.focus = min(c.focus, tx.focus_max(c))
    c.pools = tx.economy.fresh(1)
    tx.add(c)
    tx.emit(CombatantJoined(combatant=cid, text=f"{cmd.name} joins the encounter ({c.side})."))
    if health.incapacitated(tx.tables) and not c.has(INCAPACITATED):
        tx.gain(cid, INCAPACITATED, "no vitality left", "vitality 0")
    if st.phase == "active":
        tx.order.place(tx, cid)


def remove_combatant(tx: Tx, cmd: RemoveCombatant) -> None:
    """A combatant leaves; a roll it made or is the subject of (its target, the attacker a
    Defend answers) is called off. A roll it only helps goes on without its help ("Help":
    the helper's hits are added to the roller's; from rules version 3 — before, that roll was
    called off too)."""
    c = tx.view(cmd.combatant)
    st = tx.state
    sides_before = {x.side for x in st.combatants}
    for p in list(st.decisions):
        if tx.state.decision(p.id) is None:
            continue
        helpers = {h.helper for h in getattr(p, "helpers", ())}
        if c.id in (p.actor, p.target, p.attacker):
            tx.settle_decision(p.id)
            tx.note(f"{tx.view(p.actor).name}'s roll for {p.action} is called off.")
        elif (
            c.id in helpers
            and tx.reads("helper_leaving_drops_help")
            and isinstance(p, ApprovalDecision)
        ):
            # no reason given: tx.leave_fight says "… leaves the encounter." below
            rolls.drop_helpers(tx, p, [c.id], None)
        elif c.id in helpers:
            tx.settle_decision(p.id)
            tx.note(f"{tx.view(p.actor).name}'s roll for {p.action} is called off.")
    tx.leave_fight(c, len(sides_before))


def begin(tx: Tx, cmd: Begin) -> None:
    """ "Conflict": the first round begins — every PC (in the order they joined, until the
    players choose otherwise), then every NPC."""
    st = tx.state
    tx.require_can_begin("conflict")
    tx.require_no_pending()  # a roll outside the conflict (Downtime…) is finished first
    tx.order.arrange(tx)
    for c in st.combatants:
        tx.c(c.id).pools = tx.economy.fresh(1)
    st.phase, st.round, st.turn, st.decisions, st.winner = "active", 1, None, [], None
    tx.emit(RoundStarted(round=1, text="Round 1 begins: the PCs act, in any order, then the NPCs."))
    if tx.reads("bleeding_at_round_one"):
        round_one_hooks(tx)
    if not tx.start_turn(st.order[0]):
        tx.next_turn(st.order[0])
    tx.check_end(force=True)


def round_one_hooks(tx: Tx) -> None:
    """Rules version 5: what acts "at the start of each round" acts at round 1's too ("Effect:
    Bleeding": "You take lose 10 vitality at the start of each round"), on whoever carries it
    into the conflict — before anyone's turn, as at every later round's start
    (:meth:`bot.engine.core.tx.CoreTx.next_turn`). Only the hooks act: an effect given "for
    some rounds" before the conflict counts the rounds that begin after round 1, as before.
    Versions 1 to 4 began round 1 without them."""
    for c in list(tx.state.combatants):
        for effect in c.effects:
            if effect.hook == "round_start":
                tx.effect_hook(c.id, effect, "round_start")


def move_in_order(tx: Tx, cmd: MoveInOrder) -> None:
    """The GM's ``/gm order``: "Conflict" — "each PC gets a turn … Once all the PCs have taken
    their turns, the facilitator will give the NPCs their turns". From rules version 2 a PC
    stays among the PCs and an NPC among the NPCs (the players choose who goes next among
    the PCs, ``/act action:next``); then the core's move."""
    if tx.reads("pcs_before_npcs") and tx.state.phase == "active":
        c = tx.view(cmd.target)
        order = tx.state.order
        pcs = sum(1 for x in order if not tx.view(x).is_npc)
        first, last = (pcs + 1, len(order)) if c.is_npc else (1, pcs)
        if c.id in order and not first <= cmd.position <= last:
            places = f"place {first}" if first == last else f"places {first} to {last}"
            raise RuleViolation(
                f"In Uune the PCs act first, then the NPCs (Conflict): {names.escaped(c.name)} "
                f"may take {places}. The players choose who goes next among the PCs "
                "(`/act action:next`)."
            )
    order_rules.move_in_order(tx, cmd)


def change_settings(tx: Tx, cmd: ChangeSettings) -> None:
    """Change the settings named (Uune rolls no initiative and has no interleaved order)."""
    if cmd.interleaved:
        raise RuleViolation("Uune's conflict has no interleaved order: each PC takes a turn.")
    interleave.change_settings(tx, cmd)


def still_to_act(tx: Tx) -> list[str]:
    """The PCs after the current turn in this round's order (those who have not gone yet)."""
    order, turn = tx.state.order, tx.state.turn
    after = order[order.index(turn) + 1 :] if turn in order else []
    return [x for x in after if not tx.view(x).is_npc]


def choose_next(tx: Tx, cmd: ChooseNext) -> None:
    """ "Conflict": "every player character takes a turn, in any order" — the PC ``next`` goes
    right after the current turn. Only a PC still to act this round; NPCs act after every PC
    and cannot be chosen. The services let a PC's player or the GM send it."""
    tx.require_active()
    chooser, nxt = tx.view(cmd.actor), tx.view(cmd.next)
    if nxt.is_npc:
        raise RuleViolation(f"{names.escaped(nxt.name)} is an NPC: the NPCs act after every PC.")
    waiting = still_to_act(tx)
    if nxt.id not in waiting:
        if nxt.id == tx.state.turn:
            raise RuleViolation(f"It is already {names.escaped(nxt.name)}'s turn.")
        raise RuleViolation(f"{names.escaped(nxt.name)} already took a turn this round.")
    order = tx.state.order
    order.remove(nxt.id)
    order.insert(order.index(str(tx.state.turn)) + 1, nxt.id)
    chosen = "to go next" if chooser.id == nxt.id else f"{nxt.name} to go next"
    tx.note(f"{chooser.name} chooses {chosen}.", nxt.id)


def move(tx: Tx, cmd: Move) -> None:
    """ "Move": movement that changes the actor's narrative position costs its action (on its
    turn, no roll; the turn ends with it); other movement is free, any time on the turn.
    Outside a conflict it needs no turn, from rules version 5 (:meth:`Tx.on_turn_only`)."""
    c = tx.view(cmd.actor)
    on_turn = tx.on_turn_only()
    if on_turn:
        tx.require_turn(c)
    else:
        tx.take_action(c, "move")
    if c.effect(GRAPPLED) is not None:
        raise RuleViolation(
            f'{names.escaped(c.name)} is Grappled and cannot move ("Effect: Grappled"): an '
            "Attack may free them."
        )
    how = f" ({cmd.how})" if cmd.how else ""
    if cmd.changes_position and on_turn:
        tx.pay_action(c.id, "change position")
        text = f"{c.name} moves to a new position{how}: that is their action."
    elif cmd.changes_position:
        text = f"{c.name} moves to a new position{how}."
    else:
        text = f"{c.name} moves within their position{how} (free)."
    tx.emit(Moved(combatant=c.id, meters=0, mode="narrative", how="full", text=text))
    if cmd.changes_position and on_turn:  # "one action on their turn": the turn ends with it
        tx.finish_turn(c.id)


def set_vitals(tx: Tx, cmd: SetVitals) -> None:
    """The GM sets or changes vitality (within 0 and the maximum) and focus (within 0 and
    the maximum: an NPC has none)."""
    c = tx.view(cmd.target)
    if cmd.vitality is None and cmd.focus is None:
        raise InvalidInput("Give a vitality or a focus to set.")
    t = tx.tables
    vitality = None
    if cmd.vitality is not None:
        n, relative = cmd.vitality
        vitality = c.health.now(t) + n if relative else n
        if not 0 <= vitality <= c.health.maximum(t):
            raise InvalidInput(
                f"{names.escaped(c.name)}'s vitality stays within 0 and {c.health.maximum(t)}; "
                f"that would make it {vitality}."
            )
    if cmd.focus is not None:
        n, relative = cmd.focus
        value = c.focus + n if relative else n
        top = tx.focus_max(c)
        if not 0 <= value <= top:
            raise InvalidInput(
                f"{names.escaped(c.name)}'s focus stays within 0 and {top}; that would make it "
                f"{value}."
            )
        tx.c(c.id).focus = value

    def said() -> None:
        now = tx.view(c.id)
        tx.note(
            f"The GM sets {c.name}: {tx.vitality_line(now)}, focus {now.focus}.",
            c.id,
            secret=True,
            public=f"The GM changes {c.name}'s vitals.",
        )

    if vitality is None:
        said()
    else:  # the GM's change, then the Incapacitated it may bring
        tx.set_health(
            c.id, c.health.model_copy(update={"current": vitality}), "the GM set it", said
        )


def take_harm(tx: Tx, cmd: TakeHarm) -> None:
    """The GM deals the wounds or stress the story gives ("Wounds", "Stress"): each through
    :func:`bot.engine.uune.health.wound` or :func:`~bot.engine.uune.health.stress`, what it
    takes off the maximum and current vitality as the text says; at 0 the creature is
    Incapacitated. A count only grows: lowering one is refused, naming Downtime."""
    c = tx.view(cmd.target)
    h = c.health
    have = int(getattr(h.wounds if cmd.harm == "wound" else h.stress, cmd.severity))
    more = cmd.amount if cmd.relative else cmd.amount - have
    what = f"{cmd.severity} {cmd.harm}"
    if more <= 0:
        raise InvalidInput(
            f"{names.escaped(c.name)} has {_harms(have, what)}: the GM adds wounds and stress "
            "here (`+1`); Downtime heals them a step (`/act action:downtime`)."
        )
    if have + more > health.COUNT_MAX:
        raise InvalidInput(
            f"{names.escaped(c.name)} has {_harms(have, what)}: a creature has at most "
            f"{health.COUNT_MAX} (`+{health.COUNT_MAX - have}` at most)."
        )
    after = h
    for _ in range(more):
        if cmd.harm == "wound":
            after = health.wound(after, cmd.severity, tx.tables)  # type: ignore[arg-type]
        else:
            after = health.stress(after, cmd.severity, tx.tables)  # type: ignore[arg-type]
    took = f"a {what}" if more == 1 else _harms(more, what)

    def said() -> None:
        tx.note(
            f"{c.name} takes {took} ({tx.vitality_line(tx.view(c.id))}).",
            c.id,
            secret=c.is_npc,
            public=f"{c.name} takes {took}.",
        )

    why = "a wound took the last" if cmd.harm == "wound" else "stress took the last"
    tx.set_health(c.id, after, why, said)


def _harms(n: int, what: str) -> str:
    """ "1 heavy wound", "4 light stresses" (the text's plural)."""
    return f"{n} {what}" if n == 1 else f"{n} {what}{'es' if what.endswith('stress') else 's'}"


def no_rest(tx: Tx, cmd: Rest | NaturalHealing) -> None:
    """Uune has no rests nor healing by weeks: "Downtime" restores vitality and heals a step
    (``/act action:downtime``). Refused by name."""
    raise RuleViolation(
        "Uune has no rests or healing by weeks: Downtime (`/act action:downtime`, outside a "
        "conflict) restores vitality and heals wounds and stress a step."
    )
