"""The Untitled working transaction: the core's (:mod:`bot.engine.core.tx` — copy-on-write
state, the turn cycle with the economy's hooks for every combatant) plus Untitled's round and
turn order (``untitled-combat.txt`` "Combat").

* **The round** — :class:`~bot.engine.core.economy.UntitledActions`: "up-to two movement
  actions and a standard action", or "a full-round action ... consumes all of the effort you
  may expend in a round"; a swift action (on your turn, "declared at the opening or closing of
  your standard action"), an immediate action ("occurs immediately": on or off your turn) and
  free actions. Everything refreshes when the creature's own turn starts; "each round is ...
  six (6) seconds" (tables ``round.seconds``).
* **Turn order** — :class:`~bot.engine.core.order.StorytellerOrder`: "determined by the
  Storyteller at the start of combat" — the join order is the suggestion the GM accepts or
  changes (``/gm order``; :func:`bot.engine.untitled.actions.roll_order` rolls to randomise or
  break ties); "There is no specific initiative bonus". A held action ("hold their action ...
  until") moves the holder for good (the core's ``hold`` and ``resume``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from bot import names
from bot.engine.core.dice import DiceRoller
from bot.engine.core.economy import Cost, Pools, Timing, UntitledActions
from bot.engine.core.events import ActionsSpent
from bot.engine.core.order import StorytellerOrder, TurnOrder
from bot.engine.core.tx import CoreTx
from bot.engine.untitled.state import OUT, UntitledCombatant, UntitledState
from bot.engine.untitled.tables import UntitledTables
from bot.errors import RuleViolation
from bot.words import counted

TURN_ORDER = StorytellerOrder(
    "Untitled rolls no initiative (the Storyteller sets the order: `/gm order`, `/gm roll-order`)"
)
"""Untitled "Combat": the Storyteller's order."""
RULES_VERSION = 5
"""The newest Untitled rules version
(:attr:`~bot.engine.untitled.ruleset.UntitledRuleset.rules_version` says what each changed)."""

POOL_WORDS = {
    "move": "move action",
    "standard": "standard action",
    "swift": "swift action",
    "immediate": "immediate action",
}


class RoundActions(UntitledActions):
    """:class:`UntitledActions` with the tables' counts of move and standard actions per round
    (``round.move``, ``round.standard``: 2 and 1, "up-to two movement actions and a standard
    action"), packed into ``capacity`` as ``move * 100 + standard`` (:meth:`pack`). Rules
    versions 1 to 3 packed ``move * 10 + standard``, which read the ten standard actions the
    tables allow as one more move and none (``wide`` False keeps that, so they replay)."""

    key = "untitled"

    def __init__(self, *, wide: bool = True) -> None:
        self.factor = 100 if wide else 10

    def pack(self, move: int, standard: int) -> int:
        """The ``capacity`` carrying ``move`` and ``standard`` (both 0–10 by the tables)."""
        return move * self.factor + standard

    def split(self, capacity: int) -> tuple[int, int]:
        """``(move, standard)`` from a packed ``capacity``."""
        move, standard = divmod(capacity, self.factor)
        return move, standard

    def fresh(self, capacity: int) -> Pools:
        move, standard = self.split(capacity)
        return {"move": move, "standard": standard, "swift": 1, "immediate": 1}

    def pay(self, pools: Pools, cost: Cost, timing: Timing, capacity: int) -> Pools:
        if cost.kind == "full_round":
            move, standard = self.split(capacity)
            if timing != "turn":
                raise RuleViolation("a full-round action can only be taken on your turn")
            if pools.get("move", 0) != move or pools.get("standard", 0) != standard:
                raise RuleViolation(
                    "a full-round action takes the whole round, and this round's actions "
                    "are already partly spent"
                )
            return {**pools, "move": 0, "standard": 0}
        return super().pay(pools, cost, timing, capacity)

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        return self.fresh(capacity) if own else pools


