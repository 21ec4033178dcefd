"""The Utopia working transaction: the core's (:mod:`bot.engine.core.tx` — copy-on-write
state, the turn cycle with the economy's hooks for every combatant) plus Utopia's economy, turn
order and tests (``utopia-actions.txt``).

* **Economy** — :class:`SheetActions`, the core's :class:`~bot.engine.core.economy.UtopiaActions`
  with each creature's own maxima: TA on its turn ("Turn Actions": 6, up to 9) and IA off it
  ("Interrupt Actions": 2, up to 3, reset "at the beginning of each other creature's turn");
  2 IA pay for 1 TA and 1 TA for 1 IA ("Interchanging Actions"); Hold turns 2 TA into 1 IA kept
  until the end of the creature's following turn ("Hold Action") — the text's rates, which the
  tables change from rules version 3 (``actions``, ``hold``).
* **Turn order** — :class:`~bot.engine.core.order.Rolled`: a Speed test each, highest first
  (ties by the Speed score); a creature may go later, never earlier ("Standard Actions").
* **Tests** — 3d6 + modifier against a difficulty; favor and disfavor cancel one for one, each
  net favor adds a die and each net disfavor removes one (issue 12's documented defaults;
  :meth:`Tx.test`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from bot import names
from bot.engine.core import interleave as go_cycle
from bot.engine.core.dice import DiceRoller, Roll
from bot.engine.core.economy import Cost, Pools, Timing, UtopiaActions
from bot.engine.core.events import ActionsSpent
from bot.engine.core.order import Rolled, TurnOrder
from bot.engine.core.tx import CoreTx
from bot.engine.utopia import interleave
from bot.engine.utopia.state import OUT, UtopiaCombatant, UtopiaState, hit_of
from bot.engine.utopia.tables import UtopiaTables
from bot.engine.utopia.terms import Subtrait, Trait
from bot.errors import RuleViolation

ROLL_ADDED: tuple[Trait | Subtrait, ...] = ("strength", "power", "fortitude")
""" "Assist": "Some tests, such as Strength tests, may add the aiding creature's roll" — the
bot's reading: Strength and its subtraits; any other test gains a favor and the modifier."""
TURN_ORDER = Rolled("Utopia always rolls its order (everyone's Speed test, highest first)")
"""Utopia "Standard Actions": everyone makes a Speed test, highest first."""

_IA_FACTOR = 100


def capacity_of(turn_actions: int, interrupt_actions: int) -> int:
    """The one figure the core hands the economy (``CoreTx.capacity``), carrying both of a
    creature's maxima: ``interrupt_actions * 100 + turn_actions`` (TA ≤ 20 by the tables)."""
    return interrupt_actions * _IA_FACTOR + turn_actions


RULES_VERSION = 8
"""Utopia's newest rules version (:attr:`bot.engine.utopia.ruleset.UtopiaRuleset.rules_version`)."""


class SheetActions(UtopiaActions):
    """:class:`UtopiaActions` with each creature's own TA and IA maxima (the sheet's talents,
    capped by the tables), read from ``capacity`` (:func:`capacity_of`)."""

    key = "utopia"

    def __init__(
        self,
        *,
        own_turn_exchange: bool = False,
        interrupt_per_turn_action: int = 2,
        turn_per_interrupt_action: int = 1,
        hold_turn_actions: int = 2,
    ) -> None:
        super().__init__(
            interrupt_per_turn_action=interrupt_per_turn_action,
            turn_per_interrupt_action=turn_per_interrupt_action,
            hold_turn_actions=hold_turn_actions,
        )
        self.own_turn_exchange = own_turn_exchange

    @staticmethod
    def split(capacity: int) -> tuple[int, int]:
        """``(turn_actions, interrupt_actions)`` from a packed ``capacity``."""
        ia, ta = divmod(capacity, _IA_FACTOR)
        return ta, ia

    def fresh(self, capacity: int) -> Pools:
        ta, ia = self.split(capacity)
        return {"turn": ta, "interrupt": ia, "held": 0, "held_new": 0}

    def on_turn_start(self, pools: Pools, *, own: bool, capacity: int) -> Pools:
        ta, ia = self.split(capacity)
        if own:
            return {**pools, "turn": ta}
        return {**pools, "interrupt": ia}


