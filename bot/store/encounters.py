"""Encounter rows and their log: the only SQL that touches ``encounters`` and ``encounter_log``.

Rows leave this module as :class:`EncounterRow` (pydantic). The engine's state travels as the
JSON text it serialised to; turning it back into a model is the ruleset's job.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bot.errors import ConcurrentUpdate, Conflict
from bot.store.db import Connection

EncounterStatus = Literal["live", "archived"]

_COLUMNS = (
    "id, guild_id, channel_id, name, ruleset, started_by, gm_id, status, state, version,"
    " tracker_message_id, created_at, updated_at, ended_at, pending_version, pending_deadline,"
    " prompt_message_id"
)


class EncounterRow(BaseModel):
    """One row of ``encounters``. ``state_json`` is the engine state; ``version`` starts at 1 and
    grows by one with every committed change."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    name: str
    ruleset: str
    started_by: int
    gm_id: int
    status: EncounterStatus
    state_json: str
    version: int
    tracker_message_id: int | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    pending_version: int | None = None
    pending_deadline: datetime | None = None
    prompt_message_id: int | None = None


class LogEntry(BaseModel):
    """One applied command: who did what, with which options, what came of it, and the state
    (JSON) the encounter had afterwards at ``version``."""

    model_config = ConfigDict(frozen=True)

    encounter_id: int
    version: int
    actor_id: int
    command: str
    options: str
    result: str
    state: str
    created_at: datetime


def _ts(moment: datetime | None) -> str | None:
    """Timestamps are stored as fixed-width ISO 8601 text in UTC, so text order is time order."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _row(values: Any) -> EncounterRow:
    return EncounterRow(
        id=values["id"],
        guild_id=values["guild_id"],
        channel_id=values["channel_id"],
        name=values["name"],
        ruleset=values["ruleset"],
        started_by=values["started_by"],
        gm_id=values["gm_id"],
        status=values["status"],
        state_json=values["state"],
        version=values["version"],
        tracker_message_id=values["tracker_message_id"],
        created_at=values["created_at"],
        updated_at=values["updated_at"],
        ended_at=values["ended_at"],
        pending_version=values["pending_version"],
        pending_deadline=values["pending_deadline"],
        prompt_message_id=values["prompt_message_id"],
    )


async def live_in_channel(conn: Connection, channel_id: int) -> EncounterRow | None:
    """The live encounter of ``channel_id``, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_COLUMNS} FROM encounters WHERE channel_id = ? AND status = 'live'",
        (channel_id,),
    )
    return _row(row) if row else None


async def by_id(conn: Connection, encounter_id: int) -> EncounterRow | None:
    """Any encounter (live or archived) by id, or ``None``."""
    row = await conn.fetch_one(f"SELECT {_COLUMNS} FROM encounters WHERE id = ?", (encounter_id,))
    return _row(row) if row else None


async def insert(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    ruleset: str,
    started_by: int,
    state_json: str,
    now: datetime,
) -> EncounterRow:
    """Create a live encounter at version 1.

    Raises :class:`Conflict` if the channel already has a live encounter (the partial unique
    index decides, so two racing inserts can never both succeed).
    """
    try:
        new_id = await conn.insert(
            "INSERT INTO encounters (guild_id, channel_id, name, ruleset, started_by, gm_id,"
            " status, state, version, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'live', ?, 1, ?, ?)",
            (
                guild_id,
                channel_id,
                name,
                ruleset,
                started_by,
                started_by,
                state_json,
                _ts(now),
                _ts(now),
            ),
        )
    except sqlite3.IntegrityError as exc:
        raise Conflict("An encounter is already running in this channel.") from exc
    row = await by_id(conn, new_id)
    assert row is not None
    return row


