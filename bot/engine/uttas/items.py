"""UTTAS items and what a combatant holds (issue 11, "Items").

The text's rules: "Perform an action: The character attacks, activates a power, initiates a
skill, moving their full Move speed or draws and uses an item" — drawing and using an item is
one action, which ends the turn — and "Disabled Limb", Arms/Hands: "A disabled arm or hand
immediately drops whatever it's holding". Everything else is the bot's default, each listed
in ``docs/rules/uttas.md`` (the tables' ``items`` section where it is a number):

* A combatant's arms hold things (``Combatant.holding``: arm → weapon or item name). A fighter
  joins holding its weapons, in sheet order, in as many working arms as each needs
  (:meth:`UttasSheet.starting_hands`); items start put away. A weapon that needs no hand
  (claws, a bite) is never held and always ready.
* An attack with a weapon that needs hands needs it in hand (:func:`require_in_hand`).
* ``UseItem`` (``/act action:use-item``) draws the item into free hands if it is not held
  already and uses it: the turn's action. Its effect (restoring Health or Stamina dice) is
  applied through the same paths as other healing — Health regained restores limbs
  (``Tx.limbs_follow_health``, after every command) — or, for an item the GM applies, its
  description is shown. A limited item's uses spent are counted (kept in the campaign
  record); the last use leaves the hand empty.
* ``Draw`` puts a weapon or an item in free hands without using it; ``Stow`` puts away (or
  drops) what a hand holds. Their costs are the tables' (``items.draw_actions``,
  ``items.draw_ends_turn``, ``items.stow_actions``).
* Whatever a disabled arm holds is dropped as the command that disabled it ends, whatever the
  cause — a called shot, a grapple's hold, the GM (:func:`drop_from_disabled_hands`); a dropped
  weapon cannot attack until drawn again.

Outside a fight (before it begins, after it ended) drawing, stowing and using items need no
turn and cost no action, as healing does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import names
from bot.engine.uttas import limbs
from bot.engine.uttas.commands import Draw, Stow, UseItem
from bot.engine.uttas.core import Tx
from bot.engine.uttas.events import Recovered
from bot.engine.uttas.healing import nothing_to_heal
from bot.engine.uttas.rules import AttackProfile
from bot.engine.uttas.sheet import Item
from bot.engine.uttas.state import DEAD, Combatant
from bot.errors import NotFound, RuleViolation
from bot.words import counted


def held(c: Combatant) -> list[str]:
    """What ``c``'s hands hold, each thing once, in the order of its arms."""
    order = {arm: i for i, arm in enumerate(c.sheet.arms())}
    arms = sorted(c.holding, key=lambda arm: order.get(arm, len(order)))
    return list(dict.fromkeys(c.holding[arm] for arm in arms))


def arms_holding(c: Combatant, name: str) -> list[str]:
    """The arms holding ``name`` — the sheet's own name of a weapon or item, as ``holding``
    keeps it (an exact comparison: an attack checks it, so it stays cheap)."""
    return [arm for arm, thing in c.holding.items() if thing == name]


def free_arms(c: Combatant) -> list[str]:
    """Working arms (UTTAS "Arms/Hands": a disabled one "cannot be used for any actions")
    that hold nothing, in the order they are filled."""
    off = limbs.disabled(c)
    return [arm for arm in c.sheet.arms() if arm not in off and arm not in c.holding]


def _cost(actions: int) -> str:
    return "free" if actions == 0 else counted(actions, "action")


def require_in_hand(c: Combatant, profile: AttackProfile) -> None:
    """Refuse an attack with a weapon that needs hands but is not held in enough of them:
    dropped when an arm was disabled (UTTAS "Arms/Hands"), or put away — either way it must
    be drawn first (``/act action:draw``)."""
    if profile.source != "weapon" or profile.hands == 0:
        return
    if len(arms_holding(c, profile.name)) >= profile.hands:
        return
    hint = names.code(f"/act action:draw detail:{profile.name}")
    folded = names.key(profile.name)
    if any(names.key(d) == folded for d in c.dropped):
        raise RuleViolation(
            f"{names.escaped(c.name)} dropped the {names.escaped(profile.name)} when an arm "
            f"holding it was disabled: pick it up first ({hint})."
        )
    raise RuleViolation(
        f"{names.escaped(c.name)} is not holding the {names.escaped(profile.name)}: draw it first "
        f"({hint})."
    )


