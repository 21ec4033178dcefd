"""Turn deadlines in the decisions-and-timers store (migration 0016; issue 17).

A turn with a deadline is one ``decisions`` row of kind :data:`TURN`; its ``ref`` is the
state's ``turn_seq``. :func:`follow` keeps the row in step with each committed change (a new
turn opens a new row, an ended fight or a deadline switched off closes it); :func:`due` lists
the rows the expiry loop must fire; :func:`close` closes one row exactly once (the winner of
a race between two passes, or two processes, is the one whose UPDATE changed it).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple

from bot.store.base import StoreConnection as Connection
from bot.store.decisions import REACTION, ts

TURN = "turn"
"""The kind of a turn deadline's row in ``decisions``."""


class TurnTimer(NamedTuple):
    """An open turn deadline: its row ``id``, the encounter, the ``turn_seq`` it times
    (``ref``), its ``deadline`` (None while paused) and the seconds left when paused."""

    id: int
    encounter_id: int
    ref: int
    deadline: datetime | None
    remaining_s: float | None


def _timer(row: Any) -> TurnTimer:
    deadline = row["deadline"]
    return TurnTimer(
        id=int(row["id"]),
        encounter_id=int(row["encounter_id"]),
        ref=int(row["ref"]),
        deadline=datetime.fromisoformat(deadline) if deadline else None,
        remaining_s=row["remaining_s"],
    )


_SELECT = "SELECT id, encounter_id, ref, deadline, remaining_s FROM decisions"


async def open_timer(conn: Connection, encounter_id: int) -> TurnTimer | None:
    """The encounter's open turn deadline, if any."""
    row = await conn.fetch_one(
        f"{_SELECT} WHERE encounter_id = ? AND kind = ? AND status = 'open'",
        (encounter_id, TURN),
    )
    return _timer(row) if row is not None else None


async def get(conn: Connection, timer_id: int) -> TurnTimer | None:
    """The turn deadline row ``timer_id`` while it is open."""
    row = await conn.fetch_one(
        f"{_SELECT} WHERE id = ? AND kind = ? AND status = 'open'", (timer_id, TURN)
    )
    return _timer(row) if row is not None else None


def untouched(before: Any, after: Any) -> bool:
    """Whether :func:`follow` has nothing to do for a change from state ``before`` to
    ``after``: no turn deadlines before or after, so none can be open (every change that
    turned them off closed its timer) — the usual case, which costs no database trip."""
    return bool(after.settings.turn_deadline_s == 0 and before.settings.turn_deadline_s == 0)


async def follow(
    conn: Connection,
    encounter_id: int,
    before: Any,
    after: Any,
    version: int,
    now: datetime,
    *,
    fresh: bool = False,
    stopped: bool = False,
) -> None:
    """After a change from state ``before`` to ``after`` (committed as ``version`` at ``now``):
    close the open turn deadline when its turn is over, the fight is not running or the
    deadline setting changed; open one (``now`` plus the setting) for a turn that has none
    yet. A turn whose deadline already fired gets no second one (unless the GM changes the
    setting, or ``fresh``: an undo or redo gives the turn it brings back a whole deadline).

    ``stopped``: the turn's clock stands still after this change — the fight is paused, or a
    decision waits (a reaction, an approval: it has a window of its own, and the turn cannot
    end before it is settled). A running deadline stops then, keeping the seconds left, and a
    stopped one runs on with them once neither holds (:func:`stop`, :func:`run`); a deadline
    opened meanwhile starts stopped with the whole setting left."""
    if untouched(before, after):
        return
    s = after.settings.turn_deadline_s
    running = after.phase == "active" and after.turn is not None and s > 0
    reset = fresh or before.settings.turn_deadline_s != s
    timer = await open_timer(conn, encounter_id)
    if timer is not None and (not running or timer.ref != after.turn_seq or reset):
        await close(conn, timer.id, now)
        timer = None
    if timer is not None:
        await (stop(conn, timer, now) if stopped else run(conn, timer, now, s))
        return
    if not running:
        return
    if not reset and await _seen(conn, encounter_id, after.turn_seq):
        return
    deadline = None if stopped else ts(now + timedelta(seconds=s))
    await conn.insert(
        "INSERT INTO decisions (encounter_id, kind, ref, opened_version, deadline, remaining_s,"
        " created_at, remind_before_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            encounter_id,
            TURN,
            after.turn_seq,
            version,
            deadline,
            float(s) if stopped else None,
            ts(now),
            s // 2,
        ),
    )


