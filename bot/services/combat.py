"""Combat use cases: turn commands, off-turn reactions, and reaction windows that expire.

Every command takes the single path of :meth:`EncounterService.change` (channel lock → one
transaction → version-checked write → log), so a reply, a button click and an expiry in the same
channel are applied one at a time and each exactly once.

Who may act for a combatant: its controller (the member who joined it), or the GM of the
encounter (for anyone, and for every NPC). A pending attack is identified by the encounter's
``pending_version`` — the state version at which it started waiting; a button carries it, so a
click on a decision that was already made (or undone) is refused without changing anything.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot import names
from bot.engine import Event, ReactionOption
from bot.engine.core.audience import PUBLIC
from bot.engine.core.commands import CommandBase, Dated
from bot.engine.core.state import AnyState, CombatantBase, fight_over
from bot.errors import Conflict, InvalidInput, NotAllowed, NotFound, RuleViolation
from bot.services import event_log
from bot.services.acting import controls as controls
from bot.services.acting import find_combatant as find_combatant
from bot.services.acting import pick_actor as pick_actor
from bot.services.actor import Actor
from bot.services.encounters import Encounter, EncounterService
from bot.services.gm_checks import not_gm_message

ALREADY_RESOLVED = (
    "That attack is no longer pending (it was resolved, ran out of time or was undone by the GM);"
    " this button no longer does anything."
)
NOT_BEGUN = "The fight has not begun yet. The GM starts it with `/encounter begin`."


def option_code(option: ReactionOption, decider: str | None = None) -> str:
    """A short, stable code for a reaction option (fits a button ``custom_id``): the choice, plus
    8 hex digits of the maneuver or stance it names, plus ``@<combatant id>`` when it is one
    particular decider's (``decider``: a choice several deciders have, such as two allies'
    "take the hit", or the GM's private buttons for one NPC)."""
    detail = option.maneuver or option.stance or ""
    code = option.choice
    if detail:
        digest = hashlib.blake2s(detail.casefold().encode(), digest_size=4).hexdigest()
        code = f"{option.choice}.{digest}"
    return f"{code}@{decider}" if decider else code


@dataclass(frozen=True)
class Decision:
    """Who must decide the pending attack and what they may choose.

    ``deciders`` maps a combatant id to the options it has (the target's reactions, an ally's
    "take one for the team", or the attacker's complete/stop after a surrender)."""

    pending_version: int
    attacker: CombatantBase
    target: CombatantBase
    attack: str
    awaiting: str
    deciders: dict[str, list[ReactionOption]]
    deadline: datetime | None
    people: dict[str, CombatantBase] = dataclasses.field(default_factory=dict)

    def members(self, gm_id: int) -> list[int]:
        """The members who decide: each decider's controller (the GM for NPCs), the target's
        first."""
        ids = [(self.people[cid].controller_id or gm_id) for cid in self.deciders]
        return list(dict.fromkeys(ids))


