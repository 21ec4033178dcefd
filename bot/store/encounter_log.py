"""The encounter log: the SQL that touches ``encounter_log`` — one row per applied command, with
the state it left (undo and redo restore those) and its result (decision G,
:mod:`bot.services.event_log`)."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict

from bot.store.db import Connection


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
    undone_by: int | None = None
    redo_cleared_by: int | None = None


NOT_UNDOABLE = frozenset(
    {"start", "end", "undo", "redo", "pause", "resume", "transfer", "forget_member"}
)
"""Log commands that are bookkeeping, not moves in the fight: undo steps over them. Every other
command changed the engine state and can be undone. ``forget_member`` (a member's data was
erased, ``/me delete``) must never be undone: it would hand a forgotten member their combatant
back."""


def _ts(moment: datetime | None) -> str | None:
    """Timestamps are stored as fixed-width ISO 8601 text in UTC, so text order is time order."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


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
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? ORDER BY version",
        (encounter_id,),
    )
    return [LogEntry.model_validate(dict(row)) for row in rows]


# --- undo / redo over the log (issue 6) ------------------------------------------------------

_LOG_COLUMNS = (
    "encounter_id, version, actor_id, command, options, result, state, created_at, undone_by,"
    " redo_cleared_by"
)
_UNDOABLE = "command NOT IN ({})".format(", ".join(f"'{c}'" for c in sorted(NOT_UNDOABLE)))


async def log_entry(conn: Connection, encounter_id: int, version: int) -> LogEntry | None:
    """The log entry that produced ``version``, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? AND version = ?",
        (encounter_id, version),
    )
    return LogEntry.model_validate(dict(row)) if row else None


async def last_undoable(conn: Connection, encounter_id: int) -> LogEntry | None:
    """The newest command that still stands and can be undone, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? AND {_UNDOABLE}"
        " AND undone_by IS NULL ORDER BY version DESC LIMIT 1",
        (encounter_id,),
    )
    return LogEntry.model_validate(dict(row)) if row else None


async def last_redoable(conn: Connection, encounter_id: int) -> LogEntry | None:
    """The command undone most recently whose redo history no new command cleared, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ?"
        " AND undone_by IS NOT NULL AND redo_cleared_by IS NULL ORDER BY undone_by DESC LIMIT 1",
        (encounter_id,),
    )
    return LogEntry.model_validate(dict(row)) if row else None


async def mark_undone(
    conn: Connection, encounter_id: int, version: int, undone_by: int | None
) -> None:
    """Mark the entry at ``version`` undone by the undo at ``undone_by`` (``None``: redone)."""
    await conn.execute(
        "UPDATE encounter_log SET undone_by = ? WHERE encounter_id = ? AND version = ?",
        (undone_by, encounter_id, version),
    )


async def clear_redo(conn: Connection, encounter_id: int, cleared_by: int) -> None:
    """A new command at ``cleared_by``: nothing undone before it can be redone any more."""
    await conn.execute(
        "UPDATE encounter_log SET redo_cleared_by = ? WHERE encounter_id = ?"
        " AND undone_by IS NOT NULL AND redo_cleared_by IS NULL",
        (cleared_by, encounter_id),
    )
