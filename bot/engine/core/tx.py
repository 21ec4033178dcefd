"""The working transaction every ruleset applies commands in, and the turn cycle it shares.

A :class:`CoreTx` starts from a shallow copy of the state; a combatant is cloned the first time
it is changed (frozen sheets are shared), so ``apply`` never mutates its input and an error
part-way leaves the caller's state untouched.

The turn cycle lives here, once for every ruleset: who holds the turn (an id, never an index),
rounds, skipping those who cannot act, the end of the fight, and the action economy's hooks —
called for **every** combatant whenever any turn starts or ends, with ``own`` telling whose turn
it is (``docs/architecture.md``). A ruleset subclasses :class:`CoreTx` and overrides the hook
methods (``cannot_act``, ``before_turn``, ``turn_taken_up``, ``after_own_turn``, ``on_fight_end``
…) for its own rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar, Generic, Literal, TypeVar

from bot import names
from bot.engine.core import built as checking
from bot.engine.core.built import built
from bot.engine.core.commands import TurnBound
from bot.engine.core.dice import DiceRoller, Roll, roll_pool
from bot.engine.core.economy import ActionEconomy
from bot.engine.core.effect_tx import EffectsTx
from bot.engine.core.effects import Period
from bot.engine.core.events import (
    CombatantLeft,
    CombatEnded,
    Event,
    Note,
    RoundStarted,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from bot.engine.core.order import StorytellerOrder, TurnOrder
from bot.engine.core.positions import Positions
from bot.engine.core.scale import METERS, Scale
from bot.engine.core.state import AnyState, CombatantBase, fight_over, with_fields
from bot.errors import Conflict, InvalidInput, RuleViolation
from bot.words import counted, starts_a_sentence

StateT = TypeVar("StateT", bound=AnyState)

DAY_S = 86_400
"""An in-game day, in seconds of ``game_time_s`` (the days the rulesets count by are
``game_time_s`` ÷ :data:`DAY_S`)."""
DAWN_S = 6 * 3_600
"""Dawn, in seconds after midnight: 06:00 — a documented reading (no rules text gives its hour),
where a system's day begins at dawn (Uune's "Day" scope: "until the following dawn")."""

_last_now: tuple[datetime | None, str] = (None, "")


def iso(now: datetime) -> str:
    """``now.isoformat()``, kept for the last ``now`` seen (a command and the lapses that follow
    it run with one clock reading, the same object: ~0.7 µs each time it is not worked out)."""
    global _last_now
    last = _last_now
    if last[0] is now:  # the same (immutable) object: the same text
        return last[1]
    text = now.isoformat()
    _last_now = (now, text)
    return text


CombatantT = TypeVar("CombatantT", bound=CombatantBase)


class CoreTx(EffectsTx, Generic[StateT, CombatantT]):
    """One command's working copy of the state plus the events it produced."""

    __slots__ = (
        "_cloned",
        "_index",
        "economy",
        "events",
        "now",
        "order",
        "roller",
        "state",
    )

    ROUND_SECONDS: ClassVar[int] = 6

    LATER_READINGS: ClassVar[Mapping[str, int]] = {}
    """From which of its rules versions a system plays each later reading of the core's rules
    (:meth:`plays`): ``"end_first"``, removing the turn holder whose leaving ends the fight
    ends it at once, no turn passing on (:meth:`leave_fight`); ``"one_skip"``, the GM's
    ``/gm skip`` of a combatant already set to skip its next turn is refused instead of
    noted again (:func:`bot.engine.core.order.skip_turn`); ``"new_day_moves_clock"``, the GM
    ending a day (or a quest or an arc) in a fight moves the fight's clock to when the next
    day begins (:meth:`begin_next_day`, :func:`bot.engine.core.scenes.end_period`). A reading
    a system does not list it does not play; each system's ``rules_version`` docstring says
    what its versions changed."""

    READINGS: ClassVar[Mapping[str, int]] = {}
    """A system's own later readings of its rules text: each name, from which of the system's
    rules versions it is played (:meth:`reads`). Each system's ``Tx`` lists and explains its
    own; its ``rules_version`` docstring says what each version changed."""

    NEW_DAY_AT_S: ClassVar[int] = 0
    """When a system's day begins, in seconds after midnight (:meth:`begin_next_day`): 0, at
    midnight, unless its rules text says otherwise (Uune's "Day" lasts "until the following
    dawn": :data:`DAWN_S`)."""

    FIGHT: ClassVar[str] = "fight"
    """What the system's text calls a fight, in refusals ("No fight is running."; Uune's
    "conflict")."""

    MAX_COMBATANTS: ClassVar[int] = 25
    """How many combatants an encounter holds (:meth:`admit`): 25 (a select menu's options,
    so every combatant can be picked), UTTAS 60 (its tracker and chart were built for it)."""

    version: int
    """The rules version the encounter plays by (each system's ``Tx`` sets it)."""

    def admit(self, name: str) -> None:
        """The checks every system's joining makes before anything else: the fight is not over,
        it holds fewer than :attr:`MAX_COMBATANTS`, and no combatant has ``name`` as
        :func:`bot.names.key` compares names (case, invisible characters and lookalikes
        ignored). Raises ``RuleViolation`` (the fight is over), ``InvalidInput`` (full; the
        only ``InvalidInput`` it raises, which ``/gm add-npc`` reads as "how many more fit")
        or ``Conflict`` (the name is taken; the refusal spells it as the fight does)."""
        st = self.state
        if st.phase == "finished":
            raise RuleViolation(f"{fight_over(st)} Start a new encounter for the next fight.")
        if len(st.combatants) >= self.MAX_COMBATANTS:
            raise InvalidInput(f"An encounter holds at most {self.MAX_COMBATANTS} combatants.")
        folded = names.key(name)
        taken = next((c for c in st.combatants if names.key(c.name) == folded), None)
        if taken is not None:
            raise Conflict(f"There is already a combatant called {names.escaped(taken.name)}.")

    def plays(self, reading: str) -> bool:
        """Whether this encounter's rules version plays the core's later ``reading``
        (:attr:`LATER_READINGS`), so an older fight's log replays as it was played."""
        first = self.LATER_READINGS.get(reading)
        return first is not None and self.version >= first

    def reads(self, reading: str) -> bool:
        """Whether this encounter's rules version plays the system's own later ``reading``
        (:attr:`READINGS`), so an older fight's log replays as it was played. Raises
        ``KeyError`` for a reading the system does not list (a misspelt name fails loudly)."""
        return self.version >= self.READINGS[reading]  # not via reads_at: on every attack

    @classmethod
    def reads_at(cls, version: int, reading: str) -> bool:
        """Whether rules ``version`` of the system plays its later ``reading``
        (:attr:`READINGS`): :meth:`reads` for code that holds a version, not a command's
        working copy (a ruleset, an odds reckoning). Raises ``KeyError`` for an unknown one."""
        return version >= cls.READINGS[reading]

    def __init__(
        self,
        state: StateT,
        economy: ActionEconomy,
        roller: DiceRoller,
        now: datetime,
        order: TurnOrder | None = None,
    ) -> None:
        fields = state.__dict__  # the command's own copy, its lists copied: in one dict
        self.state: StateT = with_fields(
            state, {**fields, "combatants": [*fields["combatants"]], "order": [*fields["order"]]}
        )
        self._index = {c.id: i for i, c in enumerate(self.state.combatants)}
        self._cloned: set[str] = set()
        self.events: list[Event] = []
        self.outs_changed = False
        self.economy = economy
        self.order: TurnOrder = order if order is not None else StorytellerOrder()
        self.roller = roller
        self.now = now

    @property
    def scale(self) -> Scale:
        """How distances are shown on this encounter's board (meters unless the ruleset's
        tables say feet; :mod:`bot.engine.core.scale`)."""
        return METERS

    # -- access -------------------------------------------------------------------------------
    def view(self, cid: str) -> CombatantT:
        """Read-only access (may be the caller's object: never change it)."""
        i = self._index.get(cid)
        found: CombatantT = self.state.find(cid) if i is None else self.state.combatants[i]
        return found

    def c(self, cid: str) -> CombatantT:
        """A changeable combatant (cloned on first use in this transaction)."""
        i = self._index.get(cid)
        if i is None:  # a name: found as ``view`` finds it
            cid = self.view(cid).id
            i = self._index[cid]
        if cid not in self._cloned:
            self.state.combatants[i] = self.state.combatants[i].clone()
            self._cloned.add(cid)
        found: CombatantT = self.state.combatants[i]
        return found

    def changed(self) -> list[CombatantT]:
        """The combatants this command changed so far (cloned or added)."""
        index, combatants = self._index, self.state.combatants
        return [combatants[index[cid]] for cid in self._cloned if cid in index]

    def add(self, combatant: Any) -> None:
        self.state.combatants.append(combatant)
        self._index[combatant.id] = len(self.state.combatants) - 1
        self._cloned.add(combatant.id)

    def remove(self, cid: str) -> None:
        self.state.combatants = [c for c in self.state.combatants if c.id != cid]
        self._index = {c.id: i for i, c in enumerate(self.state.combatants)}
        self.state.order = [x for x in self.state.order if x != cid]
        self.state.positions = self.state.positions.forget(cid)
        if cid in self.state.holding:
            self.state.holding = {k: v for k, v in self.state.holding.items() if k != cid}

    def leave_fight(self, c: Any, sides_before: int) -> None:
        """``c`` leaves the encounter (``/gm remove``), every ruleset's last step of it: the
        leaving is said first, then — when it was ``c``'s turn — the turn passes on, so the
        reply reads who left before whose turn it is now (the events' order is the order of its
        lines); then the fight ends if nobody, or only one side, is left (``sides_before``: how
        many sides fought before).

        From the reading ``"end_first"`` (:meth:`plays`): when ``c`` held the turn and its
        leaving ends the fight, the fight ends at once and no turn passes on — before, the
        next combatant's turn began (its start-of-turn effects, and a line announcing it) in a
        fight that ended in the same command."""
        st = self.state
        self.emit(CombatantLeft(combatant=c.id, text=f"{c.name} leaves the encounter."))
        if st.phase == "active" and st.turn == c.id:
            if self.plays("end_first"):
                ending = self._ending(sides_before, without=c.id)
                if ending is not None:
                    self.remove(c.id)
                    self.end_fight(*ending)
                    return
            self.next_turn(c.id)
        self.remove(c.id)
        if st.phase == "active":
            if st.turn == c.id or not st.order:
                self.end_fight(None, "nobody is left")
            else:
                self.check_end(force=True, sides_before=sides_before)

    def emit(self, event: Event) -> None:
        """Log ``event``. Under the test suite (:data:`bot.engine.core.built.CHECKED`) its text
        must start a sentence (:func:`bot.words.starts_a_sentence`): a line led by text someone
        typed goes through :func:`bot.words.sentence`."""
        if checking.CHECKED:
            named = [c.name for c in self.state.combatants]
            if not starts_a_sentence(event.text, named):
                raise AssertionError(f"{event.kind} does not start a sentence: {event.text!r}")
        self.events.append(event)

    def note(
        self, text: str, cid: str | None = None, *, secret: bool = False, public: str = ""
    ) -> None:
        """Free text about ``cid``. ``secret``: it carries ``cid``'s numbers, and audiences that
        may not see them read ``public`` instead (nothing when empty)."""
        self.emit(built(Note, text=text, combatant=cid, secret=secret, public_text=public))

    def roll(
        self,
        purpose: str,
        dice: int,
        *,
        sides: int = 6,
        advantage: int = 0,
        disadvantage: int = 0,
        modifier: int = 0,
        terms: Literal["adv", "favor"] = "adv",
    ) -> Roll:
        return roll_pool(
            self.roller,
            purpose,
            dice,
            sides=sides,
            advantage=advantage,
            disadvantage=disadvantage,
            modifier=modifier,
            terms=terms,
        )

    # -- hooks a ruleset overrides --------------------------------------------------------------
    def left_words(self, left: int) -> str:
        """``left`` actions in the ruleset's words, for a turn's start ("4 actions")."""
        return counted(left, "action")

    def turn_start_words(self, left: int) -> str:
        """What a turn's start says the combatant has, inside its brackets ("4 actions left"):
        :meth:`left_words` followed by "left" unless a ruleset words it whole."""
        return f"{self.left_words(left)} left"

    def capacity(self, c: Any) -> int:
        """The combatant's per-round figure for the economy (UTTAS Speed, Utopia TA)."""
        return 0

    def cannot_act(self, c: Any) -> str | None:
        """Why ``c`` cannot act at all (out of the fight, a condition…), in words, or None."""
        effects = c.effects
        if effects:  # most combatants have none: the common case costs one check
            for e in effects:
                if e.name in self.OUT_CONDITIONS:
                    return str(e.name).lower()
        return None

    def waiting_on(self) -> str:
        """What the pending decision waits on, for the refusal of a turn command meanwhile."""
        return "a decision"

    def waiting_how(self) -> str:
        """How the pending decision is made and how the GM moves the fight on without it,
        after the refusal's "Waiting for … first." (with a leading space): a refusal that says
        only what it waits on leaves a new GM or player stuck. Each ruleset says it in its own
        words; this is what holds for any decision."""
        return " The buttons on its message decide it; `/gm resolve` settles it as if nobody chose."

    def before_turn(self, c: Any) -> None:
        """Called on a changeable ``c`` when its turn comes, before anything else (reset what
        lasts a turn, complete what waited for it)."""

    def turn_taken_up(self, c: Any) -> str | None:
        """When ``c``'s turn starts but goes on something the rules force (UTTAS: recovering
        from Stunned): do it, and say what (the turn then ends at once); else None."""
        return None

    def after_turn_taken_up(self, c: Any) -> None:
        """Called after the event of a turn :meth:`turn_taken_up` took up ("… spends the turn
        stunned"), before the turn ends: what follows from the turn having gone (Uune from
        rules version 7: a level of Stunned lost to it), said after the turn it followed."""

    def after_own_turn(self, c: Any) -> None:
        """Called on a changeable ``c`` after its own turn ended and the economy was told."""

    def turn_end_text(self, c: Any) -> str:
        return f"{c.name}'s turn ends."

    def actions_left(self, c: Any) -> int:
        """What the economy leaves ``c`` to spend (shown where its numbers may be)."""
        return sum(c.pools.values())

    def begin_next_day(self) -> None:
        """The GM ended the day (or a quest or an arc): the fight's clock moves to when the next
        day begins — the first :attr:`NEW_DAY_AT_S` after the clock (00:00 of the next day by
        default; Uune's following dawn, which at 03:00 is the same date's), as the campaign
        clock moves out of a fight (``services.campaign``)."""
        st = self.state
        day, into = divmod(st.game_time_s, DAY_S)
        st.game_time_s = (day if into < self.NEW_DAY_AT_S else day + 1) * DAY_S + self.NEW_DAY_AT_S

    def on_period_end(self, period: Period) -> None:
        """Called when the GM ends a scene, day, quest or arc (after its effects ended, and the
        clock moved to the next day's start where the rules version plays it): what the
        ruleset counts per day starts afresh (UTTAS: rests)."""

    def on_fight_end(self) -> None:
        """Called when the fight ends, before the event (undo what never completed)."""

    def initiative_score(self, c: Any) -> int:
        """The figure a :class:`~bot.engine.core.order.ByScore` order sorts by (UTTAS:
        Agility)."""
        return 0

    def initiative_roll(self, c: Any, tie_on: int | None) -> Roll:
        """Roll ``c``'s initiative (``tie_on``: the score it ties on, when it rolls only to
        break a tie). Raises :class:`RuleViolation` in a system that rolls none."""
        raise RuleViolation("This game system rolls no initiative.")

    def spent_on_turn(self, cid: str) -> None:
        """``cid`` spent something on its own turn (so it may no longer delay or hold it)."""
        st = self.state
        if cid == st.turn and not st.turn_spent:
            st.__dict__["turn_spent"] = True  # the hot path: skip pydantic's __setattr__

    # -- checks -------------------------------------------------------------------------------
    def require_active(self) -> None:
        """Only during a fight; the refusal says whether it has not begun or is over."""
        if self.state.phase == "finished":
            raise RuleViolation(fight_over(self.state))
        if self.state.phase != "active":
            raise RuleViolation(
                "The fight has not begun yet: the GM starts it with `/encounter begin`."
            )

    def require_same_turn(self, cmd: TurnBound) -> None:
        """Refuse a command issued for a turn that has already ended (a second `/endturn` or
        `/gm next` for one turn, or one issued before the current turn began)."""
        st = self.state
        stale = cmd.for_turn is not None and cmd.for_turn != st.turn_seq
        stale = stale or (cmd.issued is not None and cmd.issued <= st.turn_marker)
        if stale:
            now = (
                f"it is now {names.escaped(self.view(st.turn).name)}'s"
                if st.turn
                else "no turn is running"
            )
            raise Conflict(f"That turn already ended: {now}.")

    def require_can_begin(self, fight: str = "fight") -> None:
        """``/encounter begin``: refused once the ``fight`` (Uune: "conflict") has begun or is
        over, and with fewer than two combatants — saying how to bring more in."""
        st = self.state
        if st.phase == "active":
            raise Conflict(f"The {fight} has already begun.")
        if st.phase == "finished":
            raise Conflict(f"{fight_over(st)} Start a new encounter for the next fight.")
        if len(st.combatants) < 2:
            raise RuleViolation(
                f"A {fight} needs at least two combatants: players bring theirs in with "
                "`/encounter join`, and the GM adds NPCs with `/gm add-npc`."
            )

    def require_no_pending(self) -> None:
        """A turn command waits until no decision is open."""
        if self.state.decisions:
            raise Conflict(f"Waiting for {self.waiting_on()} first.{self.waiting_how()}")

    # -- decisions (:mod:`bot.engine.core.decisions`) -------------------------------------------
    def open_decision(self, decision: Any) -> Any:
        """Open ``decision`` — numbered with the encounter's next id and dated now (its
        ``marker`` is set by the services) — after those already open; returns it. A decision is
        never changed in place: one that changes is settled and a new one opened, so whoever
        was answering the old one is told it moved on."""
        st = self.state
        # A decision built for this call (id 0) is taken over as it is; one that was open
        # before (it has an id) is copied, so no state that holds it changes.
        opened = decision if decision.id == 0 else decision.model_copy()
        number = st.next_decision
        # The hot path (every attack): plain fields set without pydantic's per-assignment cost.
        opened.__dict__.update(id=number, created_at=iso(self.now), marker=0)
        st.__dict__.update(next_decision=number + 1, decisions=[*st.decisions, opened])
        return opened

    def settle_decision(self, decision_id: int) -> None:
        """The decision numbered ``decision_id`` is no longer open (answered, lapsed or
        cancelled), nor any nested in it (a ``parent`` chain leading to it: what they added
        to is gone); nothing if it was not open."""
        st = self.state
        decisions = st.decisions
        if not decisions:
            return
        if len(decisions) == 1:  # the common case: one attack waits
            if decisions[0].id == decision_id:
                st.__dict__["decisions"] = []
            return
        gone = {decision_id}
        for d in st.decisions:  # a nested decision always opens after its parent
            if d.parent in gone:
                gone.add(d.id)
        st.__dict__["decisions"] = [d for d in st.decisions if d.id not in gone]

    def open_decision_named(self, decision_id: int | None) -> Any:
        """The open decision a command answers: the one numbered ``decision_id``, or the newest
        when None. Raises :class:`Conflict` when it is no longer open, :class:`RuleViolation`
        when nothing waits."""
        st = self.state
        if not st.decisions:
            raise RuleViolation("Nothing is waiting for a decision right now.")
        if decision_id is None:
            return st.decisions[-1]
        found = st.decision(decision_id)
        if found is None:
            raise Conflict("That decision is no longer waiting (it was settled or taken back).")
        return found

    def require_turn(self, c: Any) -> None:
        """Only the combatant whose turn it is acts (reactions aside)."""
        self.require_active()
        self.require_no_pending()
        if self.state.turn != c.id:
            cur = names.escaped(self.view(self.state.turn).name) if self.state.turn else "nobody"
            raise RuleViolation(f"It is {cur}'s turn, not {names.escaped(c.name)}'s.")
        self.require_can_act(c)

    def require_can_act(self, c: Any) -> None:
        why = self.cannot_act(c)
        if why is not None:
            raise RuleViolation(f"{names.escaped(c.name)} is {why} and cannot act.")

    def is_out(self, c: Any) -> bool:
        effects = c.effects
        return bool(effects) and any(e.name in self.OUT_CONDITIONS for e in effects)

    # -- the economy, for everyone ------------------------------------------------------------
    def _economy_hook(self, which: str, holder: str) -> None:
        """Tell the economy that ``holder``'s turn starts or ends, for every combatant — only
        the holder when the economy declares that others' pools never change
        (``others_change``), and nobody when it keeps the base class's no-op hook."""
        kind = type(self.economy)
        if which == "start":
            if kind.on_turn_start is ActionEconomy.on_turn_start:
                return
            hook = self.economy.on_turn_start
        else:
            if kind.on_turn_end is ActionEconomy.on_turn_end:
                return
            hook = self.economy.on_turn_end
        if not self.economy.others_change:  # the common case: the holder's pools alone
            c = self.view(holder)
            pools = hook(c.pools, own=True, capacity=self.capacity(c))
            if pools is not c.pools and pools != c.pools:
                self.c(holder).__dict__["pools"] = pools
            return
        for other in self.state.combatants:
            pools = hook(other.pools, own=other.id == holder, capacity=self.capacity(other))
            if pools is not other.pools and pools != other.pools:
                self.c(other.id).__dict__["pools"] = pools

    # -- turn cycle ---------------------------------------------------------------------------
    def finish_turn(self, cid: str) -> None:
        """The acting combatant's turn ends and passes on (the turn ends with its action)."""
        self.end_turn(cid)
        self.next_turn(cid)
        self.check_end()

    def end_turn(self, cid: str) -> None:
        """``cid``'s turn ends: the economy is told for everyone, then the ruleset."""
        self._economy_hook("end", cid)
        c = self.c(cid)
        self.after_own_turn(c)
        self.emit(
            built(
                TurnEnded,
                combatant=cid,
                actions_left=self.actions_left(c),
                text=self.turn_end_text(c),
            )
        )
        self.tick_effects("turn_end", cid)

    def next_turn(self, after: str | None) -> None:
        """Hand the turn to the next combatant in order that can act, skipping (and reporting)
        those who cannot; a round starts each time the order wraps. A held action whose moment
        came (``holding[...].resume``) goes first, and its holder keeps that place; one whose
        place comes round again lapses (:mod:`bot.engine.core.order`)."""
        order = self.state.order
        if not order:
            self.state.turn = None
            return
        if self.state.holding:
            after, started = self._resume_held(after)
            if started:
                return
        i = order.index(after) if after in order else -1
        for _ in range(2 * len(order) + 2):
            i += 1
            if i >= len(order):
                i = 0
                self.state.round += 1
                self.state.game_time_s += self.ROUND_SECONDS
                self.emit(
                    built(
                        RoundStarted,
                        round=self.state.round,
                        text=f"Round {self.state.round} begins.",
                    )
                )
                self.tick_effects("round_start", None)
            cid = order[i]
            if cid in self.state.holding:
                self._end_hold(cid, f"{self.view(cid).name}'s held action lapses: they act now.")
            if self.start_turn(cid):
                return
        self.state.turn = None
        self.end_fight(None, "nobody is able to act")

    def _resume_held(self, after: str | None) -> tuple[str | None, bool]:
        """Start the turn of the first holder whose moment came, placed right after ``after``
        for good. Returns the combatant the order goes on from (the resumed one, or ``after``)
        and whether a turn started."""
        resumed = next((cid for cid, h in self.state.holding.items() if h.resume), None)
        if resumed is None:
            return after, False
        order = self.state.order
        name = self.view(resumed).name
        self._end_hold(resumed, "")
        order.remove(resumed)
        order.insert(order.index(after) + 1 if after in order else 0, resumed)
        where = f"after {self.view(after).name}" if after in order else "first"
        self.note(f"{name} takes their held action and goes {where} from now on.", resumed)
        self.state.turn = None
        return resumed, self.start_turn(resumed)

    def _end_hold(self, cid: str, text: str) -> None:
        self.state.holding = {k: v for k, v in self.state.holding.items() if k != cid}
        if text:
            self.note(text, cid)

    def start_turn(self, cid: str) -> bool:
        """Start ``cid``'s turn. Returns True if it now holds the turn."""
        self.tick_effects("turn_start", cid)
        c = self.c(cid)
        self.before_turn(c)
        reason = self.cannot_act(c)
        if c.skip_next_turn:  # the Game Master's /gm skip
            c.skip_next_turn, reason = False, "skipped by the Game Master"
        if reason is not None:
            self.emit(
                built(
                    TurnSkipped,
                    combatant=cid,
                    reason=reason,
                    text=f"{c.name}'s turn is skipped: {reason}.",
                )
            )
            # The economy hears of a skipped turn whatever skipped it (UTTAS version 2: the pool
            # refills at its end, so a turn is never lost twice for one emptied pool).
            c.__dict__["pools"] = self.economy.on_turn_skipped(c.pools, capacity=self.capacity(c))
            return False
        if self.economy.skips_turn(c.pools):
            self.emit(
                built(
                    TurnSkipped,
                    combatant=cid,
                    reason="spent all actions",
                    text=f"{c.name} spent every action last round and does not act this turn.",
                )
            )
            c.__dict__["pools"] = self.economy.on_turn_skipped(c.pools, capacity=self.capacity(c))
            self.end_turn(cid)
            return False
        # Direct writes on this command's own copy of the state (pydantic's __setattr__ is the
        # turn cycle's largest cost; these fields need no validation).
        st = self.state.__dict__
        st["turn"], st["turn_spent"] = cid, False
        self._economy_hook("start", cid)
        taken = self.turn_taken_up(c)  # ``c`` is this command's clone: it saw the hook's pools
        if taken is not None:
            self.emit(
                built(
                    TurnSkipped,
                    combatant=cid,
                    reason=taken,
                    text=f"{c.name} spends the turn {taken}.",
                )
            )
            self.after_turn_taken_up(c)
            self.end_turn(cid)
            return False
        st["turn_seq"] = self.state.turn_seq + 1
        st["turn_started_at"] = iso(self.now)
        left = self.actions_left(c)
        self.emit(
            built(
                TurnStarted,
                combatant=cid,
                round=self.state.round,
                actions_left=left,
                text=f"Round {self.state.round}: {c.name}'s turn ({self.turn_start_words(left)}).",
            )
        )
        return True

    def check_end(self, *, force: bool = False, sides_before: int = 0) -> None:
        """The battle ends when one side is out of the fight — or, ``sides_before`` telling how
        many sides fought before someone left, when the last of a side left. Only re-counted
        when someone dropped out in this command (or ``force``)."""
        st = self.state
        if st.phase != "active" or not st.settings.auto_end:
            return
        if not (force or self.outs_changed):
            return
        ending = self._ending(sides_before)
        if ending is not None:
            self.end_fight(*ending)

    def _ending(
        self, sides_before: int, without: str | None = None
    ) -> tuple[str | None, str] | None:
        """The winner and the reason if the fight ends now by :meth:`check_end`'s count (or,
        ``without`` a combatant about to leave, once it has left: nobody in the turn order
        then also ends it); ``None`` while it goes on. Changes nothing."""
        st = self.state
        if without is not None:
            if not any(x != without for x in st.order):
                return None, "nobody is left"
            if not st.settings.auto_end:
                return None
        sides: set[str] = set()
        standing: set[str] = set()
        for c in st.combatants:
            if c.id == without:
                continue
            sides.add(c.side)
            if not self.is_out(c):
                standing.add(c.side)
        if max(len(sides), sides_before) >= 2 and len(standing) <= 1:
            winner = next(iter(standing), None)
            return winner, "only one side is left standing" if winner else "no side stands"
        return None

    def pass_turn_if_unable(self) -> None:
        """No turn is held by someone who cannot act: when the turn holder is out of the fight
        (a GM tool killed or knocked them out, a condition took their actions) and nothing
        waits on a decision, their turn ends and passes on."""
        st = self.state
        if st.phase != "active" or st.turn is None or st.decisions:
            return
        c = self.view(st.turn)
        why = self.cannot_act(c)
        if why is not None:
            self.note(f"{c.name} is {why} and cannot act: the turn passes on.", c.id)
            self.finish_turn(c.id)

    def end_fight(self, winner: str | None, reason: str) -> None:
        st = self.state
        st.phase = "finished"
        st.turn = None
        st.decisions = []
        st.positions = Positions()  # where everyone stood mattered to the fight only
        st.winner = winner
        st.end_reason = reason
        self.on_fight_end()
        self.emit(
            CombatEnded(
                winner=winner,
                text=f"The fight is over: {reason}"
                + (f". Winner: the {winner} side." if winner else "."),
            )
        )