async def _seen(conn: Connection, encounter_id: int, turn_seq: int) -> bool:
    row = await conn.fetch_one(
        "SELECT 1 FROM decisions WHERE encounter_id = ? AND kind = ? AND ref = ?",
        (encounter_id, TURN, turn_seq),
    )
    return row is not None


async def close(conn: Connection, timer_id: int, now: datetime) -> bool:
    """Close the open turn deadline ``timer_id``; whether this call closed it (False: it was
    closed already — by another pass, another process, or the turn's end)."""
    changed = await conn.execute(
        "UPDATE decisions SET status = 'closed', closed_at = ? WHERE id = ? AND status = 'open'",
        (ts(now), timer_id),
    )
    return changed == 1


async def stop(conn: Connection, timer: TurnTimer, now: datetime) -> None:
    """Stop the running turn deadline ``timer``, keeping the seconds left (and letting any
    expiry claim on it go, :mod:`bot.store.expiry`); a stopped one stays as it is."""
    if timer.deadline is None:
        return
    left = max((timer.deadline - now).total_seconds(), 0.0)
    await conn.execute(
        "UPDATE decisions SET deadline = NULL, remaining_s = ?, claim = NULL WHERE id = ?",
        (left, timer.id),
    )


async def run(conn: Connection, timer: TurnTimer, now: datetime, full_s: int) -> None:
    """Let the stopped turn deadline ``timer`` run again with the seconds that were left
    (``full_s`` when none were kept), unclaimed; a running one stays as it is."""
    if timer.deadline is not None:
        return
    left = timer.remaining_s if timer.remaining_s is not None else float(full_s)
    await conn.execute(
        "UPDATE decisions SET deadline = ?, remaining_s = NULL, claim = NULL WHERE id = ?",
        (ts(now + timedelta(seconds=left)), timer.id),
    )


async def pause(conn: Connection, encounter_id: int, now: datetime) -> None:
    """The encounter is paused: its turn deadline stops, keeping the seconds left (and any
    expiry claim on it is let go, :mod:`bot.store.expiry`)."""
    timer = await open_timer(conn, encounter_id)
    if timer is not None:
        await stop(conn, timer, now)


async def resume(conn: Connection, encounter_id: int, now: datetime, full_s: int) -> None:
    """The encounter resumes: its turn deadline runs again with the seconds that were left
    (``full_s`` when the turn began during the pause); unclaimed."""
    timer = await open_timer(conn, encounter_id)
    if timer is not None:
        await run(conn, timer, now, full_s)


async def due(conn: Connection, now: datetime) -> list[tuple[int, int]]:
    """``(encounter_id, timer id)`` of the turn deadlines of live, unpaused encounters that
    passed by ``now``, soonest first — except where a reaction decision still waits (the turn
    cannot end before it is settled; :func:`follow` stops its clock meanwhile, and this holds
    back a deadline a change made before that rule left running) and those an expiry pass holds
    a claim on that has not lapsed by ``now`` (:mod:`bot.store.expiry`: another process is
    firing it). The rows :func:`bot.store.expiry.claim_due_turns` would claim now, read without
    a write."""
    rows = await conn.fetch_all(
        "SELECT d.encounter_id, d.id FROM decisions d JOIN encounters e ON e.id = d.encounter_id"
        " WHERE d.status = 'open' AND d.kind = ? AND d.deadline IS NOT NULL AND d.deadline <= ?"
        " AND e.status = 'live' AND e.paused = 0 AND (d.claim IS NULL OR d.claim < ?)"
        " AND NOT EXISTS (SELECT 1 FROM decisions r"
        " WHERE r.encounter_id = d.encounter_id AND r.kind = ? AND r.status = 'open')"
        " ORDER BY d.deadline",
        (TURN, ts(now), ts(now), REACTION),
    )
    return [(int(row["encounter_id"]), int(row["id"])) for row in rows]