class Tx(CoreTx[UtopiaState, UtopiaCombatant]):
    """One Utopia command's working copy of the state."""

    __slots__ = ("keep_actions", "tables", "version")

    economy: SheetActions  # the core's slot, holding Utopia's economy (its rates read here)

    OUT_CONDITIONS = OUT
    LATER_READINGS: ClassVar[Mapping[str, int]] = {
        "end_first": 5,
        "one_skip": 5,
        "new_day_moves_clock": 7,
    }
    READINGS: ClassVar[Mapping[str, int]] = {
        "stealth_and_assist_by_tables": 2,
        "own_turn_ta_not_made_up": 2,
        "no_travel_toward_oneself": 2,
        "leaving_takes_assists": 2,
        "exchange_rates_by_tables": 3,
        "fallen_attacker_deals_nothing": 4,
        "natural_weapons_stay_drawn": 5,
        "ta_to_ia_says_gain": 5,
        "unseen_in_every_blow": 6,
        "ranged_meters_rounded_up": 6,
        "grappled_cannot_leap": 6,
        "modifier_offset_everywhere": 6,
        "zero_rating_rolls_nothing": 6,
        "combatants_are_they": 8,
    }
    """Utopia's own later readings, from the rules version given (:meth:`reads`; the
    ruleset's ``rules_version`` docstring says each in the text's words). Version 2:
    ``"stealth_and_assist_by_tables"``, Stealth and Assist play by the encounter's tables
    (``bot.engine.utopia.ruleset._as_version_1``); ``"own_turn_ta_not_made_up"``, spent TA
    are not made up with IA on a creature's own turn (:meth:`either`,
    :class:`SheetActions`); ``"no_travel_toward_oneself"``, a Travel or Leap toward oneself is
    refused; ``"leaving_takes_assists"``, a creature that leaves takes its Assists with it
    (:func:`bot.engine.utopia.actions.remove_combatant`). Version 3:
    ``"exchange_rates_by_tables"``, the exchange rates and the held IA's cost are the tables'
    (``bot.engine.utopia.ruleset._as_version_2``). Version 4:
    ``"fallen_attacker_deals_nothing"``, damage waiting on its target's defense is called off
    when its attacker is out first. Version 5: ``"natural_weapons_stay_drawn"``, a weapon held
    in no hands is neither sheathed nor drawn; ``"ta_to_ia_says_gain"``, turning TA into an IA
    says "to gain 1 IA". Version 6: ``"unseen_in_every_blow"``, an attack from hiding is unseen
    in every blow of a multi-weapon attack, and a damaging spell gives a hidden caster away;
    ``"ranged_meters_rounded_up"``, a ranged test against a distance between whole meters
    must reach it rounded up; ``"grappled_cannot_leap"``; ``"modifier_offset_everywhere"``, a
    damage or Assist modifier takes the tables' ``test.modifier_offset`` off too (:meth:`modifier`);
    ``"zero_rating_rolls_nothing"``, a Block or Dodge whose Rating is 0 is not offered unless
    an ally could Assist it. Version 8: ``"combatants_are_they"``, what the log says of a
    combatant calls them "they", as the other systems do (:meth:`of_them`)."""

    def __init__(
        self,
        state: UtopiaState,
        tables: UtopiaTables,
        roller: DiceRoller,
        now: datetime,
        economy: SheetActions,
        order: TurnOrder | None = None,
        *,
        version: int = RULES_VERSION,
    ) -> None:
        super().__init__(state, economy, roller, now, order or TURN_ORDER)
        self.tables = tables
        self.version = version
        """The rules version the encounter plays by (:data:`RULES_VERSION` and before, see
        :class:`~bot.engine.utopia.ruleset.UtopiaRuleset`): what changed between versions
        reads it, so an older fight's log replays as it was played."""
        self.keep_actions = False  # an interleaved go passes without giving up its TA

    def of_them(self, old: str, new: str) -> str:
        """What the log says of a combatant: ``new``, calling them "they" / "their" as the
        other systems do, from rules version 8 (``"combatants_are_they"``); ``old`` ("it" /
        "its", the text's word for "a creature" in general) as versions 1 to 7 said it."""
        return new if self.reads("combatants_are_they") else old

    # -- the interleaved turn order (:mod:`bot.engine.utopia.interleave`) ------------------------
    def end_turn(self, cid: str) -> None:
        """``/endturn``, ``/gm next``, ``/gm skip``: with interleaving the creature gives up its
        TA for the round (a delay keeps them) and its go ends."""
        if not self.state.settings.interleaved:
            super().end_turn(cid)
            return
        if not self.keep_actions:
            interleave.give_up(self, cid)
        interleave.end_go(self, cid)

    def next_turn(self, after: str | None) -> None:
        if self.state.settings.interleaved:
            go_cycle.next_go(self, after)
        else:
            super().next_turn(after)

    def start_turn(self, cid: str) -> bool:
        if self.state.settings.interleaved:
            return interleave.start_go(self, cid, super().start_turn)
        return super().start_turn(cid)

    def _economy_hook(self, which: str, holder: str) -> None:
        """With interleaving the pools refill at the round's start only."""
        if not self.state.settings.interleaved:
            super()._economy_hook(which, holder)

    def has_go(self, c: UtopiaCombatant) -> bool:
        return interleave.has_go(c)

    def start_interleaved_round(self) -> None:
        interleave.start_round(self)

    # -- the core's hooks ------------------------------------------------------------------------
    def capacity(self, c: UtopiaCombatant) -> int:
        t = self.tables
        return capacity_of(c.sheet.turn_actions_max(t), c.sheet.interrupt_actions_max(t))

    def initiative_score(self, c: UtopiaCombatant) -> int:
        """Ties on the Speed test go to the higher Speed score (the bot's default)."""
        return c.sheet.score("speed")

    def initiative_roll(self, c: UtopiaCombatant, tie_on: int | None) -> Roll:
        """Utopia "Standard Actions": "every applicable creature will make a Speed test"."""
        return self.test(c, "speed", f"{c.name}'s Speed test (turn order)")

    def actions_left(self, c: UtopiaCombatant) -> int:
        return c.pools.get("turn", 0) if self.state.turn == c.id else self.interrupts_left(c)

    @staticmethod
    def interrupts_left(c: UtopiaCombatant) -> int:
        return c.pools.get("interrupt", 0) + c.pools.get("held", 0)

    def waiting_on(self) -> str:
        p = self.state.pending
        if p is None:
            return "a decision"
        hit = hit_of(p)  # an Assist decision waits on the defense of its hit
        return (
            f"{names.escaped(self.view(hit.target).name)}'s defense against "
            f"{names.escaped(hit.source)}"
        )

    def waiting_how(self) -> str:
        """A defense is chosen with the attack's buttons, Assists with theirs; `/gm resolve`
        does what the window's end would (as the decision's ``lapse`` words say)."""
        p = self.state.pending
        if p is not None and p.kind == "assist":
            return (
                " The Assist buttons give Assists, and the defender rolls when ready; "
                "`/gm resolve` settles it: the defense is rolled with the Assists given."
            )
        return (
            " The buttons on the attack's message decide it (the GM chooses for an NPC);"
            " `/gm resolve` settles it: the damage is taken with no defense."
        )

    def before_turn(self, c: UtopiaCombatant) -> None:
        """A new creature's turn: whoever attacked with interrupt actions may defend again
        ("Interchanging Actions": "until it's the next creature's turn")."""
        for other in self.state.combatants:
            if other.open_guard:
                self.c(other.id).open_guard = False

    def after_own_turn(self, c: UtopiaCombatant) -> None:
        """ "Take Cover" lasts "for the rest of the turn": every cover ends with it; a run-up
        ("Leap") does not outlast the turn it was taken in."""
        for other in self.state.combatants:
            if other.cover:
                self.c(other.id).cover = False
        if c.run_up_m:
            self.c(c.id).run_up_m = 0
        if c.pledges:  # "Assist": a pledge waits until the end of the aided creature's turn
            self.c(c.id).pledges = ()
            self.note(f"The assistance pledged to {c.name} lapses unused.", c.id)

    def left_words(self, left: int) -> str:
        return f"{left} TA"

    def turn_end_text(self, c: UtopiaCombatant) -> str:
        return f"{c.name}'s turn ends."

    # -- tests and payments ----------------------------------------------------------------------
    def modifier(self, c: UtopiaCombatant, name: Trait | Subtrait) -> int:
        """``c``'s modifier in ``name`` as this encounter's tests read it: score − the tables'
        ``test.modifier_offset`` (rules version 6: a damage modifier — "1d8 + Power Mod" — and
        an Assist's "aiding creature's modifier" too; versions 1 to 5 took 4 off for those
        whatever the tables said, and still do)."""
        offset = self.tables.test.modifier_offset if self.reads("modifier_offset_everywhere") else 4
        return c.sheet.modifier(name, offset)

    def test(
        self,
        c: UtopiaCombatant,
        score: Trait | Subtrait,
        purpose: str,
        *,
        favor: int = 0,
        disfavor: int = 0,
        grappling: bool = False,
        aided: bool = True,
    ) -> Roll:
        """A test of ``score``: ``tables.test.dice`` d ``sides`` + the modifier (score −
        ``modifier_offset``; a gifted subtrait's never below 0); each net favor adds a die,
        each net disfavor removes one, the modifier unchanged (issue 12, documented
        defaults). The GM's favor or disfavor on ``c`` joins every test (``gm_favor_every``)
        and the next one (``gm_favor_next``, used up here). The Assists pledged to ``c``
        ("Assist") join it and are used up: its ``test`` pledges (a grappler's Agility test,
        ``grappling``: its ``grapple`` pledges instead; ``aided`` False: none, for a helper's own
        roll) — :meth:`_aid`. The caller compares the total with the difficulty."""
        t = self.tables.test
        modifier = c.sheet.modifier(score, t.modifier_offset)
        now = self.view(c.id)  # ``c`` may be a view from before an earlier test in this command
        gm = now.gm_favor_next + now.gm_favor_every
        if now.gm_favor_next:
            self.c(c.id).gm_favor_next = 0  # the GM's favor on "the next test" is used up
        if gm:
            favor, disfavor = favor + max(gm, 0), disfavor + max(-gm, 0)
            purpose += f" (the GM's {'favor' if gm > 0 else 'disfavor'} {abs(gm)})"
        form = "grapple" if grappling else "test"
        helpers = [p.helper for p in now.pledges if p.form == form] if aided else []
        if helpers:
            self.c(c.id).pledges = tuple(p for p in now.pledges if p.form != form)
            here = {x.id for x in self.state.combatants}
            helpers = [h for h in helpers if h in here and not self.is_out(self.view(h))]
        adds_roll = grappling or score in ROLL_ADDED
        if not adds_roll:
            favor += len(helpers)  # "the aided creature is given a point of favor"
        roll = self.roll(
            purpose,
            t.dice,
            sides=t.sides,
            advantage=favor,
            disadvantage=disfavor,
            modifier=modifier,
            terms="favor",
        )
        for h in helpers:
            roll = self._aid(roll, self.view(h), "agility" if grappling else score, adds_roll)
        return roll

    def _aid(
        self, roll: Roll, helper: UtopiaCombatant, score: Trait | Subtrait, adds: bool
    ) -> Roll:
        """``roll`` aided by ``helper`` ("Assist"): its own test of ``score`` added (``adds``:
        a Strength test, a grappler's Agility test), else its modifier, at least +1 (the
        tables' ``assist.test_minimum``)."""
        if adds:
            theirs = self.test(
                helper, score, f"{helper.name}'s {score.title()} test (assisting)", aided=False
            )
            extra, words = theirs.total, theirs.text  # its purpose names the helper
        else:
            extra = max(self.tables.assist.test_minimum, self.modifier(helper, score))
            words = f"{helper.name}'s modifier {extra:+d}"
        return roll.model_copy(
            update={
                "purpose": f"{roll.purpose} (assisted: {words})",
                "modifier": roll.modifier + extra,
                "total": roll.total + extra,
            }
        )

    def timing(self, cid: str) -> Timing:
        return "turn" if self.state.turn == cid else "off_turn"

    def either(self, c: UtopiaCombatant, ta: int, ia: int) -> Cost:
        """What an action the text prices "``ta`` turn actions or ``ia`` interrupt actions"
        (Block, Dodge, Take Cover, breaking free, shaking a scaler off) costs ``c`` now: on
        its turn the TA while it has them, else the IA — spent TA are not made up with 2 IA
        each on its own turn ("Interchanging Actions": "when it's not your turn"); off its
        turn the IA."""
        if self.timing(c.id) == "turn":
            cost = Cost(kind="turn", amount=ta)
            if not self.reads("own_turn_ta_not_made_up") or self.economy.can_pay(
                c.pools, cost, "turn", self.capacity(c)
            ):
                return cost  # rules version 1: the TA, paid with 2 IA each once spent
        return Cost(kind="interrupt", amount=ia)

    def pay(self, cid: str, cost: Cost, reason: str) -> dict[str, int]:
        """``cid`` pays ``cost`` (on its turn or off it); returns what it spent per pool. Any
        paid action ends a run-up (``run_up_m``; Travel sets it again after paying). Raises
        :class:`RuleViolation` naming what is missing."""
        c = self.view(cid)
        timing = self.timing(cid)
        try:
            after = self.economy.pay(c.pools, cost, timing, self.capacity(c))
        except RuleViolation as short:
            refusal = interleave.off_go_refusal(self, c, reason, short.message)
            raise refusal or RuleViolation(
                f"{names.escaped(c.name)} cannot {names.escaped(reason)}: {short.message}."
            ) from None
        spent = {k: c.pools.get(k, 0) - v for k, v in after.items() if c.pools.get(k, 0) != v}
        m = self.c(cid)
        m.pools = after
        m.run_up_m = 0  # any paid action breaks a run-up ("Leap": travel "directly prior")
        if timing == "turn" and any(n > 0 for n in spent.values()):
            self.spent_on_turn(cid)
        words = ", ".join(f"{n} {_POOL_WORDS.get(k, k)}" for k, n in spent.items() if n > 0)
        if words:
            self.emit(
                ActionsSpent(
                    combatant=cid,
                    amount=sum(n for n in spent.values() if n > 0),
                    left=self.actions_left(m),
                    reason=reason,
                    text=f"{c.name} spends {words} to {reason}.",
                )
            )
        return spent

    def pay_stamina(self, cid: str, amount: int, reason: str, *, say: bool = True) -> None:
        """``cid`` spends ``amount`` Stamina ("given it can foot the necessary costs",
        "Standard Actions"), said beside the actions it paid (``say``: unless the caller's own
        words give it) — a number of ``cid``'s, hidden where its numbers are. Raises
        :class:`RuleViolation` when it has less."""
        if amount <= 0:
            return
        c = self.view(cid)
        if c.stamina < amount:
            raise RuleViolation(
                f"{names.escaped(c.name)} cannot {names.escaped(reason)}: they need {amount} "
                f"Stamina and have {c.stamina}."
            )
        left = c.stamina - amount
        self.c(cid).stamina = left
        if say:
            self.note(
                f"{c.name} spends {amount} Stamina to {reason} (Stamina {left} left).",
                cid,
                secret=True,
            )

    def require_can_act_now(self, c: Any) -> None:
        """An action on the creature's turn, or off it paid with interrupt actions: a fight
        runs, nothing waits on a decision, and the creature can act."""
        self.require_active()
        self.require_no_pending()
        self.require_can_act(c)


_POOL_WORDS = {"turn": "TA", "interrupt": "IA", "held": "held IA", "held_new": "TA (held)"}
