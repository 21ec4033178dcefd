"""The encounter log: the SQL that touches ``encounter_log`` — one row per applied command with
its result (decision G, :mod:`bot.services.event_log`: the engine commands, every die rolled,
the events) and, at some versions only, a full snapshot of the state it left (migration 0021;
:mod:`bot.services.replay` rebuilds any other version from the nearest earlier snapshot)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.store.base import StoreConnection
from bot.store.timestamps import utc_text


class LogEntry(BaseModel):
    """One applied command: who did what, with which options and what came of it; ``state`` is
    the state (JSON) the encounter had afterwards at ``version`` when this row keeps a snapshot,
    else None (the state is replayed, :mod:`bot.services.replay`)."""

    model_config = ConfigDict(frozen=True)

    encounter_id: int
    version: int
    actor_id: int
    command: str
    options: str
    result: str
    state: str | None = None
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
    return utc_text(moment)


Statement = tuple[str, tuple[Any, ...]]
"""One SQL statement and its parameters, for
:meth:`~bot.store.base.StoreConnection.execute_all` (one trip)."""


def log_statement(
    *,
    encounter_id: int,
    version: int,
    actor_id: int,
    command: str,
    options: str,
    result: str,
    state: str | None,
    now: datetime,
) -> Statement:
    """The INSERT of :func:`append_log`, to send with other statements in one trip."""
    return (
        "INSERT INTO encounter_log (encounter_id, version, actor_id, command, options, result,"
        " state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (encounter_id, version, actor_id, command, options, result, state, _ts(now)),
    )


async def append_log(
    conn: StoreConnection,
    *,
    encounter_id: int,
    version: int,
    actor_id: int,
    command: str,
    options: str,
    result: str,
    state: str | None,
    now: datetime,
) -> None:
    """Record one applied command at ``version`` (the version it produced), with a snapshot of
    the state it left (``state``) or None (replayable from an earlier snapshot)."""
    sql, params = log_statement(
        encounter_id=encounter_id,
        version=version,
        actor_id=actor_id,
        command=command,
        options=options,
        result=result,
        state=state,
        now=now,
    )
    await conn.execute(sql, params)


async def log_entries(conn: StoreConnection, encounter_id: int) -> list[LogEntry]:
    """Every log entry of an encounter, oldest first."""
    rows = await conn.fetch_all(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? ORDER BY version",
        (encounter_id,),
    )
    return [LogEntry.model_validate(dict(row)) for row in rows]


async def history(conn: StoreConnection, encounter_id: int, version: int) -> list[LogEntry]:
    """What rebuilds the state at ``version``: the newest entry at or before it that keeps a
    snapshot, then every entry after it up to ``version``, oldest first. Empty when no snapshot
    precedes it (a log this version did not write)."""
    row = await conn.fetch_one(
        "SELECT max(version) AS v FROM encounter_log WHERE encounter_id = ? AND version <= ?"
        " AND state IS NOT NULL",
        (encounter_id, version),
    )
    if row is None or row["v"] is None:
        return []
    rows = await conn.fetch_all(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? AND version >= ?"
        " AND version <= ? ORDER BY version",
        (encounter_id, row["v"], version),
    )
    return [LogEntry.model_validate(dict(r)) for r in rows]


async def changes_after(
    conn: StoreConnection, encounter_id: int, after: int, upto: int
) -> list[LogEntry]:
    """The log entries of versions ``after`` + 1 to ``upto``, oldest first: what turns the state
    stored at ``after`` into the state at ``upto`` (:attr:`EncounterRow.state_version`)."""
    rows = await conn.fetch_all(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? AND version > ?"
        " AND version <= ? ORDER BY version",
        (encounter_id, after, upto),
    )
    return [LogEntry.model_validate(dict(r)) for r in rows]


# --- undo / redo over the log (issue 6) ------------------------------------------------------

_LOG_COLUMNS = (
    "encounter_id, version, actor_id, command, options, result, state, created_at, undone_by,"
    " redo_cleared_by"
)
_UNDOABLE = "command NOT IN ({})".format(", ".join(f"'{c}'" for c in sorted(NOT_UNDOABLE)))


async def log_entry(conn: StoreConnection, encounter_id: int, version: int) -> LogEntry | None:
    """The log entry that produced ``version``, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? AND version = ?",
        (encounter_id, version),
    )
    return LogEntry.model_validate(dict(row)) if row else None


async def last_undoable(conn: StoreConnection, encounter_id: int) -> LogEntry | None:
    """The newest command that still stands and can be undone, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ? AND {_UNDOABLE}"
        " AND undone_by IS NULL ORDER BY version DESC LIMIT 1",
        (encounter_id,),
    )
    return LogEntry.model_validate(dict(row)) if row else None


async def last_redoable(conn: StoreConnection, encounter_id: int) -> LogEntry | None:
    """The command undone most recently whose redo history no new command cleared, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_LOG_COLUMNS} FROM encounter_log WHERE encounter_id = ?"
        " AND undone_by IS NOT NULL AND redo_cleared_by IS NULL ORDER BY undone_by DESC LIMIT 1",
        (encounter_id,),
    )
    return LogEntry.model_validate(dict(row)) if row else None


async def mark_undone(
    conn: StoreConnection, encounter_id: int, version: int, undone_by: int | None
) -> None:
    """Mark the entry at ``version`` undone by the undo at ``undone_by`` (``None``: redone)."""
    await conn.execute(
        "UPDATE encounter_log SET undone_by = ? WHERE encounter_id = ? AND version = ?",
        (undone_by, encounter_id, version),
    )


def clear_redo_statement(encounter_id: int, cleared_by: int) -> Statement:
    """The UPDATE of :func:`clear_redo`, to send with other statements in one trip."""
    return (
        "UPDATE encounter_log SET redo_cleared_by = ? WHERE encounter_id = ?"
        " AND undone_by IS NOT NULL AND redo_cleared_by IS NULL",
        (cleared_by, encounter_id),
    )


async def clear_redo(conn: StoreConnection, encounter_id: int, cleared_by: int) -> None:
    """A new command at ``cleared_by``: nothing undone before it can be redone any more."""
    await conn.execute(*clear_redo_statement(encounter_id, cleared_by))
