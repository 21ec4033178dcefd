"""Combat use cases: turn commands, off-turn reactions, and reaction windows that expire.

Every command takes the single path of :meth:`EncounterService.change` (channel lock → one
transaction → version-checked write → log), so a reply, a button click and an expiry in the same
channel are applied one at a time and each exactly once — across processes too, where the
version check puts them in order as they commit (:mod:`bot.services.encounters`).

Who may act for a combatant: its controller (the member who joined it), or the GM of the
encounter (for anyone, and for every NPC). A pending decision is identified by the version at
which it started waiting and its number (:mod:`bot.services.decisions`); a button carries both,
so a click on a decision that was already made (or undone) is refused without changing anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from bot import names
from bot.engine import Event, ReactionOption, RecordingRoller
from bot.engine.core.audience import controller
from bot.engine.core.commands import (
    Answer,
    ChangeSettings,
    CommandBase,
    Dated,
    NextTurn,
    TurnBound,
)
from bot.engine.core.events import TurnStarted
from bot.engine.core.standing import pick
from bot.engine.core.state import AnyState, CombatantBase, fight_over
from bot.engine.core.verbs import ActInput, ActionSpec
from bot.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    NoEncounter,
    NotAllowed,
    NotFound,
    RuleViolation,
)
from bot.services import event_log
from bot.services.acting import controls as controls
from bot.services.acting import find_combatant as find_combatant
from bot.services.acting import pick_actor as pick_actor
from bot.services.acting import runs, standing_in
from bot.services.actor import Actor
from bot.services.decisions import ALREADY_RESOLVED as ALREADY_RESOLVED
from bot.services.decisions import Decision as Decision
from bot.services.decisions import Settled, decision_of, decisions_of, named, settled, shown_label
from bot.services.decisions import option_code as option_code
from bot.services.encounters import Encounter, EncounterService
from bot.services.gm_checks import not_gm_message
from bot.services.reaction_expiry import ReactionExpiry
from bot.services.settings_change import NO_DEFAULT_ACTIONS as NO_DEFAULT_ACTIONS
from bot.services.settings_change import settings_command
from bot.services.standing import StandingBook, StandingReactions, StandingUse, applies
from bot.services.turn_deadlines import TurnDeadlines
from bot.store import default_actions as default_repo

NOT_BEGUN = "The fight has not begun yet. The GM starts it with `/encounter begin`."


@dataclass(frozen=True)
class Replay:
    """An undone (``undo``) or redone command, for showing what was taken back or put back:
    its name as members know it (:func:`~bot.services.log_commands.shown_command`: ``/gm
    add-npc``, not the log's ``add_npcs``), who gave it (0: the bot itself), the options they
    typed (``options``, for the GM), its logged ``events`` and the ``state`` they happened
    in."""

    undo: bool
    command: str
    actor_id: int
    version: int
    options: dict[str, str]
    events: list[Event]
    state: AnyState


@dataclass(frozen=True)
class CombatResult:
    """A committed combat command: the encounter after it, the engine's events in order, the
    command's label, the decisions open now (``decisions``, oldest first; ``decision`` the
    newest) and those this command settled (``resolved``: their prompts' buttons should go)."""

    encounter: Encounter
    events: list[Event]
    label: str
    decisions: tuple[Decision, ...] = ()
    expired: bool = False
    resolved: tuple[Settled, ...] = ()
    acting: CombatantBase | None = None
    replay: Replay | None = None
    standing: tuple[StandingUse, ...] = ()
    stand_in: tuple[int, int] | None = None
    """``(member who acted, away member they acted for)`` when a delegate or the GM acted for
    the combatant of a member who is ``/away`` (results say "X (for Y, away)")."""
    notes: tuple[str, ...] = ()
    """Lines the reply adds after the events that the log does not hold (what a change of the
    order means for this round: :func:`bot.engine.core.order.turns_moved`), in Markdown."""

    @property
    def decision(self) -> Decision | None:
        """The newest open decision, or None."""
        return self.decisions[-1] if self.decisions else None

    @property
    def new_decisions(self) -> list[Decision]:
        """The decisions this command opened (each needs its prompt posted)."""
        return [d for d in self.decisions if d.pending_version == self.encounter.version]

    @property
    def resolved_title(self) -> str:
        """What the first decision it settled was about ("" if none)."""
        return self.resolved[0].title if self.resolved else ""

    @property
    def turn_deadline(self) -> datetime | None:
        """When the turn that began with this change must end (issue 17): its deadline opened
        at the commit (:func:`bot.store.turn_timers.follow`, at the row's ``updated_at``) plus
        the setting. None without turn deadlines, when no turn began here, or while the turn's
        clock stands still (the fight is paused, or a decision waits)."""
        encounter = self.encounter
        state = encounter.state
        seconds = state.settings.turn_deadline_s
        if seconds <= 0 or encounter.row.paused or state.decisions or state.turn is None:
            return None
        began = (e for e in self.events if isinstance(e, TurnStarted))
        if not any(e.combatant == state.turn for e in began):
            return None
        return encounter.row.updated_at + timedelta(seconds=seconds)


def as_seen_by(
    encounter: Encounter, state: AnyState, actor: Actor, refusal: DomainError
) -> DomainError:
    """``refusal`` as ``actor`` may read it: when it names a number of a combatant
    (:attr:`DomainError.about`) that the member may not see (:meth:`View.reveals`, as the
    combatant's controller would — an NPC's while the encounter hides them; the GM sees every
    number), the same refusal without it (:attr:`DomainError.withheld`); else ``refusal``."""
    if refusal.about is None or refusal.withheld is None or encounter.is_gm(actor):
        return refusal
    if encounter.rules.view(state, controller(actor.user_id)).reveals(refusal.about):
        return refusal
    return type(refusal)(refusal.withheld)


def outcome_of(before: Encounter, after: Encounter) -> dict[str, Any]:
    """The decision fields of a :class:`CombatResult` for a change from ``before`` to
    ``after``: the decisions open after it and those it settled."""
    return {"decisions": tuple(decisions_of(after)), "resolved": tuple(settled(before, after))}


def npc_lapse(rules: Any, state: AnyState) -> Any | None:
    """The first open decision of ``state`` that lapses at once under ``rules`` (a ruleset): it
    asks an NPC's reaction, the encounter does not let NPCs react (``npcs_react`` off) and no
    player's combatant could answer it instead. ``None`` when there is none."""
    for decision in state.decisions:
        subject = rules.decision_subject(state, decision)
        if subject is None or state.settings.npcs_react or not state.get(subject).is_npc:
            continue
        if any(
            c.id != subject and not c.is_npc and rules.reaction_options(state, c.id, decision)
            for c in state.combatants
        ):
            continue
        return decision
    return None


UNCHANGED = (
    "That would change nothing in the fight (nothing to remove, or it is so already), so "
    "nothing was done."
)
"""The refusal of a command that changes nothing: no event, no die, the same state."""


def _require_change(
    current: Encounter,
    state: AnyState,
    applied: list[CommandBase],
    events: list[Event],
    roller: RecordingRoller,
) -> None:
    """Refuse commands the rules accept that change nothing (UTTAS: removing a condition the
    combatant does not have), which read "Nothing happened." as a recorded change, an undo step
    of its own (newuser26). Here, not in ``apply``: older logs that hold one replay as played."""
    if applied and not events and not roller.rolled and state == current.state:
        raise InvalidInput(UNCHANGED)


class CombatService:
    """Turn commands and reactions over :class:`EncounterService`.

    ``clock`` is the same injected clock the encounter service uses (reaction deadlines).
    """

    def __init__(self, encounters: EncounterService, *, clock: Callable[[], datetime]) -> None:
        self._encounters = encounters
        self._clock = clock
        self.deadlines = TurnDeadlines(
            encounters, self.end_turn_at_deadline, clock, default_turn=self.default_at_deadline
        )
        self.standing = StandingReactions(encounters)
        self.reactions: ReactionExpiry[CombatResult] = ReactionExpiry(
            encounters, self._expire, clock
        )

    # -- helpers ---------------------------------------------------------------------------

    def decision(self, encounter: Encounter, ref: int | None = None) -> Decision | None:
        """The open decision ``ref`` (default: the newest) of the encounter, or ``None``."""
        return decision_of(encounter, ref)

    def decisions(self, encounter: Encounter) -> list[Decision]:
        """Every open decision of the encounter, oldest first."""
        return decisions_of(encounter)

    @staticmethod
    def _require_active(encounter: Encounter) -> None:
        if encounter.state.phase == "finished":
            raise RuleViolation(fight_over(encounter.state))
        if encounter.state.phase != "active":
            raise RuleViolation(NOT_BEGUN)

    async def _run(
        self,
        channel_id: int,
        actor: Actor,
        label: str,
        options: dict[str, Any],
        build: Callable[[Encounter], CommandBase | list[CommandBase]],
        *,
        encounter_id: int | None = None,
        book: StandingBook | None = None,
        failures: list[BaseException] | None = None,
    ) -> CombatResult:
        """Apply what ``build`` makes of the channel's live encounter — each command that
        moves the fight on refused while a decision waits (``Ruleset.require_decided``, in the
        system's words: what it waits for and how that is settled). The write path may run
        the step more than once (a kept row that moved on, another writer): ``failures`` gets
        each error a step raised, so a caller can tell a refusal worked out by its last step
        from one raised before any step ran on the row as it now is (the encounter ended)."""
        events: list[Event] = []
        before: list[Encounter] = []

        def step(current: Encounter) -> tuple[AnyState, dict[str, Any]]:
            if encounter_id is not None and current.id != encounter_id:
                raise Conflict(ALREADY_RESOLVED)
            events.clear()  # the write path may run a step again on a newer row
            before.append(current)
            commands = build(current)
            if not isinstance(commands, list):
                commands = [commands]
            state = current.state
            roller = RecordingRoller(self._encounters.roller(current))
            now = self._clock()
            applied: list[CommandBase] = []
            for given in commands:
                command = _to_apply(current, state, given, label, actor, book)
                if command is None:
                    continue
                # One that moves the fight on waits while a decision is open, whoever gives
                # it and whatever its handler checks (the GM's `/gm order` was applied while
                # a shield choice waited). Not in ``apply``: older logs replay as played.
                current.rules.require_decided(state, command)
                try:
                    outcome = current.rules.apply(state, command, roller, now)
                except DomainError as refusal:
                    seen = as_seen_by(current, state, actor, refusal)
                    if seen is refusal:
                        raise
                    raise seen from refusal
                applied.append(command)
                state = outcome.state
                events.extend(outcome.events)
                state, auto, lapses = self._auto_decide(current, state, roller, now)
                events.extend(auto)
                applied.extend(lapses)  # logged in order, so a replay is exact
            _require_change(current, state, applied, events, roller)
            return state, event_log.result(applied, events, roller.rolled, at=now)

        try:
            encounter, _ = await self._encounters.change(
                channel_id, actor, label, options, _noting(step, failures)
            )
        except NoEncounter:
            if encounter_id is not None:  # a button of an encounter that has since ended
                raise Conflict(ALREADY_RESOLVED) from None
            raise
        return CombatResult(
            encounter=encounter, events=events, label=label, **outcome_of(before[-1], encounter)
        )

    def _auto_decide(
        self, encounter: Encounter, state: AnyState, roller: Any, now: datetime
    ) -> tuple[AnyState, list[Event], list[CommandBase]]:
        """NPCs do not react unless the encounter asks the GM (``npcs_react``): a decision that
        asks an NPC's reaction and that no player's combatant could answer instead lapses at
        once (UTTAS: resolves with no reaction). Returns the state, the events and the lapse
        commands applied, in order."""
        events: list[Event] = []
        lapses: list[CommandBase] = []
        rules = encounter.rules
        # Each pass settles one decision (a multi-hit attack then opens its next hit): bounded
        # by what can be open — every combatant's attack, ten hits each — as a guard only.
        for _ in range(10 * (len(state.combatants) + len(state.decisions)) + 20):
            lapsing = npc_lapse(rules, state)
            if lapsing is None:
                break
            lapse = rules.lapse(state, lapsing)
            outcome = rules.apply(state, lapse, roller, now)
            state = outcome.state
            events.extend(outcome.events)
            lapses.append(lapse)
        return state, events, lapses

    # -- use cases -------------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        actor: Actor,
        as_name: str | None,
        label: str,
        options: dict[str, Any],
        make: Callable[[Encounter, CombatantBase], CommandBase],
        *,
        between_fights: bool = False,
    ) -> CombatResult:
        """A turn command for the member's combatant (see :func:`pick_actor`). ``make`` builds
        the engine command from the encounter and the acting combatant. ``between_fights``:
        the command may also be given before the fight begins or after it ended, and the
        ruleset decides (UTTAS: healing may; everything else says the fight is not running).
        Raises the engine's :class:`RuleViolation` (not your turn, no actions left, …) and the
        errors of :func:`pick_actor`; nothing is written when anything is refused."""

        acting: list[CombatantBase] = []
        gm_for_player: set[str] = set()

        def build(current: Encounter) -> CommandBase:
            acting.clear()  # only what the last run of the step saw may explain a refusal
            gm_for_player.clear()
            if not between_fights:
                self._require_active(current)
            combatant = pick_actor(current, actor, as_name)
            if as_name is None and combatant.id == current.state.turn:
                _require_issued_this_turn(current, actor)
            acting.append(combatant)
            away.append(standing_in(current, actor, combatant))
            if combatant.controller_id is not None and not runs(current, actor, combatant):
                gm_for_player.add(combatant.id)
            return make(current, combatant)

        away: list[int | None] = []
        failures: list[BaseException] = []
        try:
            result = await self._run(channel_id, actor, label, options, build, failures=failures)
        except (InvalidInput, NotFound, RuleViolation) as refusal:
            # A step that ran on a row that has since moved on (the fight ended, a turn passed)
            # says nothing about this refusal: only the last step's own refusal is explained.
            last = failures[-1] if failures else None
            own = last is not None and (refusal is last or refusal.__context__ is last)
            if own and as_name is None and acting and acting[-1].id in gm_for_player:
                # The GM, naming no combatant, acted for a player's combatant on its turn
                # (:func:`pick_actor`): a refusal about that combatant ("Willow cannot attack
                # themselves") says so, or a GM who meant an NPC is left guessing.
                raise type(refusal)(
                    f"{refusal.message} (You acted as **{names.escaped(acting[-1].name)}**, "
                    "whose turn it is: name another combatant with `as:`.)"
                ) from refusal
            raise
        return dataclasses.replace(result, acting=acting[-1], stand_in=_stand_in(actor, away[-1]))

    async def encounter(self, encounter_id: int) -> Encounter:
        """The encounter ``encounter_id`` as it is now (live or archived). Raises
        :class:`NotFound`."""
        return await self._encounters.get(encounter_id)

    async def act_on_turn(
        self,
        encounter_id: int,
        turn_seq: int,
        actor: Actor,
        label: str,
        options: dict[str, Any],
        make: Callable[[Encounter, CombatantBase], CommandBase],
        holder: Callable[[Encounter, int, Actor], CombatantBase],
    ) -> CombatResult:
        """A turn command from a button on the turn's ping (issue 17, "Act from the ping"):
        for the combatant ``holder`` finds holding turn ``turn_seq`` of the encounter (it
        raises when that turn is over or ``actor`` may not act for it), read again inside the
        change. ``make`` builds the engine command as for :meth:`act`."""
        channel_id = await self._encounters.channel_of(encounter_id)
        acting: list[CombatantBase] = []

        def build(current: Encounter) -> CommandBase:
            if current.id != encounter_id:
                raise Conflict("That fight is over; these buttons no longer do anything.")
            combatant = holder(current, turn_seq, actor)
            _require_issued_this_turn(current, actor)
            acting.append(combatant)
            return make(current, combatant)

        result = await self._run(channel_id, actor, label, options, build)
        return dataclasses.replace(result, acting=acting[-1])

    async def gm_command(
        self,
        channel_id: int,
        actor: Actor,
        label: str,
        options: dict[str, Any],
        make: Callable[[Encounter], CommandBase],
        *,
        action: str,
    ) -> CombatResult:
        """A command only the GM may give (begin the fight, force a decision, …). ``action``
        completes "Only the GM can …" in the refusal. One that moves the fight on (the turn
        order, a turn's end, time passing) is refused while a decision waits, as every command
        is (:meth:`_run`). A settings change, however it was made, leaves out the settings
        given the value they have (:func:`bot.services.settings_change.settings_command`)."""

        def build(current: Encounter) -> CommandBase:
            if not current.is_gm(actor):
                raise NotAllowed(not_gm_message(current, action))
            command = make(current)
            if isinstance(command, ChangeSettings):
                given = command.model_dump(exclude_none=True, exclude={"kind"})
                return settings_command(current, given)
            return command

        return await self._run(channel_id, actor, label, options, build)

    async def change_settings(
        self, channel_id: int, actor: Actor, changes: dict[str, Any]
    ) -> CombatResult:
        """``/gm settings`` with the settings every system shares (``changes``: setting →
        value), GM only. A setting given the value it already has is left out of the change,
        worked out on the state it is made to (:meth:`gm_command`); nothing left to change is
        refused (:class:`InvalidInput`)."""
        return await self.gm_command(
            channel_id,
            actor,
            "settings",
            changes,
            lambda current: settings_command(current, changes),
            action="change the settings",
        )

    async def gm_choices(
        self,
        encounter_id: int,
        pending_version: int,
        actor: Actor,
        combatant_id: str,
        ref: int | None = None,
    ) -> tuple[Encounter, Decision]:
        """The waiting decision ``ref`` opened at ``pending_version``, for the GM to see one
        NPC's choices privately (its buttons are not public: which it can afford would reveal
        its numbers). Raises :class:`Conflict` when that decision is no longer pending,
        :class:`NotAllowed` for anyone but the GM."""
        encounter = await self._encounters.get(encounter_id)
        decision = named(encounter, pending_version, ref)
        noun = decision.words.noun
        if combatant_id not in decision.deciders:
            raise Conflict(f"That combatant has no choice to make on this {noun} any more.")
        name = names.escaped(decision.people[combatant_id].name)
        if not encounter.is_gm(actor):
            raise NotAllowed(f"Only the GM chooses **{name}**'s {decision.words.gm_chooses}.")
        if not decision.deciders[combatant_id]:
            raise RuleViolation(
                f"**{name}** has no choice it can make on this {noun} right now (nothing it "
                "could spend on it). Players see the same button either way."
            )
        return encounter, decision

    async def decide(
        self,
        encounter_id: int,
        pending_version: int,
        actor: Actor,
        code: str,
        ref: int | None = None,
    ) -> CombatResult:
        """A decision's button: apply option ``code`` to the decision ``ref`` that started
        waiting at ``pending_version`` (``ref`` None: the one that opened then). Only a
        decider's controller (or the GM) may press it.

        Raises :class:`Conflict` when that decision was already made, undone or expired
        (nothing changes), :class:`NotAllowed` for anyone else."""
        channel_id = await self._encounters.channel_of(encounter_id)

        def build(current: Encounter) -> CommandBase:
            decision = named(current, pending_version, ref)
            combatant, option = _chosen(current, decision, actor, code)
            # what an undo names: the button as it read
            options["button"] = shown_label(current, decision, combatant.id, option)
            titles.append(decision.title)
            away.append(standing_in(current, actor, combatant))
            return current.rules.answer(current.state, combatant, option, decision.engine)

        titles: list[str] = []
        away: list[int | None] = []
        options: dict[str, Any] = {"pending_version": pending_version, "choice": code}
        if ref is not None:
            options["decision"] = ref
        result = await self._run(
            channel_id, actor, "react", options, build, encounter_id=encounter_id
        )
        return dataclasses.replace(result, label=titles[-1], stand_in=_stand_in(actor, away[-1]))

    async def react_by_command(
        self, channel_id: int, actor: Actor, word: Literal["dodge", "block"], maneuver: str | None
    ) -> CombatResult:
        """A typed reaction (``/dodge`` and ``/block``): the same as the button, for the newest
        decision that asks the reaction of one of the member's combatants. ``word`` becomes the
        ruleset's choice (:meth:`~bot.engine.core.contract.Ruleset.typed_reaction`: UTTAS
        ``evade``); ``maneuver`` a martial art (UTTAS). The result's ``label`` is the chosen
        reaction as its button names it (UTTAS "Evade", Utopia "Dodge")."""

        def build(current: Encounter) -> CommandBase:
            state, rules = current.state, current.rules
            subjects = [(d, rules.decision_subject(state, d)) for d in reversed(state.decisions)]
            asking = [(d, s) for d, s in subjects if s is not None]
            if not asking:
                raise RuleViolation("No attack is waiting for a reaction right now.")
            mine = [(d, s) for d, s in asking if s and controls(current, actor, state.get(s))]
            if not mine:
                subject = state.get(str(asking[0][1]))
                raise NotAllowed(
                    f"The waiting attack is on **{names.escaped(subject.name)}**, who is not "
                    "yours to move."
                )
            decision, subject_id = mine[0]
            target = state.get(str(subject_id))
            acting.append(target)
            away.append(standing_in(current, actor, target))
            # The engine decides, and says exactly why a reaction is impossible.
            choice = rules.typed_reaction(word)
            offered = rules.reaction_options(state, target.id, decision)
            chosen.append(next((o.label for o in offered if o.choice == choice), choice))
            typed = ReactionOption(choice=choice, label=choice, maneuver=maneuver)
            return rules.answer(state, target, typed, decision)

        acting: list[CombatantBase] = []
        away: list[int | None] = []
        chosen: list[str] = []
        result = await self._run(channel_id, actor, "react", {"choice": word}, build)
        return dataclasses.replace(
            result, acting=acting[-1], stand_in=_stand_in(actor, away[-1]), label=chosen[-1]
        )

    async def expire(self, encounter_id: int, pending_version: int) -> CombatResult:
        """The window of the decisions that opened at ``pending_version`` ran out: each that is
        due lapses (UTTAS: no reaction; a surrender's attacker stops). Raises
        :class:`Conflict` if none is pending any more, or none is due any more (the encounter
        was paused, or resumed with a fresh window, meanwhile); when it raises, the expiry
        loop's claims on them (:meth:`due`) are let go first
        (:meth:`bot.services.reaction_expiry.ReactionExpiry.fire`)."""
        return await self.reactions.fire(encounter_id, pending_version)

    async def _expire(self, encounter_id: int, pending_version: int) -> CombatResult:
        channel_id = await self._encounters.channel_of(encounter_id)
        system = Actor(user_id=0, manages_channel=True)
        rules = await self.standing.of_encounter(encounter_id)
        book = StandingBook(rules, []) if rules else None

        def build(current: Encounter) -> list[CommandBase]:
            if book is not None:
                book.used.clear()  # a retried change starts again
            opened = [d for d in decisions_of(current) if d.pending_version == pending_version]
            if current.row.status != "live" or not opened:
                raise Conflict(ALREADY_RESOLVED)
            # Read again inside the change: a pause (or a resume's fresh window) committed
            # after the loop found the decision due keeps it waiting.
            now = self._clock()
            due = [d for d in opened if d.deadline is not None and d.deadline <= now]
            if current.row.paused or not due:
                raise Conflict("That decision's window is not over.")
            return [_Lapse(decision=d.ref) for d in due]

        options = {"pending_version": pending_version}
        try:
            result = await self._run(
                channel_id, system, "expire", options, build, encounter_id=encounter_id, book=book
            )
        except DomainError:
            if book is None:
                raise
            # A standing choice the engine refused after all: the window lapses as usual
            # rather than waiting for ever (nothing was written).
            book = None
            result = await self._run(
                channel_id, system, "expire", options, build, encounter_id=encounter_id
            )
        used = tuple(book.used) if book is not None else ()
        return dataclasses.replace(
            result, expired=True, label=result.resolved_title or "Expired", standing=used
        )

    async def end_turn_at_deadline(self, encounter_id: int, turn_seq: int) -> CombatResult:
        """A passed turn deadline ends the turn ``turn_seq`` as ``/gm next`` does — only while
        that turn still runs and the fight is not paused; raises :class:`Conflict` otherwise
        (so it happens once, issue 17)."""
        channel_id = await self._encounters.channel_of(encounter_id)
        system = Actor(user_id=0, manages_channel=True)

        def build(current: Encounter) -> CommandBase:
            if current.row.paused or current.state.turn_seq != turn_seq:
                raise Conflict("That turn is already over.")
            return NextTurn(for_turn=turn_seq, by="deadline")

        options = {"for_turn": turn_seq}
        return await self._run(
            channel_id, system, "deadline", options, build, encounter_id=encounter_id
        )

    async def default_at_deadline(self, encounter_id: int, turn_seq: int, key: str) -> CombatResult:
        """A passed turn deadline makes the combatant whose turn ``turn_seq`` is take its
        default action ``key`` (an ``/act`` key of the ruleset's ``deadline_actions``), then
        ends the turn as ``/gm next`` does if the action did not — in one change, only while
        that turn still runs and the fight is not paused (else :class:`Conflict`). Raises the
        engine's refusal (:class:`RuleViolation`, :class:`InvalidInput`) when the rules do not
        allow the action now; nothing is written then."""
        channel_id = await self._encounters.channel_of(encounter_id)
        system = Actor(user_id=0, manages_channel=True)

        def build(current: Encounter) -> list[CommandBase]:
            state = current.state
            if current.row.paused or state.turn_seq != turn_seq or state.current is None:
                raise Conflict("That turn is already over.")
            acting = current.rules.act(state, state.current, ActInput(key=key))
            return [acting, _EndTurnIf(for_turn=turn_seq)]

        options = {"for_turn": turn_seq, "default_action": key}
        return await self._run(
            channel_id, system, "deadline", options, build, encounter_id=encounter_id
        )

    async def set_default_action(
        self, channel_id: int, actor: Actor, combatant: str, action: str
    ) -> tuple[Encounter, CombatantBase, ActionSpec | None]:
        """``/gm settings combatant: default_action:``: what ``combatant`` does when its turn's
        deadline passes and the encounter's deadline action is ``default_action`` — one of its
        ruleset's :meth:`~bot.engine.core.contract.Ruleset.deadline_actions`, by key or label;
        ``none`` clears it. GM only (:class:`NotAllowed`); :class:`NotFound` for an unknown
        combatant; :class:`InvalidInput` for an action it does not have, or a system that has
        none. Returns the encounter, the combatant and the action (None: cleared)."""
        encounter = await self._encounters.require_gm(channel_id, actor, "set default actions")
        chosen = find_combatant(encounter.state, combatant)
        spec = default_action_of(encounter, chosen, action)
        async with self._encounters.db.transaction() as conn:
            await default_repo.put(conn, encounter.id, chosen.id, spec.key if spec else None)
        return encounter, chosen, spec

    async def default_actions(self, encounter: Encounter) -> dict[str, str]:
        """The encounter's default actions, by combatant: combatant id → action label."""
        async with self._encounters.db.read() as conn:
            keys = await default_repo.of_encounter(conn, encounter.id)
        labels: dict[str, str] = {}
        for combatant in encounter.state.combatants:
            key = keys.get(combatant.id)
            offered = encounter.rules.deadline_actions(encounter.state, combatant) if key else []
            spec = next((a for a in offered if a.key == key), None)
            if spec is not None:
                labels[combatant.id] = spec.label
        return labels

    async def resolve_waiting(self, channel_id: int, actor: Actor) -> CombatResult:
        """``/gm resolve``: the GM settles every waiting decision as if nobody chose (the
        ruleset's lapse; UTTAS: no reaction), oldest first. A decision one of them opens (the
        next hit of a flurry) waits as usual. Raises :class:`NotAllowed` for anyone but the
        GM, and the ruleset's :meth:`~bot.engine.core.contract.Ruleset.nothing_to_resolve` when
        nothing waits."""

        def build(current: Encounter) -> list[CommandBase]:
            if not current.is_gm(actor):
                raise NotAllowed(not_gm_message(current, "force a decision"))
            if not current.state.decisions:
                raise current.rules.nothing_to_resolve()  # in the system's terms
            return [_Lapse(decision=d.id) for d in current.state.decisions]

        return await self._run(channel_id, actor, "resolve", {}, build)

    async def due(self) -> list[tuple[int, int]]:
        """``(encounter_id, pending_version)`` of the decisions whose window has run out that
        this process claimed for its expiry loop — each goes to one process however many run
        the loop, and is not handed out again while claimed
        (:meth:`bot.services.reaction_expiry.ReactionExpiry.due`)."""
        return await self.reactions.due()


