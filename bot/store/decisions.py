"""Pending decisions and timers: the SQL that touches ``decisions`` (migration 0012; issue 10,
decision B).

A decision opens when a change leaves something waiting (an attack's reaction), and closes when
a later change settles it, its deadline passes, an undo takes it back or its encounter ends.
Its prompt message is recorded once; after the decision closes, the prompt must lose its
buttons, and the row remembers until that is done. Rows leave this module as
:class:`DecisionRow`.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from bot.store.base import StoreConnection as Connection
from bot.store.timestamps import utc_text

REACTION = "reaction"
"""The kind of a ruleset's pending decision (UTTAS: an attack waiting for a reaction, or a
surrender's complete-or-stop)."""

Noted = Literal["recorded", "closed", "other"]
"""What became of a prompt message offered for a decision: recorded as its prompt; the decision
is no longer open (``closed``); or another message is already its prompt (``other``)."""

_COLUMNS = (
    "id, encounter_id, kind, ref, opened_version, status, deadline, asked, prompt_message_id,"
    " prompt_retired, retire_text, retire_embed, claim, created_at, closed_at"
)


_QUALIFIED = ", ".join(f"d.{column.strip()}" for column in _COLUMNS.split(","))


class DecisionRow(BaseModel):
    """One row of ``decisions`` (see migration 0012 for each column). ``asked`` is ``None``
    when it is not known who was told (a decision that waited before the migration)."""

    model_config = ConfigDict(frozen=True)

    id: int
    encounter_id: int
    kind: str
    ref: int
    opened_version: int
    status: Literal["open", "closed"]
    deadline: datetime | None
    asked: tuple[int, ...] | None
    prompt_message_id: int | None
    prompt_retired: bool
    retire_text: str | None
    retire_embed: dict[str, Any] | None
    claim: str | None
    created_at: datetime
    closed_at: datetime | None


def ts(moment: datetime | None) -> str | None:
    """Timestamps as fixed-width ISO 8601 text in UTC (text order is time order)."""
    if moment is None:
        return None
    return utc_text(moment)


def _row(values: Any) -> DecisionRow:
    asked = values["asked"]
    embed = values["retire_embed"]
    return DecisionRow(
        id=values["id"],
        encounter_id=values["encounter_id"],
        kind=values["kind"],
        ref=values["ref"],
        opened_version=values["opened_version"],
        status=values["status"],
        deadline=values["deadline"],
        asked=tuple(json.loads(asked)) if asked is not None else None,
        prompt_message_id=values["prompt_message_id"],
        prompt_retired=bool(values["prompt_retired"]),
        retire_text=values["retire_text"],
        retire_embed=json.loads(embed) if embed is not None else None,
        claim=values["claim"],
        created_at=values["created_at"],
        closed_at=values["closed_at"],
    )


class Opening(NamedTuple):
    """A decision open after a change: the engine's ``ref`` for it, the encounter version it
    opened at, and when it closes by itself (None: never)."""

    ref: int
    opened_version: int
    deadline: datetime | None