@dataclass(frozen=True)
class Replay:
    """An undone (``undo``) or redone command, for showing what was taken back or put back:
    its name, who gave it, the options they typed (``options``, for the GM), its logged
    ``events`` and the ``state`` they happened in."""

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
    command's label, the decision now waiting (if any), and the message that showed a decision
    this command made (``resolved_prompt_id``, whose buttons should go; ``resolved_title``
    says what it was about and ``resolved_awaiting`` whose choice it was: ``reaction`` or the
    ``attacker``'s complete-or-stop after a surrender)."""

    encounter: Encounter
    events: list[Event]
    label: str
    decision: Decision | None = None
    expired: bool = False
    resolved_prompt_id: int | None = None
    resolved_title: str = ""
    resolved_awaiting: str = ""
    acting: CombatantBase | None = None
    replay: Replay | None = None


class CombatService:
    """Turn commands and reactions over :class:`EncounterService`.

    ``clock`` is the same injected clock the encounter service uses (reaction deadlines).
    """

    def __init__(self, encounters: EncounterService, *, clock: Callable[[], datetime]) -> None:
        self._encounters = encounters
        self._clock = clock

    # -- helpers ---------------------------------------------------------------------------

    def decision(self, encounter: Encounter) -> Decision | None:
        """The decision the encounter waits on, or ``None``."""
        state = encounter.state
        pending = state.pending
        if pending is None or encounter.row.pending_version is None:
            return None
        rules = encounter.rules
        attacker = state.get(pending.attacker)
        target = state.get(pending.target)
        deciders: dict[str, list[ReactionOption]] = {}
        if pending.awaiting == "attacker":
            deciders[attacker.id] = [
                ReactionOption(choice="complete", label="Complete the attack"),
                ReactionOption(choice="stop", label="Stop and end the turn"),
            ]
        else:
            # A combatant whose numbers are hidden is a decider whenever it might be asked
            # (options or not): whether it can afford a choice is its secret.
            public = rules.view(state, PUBLIC)
            for combatant in state.combatants:
                options = rules.reaction_options(state, combatant.id)
                if options or (
                    not public.reveals(combatant.id) and rules.may_be_asked(state, combatant.id)
                ):
                    deciders[combatant.id] = options
        ordered = dict(sorted(deciders.items(), key=lambda item: item[0] != target.id))
        return Decision(
            pending_version=encounter.row.pending_version,
            attacker=attacker,
            target=target,
            attack=pending.attack,
            awaiting=pending.awaiting,
            deciders=ordered,
            deadline=encounter.row.pending_deadline,
            people={cid: state.get(cid) for cid in ordered},
        )

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
    ) -> CombatResult:
        events: list[Event] = []
        before: list[Encounter] = []

        def step(current: Encounter) -> tuple[AnyState, dict[str, Any]]:
            if encounter_id is not None and current.id != encounter_id:
                raise Conflict(ALREADY_RESOLVED)
            before.append(current)
            commands = build(current)
            if not isinstance(commands, list):
                commands = [commands]
            state = current.state
            roller = self._encounters.roller(current)
            now = self._clock()
            for command in commands:
                if command.kind not in current.rules.command_kinds:
                    raise InvalidInput(
                        f"`/{label}` is not part of {current.rules.title}, this encounter's "
                        "game system: `/act` lists what your combatant can do."
                    )
                if isinstance(command, Dated) and command.issued is None:
                    command = command.model_copy(update={"issued": actor.issued})
                outcome = current.rules.apply(state, command, roller, now)
                state = outcome.state
                events.extend(outcome.events)
                state, auto = self._auto_decide(current, state, roller, now)
                events.extend(auto)
            return state, event_log.result(commands, events)

        try:
            encounter, _ = await self._encounters.change(channel_id, actor, label, options, step)
        except NotFound:
            if encounter_id is not None:  # a button of an encounter that has since ended
                raise Conflict(ALREADY_RESOLVED) from None
            raise
        return CombatResult(
            encounter=encounter,
            events=events,
            label=label,
            decision=self.decision(encounter),
            **settled(before[-1], encounter),
        )

    def _auto_decide(
        self, encounter: Encounter, state: AnyState, roller: Any, now: datetime
    ) -> tuple[AnyState, list[Event]]:
        """NPC targets do not react unless the encounter asks the GM (``npcs_react``): their
        pending attacks resolve at once with no reaction."""
        events: list[Event] = []
        for _ in range(20):  # a multi-hit attack leaves one pending hit after another
            pending = state.pending
            if pending is None or pending.awaiting != "reaction":
                break
            target = state.get(pending.target)
            if not target.is_npc or state.settings.npcs_react:
                break
            allies = [
                c
                for c in state.combatants
                if c.id != target.id
                and encounter.rules.reaction_options(state, c.id)
                and not c.is_npc
            ]
            if allies:
                break
            outcome = encounter.rules.apply(state, encounter.rules.lapse(state), roller, now)
            state = outcome.state
            events.extend(outcome.events)
        return state, events

    # -- use cases -------------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        actor: Actor,
        as_name: str | None,
        label: str,
        options: dict[str, Any],
        make: Callable[[Encounter, CombatantBase], CommandBase],
    ) -> CombatResult:
        """A turn command for the member's combatant (see :func:`pick_actor`). ``make`` builds
        the engine command from the encounter and the acting combatant. Raises the engine's
        :class:`RuleViolation` (not your turn, no actions left, …) and the errors of
        :func:`pick_actor`; nothing is written when anything is refused."""

        acting: list[CombatantBase] = []

        def build(current: Encounter) -> CommandBase:
            self._require_active(current)
            combatant = pick_actor(current, actor, as_name)
            if as_name is None and combatant.id == current.state.turn:
                _require_issued_this_turn(current.state, actor)
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
        completes "Only the GM can …" in the refusal."""

        def build(current: Encounter) -> CommandBase:
            if not current.is_gm(actor):
                raise NotAllowed(not_gm_message(current, action))
            return make(current)

        return await self._run(channel_id, actor, label, options, build)

    async def gm_choices(
        self, encounter_id: int, pending_version: int, actor: Actor, combatant_id: str
    ) -> tuple[Encounter, Decision]:
        """The waiting decision, for the GM to see one NPC's reactions privately (its buttons
        are not public: which it can afford would reveal its numbers). Raises
        :class:`Conflict` when that decision is no longer pending, :class:`NotAllowed` for
        anyone but the GM."""
        encounter = await self._encounters.get(encounter_id)
        decision = self.decision(encounter)
        if (
            encounter.row.status != "live"
            or decision is None
            or decision.pending_version != pending_version
        ):
            raise Conflict(ALREADY_RESOLVED)
        if combatant_id not in decision.deciders:
            raise Conflict("That combatant has no choice to make on this attack any more.")
        name = names.escaped(decision.people[combatant_id].name)
        if not encounter.is_gm(actor):
            raise NotAllowed(f"Only the GM chooses **{name}**'s reaction.")
        if not decision.deciders[combatant_id]:
            raise RuleViolation(
                f"**{name}** has no choice it can make on this attack right now (nothing it "
                "could spend on it). Players see the same button either way."
            )
        return encounter, decision

    async def decide(
        self, encounter_id: int, pending_version: int, actor: Actor, code: str
    ) -> CombatResult:
        """A reaction button: apply option ``code`` to the decision that started waiting at
        ``pending_version``. Only a decider's controller (or the GM) may press it.

        Raises :class:`Conflict` when that decision was already made, undone or expired
        (nothing changes), :class:`NotAllowed` for anyone else."""
        channel_id = await self._encounters.channel_of(encounter_id)

        def build(current: Encounter) -> CommandBase:
            if current.row.pending_version != pending_version or current.state.pending is None:
                raise Conflict(ALREADY_RESOLVED)
            decision = self.decision(current)
            assert decision is not None
            base, _, decider = code.partition("@")
            offered = [
                (current.state.get(cid), options)
                for cid, options in decision.deciders.items()
                if (not decider or cid == decider) and any(option_code(o) == base for o in options)
            ]
            mine = [pair for pair in offered if controls(current, actor, pair[0])]
            if not mine:
                if offered:
                    who = offered[0][0] if decider or len(offered) == 1 else None
                    whose = (
                        f"**{names.escaped(who.name)}**'s controller"
                        if who
                        else ("an ally's controller")
                    )
                    raise NotAllowed(f"Only {whose} or the GM can choose this.")
                raise Conflict("That choice is no longer available for this attack.")
            # Prefer a combatant the member controls directly over one they run as GM.
            mine.sort(key=lambda pair: pair[0].controller_id != actor.user_id)
            combatant, options = mine[0]
            option = next(o for o in options if option_code(o) == base)
            titles.append(_decision_title(decision))
            return current.rules.answer(current.state, combatant, option)

        titles: list[str] = []
        result = await self._run(
            channel_id,
            actor,
            "react",
            {"pending_version": pending_version, "choice": code},
            build,
            encounter_id=encounter_id,
        )
        return dataclasses.replace(result, label=titles[-1])

    async def react_by_command(
        self, channel_id: int, actor: Actor, choice: str, maneuver: str | None
    ) -> CombatResult:
        """``/dodge`` and ``/block``: the same as the button for the pending attack on the
        member's combatant. ``choice`` is ``evade`` or ``block``; ``maneuver`` a martial art."""

        def build(current: Encounter) -> CommandBase:
            pending = current.state.pending
            if pending is None or pending.awaiting != "reaction":
                raise RuleViolation("No attack is waiting for a reaction right now.")
            target = current.state.get(pending.target)
            if not controls(current, actor, target):
                raise NotAllowed(
                    f"The waiting attack is on **{target.name}**, who is not yours to move."
                )
            acting.append(target)
            # The engine decides, and says exactly why a reaction is impossible.
            typed = ReactionOption(choice=choice, label=choice, maneuver=maneuver)
            return current.rules.answer(current.state, target, typed)

        acting: list[CombatantBase] = []
        result = await self._run(channel_id, actor, "react", {"choice": choice}, build)
        return dataclasses.replace(result, acting=acting[-1])

    async def expire(self, encounter_id: int, pending_version: int) -> CombatResult:
        """The reaction window ran out: decide with no reaction (a surrender's attacker stops).
        Raises :class:`Conflict` if that decision is no longer pending, or no longer due (the
        encounter was paused, or resumed with a fresh window, meanwhile)."""
        channel_id = await self._encounters.channel_of(encounter_id)
        system = Actor(user_id=0, manages_channel=True)

        def build(current: Encounter) -> CommandBase:
            pending = current.state.pending
            if current.row.pending_version != pending_version or pending is None:
                raise Conflict(ALREADY_RESOLVED)
            # Read again inside the change: a pause (or a resume's fresh window) committed
            # after the loop found the decision due keeps it waiting.
            deadline = current.row.pending_deadline
            if current.row.paused or deadline is None or deadline > self._clock():
                raise Conflict("That decision's window is not over.")
            return current.rules.lapse(current.state)

        result = await self._run(
            channel_id,
            system,
            "expire",
            {"pending_version": pending_version},
            build,
            encounter_id=encounter_id,
        )
        return dataclasses.replace(result, expired=True, label=result.resolved_title or "Expired")

    async def due(self) -> list[tuple[int, int]]:
        """``(encounter_id, pending_version)`` of every decision whose window has run out."""
        return await self._encounters.due_decisions(self._clock())


