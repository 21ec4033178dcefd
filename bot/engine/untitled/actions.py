"""Joining, beginning and ending, the round's actions that are not attacks
(``untitled-combat.txt`` "Combat": move actions — moving, drawing, a combined move while
drawing, reloading —, full-round, swift, immediate and free actions), the Storyteller's die
roll for the order, and the Game Master's tools."""

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
from bot.engine.untitled.combat import weapon_of
from bot.engine.untitled.commands import (
    AddCombatant,
    AllowCombined,
    Declared,
    Draw,
    Move,
    Reload,
    RollOrder,
    SetCondition,
    SetRule,
    SetVitals,
    Stow,
)
from bot.engine.untitled.core import Tx
from bot.engine.untitled.encounter import for_encounter
from bot.engine.untitled.state import CONDITIONS, DOWN, UntitledCombatant
from bot.errors import Conflict, InvalidInput, RuleViolation


def add_combatant(tx: Tx, cmd: AddCombatant) -> None:
    """A creature joins with full Health (or as its campaign record left it, never above the
    sheet's); joining a running fight puts it last, for the Storyteller to move."""
    st = tx.state
    tx.admit(cmd.name)
    sheet = cmd.sheet
    stowed = [w.name for w in sheet.weapons if w.stowed]
    for item in cmd.stowed:
        arm = sheet.weapon(item)
        if arm is None:
            raise InvalidInput(
                f"{names.escaped(cmd.name)} has no weapon called {names.quoted(item)} to stow."
            )
        stowed.append(arm.name)
    cid = f"c{st.next_id}"
    st.next_id += 1
    c = UntitledCombatant(
        id=cid,
        name=cmd.name,
        controller_id=cmd.controller_id,
        is_npc=cmd.is_npc,
        side=cmd.side or ("foes" if cmd.is_npc else "party"),
        sheet=sheet,
        join_seq=st.next_id,
        health=sheet.health,
        character_id=cmd.character_id,
        stowed=tuple(dict.fromkeys(stowed)),
    )
    c.pools = tx.economy.fresh(tx.capacity(c))
    r = cmd.record
    if r is not None:
        c.health = sheet.health if r.health is None else min(r.health, sheet.health)
        c.effects = list(r.effects)
    tx.add(c)
    tx.emit(CombatantJoined(combatant=cid, text=f"{cmd.name} joins the encounter ({c.side})."))
    if c.health <= 0 and not c.has(DOWN):
        tx.gain(cid, DOWN, "their Health is 0", "Health 0")
    if st.phase == "active":
        tx.order.place(tx, cid)


def remove_combatant(tx: Tx, cmd: RemoveCombatant) -> None:
    """A creature leaves; an attack waiting on its defense, or its own, is cancelled."""
    c = tx.view(cmd.combatant)
    st = tx.state
    sides_before = {x.side for x in st.combatants}
    for p in list(st.decisions):
        if c.id in (p.attacker, p.target):
            tx.settle_decision(p.id)
            tx.note(f"The attack with {p.weapon} is cancelled.")
    tx.leave_fight(c, len(sides_before))


def begin(tx: Tx, cmd: Begin) -> None:
    """ "The turn order being determined by the Storyteller at the start of combat": the order
    the creatures joined in is the suggestion (``/gm order`` and the die roll change it);
    round 1 and the first turn start."""
    st = tx.state
    tx.require_can_begin()
    tx.order.arrange(tx)
    for c in st.combatants:
        m = tx.c(c.id)
        m.pools = tx.economy.fresh(tx.capacity(m))
    st.phase, st.round, st.turn, st.decisions, st.winner = "active", 1, None, [], None
    seconds = tx.tables.round.seconds
    tx.emit(RoundStarted(round=1, text=f"Round 1 begins ({seconds} seconds)."))
    if not tx.start_turn(st.order[0]):
        tx.next_turn(st.order[0])
    tx.check_end(force=True)


def change_settings(tx: Tx, cmd: ChangeSettings) -> None:
    """Change the settings named (Untitled has no initiative mode and no interleaving)."""
    if cmd.interleaved:
        raise InvalidInput("Untitled has no interleaved turn order: the Storyteller sets it.")
    interleave.change_settings(tx, cmd)