def refit(c: Combatant) -> None:
    """After the combatant's sheet changed (``/gm refresh``): its hands keep only weapons and
    items the new sheet carries, each in as many hands as it now takes (one that now takes more
    is put away, so drawing it again works); what it dropped is forgotten when the sheet no
    longer has it. ``c`` is a changeable copy."""
    hands = {w.name: w.hands for w in c.sheet.weapons} | {i.name: i.hands for i in c.sheet.items}
    counts: dict[str, int] = {}
    for thing in c.holding.values():
        counts[thing] = counts.get(thing, 0) + 1
    keep = {thing for thing, n in counts.items() if thing in hands and n >= hands[thing]}
    c.holding = {arm: thing for arm, thing in c.holding.items() if thing in keep}
    carried = {names.key(name) for name in hands}
    c.dropped = [d for d in c.dropped if names.key(d) in carried]


def _thing(c: Combatant, wanted: str) -> tuple[str, int]:
    """A weapon or an item of ``c``'s sheet by name: ``(its name, the hands it takes)``.
    Raises :class:`NotFound` listing what there is."""
    folded = names.key(wanted)
    for w in c.sheet.weapons:
        if names.key(w.name) == folded:
            return w.name, w.hands
    for i in c.sheet.items:
        if names.key(i.name) == folded:
            return i.name, i.hands
    there = [names.escaped(w.name) for w in c.sheet.weapons if w.hands] + [
        names.escaped(i.name) for i in c.sheet.items
    ]
    listed = ", ".join(there) if there else "nothing to draw"
    raise NotFound(
        f"{names.escaped(c.name)} has no weapon or item called {names.quoted(wanted[:80])} "
        f"(on the sheet: {listed})."
    )


def _hands_for(tx: Tx, c: Combatant, name: str, hands: int) -> list[str]:
    """The free working arms that will hold ``name`` (it takes ``hands``). Refused when too
    few arms work, or too few are free (naming what they hold and how to free one)."""
    working = limbs.usable_arms(c)
    if hands > working:
        raise RuleViolation(
            f"The {names.escaped(name)} needs {counted(hands, 'hand')}; {names.escaped(c.name)} "
            f"has {counted(working, 'working arm')}."
        )
    free = free_arms(c)
    if len(free) < hands:
        what = held(c)
        raise RuleViolation(
            f"{names.escaped(c.name)} has no free hand for the {names.escaped(name)}: the hands "
            f"hold the {' and the '.join(names.escaped(w) for w in what)}. Put one away first "
            f"({names.code(f'/act action:stow detail:{what[0]}')}, "
            f"{_cost(tx.tables.items.stow_actions)})."
        )
    return free[:hands]


def _start(tx: Tx, c: Combatant, *, paid: bool, what: str) -> bool:
    """Who may do it now: in a fight the combatant whose turn it is (and, if it costs
    actions, not held in a grapple — UTTAS "Grappled"); outside one anyone able to act.
    Returns whether it happens in a fight."""
    fight = tx.state.phase == "active"
    if fight:
        tx.require_turn(c)
        if paid:
            tx.require_not_held(c, what)
    else:
        tx.require_can_act(c)
    return fight


def draw(tx: Tx, cmd: Draw) -> None:
    """Put a weapon or an item in free hands without using it (issue 11, "Items"; the text
    gives no cost: ``items.draw_actions`` from the Speed pool, the turn's action only if
    ``items.draw_ends_turn``). Picks up a dropped weapon."""
    c = tx.view(cmd.actor)
    table = tx.tables.items
    fight = _start(tx, c, paid=bool(table.draw_actions or table.draw_ends_turn), what="draw")
    name, hands = _thing(c, cmd.thing)
    if hands == 0:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(name)} needs no hand: it is always ready."
        )
    if arms_holding(c, name):
        raise RuleViolation(f"{names.escaped(c.name)} already holds the {names.escaped(name)}.")
    arms = _hands_for(tx, c, name, hands)
    if fight and table.draw_actions:
        tx.spend_actions(c.id, table.draw_actions, f"drawing the {name}", "turn")
    m = tx.c(c.id)
    if fight and (table.draw_actions or table.draw_ends_turn):
        m.free_stance_available = False
    for arm in arms:
        m.holding[arm] = name
    m.dropped = [d for d in m.dropped if names.key(d) != names.key(name)]
    tx.note(f"{c.name} draws the {name} ({' and '.join(arms)}).", c.id)
    if fight and table.draw_ends_turn:
        tx.action_done(c.id, True)


