"""Reminder points of open windows — a turn deadline or a reaction decision — in the
decisions-and-timers store (issue 17, "Reminders"). ``reminded`` counts the points already sent
for a row's window; :func:`claim` moves it on exactly once (the winner of a race between two
passes, or two processes, is the one whose UPDATE changed it)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from bot.store.base import StoreConnection as Connection
from bot.store.decisions import REACTION, ts
from bot.store.turn_timers import TURN


class WindowRow(NamedTuple):
    """An open window with a deadline: its row ``id``, the encounter, its ``kind`` (turn or
    reaction), ``ref``, ``deadline``, how many reminder points were sent (``reminded``), the
    encounter's ``version`` (any change to the fight, its settings included, moves it on) and
    when the row was opened (``opened``)."""

    id: int
    encounter_id: int
    kind: str
    ref: int
    deadline: datetime
    reminded: int
    version: int
    opened: datetime


_SELECT = (
    "SELECT d.id, d.encounter_id, d.kind, d.ref, d.deadline, d.reminded, e.version, d.created_at"
    " FROM decisions d"
    " JOIN encounters e ON e.id = d.encounter_id"
)


def _row(values: Any) -> WindowRow:
    return WindowRow(
        id=int(values["id"]),
        encounter_id=int(values["encounter_id"]),
        kind=str(values["kind"]),
        ref=int(values["ref"]),
        deadline=datetime.fromisoformat(values["deadline"]),
        reminded=int(values["reminded"]),
        version=int(values["version"]),
        opened=_moment(values["created_at"]),
    )


def _moment(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


async def running(conn: Connection, now: datetime) -> list[WindowRow]:
    """The open turn and reaction windows of live, unpaused encounters whose deadline is still
    ahead of ``now``, soonest first (a reminder never comes after its deadline)."""
    rows = await conn.fetch_all(
        f"{_SELECT} WHERE d.status = 'open' AND d.kind IN (?, ?) AND d.deadline IS NOT NULL"
        " AND d.deadline > ? AND e.status = 'live' AND e.paused = 0 ORDER BY d.deadline",
        (TURN, REACTION, ts(now)),
    )
    return [_row(row) for row in rows]


async def get(conn: Connection, row_id: int) -> WindowRow | None:
    """The window ``row_id`` while it is open with a deadline."""
    row = await conn.fetch_one(
        f"{_SELECT} WHERE d.id = ? AND d.status = 'open' AND d.deadline IS NOT NULL", (row_id,)
    )
    return _row(row) if row is not None else None


async def claim(conn: Connection, row_id: int, sent: int, upto: int) -> bool:
    """Mark the reminder points up to ``upto`` sent for the open window ``row_id``, if
    ``sent`` were sent until now and its encounter is live and not paused; whether this call
    did (False: another pass or process did, the window closed, or the encounter was paused
    or ended). The encounter is checked in the same UPDATE: a ``/gm pause`` (in another
    process too) that committed after the reminder was worked out from the fight, before its
    claim, holds it back — checked before the claim, it was sent during the pause."""
    changed = await conn.execute(
        "UPDATE decisions SET reminded = ? WHERE id = ? AND status = 'open' AND reminded = ?"
        " AND EXISTS (SELECT 1 FROM encounters e WHERE e.id = decisions.encounter_id"
        " AND e.status = 'live' AND e.paused = 0)",
        (upto, row_id, sent),
    )
    return changed == 1
