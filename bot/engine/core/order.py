"""The turn order every ruleset shares: how it is made, where a late joiner goes, and the moves
a combatant or the Game Master may make in it.

A ruleset picks a :class:`TurnOrder` (``Ruleset.turn_order``):

* :class:`ByScore` — UTTAS "Combat": by a characteristic (Agility), ties rolled; or everyone
  rolls, ties by the characteristic (the encounter's ``initiative_mode``).
* :class:`Rolled` — Utopia "Standard Actions": every creature makes a Speed test, highest first;
  a creature may choose to go later (:class:`~bot.engine.core.commands.DelayTurn`), never
  earlier.
* :class:`StorytellerOrder` — Untitled "Combat": the Storyteller sets the order (join order
  until they move someone with ``/gm order``); a player may hold their action until something
  happens (:class:`~bot.engine.core.commands.HoldTurn`) and take their turn when it does
  (:class:`~bot.engine.core.commands.ResumeTurn`), keeping that new place from then on.
* :class:`PcsThenNpcs` — Uune "Conflict": every player character, then the NPCs.

The rolls and scores come from the ruleset's transaction (``CoreTx.initiative_score``,
``CoreTx.initiative_roll``): the policy never knows what they mean. Utopia's optional
one-action-at-a-time interleaving is an encounter setting where the policy allows it
(``TurnOrder.allows_interleave``; :mod:`bot.engine.core.interleave`).

The handlers at the bottom (:data:`HANDLERS`) run the core's turn-order commands for every
ruleset: the GM's next / skip / order, and the delay, hold and resume moves where the policy
allows them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from bot import names
from bot.engine.core.commands import (
    DelayTurn,
    EndCombat,
    EndTurn,
    HoldTurn,
    MoveInOrder,
    NextTurn,
    ResumeTurn,
    SkipTurn,
)
from bot.engine.core.dice import Roll
from bot.engine.core.events import InitiativeLine, InitiativeRolled, TurnSkipped, order_heading
from bot.engine.core.state import Hold, InitiativeEntry, fight_over
from bot.errors import Conflict, InvalidInput, NotAllowed, RuleViolation

Tx = Any  # a CoreTx of any ruleset (typing it would import the tx module into a cycle)


class TurnOrder(ABC):
    """How one system orders a fight (see the module docstring)."""

    key: ClassVar[str]
    allows_delay: ClassVar[bool] = False
    """A combatant may move itself later in the order on its turn, before acting (Utopia)."""
    allows_hold: ClassVar[bool] = False
    """A combatant may hold its turn until something happens, then act (Untitled)."""
    allows_interleave: ClassVar[bool] = False
    """The encounter may play one action at a time, each creature after each action (Utopia's
    optional rule, :mod:`bot.engine.core.interleave`)."""
    takes_initiative_mode: ClassVar[bool] = False
    """``initiative:`` (by Agility, or rolled) chooses how this order is made (UTTAS's
    :class:`ByScore`); the other orders are made their own way, and the option is refused in
    :attr:`words` — by ``/gm settings`` (:func:`bot.engine.core.interleave.change_settings`)
    and by ``/encounter begin`` — rather than dropped."""

    def __init__(self, words: str = "") -> None:
        self.words = words
        """How the system orders a fight, in its own words ("Utopia always rolls its order
        (everyone's Speed test, highest first)"), for refusing ``initiative:``."""

    @abstractmethod
    def arrange(self, tx: Tx) -> None:
        """Set ``tx.state.order`` (and each combatant's ``initiative``) as the fight begins,
        rolling what the system rolls, and emit :class:`InitiativeRolled`."""

    def place(self, tx: Tx, cid: str) -> None:
        """Put ``cid``, who joined a running fight, into the order (by default: last)."""
        tx.state.order.append(cid)
        self.placed(tx, cid)

    def placed(self, tx: Tx, cid: str) -> None:
        """Note where ``cid`` now stands, in :meth:`place_words` — the words the join's reply
        uses, so the log, an undo and ``/gm log`` say the same (a Uune PC joins the player
        characters; Untitled's order is the Storyteller's, not an initiative order)."""
        c = tx.view(cid)
        place = tx.state.order.index(cid) + 1
        rolled = self.rolled(tx.state, c)
        plain = self.place_words(c.name, place, is_npc=c.is_npc)
        if rolled is None:
            tx.note(plain, cid)
        else:  # the roll is the newcomer's number: hidden where its numbers are
            words = self.place_words(c.name, place, is_npc=c.is_npc, rolled=rolled)
            tx.note(words, cid, secret=True, public=plain)

    def rolled(self, state: Any, combatant: Any) -> int | None:
        """What ``combatant``, placed in a running fight, rolled for its place (None: nothing
        was rolled — an order by a score, by joining or by the Storyteller)."""
        return None

    def place_words(self, name: str, place: int, *, is_npc: bool, rolled: int | None = None) -> str:
        """Where a newcomer to a running fight stands, said as the table reads this order
        (``embeds.order_places``): an order set by a score or a roll is the initiative order,
        as its heading says (:func:`~bot.engine.core.events.order_heading`); ``rolled``, what
        it rolled for it, as ``/encounter begin`` shows everyone's."""
        roll = f"rolls {rolled} for initiative and " if rolled is not None else ""
        return f"{name} {roll}takes place {place} in the initiative order."


def _emit_order(tx: Tx, mode: str, scores: dict[str, int], rolls: dict[str, Roll]) -> None:
    st = tx.state
    lines = tuple(
        InitiativeLine(
            combatant=cid,
            name=tx.view(cid).name,
            agility=scores.get(cid, 0),
            roll=rolls.get(cid),
            place=i + 1,
        )
        for i, cid in enumerate(st.order)
    )
    text = f"{order_heading(mode)}: " + ", ".join(f"{ln.place}. {ln.name}" for ln in lines)
    tx.emit(InitiativeRolled(mode=mode, lines=lines, text=text))


class ByScore(TurnOrder):
    """Highest score first (``initiative_mode`` ``"agility"``: the score; combatants tied on
    it roll, higher first) — or everyone rolls, highest first, ties by the score
    (``initiative_mode`` ``"roll"``). Whatever still ties keeps the order combatants were added
    (earlier first). A late joiner is placed by the same key, after those it ties with."""

    key = "by_score"
    mode: str | None = None  # None: the encounter's initiative_mode
    takes_initiative_mode = True

    def _mode(self, tx: Tx) -> str:
        return self.mode or tx.state.initiative_mode

    def rolled(self, state: Any, combatant: Any) -> int | None:
        """In ``roll`` mode (Utopia's Speed test; UTTAS's ``initiative:roll``), the roll that
        placed a newcomer — as ``/encounter begin`` shows everyone's ("rolled 12")."""
        entry = combatant.initiative
        if (self.mode or state.initiative_mode) != "roll" or entry is None or not entry.dice:
            return None
        return int(entry.primary)

    def arrange(self, tx: Tx) -> None:
        st = tx.state
        mode = self._mode(tx)
        scores = {c.id: tx.initiative_score(c) for c in st.combatants}
        rolls: dict[str, Roll] = {}
        if mode == "roll":
            for c in st.combatants:
                rolls[c.id] = tx.initiative_roll(c, None)
        else:
            groups: dict[int, list[str]] = {}
            for c in st.combatants:
                groups.setdefault(scores[c.id], []).append(c.id)
            for ids in groups.values():
                if len(ids) > 1:
                    for cid in ids:
                        rolls[cid] = tx.initiative_roll(tx.view(cid), scores[cid])
        for c in st.combatants:
            r = rolls.get(c.id)
            if mode == "roll":
                assert r is not None
                entry = InitiativeEntry(
                    primary=r.total, tie_break=scores[c.id], seq=c.join_seq, dice=list(r.dice)
                )
            else:
                entry = InitiativeEntry(
                    primary=scores[c.id],
                    tie_break=r.total if r else 0,
                    seq=c.join_seq,
                    dice=list(r.dice) if r else [],
                )
            tx.c(c.id).initiative = entry
        ordered = sorted(
            st.combatants,
            key=lambda c: c.initiative.key() if c.initiative else (0, 0, 0),
            reverse=True,
        )
        st.order = [c.id for c in ordered]
        _emit_order(tx, mode, scores, rolls)

    def place(self, tx: Tx, cid: str) -> None:
        c = tx.c(cid)
        score = tx.initiative_score(c)
        if self._mode(tx) == "roll":
            roll = tx.initiative_roll(c, None)
            c.initiative = InitiativeEntry(
                primary=roll.total, tie_break=score, seq=c.join_seq, dice=list(roll.dice)
            )
        else:
            c.initiative = InitiativeEntry(primary=score, tie_break=-1, seq=c.join_seq)
        key = c.initiative.key()
        order = tx.state.order
        pos = len(order)
        for i, other in enumerate(order):
            entry = tx.view(other).initiative
            if entry is not None and entry.key()[:2] < key[:2]:
                pos = i
                break
        order.insert(pos, cid)
        self.placed(tx, cid)


class Rolled(ByScore):
    """Everyone rolls (Utopia: a Speed test), highest first, ties by the score; a creature may
    choose to go later, never earlier."""

    key = "rolled"
    mode = "roll"
    takes_initiative_mode = False
    allows_delay = True
    allows_interleave = True


class StorytellerOrder(TurnOrder):
    """The order the combatants joined in, until the Storyteller moves someone (``/gm
    order``); nothing is rolled. A combatant may hold its action."""

    key = "storyteller"
    allows_hold = True

    def arrange(self, tx: Tx) -> None:
        st = tx.state
        st.order = [c.id for c in sorted(st.combatants, key=lambda c: c.join_seq)]
        _emit_order(tx, "storyteller", {}, {})

    def place_words(self, name: str, place: int, *, is_npc: bool, rolled: int | None = None) -> str:
        """No initiative ("There is no specific initiative bonus or roll to determine
        order"): the Storyteller's order."""
        return (
            f"{name} takes place {place} in the Storyteller's order (the GM changes it with "
            "`/gm order`)."
        )


class PcsThenNpcs(TurnOrder):
    """Every player character (in the order they joined), then every NPC."""

    key = "pcs_then_npcs"

    def arrange(self, tx: Tx) -> None:
        st = tx.state
        ordered = sorted(st.combatants, key=lambda c: (c.is_npc, c.join_seq))
        st.order = [c.id for c in ordered]
        _emit_order(tx, "pcs_then_npcs", {}, {})

    def place(self, tx: Tx, cid: str) -> None:
        order = tx.state.order
        if tx.view(cid).is_npc:
            order.append(cid)
        else:
            last_pc = max((i for i, x in enumerate(order) if not tx.view(x).is_npc), default=-1)
            order.insert(last_pc + 1, cid)
        self.placed(tx, cid)

    def place_words(self, name: str, place: int, *, is_npc: bool, rolled: int | None = None) -> str:
        """No initiative: a PC joins the player characters, who choose who goes next; an NPC
        acts after them, among the NPCs in the order they joined."""
        if is_npc:
            return f"{name} takes place {place}: after the player characters, with the NPCs."
        return (
            f"{name} joins the player characters, who act first and choose who goes next; "
            "then the NPCs."
        )


# -- the core's turn-order commands ----------------------------------------------------------


def next_turn(tx: Tx, cmd: NextTurn) -> None:
    """Game Master: end the current turn (as any turn's end) and start the next. Refused while
    a decision waits."""
    tx.require_active()
    tx.require_same_turn(cmd)
    tx.require_no_pending()
    current = tx.state.turn
    if current is not None:
        name = tx.view(current).name
        if cmd.by == "deadline":
            tx.note(f"{name}'s turn deadline passed.", current)
        else:
            tx.note(f"The GM ends {name}'s turn.", current)
        tx.end_turn(current)
    tx.next_turn(current)
    tx.check_end()


def skip_turn(tx: Tx, cmd: SkipTurn) -> None:
    """Game Master: skip the target's turn — at once if it holds the turn, else its next.
    Raises :class:`RuleViolation` when the fight is over, and (the core's reading
    ``"one_skip"``, :meth:`~bot.engine.core.tx.CoreTx.plays`) when the target already skips
    its next turn — before, a second ``/gm skip`` changed nothing and said it again."""
    c = tx.view(cmd.target)
    if tx.state.phase == "finished":
        raise RuleViolation(fight_over(tx.state))
    if tx.state.phase == "active" and tx.state.turn == c.id:
        tx.require_same_turn(cmd)
        tx.require_no_pending()
        tx.emit(
            TurnSkipped(
                combatant=c.id,
                reason="skipped by the Game Master",
                text=f"{c.name}'s turn is skipped by the Game Master.",
            )
        )
        tx.end_turn(c.id)
        tx.next_turn(c.id)
        tx.check_end()
        return
    if c.skip_next_turn and tx.plays("one_skip"):
        raise RuleViolation(f"{names.escaped(c.name)} already skips their next turn.")
    tx.c(c.id).skip_next_turn = True
    tx.note(f"{c.name} will skip their next turn.", c.id)


def move_in_order(tx: Tx, cmd: MoveInOrder) -> None:
    """Game Master: put the target at a place in the order; the turn stays with whoever has
    it and passes on from there in the new order. Like every command that moves the fight on,
    it waits while a decision is open (``MoveInOrder.waits_for_decisions``, checked by the
    services before it applies — not here, so an older fight whose GM moved the order while a
    decision waited replays as it was played)."""
    tx.require_active()
    c = tx.view(cmd.target)
    order = tx.state.order
    if c.id not in order:
        raise InvalidInput(f"{names.escaped(c.name)} is not in the initiative order.")
    if cmd.position > len(order):
        raise InvalidInput(f"The order has {len(order)} places; choose 1 to {len(order)}.")
    order.remove(c.id)
    order.insert(cmd.position - 1, c.id)
    places = ", ".join(f"{i + 1}. {tx.view(x).name}" for i, x in enumerate(order))
    tx.note(f"The GM moves {c.name} to place {cmd.position}. Order: {places}", c.id)


def first_turn_round(state: Any, cid: str) -> int | None:
    """The round of the first turn of ``cid``, who just joined the running fight: this round
    when it stands after the turn's holder in the order (the turn passes on to it), else the
    next — a newcomer placed before the holder (a better initiative; a Uune PC joining during
    the NPCs' turns, among the player characters who acted) waits for the next round. None
    when no turn runs, for the holder itself, in an interleaved order (everyone goes again
    after each action) and for one not in the order."""
    turn, order = state.turn, state.order
    if state.phase != "active" or turn is None or state.settings.interleaved:
        return None
    if cid == turn or cid not in order or turn not in order:
        return None
    now: int = state.round
    return now if order.index(cid) > order.index(turn) else now + 1


def turns_moved(before: Any, after: Any) -> list[tuple[str, bool]]:
    """Whose turn this round a change of the order moved (``/gm order``, Untitled's
    ``/gm roll-order``), as ``(combatant id, gains)``: the turn stays with its holder and
    passes on in the new order, so whoever was still to come and now stands before the holder
    waits until next round (``gains`` False), and whoever was done for the round and now stands
    after the holder takes a turn this round (True). Nothing when the turn or round changed,
    in Utopia's interleaved order (everyone goes again after each action: nobody is done for
    the round by place), for the holder, for newcomers and for those holding their action. The
    fight's order was changed like this silently: a player waited for a turn that did not
    come."""
    turn = after.turn
    if turn is None or before.turn != turn or before.round != after.round:
        return []
    if after.settings.interleaved:
        return []
    if turn not in before.order or turn not in after.order:
        return []
    was, now = before.order.index(turn), after.order.index(turn)
    moved: list[tuple[str, bool]] = []
    for cid in after.order:
        if cid == turn or cid not in before.order or cid in after.holding:
            continue
        done_before = before.order.index(cid) < was
        done_now = after.order.index(cid) < now
        if done_before != done_now:
            moved.append((cid, done_before))
    return moved


def delay_turn(tx: Tx, cmd: DelayTurn) -> None:
    """Utopia "Standard Actions": a creature may put itself lower in the turn order, never
    higher. On its own turn and before spending anything, the actor moves (for good) to just
    after ``cmd.after``, who must come later in the order; the turn passes to whoever came
    next, and the actor's turn comes again at its new place this round. Raises
    :class:`RuleViolation` where the system has no such move, after acting, or for someone
    earlier."""
    _require_policy(tx, "allows_delay", "choosing to go later")
    tx.require_active()
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    tx.require_same_turn(cmd)
    tx.require_no_pending()
    if tx.state.turn_spent:
        raise RuleViolation(
            f"{names.escaped(c.name)} has already acted this turn: it is too late to go later."
        )
    order = tx.state.order
    later = tx.view(cmd.after)
    here, there = order.index(c.id), order.index(later.id) if later.id in order else -1
    if there <= here:
        raise RuleViolation(
            f"{names.escaped(c.name)} may only go later in the order, and "
            f"{names.escaped(later.name)} does not come after {names.escaped(c.name)}."
        )
    before = order[here - 1] if here > 0 else None
    order.remove(c.id)
    order.insert(order.index(later.id) + 1, c.id)
    tx.note(f"{c.name} waits: from now on they go after {later.name}.", c.id)
    tx.end_turn(c.id)
    if before is None:
        _start_from(tx, 0)
    else:
        tx.next_turn(before)


def _start_from(tx: Tx, index: int) -> None:
    """Start the turn at ``index`` of the order in this round (or the next who can act)."""
    order = tx.state.order
    if tx.start_turn(order[index]):
        return
    tx.next_turn(order[index])


def hold_turn(tx: Tx, cmd: HoldTurn) -> None:
    """Untitled "Combat": "hold their action … until" something happens. The actor's turn ends
    now without acting; it is passed over while it holds, and when it resumes
    (:func:`resume_turn`) it acts right after the turn then running and keeps that place. A
    hold still standing when its place comes round again lapses: it acts there as usual.
    Raises :class:`RuleViolation` where the system has no such move or after acting."""
    _require_policy(tx, "allows_hold", "holding an action")
    tx.require_active()
    c = tx.view(cmd.actor)
    tx.require_turn(c)
    tx.require_same_turn(cmd)
    tx.require_no_pending()
    if tx.state.turn_spent:
        raise RuleViolation(
            f"{names.escaped(c.name)} has already acted this turn: there is nothing to hold."
        )
    tx.state.holding = {**tx.state.holding, c.id: Hold(until=cmd.until, round=tx.state.round)}
    tx.note(f"{c.name} holds their action until {cmd.until}.", c.id)
    tx.finish_turn(c.id)


def resume_turn(tx: Tx, cmd: ResumeTurn) -> None:
    """The held action's moment came: the holder takes its turn as soon as the current one
    ends (at once if nobody holds the turn), and goes at that place from then on. Raises
    :class:`Conflict` when the actor holds nothing or has already resumed (a second resume
    would log the same moment twice), :class:`RuleViolation` when it cannot act (Down)."""
    tx.require_active()
    c = tx.view(cmd.actor)
    if c.id not in tx.state.holding:
        raise Conflict(f"{names.escaped(c.name)} is not holding an action.")
    tx.require_can_act(c)
    if tx.state.holding[c.id].resume:
        raise Conflict(f"{names.escaped(c.name)} already acts as soon as the current turn ends.")
    holding = dict(tx.state.holding)
    holding[c.id] = holding[c.id].model_copy(update={"resume": True})
    tx.state.holding = holding
    tx.note(f"{c.name} will act as soon as the current turn ends.", c.id)


def _require_policy(tx: Tx, flag: str, what: str) -> None:
    if not getattr(tx.order, flag):
        raise NotAllowed(f"This game system has no {what}.")


def end_turn(tx: Tx, cmd: EndTurn) -> None:
    """The actor ends its own turn (``/endturn``); what it did not use is lost (UTTAS "Combat",
    Utopia "you do not have to use all of them", Untitled's round, Uune's one action). Raises
    :class:`RuleViolation` outside a running fight, for a turn already over (the command's
    ``turn``), while a decision waits, or when it is someone else's turn (naming whose)."""
    c = tx.view(cmd.actor)
    tx.require_active()
    tx.require_same_turn(cmd)
    tx.require_no_pending()
    if tx.state.turn != c.id:
        cur = names.escaped(tx.view(tx.state.turn).name) if tx.state.turn else "nobody"
        raise RuleViolation(f"It is {cur}'s turn, not {names.escaped(c.name)}'s.")
    tx.finish_turn(c.id)


def end_combat(tx: Tx, cmd: EndCombat) -> None:
    """Game Master: end the running fight with no winner (``/gm end-fight``). Raises
    :class:`RuleViolation` when none is running (in the system's word for it, ``Tx.FIGHT``)."""
    if tx.state.phase != "active":
        raise RuleViolation(f"No {tx.FIGHT} is running.")
    tx.end_fight(None, "the Game Master ended it")


Handler = Callable[[Tx, Any], None]
HANDLERS: dict[str, Handler] = {
    "end_turn": end_turn,
    "end_combat": end_combat,
    "next_turn": next_turn,
    "skip_turn": skip_turn,
    "move_in_order": move_in_order,
    "delay": delay_turn,
    "hold": hold_turn,
    "resume": resume_turn,
}
"""The core's turn commands (ending a turn or the fight, and the turn order's), for every
ruleset's dispatch table."""