_CLOSE = "UPDATE decisions SET status = 'closed', closed_at = ? WHERE id = ?"
_OPEN = (
    "INSERT INTO decisions (encounter_id, kind, ref, opened_version, deadline, created_at)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)


async def open_of(conn: Connection, encounter_id: int, kind: str = REACTION) -> list[DecisionRow]:
    """The open decisions of ``kind`` in the encounter, by ``ref``."""
    rows = await conn.fetch_all(
        f"SELECT {_COLUMNS} FROM decisions WHERE encounter_id = ? AND kind = ? AND status = 'open'"
        " ORDER BY ref",
        (encounter_id, kind),
    )
    return [_row(row) for row in rows]


async def sync(
    conn: Connection,
    encounter_id: int,
    current: list[tuple[int, int, int]],
    opened: list[Opening],
    now: datetime,
    kind: str = REACTION,
) -> dict[int, int]:
    """Make the encounter's open decisions of ``kind`` those ``opened`` lists, given the
    ``current`` open ones as ``(row id, ref, opened_version)``: one still listed with the same
    ref and version is kept; the others are closed (at ``now``); each listed one not open yet
    is opened. Returns row id by ref for the decisions opened here."""
    wanted = {(o.ref, o.opened_version) for o in opened}
    kept = set()
    for row_id, ref, version in current:
        if (ref, version) in wanted:
            kept.add((ref, version))
            continue
        await conn.execute(_CLOSE, (ts(now), row_id))
    ids: dict[int, int] = {}
    for o in opened:
        if (o.ref, o.opened_version) in kept:
            continue
        ids[o.ref] = await conn.insert(
            _OPEN, (encounter_id, kind, o.ref, o.opened_version, ts(o.deadline), ts(now))
        )
    return ids


def sync_statements(
    encounter_id: int,
    current: list[tuple[int, int, int]],
    opened: list[Opening],
    now: datetime,
    kind: str = REACTION,
) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements of :func:`sync` (same arguments), to be sent with others in one trip
    (:meth:`~bot.store.base.StoreConnection.execute_all_fetch`); the ids of the decisions
    opened are then read back with the encounter's open decisions."""
    wanted = {(o.ref, o.opened_version) for o in opened}
    statements: list[tuple[str, tuple[Any, ...]]] = []
    kept = set()
    for row_id, ref, version in current:
        if (ref, version) in wanted:
            kept.add((ref, version))
            continue
        statements.append((_CLOSE, (ts(now), row_id)))
    for o in opened:
        if (o.ref, o.opened_version) in kept:
            continue
        statements.append(
            (_OPEN, (encounter_id, kind, o.ref, o.opened_version, ts(o.deadline), ts(now)))
        )
    return statements


def close_all_statement(encounter_id: int, now: datetime) -> tuple[str, tuple[Any, ...]]:
    """The statement of :func:`close_all`, to be sent with others in one trip."""
    return (
        "UPDATE decisions SET status = 'closed', closed_at = ?"
        " WHERE encounter_id = ? AND status = 'open'",
        (ts(now), encounter_id),
    )


async def close_all(conn: Connection, encounter_id: int, now: datetime) -> None:
    """Close every open decision of the encounter (it ended)."""
    await conn.execute(*close_all_statement(encounter_id, now))


async def set_prompt(
    conn: Connection,
    encounter_id: int,
    opened_version: int,
    message_id: int,
    asked: list[int],
    ref: int = 1,
    kind: str = REACTION,
) -> Noted:
    """Record ``message_id`` as the prompt of the decision ``ref`` of ``kind`` that opened at
    ``opened_version``, with the members it ``asked`` — only while that decision is open and
    shows no other message. Says what became of it (:data:`Noted`)."""
    changed = await conn.execute(
        "UPDATE decisions SET prompt_message_id = ?, asked = COALESCE(asked, ?)"
        " WHERE encounter_id = ? AND kind = ? AND opened_version = ? AND ref = ?"
        " AND status = 'open' AND (prompt_message_id IS NULL OR prompt_message_id = ?)",
        (
            message_id,
            json.dumps(sorted(asked)),
            encounter_id,
            kind,
            opened_version,
            ref,
            message_id,
        ),
    )
    if changed:
        return "recorded"
    still_open = await conn.fetch_one(
        "SELECT 1 FROM decisions WHERE encounter_id = ? AND kind = ? AND opened_version = ?"
        " AND ref = ? AND status = 'open'",
        (encounter_id, kind, opened_version, ref),
    )
    return "other" if still_open else "closed"


async def set_asked(conn: Connection, decision_id: int, asked: list[int]) -> None:
    """The members told about the decision so far."""
    await conn.execute(
        "UPDATE decisions SET asked = ? WHERE id = ?", (json.dumps(sorted(asked)), decision_id)
    )


async def set_deadline(
    conn: Connection, encounter_id: int, decision_id: int, deadline: datetime
) -> None:
    """Give the open decision whose row is ``decision_id`` a new deadline (a resumed fight
    restarts its window; its buttons keep working), unclaimed: the expiry claim on the old
    deadline (:mod:`bot.store.expiry`) does not hold the new one back. It is a new window, so
    none of its reminder points counts as sent (:mod:`bot.store.reminders`)."""
    await conn.execute(
        "UPDATE decisions SET deadline = ?, claim = NULL, reminded = 0"
        " WHERE encounter_id = ? AND id = ? AND status = 'open'",
        (ts(deadline), encounter_id, decision_id),
    )


async def due(conn: Connection, now: datetime) -> list[tuple[int, int]]:
    """``(encounter_id, opened_version)`` of the open reaction decisions of live, unpaused
    encounters whose deadline is ``now`` or earlier, soonest first (once per pair: decisions
    opened by one change lapse together)."""
    rows = await conn.fetch_all(
        "SELECT d.encounter_id, d.opened_version FROM decisions d"
        " JOIN encounters e ON e.id = d.encounter_id"
        " WHERE d.status = 'open' AND d.kind = ? AND d.deadline IS NOT NULL AND d.deadline <= ?"
        " AND e.status = 'live' AND e.paused = 0"
        " GROUP BY d.encounter_id, d.opened_version ORDER BY MIN(d.deadline)",
        (REACTION, ts(now)),
    )
    return [(int(row["encounter_id"]), int(row["opened_version"])) for row in rows]


async def prompt_retired(conn: Connection, message_id: int, *, keep: bool = False) -> None:
    """The prompt ``message_id`` lost its buttons: nothing is left to retire. ``keep``: what
    it was retired with (:func:`retire_later`) stays, to retire it again should an edit of
    another process that was on its way give it its buttons back."""
    kept = "" if keep else ", retire_text = NULL, retire_embed = NULL"
    await conn.execute(
        f"UPDATE decisions SET prompt_retired = 1{kept} WHERE prompt_message_id = ?",
        (message_id,),
    )


async def closed_prompt(conn: Connection, message_id: int) -> DecisionRow | None:
    """The closed decision whose prompt is ``message_id`` (None: none, or it still waits)."""
    row = await conn.fetch_one(
        f"SELECT {_COLUMNS} FROM decisions WHERE prompt_message_id = ? AND status = 'closed'"
        " ORDER BY id DESC LIMIT 1",
        (message_id,),
    )
    return _row(row) if row is not None else None


async def retire_later(
    conn: Connection, message_id: int, text: str, embed: dict[str, Any] | None
) -> bool:
    """Remember what the prompt ``message_id`` of a closed decision should say once Discord
    lets the bot edit it. Returns whether it is a decision's prompt."""
    changed = await conn.execute(
        "UPDATE decisions SET retire_text = ?, retire_embed = ?"
        " WHERE prompt_message_id = ? AND status = 'closed' AND prompt_retired = 0",
        (text, json.dumps(embed) if embed is not None else None, message_id),
    )
    return changed > 0


async def to_retire(conn: Connection) -> list[tuple[int, DecisionRow]]:
    """``(channel_id, decision)`` for every closed decision whose prompt still shows buttons."""
    rows = await conn.fetch_all(
        f"SELECT e.channel_id AS channel_id, {_QUALIFIED}"
        " FROM decisions d JOIN encounters e ON e.id = d.encounter_id"
        " WHERE d.status = 'closed' AND d.prompt_message_id IS NOT NULL AND d.prompt_retired = 0"
        " ORDER BY d.id"
    )
    return [(int(row["channel_id"]), _row(row)) for row in rows]