class Tx(CoreTx[UntitledState, UntitledCombatant]):
    """One Untitled command's working copy of the state."""

    __slots__ = ("tables", "version")

    economy: RoundActions  # the core's slot, holding Untitled's economy (its packing read here)

    OUT_CONDITIONS = OUT
    LATER_READINGS: ClassVar[Mapping[str, int]] = {
        "end_first": 3,
        "one_skip": 3,
        "new_day_moves_clock": 5,
    }
    READINGS: ClassVar[Mapping[str, int]] = {
        "orphaned_attacks_dropped": 2,
        "shield_dice_checked": 4,
        "round_counts_as_tabled": 4,
    }
    """Untitled's own later readings, from the rules version given (:meth:`reads`; the
    ruleset's ``rules_version`` docstring says each in full): ``"orphaned_attacks_dropped"``
    (version 2), an attack waiting on a Down defender's or attacker's shield choice is
    cancelled (:func:`bot.engine.untitled.combat.drop_orphaned_attacks`);
    ``"shield_dice_checked"`` (version 4), an attack checks the defender's shield dice when it
    is declared (:func:`bot.engine.untitled.combat.attack`); ``"round_counts_as_tabled"``
    (version 4), the round's action counts are read, and said, as the tables give them
    (:class:`RoundActions`, :meth:`turn_start_words`)."""

    def __init__(
        self,
        state: UntitledState,
        tables: UntitledTables,
        roller: DiceRoller,
        now: datetime,
        economy: RoundActions,
        order: TurnOrder | None = None,
        *,
        version: int = RULES_VERSION,
    ) -> None:
        super().__init__(state, economy, roller, now, order or TURN_ORDER)
        self.tables = tables
        self.version = version
        """The rules version the encounter plays by (:data:`RULES_VERSION` and before, see
        :attr:`~bot.engine.untitled.ruleset.UntitledRuleset.rules_version`): what changed
        between versions reads it, so an older fight's log replays as it was played."""

    # -- the core's hooks ------------------------------------------------------------------------
    def capacity(self, c: UntitledCombatant) -> int:
        return self.economy.pack(self.tables.round.move, self.tables.round.standard)

    def actions_left(self, c: UntitledCombatant) -> int:
        p = c.pools
        return p.get("move", 0) + p.get("standard", 0)

    def turn_start_words(self, left: int) -> str:
        """What the round gives: the tables' counts (rules version 4; versions 1 to 3 said "two
        moves and a standard" whatever the tables gave)."""
        r = self.tables.round
        if not self.reads("round_counts_as_tabled") or (r.move, r.standard) == (2, 1):
            return "a fresh round of actions: two moves and a standard, or a full-round"
        return (
            f"a fresh round of actions: {counted(r.move, 'move')} and "
            f"{counted(r.standard, 'standard')}, or a full-round"
        )

    def waiting_on(self) -> str:
        p = self.state.pending
        if p is None:
            return "a decision"
        return (
            f"{names.escaped(self.view(p.target).name)}'s defense against {names.escaped(p.weapon)}"
        )

    def waiting_how(self) -> str:
        """The shield's buttons decide it; `/gm resolve` does what the window's end would (the
        decision's ``lapse`` words: the attack is rolled with the shield)."""
        return (
            " The buttons on the attack's message decide it (the GM chooses for an NPC);"
            " `/gm resolve` settles it: the attack is rolled with the shield."
        )

    # -- payments --------------------------------------------------------------------------------
    def timing(self, cid: str) -> Timing:
        return "turn" if self.state.turn == cid else "off_turn"

    def pay(self, cid: str, cost: Cost, reason: str) -> dict[str, int]:
        """``cid`` pays ``cost``; returns what it spent per pool. Raises
        :class:`RuleViolation` naming what is missing."""
        c = self.view(cid)
        timing = self.timing(cid)
        try:
            after = self.economy.pay(c.pools, cost, timing, self.capacity(c))
        except RuleViolation as short:
            raise RuleViolation(
                f"{names.escaped(c.name)} cannot {names.escaped(reason)}: {short.message}."
            ) from None
        spent = {k: c.pools.get(k, 0) - v for k, v in after.items() if c.pools.get(k, 0) != v}
        self.c(cid).pools = after
        if timing == "turn" and spent:
            self.spent_on_turn(cid)
        words = ", ".join(
            f"{n} {POOL_WORDS.get(k, k)}{'s' if n > 1 else ''}" for k, n in spent.items() if n
        )
        if cost.kind == "full_round":
            words = "the full round"
        if words:
            self.emit(
                ActionsSpent(
                    combatant=cid,
                    amount=sum(n for n in spent.values() if n > 0),
                    left=self.actions_left(self.view(cid)),
                    reason=reason,
                    text=f"{c.name} spends {words} to {reason}.",
                )
            )
        return spent

    def require_on_turn(self, c: Any) -> None:
        """An action on the creature's own turn (the fight runs, nothing waits, it can act)."""
        self.require_turn(c)

    def require_can_act_now(self, c: Any) -> None:
        """An action on or off the creature's turn (an immediate or free action)."""
        self.require_active()
        self.require_no_pending()
        self.require_can_act(c)
