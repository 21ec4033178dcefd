"""Claims for the expiry loop: due reaction decisions and turn deadlines, each taken by exactly
one claimer however many bot processes run the loop at once (issue 16, "Correct across
processes").

A claim writes ``decisions.claim`` (migration 0012: "which process is expiring it") as
``"<until> <claimer>"``: ``until`` is the ISO time the claim lapses (fixed-width UTC text, so
text order is time order), ``claimer`` names the process. A row is claimable while it is due
and unclaimed, or its claim lapsed (the process that took it died before expiring it). On
PostgreSQL the due rows are selected ``FOR UPDATE OF d SKIP LOCKED``: a claimer never waits on
rows another claimer is taking, and a row another claimer took and committed is re-checked and
left out. On SQLite the single writer runs claims one after another, which gives the same
result.

Turn deadlines: the expiry loop's :meth:`bot.services.turn_deadlines.TurnDeadlines.due` claims
them here, and lets a claim go (:func:`release`) when firing fails; stopping or running a
turn's clock — a pause, a resume, a decision opening or settled — lets its deadline's claim go
too (:func:`bot.store.turn_timers.stop`, :func:`~bot.store.turn_timers.run`). Reaction
decisions: the loop's :meth:`bot.services.reaction_expiry.ReactionExpiry.due` claims them here
(:func:`claim_due_reactions`), and lets the claims go (:func:`release_reactions`) when expiring
them fails; a resumed fight's fresh window is unclaimed (:func:`bot.store.decisions.set_deadline`).
A claim only decides which process tries: the expiry itself is still one versioned change under
the channel's lock, so a decision settled meanwhile (a click, an undo) is never expired.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from bot.store.base import StoreConnection as Connection
from bot.store.decisions import REACTION, ts
from bot.store.turn_timers import TURN

LEASE = timedelta(minutes=2)
"""How long a claim holds before another claimer may take the row again."""


class Claimed(NamedTuple):
    """A claimed due row: its ``id``, the encounter, the version it opened at and its ``ref``
    (a reaction's engine ref; a turn deadline's ``turn_seq``)."""

    id: int
    encounter_id: int
    opened_version: int
    ref: int


def _locking(conn: Connection) -> str:
    return " FOR UPDATE OF d SKIP LOCKED" if conn.dialect == "postgresql" else ""


async def _claim(
    conn: Connection,
    kind: str,
    extra: str,
    params: tuple[object, ...],
    now: datetime,
    claimer: str,
    lease: timedelta,
    limit: int | None,
) -> list[Claimed]:
    if " " in claimer or not claimer:
        raise ValueError(f"a claimer's name is one word, got {claimer!r}")
    bound = f" LIMIT {int(limit)}" if limit is not None else ""
    rows = await conn.fetch_all(
        "UPDATE decisions SET claim = ? WHERE id IN (SELECT d.id FROM decisions d"
        " JOIN encounters e ON e.id = d.encounter_id"
        " WHERE d.status = 'open' AND d.kind = ? AND d.deadline IS NOT NULL AND d.deadline <= ?"
        " AND e.status = 'live' AND e.paused = 0 AND (d.claim IS NULL OR d.claim < ?)"
        f"{extra} ORDER BY d.deadline, d.id{bound}{_locking(conn)})"
        " RETURNING id, encounter_id, opened_version, ref, deadline",
        (f"{ts(now + lease)} {claimer}", kind, ts(now), ts(now), *params),
    )
    ordered = sorted(rows, key=lambda r: (r["deadline"], r["id"]))  # soonest first
    return [
        Claimed(int(r["id"]), int(r["encounter_id"]), int(r["opened_version"]), int(r["ref"]))
        for r in ordered
    ]


async def claim_due_reactions(
    conn: Connection, now: datetime, claimer: str, *, lease: timedelta = LEASE
) -> list[Claimed]:
    """Claim, for ``claimer`` (one word naming the process) until ``now + lease``, every open
    reaction decision of a live, unpaused encounter whose deadline passed by ``now`` and that
    no other claimer holds; returns them soonest deadline first (decisions opened by one
    change share ``(encounter_id, opened_version)`` and lapse together: all of them are
    claimed in one call). Raises ``ValueError`` for an empty or spaced ``claimer``."""
    return await _claim(conn, REACTION, "", (), now, claimer, lease, None)


async def claim_due_turns(
    conn: Connection,
    now: datetime,
    claimer: str,
    *,
    lease: timedelta = LEASE,
    limit: int | None = None,
) -> list[Claimed]:
    """Claim, as :func:`claim_due_reactions` does, the passed turn deadlines (at most
    ``limit``, soonest first) — except where a reaction decision still waits (the turn cannot
    end before it is settled, as in :func:`bot.store.turn_timers.due`)."""
    extra = (
        " AND NOT EXISTS (SELECT 1 FROM decisions r WHERE r.encounter_id = d.encounter_id"
        " AND r.kind = ? AND r.status = 'open')"
    )
    return await _claim(conn, TURN, extra, (REACTION,), now, claimer, lease, limit)


async def release(conn: Connection, row_id: int, claimer: str) -> bool:
    """Let go of ``claimer``'s claim on the row ``row_id`` (firing it failed: the next pass of
    any process may take it at once); whether there was such a claim."""
    changed = await conn.execute(
        "UPDATE decisions SET claim = NULL WHERE id = ? AND claim LIKE ?",
        (row_id, f"% {claimer}"),
    )
    return changed == 1


async def release_reactions(
    conn: Connection, encounter_id: int, opened_version: int, claimer: str
) -> int:
    """Let go of ``claimer``'s claims on the open reaction decisions of ``encounter_id`` that
    opened at ``opened_version`` (expiring them failed: the next pass of any process may take
    them at once); how many claims were let go (0 when ``claimer`` held none, or they closed)."""
    return await conn.execute(
        "UPDATE decisions SET claim = NULL WHERE encounter_id = ? AND kind = ?"
        " AND opened_version = ? AND status = 'open' AND claim LIKE ?",
        (encounter_id, REACTION, opened_version, f"% {claimer}"),
    )