def default_action_of(
    encounter: Encounter, combatant: CombatantBase, action: str
) -> ActionSpec | None:
    """The deadline action ``action`` names for ``combatant`` (its key or its label, any case;
    ``none`` or ``off``: None). Raises :class:`InvalidInput` when the ruleset has none, or
    names the ones it has."""
    if action.strip().casefold() in ("none", "off", "clear"):
        return None
    offered = encounter.rules.deadline_actions(encounter.state, combatant)
    if not offered:
        raise InvalidInput(NO_DEFAULT_ACTIONS.format(title=encounter.rules.title))
    wanted = action.strip().casefold()
    for spec in offered:
        if wanted in (spec.key.casefold(), spec.label.casefold()):
            return spec
    known = ", ".join(f"`{spec.label}`" for spec in offered)
    which = f"one of {known}" if len(offered) > 1 else known
    raise InvalidInput(
        f"{names.escaped(combatant.name)} cannot default to {names.code(action[:40])}: in "
        f"{encounter.rules.title} the default action is {which} (or `none` for no default)."
    )


def _to_apply(
    current: Encounter,
    state: AnyState,
    command: CommandBase,
    label: str,
    actor: Actor,
    book: StandingBook | None = None,
) -> CommandBase | None:
    """The command to apply now for ``command``: a lapse becomes a standing reaction's answer
    when ``book`` has one that fits (:func:`_standing_answer`), else the ruleset's lapse, both
    computed on the state as it is by now (None: an earlier one settled that decision too); a
    command of another game system is refused (:class:`InvalidInput`); the member's issue mark
    dates it."""
    if isinstance(command, _EndTurnIf):  # the turn may have ended with what came before
        if state.turn_seq != command.for_turn:
            return None
        return NextTurn(for_turn=command.for_turn, by="deadline")
    if isinstance(command, _Lapse):
        lapsing = state.decision(command.decision)
        if lapsing is None:
            return None
        answer = _standing_answer(current, state, lapsing, book) if book else None
        command = answer or current.rules.lapse(state, lapsing)
    elif not current.rules.accepts(command):
        raise InvalidInput(
            f"`/{label}` is not part of {current.rules.title}, this encounter's "
            "game system: `/act` lists what your combatant can do."
        )
    if isinstance(command, Dated) and command.issued is None and actor.issued is not None:
        command = command.model_copy(
            update={"issued": _dated(current, state, command, actor.issued)}
        )
    return command