def stow(tx: Tx, cmd: Stow) -> None:
    """Put away (or drop) what the hands hold (issue 11, "Items"; ``items.stow_actions``,
    free by default). The turn goes on."""
    c = tx.view(cmd.actor)
    cost = tx.tables.items.stow_actions
    fight = _start(tx, c, paid=bool(cost), what="put anything away")
    folded = names.key(cmd.thing)
    name = next((t for t in held(c) if names.key(t) == folded), "")
    arms = arms_holding(c, name)
    if not arms:
        what = held(c)
        holds = f"the {' and the '.join(names.escaped(w) for w in what)}" if what else "nothing"
        raise NotFound(
            f"{names.escaped(c.name)} holds no {names.escaped(repr(cmd.thing[:80]))}; the hands "
            f"hold {holds}."
        )
    if fight and cost:
        tx.spend_actions(c.id, cost, f"putting the {name} away", "turn")
    m = tx.c(c.id)
    m.holding = {arm: thing for arm, thing in m.holding.items() if arm not in arms}
    tx.note(f"{c.name} puts the {name} away.", c.id)


def uses_left(c: Combatant, item: Item) -> int | None:
    """Uses left of ``item`` (None: unlimited): its ``uses`` less those spent (ever: the
    campaign record keeps them)."""
    if item.uses is None:
        return None
    return max(0, item.uses - c.item_uses.get(item.name, 0))


def use_item(tx: Tx, cmd: UseItem) -> None:
    """UTTAS "Perform an action": "draws and uses an item" — one action, which ends the turn
    (outside a fight: no turn, no action). The item goes into free hands unless already held
    (or it takes none); its effect restores Health or Stamina (:func:`_apply`), or the GM
    applies what its description says. Refused, with nothing spent: an unknown item, one used
    up, no free hand, a target out of reach, dead, or with nothing to restore."""
    c = tx.view(cmd.actor)
    fight = _start(tx, c, paid=True, what="use an item")
    item = c.sheet.item(cmd.item)
    if item is None:
        there = ", ".join(names.escaped(i.name) for i in c.sheet.items) or "none"
        raise NotFound(
            f"{names.escaped(c.name)} has no item called {names.quoted(cmd.item[:80])} (items: "
            f"{there})."
        )
    left = uses_left(c, item)
    if left == 0:
        raise RuleViolation(
            f"{names.escaped(c.name)}'s {names.escaped(item.name)} is used up ({item.uses} of "
            f"{item.uses} uses spent)."
        )
    target = tx.view(cmd.target) if cmd.target else c
    tx.require_within(c, target, tx.tables.items.reach_m, "an item is used")
    in_hand = bool(arms_holding(c, item.name))
    arms = [] if in_hand or item.hands == 0 else _hands_for(tx, c, item.name, item.hands)
    _require_effect(tx, item, target)
    if fight:
        tx.spend_actions(c.id, 1, f"using the {item.name}", "turn")
    m = tx.c(c.id)
    if fight:
        m.free_stance_available = False
    for arm in arms:
        m.holding[arm] = item.name
    m.dropped = [d for d in m.dropped if names.key(d) != names.key(item.name)]
    if left is not None:
        m.item_uses[item.name] = m.item_uses.get(item.name, 0) + 1
        left -= 1
    if left == 0:  # the last use: nothing is left to hold
        m.holding = {arm: thing for arm, thing in m.holding.items() if thing != item.name}
    _announce(tx, c, item, target, drawn=bool(arms), left=left)
    _apply(tx, c, item, target)
    if fight:
        tx.action_done(c.id, True)