def move(tx: Tx, cmd: Move) -> None:
    """ "A move action – your character may move up-to its maximum speed rating per move
    action". With ``draw``, a weapon comes out in the same move action ("drawing a sword ...
    while moving into position ... they were done together and may not count as two separate
    actions") unless the Storyteller refused this fighter's combined actions."""
    c = tx.view(cmd.actor)
    tx.require_on_turn(c)
    most = c.sheet.speed_m
    meters = most if cmd.meters is None else cmd.meters
    if meters > most:
        raise RuleViolation(
            f"{names.escaped(c.name)} moves at most {tx.scale.show(most)} per move action."
        )
    if meters == 0 and cmd.draw is None:
        raise InvalidInput(
            f"A move of {tx.scale.show(0)} spends a move action on nothing: give `amount:` "
            "(or `detail:` a weapon to draw)."
        )
    if cmd.toward is not None and tx.view(cmd.toward).id == c.id:
        raise InvalidInput(f"{names.escaped(c.name)} cannot move toward themselves.")
    drawn = ""
    if cmd.draw is not None:
        if c.combined_refused:
            raise RuleViolation(
                f"The Storyteller refused {names.escaped(c.name)}'s combined move actions: draw "
                "with a move action of its own."
            )
        drawn = _draw(tx, c, cmd.draw)
    what = f"move {tx.scale.show(meters)}" + (f" while drawing {drawn}" if drawn else "")
    tx.pay(c.id, Cost(kind="move"), what)
    positions = tx.state.positions
    other = tx.view(cmd.toward).id if cmd.toward else None
    if other is not None and other != c.id:
        known = positions.distance(c.id, other)
        left = 0.0 if known is None else max(0.0, known - meters)
        tx.state.positions = positions.moved(c.id).with_distance(c.id, other, left)
    elif meters > 0:
        tx.state.positions = positions.moved(c.id)
    tx.emit(
        Moved(
            combatant=c.id,
            meters=meters,
            mode="land",
            how="full",
            text=f"{c.name} moves {tx.scale.show(meters)}"
            + (f" while drawing their {drawn}." if drawn else "."),
        )
    )


def _draw(tx: Tx, c: UntitledCombatant, weapon: str) -> str:
    """Take ``weapon`` out of ``c``'s stowed ones; its name. Raises when not stowed."""
    arm = weapon_of(c, weapon)
    if arm.name not in c.stowed:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} is already drawn."
        )
    tx.c(c.id).stowed = tuple(x for x in c.stowed if x != arm.name)
    return arm.name


def draw(tx: Tx, cmd: Draw) -> None:
    """A move action: draw a weapon ("drawing a sword (which would normally be a move action
    by itself)")."""
    c = tx.view(cmd.actor)
    tx.require_on_turn(c)
    name = _draw(tx, c, cmd.weapon)
    tx.pay(c.id, Cost(kind="move"), f"draw their {name}")


def stow(tx: Tx, cmd: Stow) -> None:
    """A move action: put a weapon away (the bot's reading, as drawing one)."""
    c = tx.view(cmd.actor)
    tx.require_on_turn(c)
    arm = weapon_of(c, cmd.weapon)
    if arm.name in c.stowed:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} is already put away."
        )
    tx.pay(c.id, Cost(kind="move"), f"put away their {arm.name}")
    tx.c(c.id).stowed = (*c.stowed, arm.name)


def reload(tx: Tx, cmd: Reload) -> None:
    """Reload a fired weapon: a move action ("their second move action to reload for the next
    round") or a full-round action ("reloading a complex weapon"), as the weapon says; a weapon
    put away is drawn first (the bot's reading)."""
    c = tx.view(cmd.actor)
    tx.require_on_turn(c)
    if cmd.weapon is None:
        if not c.unloaded:
            raise RuleViolation(f"{names.escaped(c.name)} has nothing to reload.")
        arm = weapon_of(c, c.unloaded[0])
    else:
        arm = weapon_of(c, cmd.weapon)
    if arm.reload == "none":
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} needs no reloading."
        )
    if arm.name in c.stowed:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} is put away: draw it first (a "
            "move action)."
        )
    if arm.name not in c.unloaded:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(arm.name)} is already loaded."
        )
    kind = "move" if arm.reload == "move" else "full_round"
    tx.pay(c.id, Cost(kind=kind), f"reload their {arm.name}")
    tx.c(c.id).unloaded = tuple(x for x in c.unloaded if x != arm.name)


def declare(tx: Tx, cmd: Declared) -> None:
    """An action the bot keeps no rules for, paid from the round: a swift action (on your
    turn), an immediate action (on or off it), a free action, a full-round action or another
    standard action ("using an ability")."""
    c = tx.view(cmd.actor)
    if cmd.action in ("immediate", "free"):
        tx.require_can_act_now(c)
    else:
        tx.require_on_turn(c)
    label = cmd.action.replace("_", "-")
    tx.pay(c.id, Cost(kind=cmd.action), cmd.words)
    tx.note(f"{c.name} ({label} action): {cmd.words}", c.id)