def _dated(current: Encounter, state: AnyState, command: Dated, issued: int) -> int:
    """The issue mark ``command`` goes to the rules with: the member's (``issued``) — or, when
    the turn it moves on from or the decision it answers began after it was issued by what this
    process knows beyond the marks ``state`` stores (:class:`~bot.services.issue_marks.Began`:
    the commit of that beginning, or a retry that found it), that beginning's stored mark, so
    the rules refuse it as meant for what stood before instead of applying it to a turn or
    decision its member never saw (issue 9 §3)."""
    if isinstance(command, TurnBound) and issued <= current.turn_mark(state):
        return min(issued, state.turn_marker)
    if isinstance(command, Answer):
        answered = state.pending if command.decision is None else state.decision(command.decision)
        if answered is not None and issued <= current.decision_mark(answered):
            return min(issued, int(answered.marker))
    return issued


def _standing_answer(
    current: Encounter, state: AnyState, decision: Any, book: StandingBook
) -> CommandBase | None:
    """The answer a standing reaction gives ``decision`` (issue 17, "Standing reactions"): the
    first decider, in the ruleset's order (UTTAS: the target, then allies who may take the
    hit), whose standing reaction picks one of the options it can afford now
    (:func:`bot.engine.core.standing.pick`); noted in ``book.used``. None: the window lapses."""
    rules = current.rules
    if not rules.standing_applies(state, decision):
        return None
    for combatant_id, options in rules.decision_options(state, decision).items():
        stored = book.rules.get(combatant_id)
        # Only while whoever set it still acts for the combatant: a stand-in's ended with the
        # stand-in, a GM's when they handed the seat on (or the GM role changed).
        if stored is None or not applies(
            current, state.get(combatant_id), stored.set_by, stored.set_as
        ):
            continue
        rule = stored.rule
        option = pick(
            rule,
            options,
            lambda c: rules.standing_holds(state, decision, c),
            rules.standing_choice,
        )
        if option is None:
            continue
        combatant = state.get(combatant_id)
        book.used.append(
            StandingUse(combatant_id, combatant.name, rule.text, option.label, stored.set_by)
        )
        return rules.answer(state, combatant, option, decision)
    return None


