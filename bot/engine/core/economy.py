"""Action economies: the one part of a ruleset's turn structure the engine core must not hard-code.

A combatant's economy state is a plain ``dict[str, int]`` of named pools kept on
``Combatant.pools``. The engine core only ever calls the hooks below at fixed points (a turn
starts/ends for *every* combatant, with ``own`` telling whose turn it is; a cost is paid on or off
the payer's turn), so each system's economy is a small class and adding one changes nothing in the
core. ``docs/architecture.md`` maps the four systems onto these hooks:

* UTTAS  — :class:`SpeedPool`: one pool of Speed actions per round, spent on and off turn,
  refilled at the end of the character's own turn; an empty pool skips the next turn.
* Utopia — :class:`UtopiaActions`: 6 turn actions, 2 interrupt actions reset at the start of each
  other creature's turn, exchanges 2 IA = 1 TA and 1 TA = 1 IA, 2 TA held as 1 IA.
* Untitled — :class:`UntitledActions`: 2 move + 1 standard *or* 1 full-round; swift,
  immediate and free actions.
* Uune — :class:`UuneActions`: one action per turn; Defend is free off-turn.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.errors import RuleViolation
from bot.words import counted

Timing = Literal["turn", "off_turn"]
Pools = dict[str, int]


class Cost(BaseModel):
    """What an action costs: ``amount`` of ``kind`` (``action``, ``turn``, ``interrupt``, ``move``,
    ``standard``, ``full_round``, ``swift``, ``immediate``, ``free``, ``defend``, ``hold``)."""

    model_config = ConfigDict(frozen=True)

    kind: str = "action"
    amount: int = Field(default=1, ge=0, le=20)


ONE_ACTION = Cost()


class ActionEconomy(ABC):
    """The contract every ruleset's action economy implements. Methods never mutate ``pools``;
    they return a new dict. ``capacity`` is the combatant's per-round figure where the system has
    one (UTTAS Speed, Utopia TA), else ignored."""

    key: ClassVar[str]
    others_change: ClassVar[bool] = True
    """Whether a turn starting or ending can change the pools of those whose turn it is not
    (Utopia: interrupt actions reset at every other creature's turn). An economy that sets it
    False is told only of its own turns, which saves the core a call per combatant per turn."""

    @abstractmethod
    def fresh(self, capacity: int) -> Pools:
        """Pools of a combatant at the start of a fight."""

    @abstractmethod
    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        """Pools after paying ``cost``. Raises :class:`RuleViolation` if it cannot be paid."""

    def can_pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> bool:
        try:
            self.pay(pools, cost, timing, capacity)
        except RuleViolation:
            return False
        return True

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        """Called for every combatant when any turn starts (``own``: it is this one's turn)."""
        return pools

    def on_turn_end(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        """Called for every combatant when any turn ends."""
        return pools

    def skips_turn(self, pools: Pools) -> bool:
        """True when the combatant may not act on the turn that is starting."""
        return False

    def on_turn_skipped(self, pools: Pools, *, capacity: int) -> Pools:
        """Called for the combatant whose turn :meth:`skips_turn` just skipped, before that
        turn ends (UTTAS rules version 2: the pool refills at the end of the skipped turn)."""
        return pools

    def exhausted(self, pools: Pools) -> bool:
        """True when nothing is left to spend (UTTAS: Staggered)."""
        return False


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise RuleViolation(message)


class SpeedPool(ActionEconomy):
    """UTTAS "Actions and Speed": Speed actions per round across the own turn and reactions;
    an empty pool skips the next turn. When the pool refills is the reading's (the text's
    sentence is ambiguous; ``docs/rules/uttas.md``):

    * ``refill="turn_start"`` (rules version 2, the default): the pool refills to Speed at the
      start of the own turn — unless it is empty then: the combatant is Staggered, the turn is
      skipped and the pool refills at the end of that skipped turn. The turn's action and every
      reaction until the next turn draw on that one pool, so nobody spends more than Speed in a
      round, and emptying it on one's own turn costs the next turn.
    * ``refill="turn_end"`` (rules version 1): all recovered at the end of the own turn.
    """

    key = "uttas"
    others_change = False  # only the own turn refills the pool

    def __init__(self, refill: Literal["turn_start", "turn_end"] = "turn_start") -> None:
        self.refill = refill

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        if own and self.refill == "turn_start":
            return {**pools, "speed": capacity}
        return pools

    def on_turn_skipped(self, pools: Pools, *, capacity: int) -> Pools:
        if self.refill == "turn_start":
            return {**pools, "speed": capacity}
        return pools

    def fresh(self, capacity: int) -> Pools:
        return {"speed": capacity}

    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        if cost.kind == "free" or cost.amount == 0:
            return pools
        left = pools.get("speed", 0)
        if left < cost.amount:  # the refusal's words are built only when it is refused
            _need(False, f"needs {counted(cost.amount, 'action')} but has {left} left this round")
        return {**pools, "speed": left - cost.amount}

    def on_turn_end(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        if own and self.refill == "turn_end":
            return {**pools, "speed": capacity}
        return pools

    def skips_turn(self, pools: Pools) -> bool:
        return pools.get("speed", 0) <= 0

    def exhausted(self, pools: Pools) -> bool:
        return pools.get("speed", 0) <= 0


class UtopiaActions(ActionEconomy):
    """Utopia "Turn Actions and Interrupt Actions": ``turn`` (TA, 6 on your turn), ``interrupt``
    (IA, 2, reset at the start of every other creature's turn), ``held`` (IA held from TA,
    usable until the end of your following turn; ``held_new`` are those held this turn).

    The rates are the text's unless given (a ruleset passes its tables'): off your turn
    ``interrupt_per_turn_action`` IA pay for 1 TA ("Interchanging Actions": 2), on it
    ``turn_per_interrupt_action`` TA pay for 1 IA (1), and each IA a "Hold Action" keeps costs
    ``hold_turn_actions`` TA (2)."""

    key = "utopia"
    IA = 2

    def __init__(
        self,
        *,
        interrupt_per_turn_action: int = 2,
        turn_per_interrupt_action: int = 1,
        hold_turn_actions: int = 2,
    ) -> None:
        self.interrupt_per_turn_action = interrupt_per_turn_action
        self.turn_per_interrupt_action = turn_per_interrupt_action
        self.hold_turn_actions = hold_turn_actions

    def fresh(self, capacity: int) -> Pools:
        return {"turn": capacity, "interrupt": self.IA, "held": 0, "held_new": 0}

    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        p = dict(pools)
        n = cost.amount
        if cost.kind in ("free",) or n == 0:
            return p
        if cost.kind == "hold":
            self._hold(p, n, timing)
        elif cost.kind == "interrupt":
            self._pay_interrupts(p, n, timing)
        else:
            self._pay_turn_actions(p, n, timing)
        return p

    def _hold(self, p: Pools, n: int, timing: Timing) -> None:
        """Utopia "Hold Action": on your turn, :attr:`hold_turn_actions` turn actions (2) are
        conserved as each of ``n`` interrupt actions for a later turn (``held_new`` until this
        turn ends)."""
        need = self.hold_turn_actions * n
        _need(
            timing == "turn" and p["turn"] >= need,
            f"holding needs {counted(self.hold_turn_actions, 'turn action')} each",
        )
        p["turn"] -= need
        p["held_new"] += n

    def _pay_interrupts(self, p: Pools, n: int, timing: Timing) -> None:
        """Utopia "Interchanging Actions": each interrupt action is paid on your turn by
        :attr:`turn_per_interrupt_action` turn actions (1 TA as 1 IA) while they last, else by
        an interrupt action, else by a held one ("Hold Action")."""
        rate = self.turn_per_interrupt_action
        for _ in range(n):
            if timing == "turn" and p["turn"] >= rate:
                p["turn"] -= rate
            elif p["interrupt"] > 0:
                p["interrupt"] -= 1
            elif p["held"] > 0:
                p["held"] -= 1
            else:
                raise RuleViolation("no interrupt actions left")

    own_turn_exchange = False
    """Whether spent TA are made up with IA on the creature's own turn too: Utopia's rules
    version 1 did (a seventh TA every turn); the text trades them "when it's not your turn"
    only, as version 2 does (:class:`bot.engine.utopia.ruleset.UtopiaRuleset`)."""

    def _pay_turn_actions(self, p: Pools, n: int, timing: Timing) -> None:
        """Utopia "Interchanging Actions": each turn action is paid by a turn action on your
        turn; off it by :attr:`interrupt_per_turn_action` interrupt actions (2 IA as 1 TA) —
        the text trades them "when it's not your turn" only, so on your turn spent TA are not
        made up with IA (unless :attr:`own_turn_exchange`). An action that costs more than is
        left is refused saying what it takes and what is left (not "none left" for its last
        action)."""
        rate = self.interrupt_per_turn_action
        if timing == "turn" and not self.own_turn_exchange and 0 < p["turn"] < n:
            # Paid one by one, the last would find none left: say what it takes instead.
            raise RuleViolation(
                f"it takes {counted(n, 'turn action')} and {p['turn']} "
                f"{'is' if p['turn'] == 1 else 'are'} left this turn"
            )
        held = p.get("held", 0) + p.get("held_new", 0)
        if timing != "turn" and not held and rate <= p["interrupt"] < rate * n:
            raise RuleViolation(
                f"it takes {counted(n, 'turn action')}, off your turn "
                f"{counted(rate * n, 'interrupt action')} ({_pay_for_one(rate)}), and "
                f"{p['interrupt']} {'is' if p['interrupt'] == 1 else 'are'} left"
            )
        for _ in range(n):
            if timing == "turn" and (p["turn"] > 0 or not self.own_turn_exchange):
                _need(p["turn"] > 0, "no turn actions left this turn")
                p["turn"] -= 1
            elif p["interrupt"] >= rate:
                p["interrupt"] -= rate
            elif held:
                raise RuleViolation(
                    f"no turn actions left ({_pay_for_one(rate)}; a "
                    "held interrupt action pays only for an interrupt action: a Block, a Dodge, "
                    "an Assist)"
                )
            else:
                raise RuleViolation(f"no turn actions left ({_pay_for_one(rate)})")

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        if own:
            return {**pools, "turn": capacity}
        return {**pools, "interrupt": self.IA}

    def on_turn_end(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        if own:
            return {**pools, "turn": 0, "held": pools["held_new"], "held_new": 0}
        return pools


def _pay_for_one(rate: int) -> str:
    """``2 interrupt actions pay for 1`` (``1 interrupt action pays for 1``)."""
    return f"{counted(rate, 'interrupt action')} {'pays' if rate == 1 else 'pay'} for 1"


class UntitledActions(ActionEconomy):
    """Untitled "Combat": per round two move actions and one standard action, or one full-round
    action; one swift and one immediate action; free actions unlimited. (The Storyteller sets
    the order: :class:`bot.engine.core.order.StorytellerOrder`.)"""

    key = "untitled"

    def fresh(self, capacity: int) -> Pools:
        return {"move": 2, "standard": 1, "swift": 1, "immediate": 1}

    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        p = dict(pools)
        kind = cost.kind
        if kind == "free" or cost.amount == 0:
            return p
        if kind == "immediate":
            _need(p["immediate"] >= cost.amount, "no immediate action left this round")
            p["immediate"] -= cost.amount
            return p
        _need(timing == "turn", f"a {kind} action can only be taken on your turn")
        if kind == "full_round":
            _need(p["move"] == 2 and p["standard"] == 1, "a full-round action needs a fresh round")
            p["move"], p["standard"] = 0, 0
            return p
        _need(kind in p, f"unknown action type {kind!r}")
        _need(p[kind] >= cost.amount, f"no {kind} action left this round")
        p[kind] -= cost.amount
        return p

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        return self.fresh(capacity) if own else pools


class UuneActions(ActionEconomy):
    """Uune "Conflict": each round every PC takes a turn with one action, then the NPCs act
    (:class:`bot.engine.core.order.PcsThenNpcs`); Defend is taken off-turn and does not use
    the turn's action."""

    key = "uune"

    def fresh(self, capacity: int) -> Pools:
        return {"turn": 1}

    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        if cost.kind in ("free", "defend") or cost.amount == 0:
            return pools
        _need(timing == "turn", "actions are taken on your turn (Defend is the exception)")
        _need(pools.get("turn", 0) >= cost.amount, "your turn's action is already used")
        return {**pools, "turn": pools["turn"] - cost.amount}

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        return {**pools, "turn": 1} if own else pools


ECONOMIES: dict[str, type[ActionEconomy]] = {
    e.key: e for e in (SpeedPool, UtopiaActions, UntitledActions, UuneActions)
}