def _require_effect(tx: Tx, item: Item, target: Combatant) -> None:
    """Refuse an effect that cannot do anything (UTTAS "Dead": "there is no way to recover";
    nothing to restore), before anything is spent."""
    effect = item.effect
    if effect is None:
        return
    if target.has(DEAD):
        raise RuleViolation(
            f"{names.escaped(target.name)} is dead: there is no way to recover from it."
        )
    if effect.restores == "health" and target.health >= target.sheet.health:
        raise nothing_to_heal(target)
    # An NPC whose numbers are hidden "looks unhurt" when it only spent Stamina: refusing would
    # tell a player its Stamina is full, so the item is used and restores nothing.
    hidden = target.is_npc and tx.state.settings.hide_npc_numbers
    if effect.restores == "stamina" and target.stamina >= tx.stamina_cap(target) and not hidden:
        raise RuleViolation(f"{names.escaped(target.name)} has no Stamina to recover.")


def _announce(
    tx: Tx, c: Combatant, item: Item, target: Combatant, *, drawn: bool, left: int | None
) -> None:
    """The note saying what was used, on whom, what it is and (the user's numbers) what is
    left of it; an item the GM applies says so."""
    verb = "draws and uses" if drawn else "uses"
    on = f" on {target.name}" if target.id != c.id else ""
    about = item.description.rstrip(". ")
    public = f"{c.name} {verb} the {item.name}{on}" + (f": {about}" if about else "")
    if item.effect is None:
        public += "; the GM applies its effect"
    if left is None:
        tx.note(public + ".", c.id)
        return
    count = "its last use" if left == 0 else f"{counted(left, 'use')} left"
    tx.note(f"{public} ({count}).", c.id, secret=True, public=public + ".")


def _apply(tx: Tx, user: Combatant, item: Item, target: Combatant) -> None:
    """The item's effect: its dice (d6) plus its bonus of Health — up to the maximum, limbs
    following (``Tx.limbs_follow_health``) — or of Stamina (``Tx.recover_stamina``: capped,
    waking the Unconscious as any recovery does)."""
    effect = item.effect
    if effect is None:
        return
    source = f"{user.name}'s {item.name}"
    roll = tx.roll(source, effect.dice, modifier=effect.bonus) if effect.dice else None
    total = roll.total if roll is not None else effect.bonus
    if effect.restores == "stamina":
        tx.recover_stamina(target.id, total, source, roll)
        return
    m = tx.c(target.id)
    amount = min(total, m.sheet.health - m.health)
    m.health += amount
    capped = " (capped at the maximum)" if amount < total else ""
    tx.emit(
        Recovered(
            combatant=m.id,
            source=source,
            roll=roll,
            health=amount,
            text=f"{m.name} regains {amount} Health from {source}{capped}; "
            f"now {m.health}/{m.sheet.health}." + (f" {roll.text}" if roll else ""),
        )
    )


def drop_from_disabled_hands(tx: Tx) -> None:
    """UTTAS "Arms/Hands": "A disabled arm or hand immediately drops whatever it's holding".
    After every command, each combatant it changed that holds something in a disabled arm —
    injured by a called shot, held by a grapple, disabled by the GM — drops it (a two-handed
    weapon leaves both hands); the note says so, and the weapon cannot attack until drawn
    again (:func:`require_in_hand`)."""
    for m in tx.changed():
        if not m.holding or not m.disabled_limbs:
            continue
        why = {d.limb: d.source for d in m.disabled_limbs}
        lost: dict[str, str] = {}
        for arm, thing in m.holding.items():
            if arm in why:
                lost.setdefault(thing, arm)
        if not lost:
            continue
        m.holding = {arm: thing for arm, thing in m.holding.items() if thing not in lost}
        m.dropped = [*m.dropped, *(t for t in lost if t not in m.dropped)]
        for thing, arm in lost.items():
            how = "held in a grapple" if why[arm] == "grapple" else "disabled"
            tx.note(f"{m.name} drops the {thing}: the {arm} is {how}.", m.id)


HANDLERS: dict[str, Callable[[Tx, Any], None]] = {
    "use_item": use_item,
    "draw": draw,
    "stow": stow,
}
"""The item commands, for the ruleset's dispatch table."""