def settled(before: Encounter, after: Encounter) -> dict[str, Any]:
    """``resolved_prompt_id``/``resolved_title`` for a result: the prompt of the decision that
    was pending before a change and is no longer after it (its buttons must go), and what that
    decision was about ("Thug 1 attacks Willow with Cudgel")."""
    old = before.row
    if old.pending_version is None or old.pending_version == after.row.pending_version:
        return {}
    pending = before.state.pending
    title = ""
    if pending is not None:
        attacker, target = before.state.get(pending.attacker), before.state.get(pending.target)
        title = f"{attacker.name} attacks {target.name} with {pending.attack}"
    return {
        "resolved_prompt_id": old.prompt_message_id,
        "resolved_title": title,
        "resolved_awaiting": pending.awaiting if pending is not None else "",
    }


def _require_issued_this_turn(state: AnyState, actor: Actor) -> None:
    """A command that acts for whoever holds the turn must have been issued during that turn:
    one typed before it began was meant for an earlier turn (e.g. the GM's `/attack` for Thug 1
    arriving just after their `/gm next` started Thug 2's turn)."""
    if actor.issued is None or state.turn is None:
        return
    if actor.issued <= state.turn_marker:
        raise Conflict(f"That turn already ended: it is now {state.get(state.turn).name}'s.")


def _decision_title(decision: Decision) -> str:
    return f"{decision.attacker.name} attacks {decision.target.name} with {decision.attack}"