def _chosen(
    current: Encounter, decision: Decision, actor: Actor, code: str
) -> tuple[CombatantBase, ReactionOption]:
    """The decider and option a button's ``code`` picks for ``actor``. Raises
    :class:`NotAllowed` when none of its deciders is the member's, :class:`Conflict` when the
    choice is no longer offered."""
    base, _, decider = code.partition("@")
    offered = [
        (current.state.get(cid), options)
        for cid, options in decision.deciders.items()
        if (not decider or cid == decider) and any(option_code(o) == base for o in options)
    ]
    mine = [pair for pair in offered if controls(current, actor, pair[0])]
    if not mine:
        chosen = [o for _, options in offered for o in options if option_code(o) == base]
        if chosen and all(o.gm for o in chosen):
            # a GM's button waits on the GM alone, whoever controls the decider
            label = chosen[0].label
            raise NotAllowed(not_gm_message(current, f"choose “{label}”; it waits on the GM"))
        if offered:
            who = offered[0][0] if decider or len(offered) == 1 else None
            whose = f"**{names.escaped(who.name)}**'s controller" if who else "an ally's controller"
            raise NotAllowed(f"Only {whose} or the GM can choose this.")
        raise Conflict(f"That choice is no longer available for this {decision.words.noun}.")
    # Prefer a combatant the member controls directly over one they run as GM.
    mine.sort(key=lambda pair: pair[0].controller_id != actor.user_id)
    combatant, options = mine[0]
    option = next(o for o in options if option_code(o) == base)
    if option.gm and not current.is_gm(actor):
        raise NotAllowed(not_gm_message(current, f"choose “{option.label}”; it waits on the GM"))
    return combatant, option


