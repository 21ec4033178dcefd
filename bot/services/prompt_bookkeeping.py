"""The decisions store and the messages that show an encounter, from the encounter service's
side: the tracker message, each decision's prompt and who it asked, retirements refused by
Discord, what is due, the log. A part of :class:`bot.services.encounters.EncounterService` (its
base), kept apart so each module stays small."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.services.encounter import Encounter
from bot.services.replay import UNREADABLE, log_unreadable
from bot.store import decisions
from bot.store import encounters as repo
from bot.store.base import Store, StoreConnection
from bot.store.decisions import Noted
from bot.store.encounters import EncounterRow

log = logging.getLogger(__name__)


class PromptBookkeeping:
    """Bookkeeping methods of :class:`~bot.services.encounters.EncounterService`."""

    if TYPE_CHECKING:
        _db: Store

        async def _load(self, conn: StoreConnection, row: EncounterRow) -> Encounter: ...

        async def _with_away(self, conn: StoreConnection, encounter: Encounter) -> Encounter: ...

        def _forget_row(self, encounter_id: int) -> None: ...

    async def set_tracker_message(
        self,
        encounter_id: int,
        message_id: int,
        *,
        pinned: bool = False,
        replacing: int | None = repo.ANY_TRACKER,
    ) -> bool:
        """Remember the message that shows the encounter's tracker, and whether it is pinned
        — if the one recorded is still ``replacing`` (None: none; by default whichever).
        Whether it was recorded (False: another process recorded its own meanwhile)."""
        async with self._db.transaction() as conn:
            done = await repo.set_tracker_message(
                conn, encounter_id, message_id, pinned=pinned, replacing=replacing
            )
        self._forget_row(encounter_id)
        return done

    async def set_prompt_message(
        self,
        encounter_id: int,
        pending_version: int,
        message_id: int,
        asked: list[int],
        ref: int = 1,
    ) -> Noted:
        """Remember the message that shows the decision ``ref`` pending since
        ``pending_version`` and the members it ``asked``: ``recorded``; ``closed`` when that
        decision is no longer waiting (settled, expired or undone first); ``other`` when
        another message already shows it."""
        async with self._db.transaction() as conn:
            noted = await repo.set_prompt_message(
                conn, encounter_id, pending_version, message_id, asked, ref
            )
        self._forget_row(encounter_id)
        return noted

    async def set_asked(self, decision_id: int, asked: list[int], *, encounter_id: int) -> None:
        """The members told about the decision ``decision_id`` (of ``encounter_id``) so far."""
        async with self._db.transaction() as conn:
            await decisions.set_asked(conn, decision_id, asked)
        self._forget_row(encounter_id)

    async def prompt_retired(self, message_id: int, *, keep: bool = False) -> None:
        """The prompt ``message_id`` lost its buttons (nothing left to retire; ``keep``: what
        it was retired with stays, :func:`bot.store.decisions.prompt_retired`)."""
        async with self._db.transaction() as conn:
            await decisions.prompt_retired(conn, message_id, keep=keep)

    async def closed_prompt(self, message_id: int) -> decisions.DecisionRow | None:
        """The closed decision whose prompt is ``message_id``, None when there is none."""
        async with self._db.read() as conn:
            return await decisions.closed_prompt(conn, message_id)

    async def retire_later(self, message_id: int, text: str, embed: dict[str, Any] | None) -> bool:
        """Keep what a closed decision's prompt should say once Discord lets the bot edit it
        (across restarts). Returns whether ``message_id`` is a decision's prompt."""
        async with self._db.transaction() as conn:
            return await decisions.retire_later(conn, message_id, text, embed)

    async def to_retire(self) -> list[tuple[int, decisions.DecisionRow]]:
        """``(channel_id, decision)`` for each closed decision whose prompt keeps buttons."""
        async with self._db.read() as conn:
            return await decisions.to_retire(conn)

    async def channels_waiting(self) -> list[int]:
        """Channels whose live encounter waits on a decision that has a prompt."""
        async with self._db.read() as conn:
            return await repo.channels_waiting(conn)

    async def unprompted(self) -> list[Encounter]:
        """Live encounters whose pending decision has no recorded prompt message. One whose
        state the log cannot rebuild (issue 15: a stored state behind its row is replayed) is
        logged and left out, so it hides no other channel's decision; its commands say why."""
        found: list[Encounter] = []
        async with self._db.read() as conn:
            for row in await repo.unprompted_decisions(conn):
                try:
                    loaded = await self._load(conn, row)
                except UNREADABLE as error:
                    log_unreadable(log, row.id, error)
                    continue
                # who is away decides whom the prompt asks (bot.services.acting.answering)
                found.append(await self._with_away(conn, loaded))
        return found

    async def due_decisions(self, now: datetime) -> list[tuple[int, int]]:
        """``(encounter_id, pending_version)`` for every decision whose window ended by ``now``."""
        async with self._db.read() as conn:
            return await repo.due_decisions(conn, now)

    async def log(self, encounter_id: int) -> list[repo.LogEntry]:
        """The encounter's log, oldest first."""
        async with self._db.read() as conn:
            return await repo.log_entries(conn, encounter_id)