async def save(
    conn: Connection,
    current: EncounterRow,
    *,
    now: datetime,
    state_json: str | None = None,
    status: EncounterStatus | None = None,
    gm_id: int | None = None,
    tracker_message_id: int | None = None,
    pending: tuple[int | None, datetime | None] | None = None,
) -> EncounterRow:
    """Write a new version of ``current`` if nobody else did first.

    ``pending`` (when given) replaces ``(pending_version, pending_deadline)``; a new pending
    decision also forgets the message that showed the previous one.

    Runs ``UPDATE … WHERE id = ? AND version = ?``; raises :class:`ConcurrentUpdate` when no row
    matched (the caller's copy is stale). Returns the row as stored, at ``current.version + 1``.
    """
    updated = current.model_copy(
        update={
            "state_json": current.state_json if state_json is None else state_json,
            "status": current.status if status is None else status,
            "gm_id": current.gm_id if gm_id is None else gm_id,
            "tracker_message_id": (
                current.tracker_message_id if tracker_message_id is None else tracker_message_id
            ),
            "version": current.version + 1,
            "updated_at": now,
            "ended_at": now if status == "archived" else current.ended_at,
        }
    )
    if pending is not None:
        changed_decision = pending[0] != current.pending_version
        updated = updated.model_copy(
            update={
                "pending_version": pending[0],
                "pending_deadline": pending[1],
                "prompt_message_id": None if changed_decision else current.prompt_message_id,
            }
        )
    changed = await conn.execute(
        "UPDATE encounters SET state = ?, status = ?, gm_id = ?, tracker_message_id = ?,"
        " version = ?, updated_at = ?, ended_at = ?, pending_version = ?, pending_deadline = ?,"
        " prompt_message_id = ? WHERE id = ? AND version = ?",
        (
            updated.state_json,
            updated.status,
            updated.gm_id,
            updated.tracker_message_id,
            updated.version,
            _ts(updated.updated_at),
            _ts(updated.ended_at),
            updated.pending_version,
            _ts(updated.pending_deadline),
            updated.prompt_message_id,
            current.id,
            current.version,
        ),
    )
    if changed != 1:
        raise ConcurrentUpdate(
            "The encounter changed while your command was being applied; please try again."
        )
    return updated


async def set_tracker_message(conn: Connection, encounter_id: int, message_id: int) -> None:
    """Remember which message shows the tracker (presentation only: no version bump)."""
    await conn.execute(
        "UPDATE encounters SET tracker_message_id = ? WHERE id = ?", (message_id, encounter_id)
    )


async def set_prompt_message(
    conn: Connection, encounter_id: int, pending_version: int, message_id: int
) -> None:
    """Remember the message showing the decision that started at ``pending_version`` (only if
    that decision is still the one pending; presentation only, no version bump)."""
    await conn.execute(
        "UPDATE encounters SET prompt_message_id = ? WHERE id = ? AND pending_version = ?",
        (message_id, encounter_id, pending_version),
    )


async def due_decisions(conn: Connection, now: datetime) -> list[tuple[int, int]]:
    """``(encounter_id, pending_version)`` of live encounters whose decision window ended."""
    rows = await conn.fetch_all(
        "SELECT id, pending_version FROM encounters WHERE status = 'live'"
        " AND pending_deadline IS NOT NULL AND pending_deadline <= ? ORDER BY pending_deadline",
        (_ts(now),),
    )
    return [(int(row["id"]), int(row["pending_version"])) for row in rows]


async def append_log(
    conn: Connection,
    *,
    encounter_id: int,
    version: int,
    actor_id: int,
    command: str,
    options: str,
    result: str,
    state: str,
    now: datetime,
) -> None:
    """Record one applied command at ``version`` (the version it produced)."""
    await conn.execute(
        "INSERT INTO encounter_log (encounter_id, version, actor_id, command, options, result,"
        " state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (encounter_id, version, actor_id, command, options, result, state, _ts(now)),
    )


async def log_entries(conn: Connection, encounter_id: int) -> list[LogEntry]:
    """Every log entry of an encounter, oldest first."""
    rows = await conn.fetch_all(
        "SELECT encounter_id, version, actor_id, command, options, result, state, created_at"
        " FROM encounter_log WHERE encounter_id = ? ORDER BY version",
        (encounter_id,),
    )
    return [LogEntry.model_validate(dict(row)) for row in rows]
