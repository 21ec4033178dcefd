"""Who fights in an encounter: a member's character joining (as its campaign record left it),
the GM's NPCs added from a template, a combatant refreshed from its sheet. A part of
:class:`bot.services.encounters.EncounterService` (its base), kept apart so each module stays
small; every change goes through its one write path (``change``)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot import names
from bot.engine.core.dice import DiceRoller, RecordingRoller
from bot.engine.core.state import AnyState
from bot.errors import Conflict, InvalidInput
from bot.services import campaign_records, decisions, event_log
from bot.services.actor import Actor
from bot.services.encounter import Encounter
from bot.services.gm_checks import ensure_gm, ensure_sheet_fits
from bot.store.base import StoreConnection

NPC_BATCH_MAX = 25


class RosterMixin:
    """``join``, ``add_npcs`` and ``refresh`` of :class:`~bot.services.encounters.EncounterService`
    (which supplies ``change``, ``roller`` and the clock)."""

    if TYPE_CHECKING:
        _clock: Callable[[], datetime]

        def roller(self, encounter: Encounter) -> DiceRoller: ...

        def change(
            self,
            channel_id: int,
            actor: Actor,
            command: str,
            options: dict[str, Any],
            step: Callable[[Encounter], tuple[AnyState, dict[str, Any]]],
            *,
            prepare: Callable[[StoreConnection, Encounter], Awaitable[None]] | None = None,
        ) -> Awaitable[tuple[Encounter, dict[str, Any]]]: ...

    async def join(
        self,
        channel_id: int,
        actor: Actor,
        *,
        name: str,
        sheet: BaseModel,
        character_id: int | None = None,
    ) -> Encounter:
        """Add ``actor``'s character to the live encounter as a snapshot of ``sheet`` (later edits
        of the sheet do not change the fight) and as its campaign record left it (decision A;
        ``character_id``: its sheet's id). Names are unique per encounter, case-insensitively
        (the engine refuses a clash with :class:`Conflict`: for the member's own character in
        the fight, saying it is already there; else how to bring theirs under another name). A
        character fights in one
        encounter at a time (:class:`Conflict` naming the other channel), so two fights never
        write back over each other's record."""
        found: dict[str, BaseModel | None] = {}

        async def prepare(conn: StoreConnection, current: Encounter) -> None:
            if character_id is None:
                return  # (fighting elsewhere is refused by every change: change's own check)
            found["record"] = await campaign_records.load(conn, current.rules, character_id, name)

        def step(current: Encounter) -> tuple[AnyState, dict[str, Any]]:
            rules = current.rules
            ensure_sheet_fits(rules, sheet, name)
            command = rules.add_command(
                name=name,
                sheet=sheet,
                controller_id=actor.user_id,
                character_id=character_id,
                record=found.get("record"),
            )
            roller, now = RecordingRoller(self.roller(current)), self._clock()
            try:
                outcome = rules.apply(current.state, command, roller, now)
            except Conflict as clash:  # a combatant of that name is already in the fight
                there = next(
                    (c for c in current.state.combatants if names.key(c.name) == names.key(name)),
                    None,
                )
                if there is not None and not there.is_npc and there.controller_id == actor.user_id:
                    # The member's own character (joined twice, or a second click): no copy
                    # is needed, and "bring yours under another name" would make one.
                    raise Conflict(
                        f"**{names.escaped(there.name)}** is already in this fight: yours."
                    ) from None
                raise Conflict(
                    f"{clash.message} Bring yours under another name: import it again with "
                    "`/character import … name:` (e.g. `name:Willow the Younger`), then join "
                    "with that name."
                ) from None
            return outcome.state, event_log.result(
                [command], outcome.events, roller.rolled, at=now, combatant=name
            )

        encounter, _ = await self.change(
            channel_id, actor, "join", {"character": name}, step, prepare=prepare
        )
        return encounter

    async def add_npcs(
        self, channel_id: int, actor: Actor, *, template: str, sheet: BaseModel, count: int
    ) -> tuple[Encounter, list[str]]:
        """Add ``count`` (1-25) copies of an NPC template, numbered after any already there
        ("Thug 1", "Thug 2", …; only names that are the template's name plus a number count —
        compared as names are, so a lookalike counts — and "Dan" is numbered independently of
        "Daniel 1"). GM only. Returns the names. All or none join: a batch past the encounter's
        cap is refused saying how many more would fit."""
        if not 1 <= count <= NPC_BATCH_MAX:
            raise InvalidInput(f"Add between 1 and {NPC_BATCH_MAX} NPCs at a time.")

        def step(current: Encounter) -> tuple[AnyState, dict[str, Any]]:
            ensure_gm(current, actor, "add NPCs")
            rules = current.rules
            ensure_sheet_fits(rules, sheet, template)
            # Compared as names are (names.key): a lookalike "Тһug 2" holds number 2 as well.
            numbered = re.compile(rf"{re.escape(names.key(template))} (\d{{1,9}})")
            taken = [
                int(match.group(1))
                for c in current.state.combatants
                if (match := numbered.fullmatch(names.key(c.name)))
            ]
            first = max(taken, default=0) + 1
            added = [f"{template} {first + i}" for i in range(count)]
            state, roller, now = current.state, RecordingRoller(self.roller(current)), self._clock()
            commands: list[Any] = []
            events: list[Any] = []
            for npc in added:
                command = rules.add_command(name=npc, sheet=sheet, is_npc=True)
                try:
                    outcome = rules.apply(state, command, roller, now)
                except InvalidInput as full:
                    if not commands:
                        raise
                    # Copies alike until then joined: what stopped this one is the encounter's
                    # cap, and the GM is told how many of the batch would fit (nothing joins).
                    raise InvalidInput(
                        f"{full.message} This one has {len(current.state.combatants)}: add at "
                        f"most {len(commands)} more."
                    ) from full
                state = outcome.state
                commands.append(command)
                events.extend(outcome.events)
            return state, event_log.result(commands, events, roller.rolled, at=now, added=added)

        options = {"template": template, "count": count}
        encounter, result = await self.change(channel_id, actor, "add_npcs", options, step)
        return encounter, list(result["added"])

    async def refresh(
        self, channel_id: int, actor: Actor, *, combatant_id: str, sheet: BaseModel
    ) -> Encounter:
        """Replace a combatant's sheet snapshot with ``sheet`` (its source sheet as it is now).
        GM only. Current Health and Stamina are kept, lowered to the new maximums if those
        shrank; everything else about the combatant (conditions, position in the order) stays.
        Refused while a decision is open: it was worked out from the sheets as they were (a
        Uune roll's proposed resources, a reaction's choices), and a sheet changed under it
        could leave it unanswerable."""

        def step(current: Encounter) -> tuple[AnyState, dict[str, Any]]:
            ensure_gm(current, actor, "refresh a combatant from its sheet")
            rules = current.rules
            old = current.state.get(combatant_id)
            if current.state.decisions:
                title = names.escaped(decisions.title_of(current, current.state.decisions[0]))
                raise Conflict(
                    f"A decision is waiting ({title}): refresh **{names.escaped(old.name)}** "
                    "from their sheet once it is settled (`/gm resolve` settles it now)."
                )
            ensure_sheet_fits(rules, sheet, old.name)
            fresh = rules.refreshed(old, sheet)
            combatants = [fresh if c.id == combatant_id else c for c in current.state.combatants]
            state = current.state.model_copy(update={"combatants": combatants})
            return state, {"combatant": old.name}

        options = {"combatant": combatant_id}
        encounter, _ = await self.change(channel_id, actor, "refresh", options, step)
        return encounter