def roll_order(tx: Tx, cmd: RollOrder) -> None:
    """ "May ask for a die roll to help randomize the order or resolve a tie": each named
    creature (everyone when none) rolls the tables' ``order_die``; they take the places they
    held between them, highest first; equal rolls keep their order. The turn stays where it
    is and passes on in the new order."""
    tx.require_active()
    order = tx.state.order
    among = [tx.view(x).id for x in cmd.among] or list(order)
    if len(set(among)) < 2:
        raise InvalidInput("Roll for at least two creatures in the order.")
    missing = [x for x in among if x not in order]
    if missing:
        raise InvalidInput(f"{names.escaped(tx.view(missing[0]).name)} is not in the order.")
    places = sorted(order.index(x) for x in set(among))
    ranked = sorted(set(among), key=order.index)
    sides = tx.tables.order_die
    rolls = {cid: tx.roller.roll(1, sides)[0] for cid in ranked}
    ranked.sort(key=lambda cid: -rolls[cid])
    new = list(order)
    for place, cid in zip(places, ranked, strict=True):
        new[place] = cid
    tx.state.order = new
    shown = ", ".join(f"{tx.view(x).name} {rolls[x]}" for x in sorted(rolls, key=order.index))
    names_ = ", ".join(f"{i + 1}. {tx.view(x).name}" for i, x in enumerate(new))
    tx.note(f"The order is rolled (d{sides}): {shown}. Order: {names_}")


def allow_combined(tx: Tx, cmd: AllowCombined) -> None:
    """The Storyteller allows or refuses a fighter's combined move actions ("your Storyteller
    will advise you should there be an issue with something you propose"); refused when it is
    so already."""
    c = tx.view(cmd.target)
    if c.combined_refused != cmd.allowed:
        already = "may already" if cmd.allowed else "already may not"
        raise Conflict(f"{names.escaped(c.name)} {already} combine move actions.")
    tx.c(c.id).combined_refused = not cmd.allowed
    verdict = "may" if cmd.allowed else "may not"
    tx.note(f"{c.name} {verdict} combine move actions (the Storyteller's call).", c.id)


def set_rule(tx: Tx, cmd: SetRule) -> None:
    """The Storyteller's dice for this encounter (:mod:`bot.engine.untitled.encounter`): the
    Legendary tier's or an armor class's above level 18; None goes back to the server's
    tables. Refused when nothing would change, the server's ladder has no Legendary tier, or
    an attack waits (its dice were checked when it was declared: ``combat._check_dice``)."""
    if tx.state.decisions:
        raise Conflict(
            f"An attack is waiting for {tx.waiting_on()}: change the Storyteller's dice once it "
            "is rolled (its dice were checked when it was declared)."
        )
    rules = dict(tx.state.settings.rules)
    if cmd.dice is None:
        if cmd.rule not in rules:
            raise Conflict(f"`{cmd.rule}` already follows the server's tables.")
        del rules[cmd.rule]
        verdict = "the server's tables again"
    else:
        if rules.get(cmd.rule) == cmd.dice:
            raise Conflict(f"`{cmd.rule}` is already {cmd.dice} in this encounter.")
        for_encounter(tx.tables, {cmd.rule: cmd.dice})  # refuses a ladder with no Legendary
        rules[cmd.rule] = cmd.dice
        verdict = f"{cmd.dice} in this encounter (the Storyteller's call)"
    tx.state.settings = tx.state.settings.model_copy(update={"rules": rules})
    tx.note(f"{cmd.rule}: {verdict}.")


def set_vitals(tx: Tx, cmd: SetVitals) -> None:
    """The GM sets or changes Health (0 to the sheet's Health); 0 puts the creature Down,
    more brings it back."""
    c = tx.view(cmd.target)
    value, relative = cmd.health
    new = max(0, min(c.sheet.health, c.health + value if relative else value))
    tx.c(c.id).health = new
    tx.note(f"The GM sets {c.name}'s Health to {new}.", c.id, secret=True, public="")
    if new == 0 and not c.has(DOWN):
        tx.gain(c.id, DOWN, "their Health is 0", "Health 0")
    elif new > 0 and c.has(DOWN):
        tx.lose(c.id, DOWN, "their Health is above 0")
    tx.check_end(force=True)


def set_condition(tx: Tx, cmd: SetCondition) -> None:
    """The GM puts Down on a creature or takes it off."""
    c = tx.view(cmd.target)
    name = next((x for x in CONDITIONS if x.casefold() == cmd.condition.casefold()), None)
    if name is None:
        raise InvalidInput(
            f"Untitled has no condition {names.escaped(repr(cmd.condition))}; its conditions: "
            f"{', '.join(CONDITIONS)}."
        )
    if cmd.present and not c.has(name):
        tx.gain(c.id, name, "the Game Master's call")
    elif not cmd.present and c.has(name):
        tx.lose(c.id, name, "the Game Master's call")
    else:
        raise Conflict(
            f"{names.escaped(c.name)} {'is already' if cmd.present else 'is not'} {name}."
        )
    tx.check_end(force=True)