def _stand_in(actor: Actor, away_id: int | None) -> tuple[int, int] | None:
    return (actor.user_id, away_id) if away_id is not None else None


class _EndTurnIf(CommandBase):
    """Stands for a passed deadline ending turn ``for_turn`` as ``/gm next`` does — if that
    turn still runs when it comes (see :func:`_to_apply`)."""

    kind: str = "end_turn_if"
    for_turn: int


class _Lapse(CommandBase):
    """Stands for the ruleset's lapse of decision ``decision`` (see :meth:`CombatService._run`)."""

    kind: str = "lapse"
    decision: int


def _require_issued_this_turn(current: Encounter, actor: Actor) -> None:
    """A command that acts for whoever holds the turn must have been issued during that turn:
    one typed before it began (:meth:`Encounter.turn_mark`) was meant for an earlier turn (e.g.
    the GM's `/attack` for Thug 1 arriving just after their `/gm next` started Thug 2's turn)."""
    state = current.state
    if actor.issued is None or state.turn is None:
        return
    if actor.issued <= current.turn_mark():
        raise Conflict(
            f"That turn already ended: it is now {names.escaped(state.get(state.turn).name)}'s."
        )


def _noting(
    step: Callable[[Encounter], tuple[AnyState, dict[str, Any]]],
    failures: list[BaseException] | None,
) -> Callable[[Encounter], tuple[AnyState, dict[str, Any]]]:
    """``step``, adding each error it raises to ``failures`` (when given) before it goes on."""
    if failures is None:
        return step

    def noted(current: Encounter) -> tuple[AnyState, dict[str, Any]]:
        try:
            return step(current)
        except Exception as error:
            failures.append(error)
            raise

    return noted
