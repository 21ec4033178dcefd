"""Encounter rows: the SQL that touches ``encounters`` (besides the log, in
:mod:`bot.store.encounter_log` — re-exported here —, server-wide listings in
:mod:`bot.store.guild_encounters` and erasing a member's data in :mod:`bot.store.member_data`).

Rows leave this module as :class:`EncounterRow` (pydantic). The engine's state travels as the
JSON text it serialised to; turning it back into a model is the ruleset's job.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter

from bot.errors import ConcurrentUpdate, Conflict
from bot.store import decisions
from bot.store.base import INTEGRITY_ERRORS, StoreConnection
from bot.store.encounter_log import NOT_UNDOABLE as NOT_UNDOABLE  # the log, re-exported
from bot.store.encounter_log import LogEntry as LogEntry
from bot.store.encounter_log import Statement
from bot.store.encounter_log import append_log as append_log
from bot.store.encounter_log import changes_after as changes_after
from bot.store.encounter_log import clear_redo as clear_redo
from bot.store.encounter_log import clear_redo_statement as clear_redo_statement
from bot.store.encounter_log import history as history
from bot.store.encounter_log import last_redoable as last_redoable
from bot.store.encounter_log import last_undoable as last_undoable
from bot.store.encounter_log import log_entries as log_entries
from bot.store.encounter_log import log_entry as log_entry
from bot.store.encounter_log import log_statement as log_statement
from bot.store.encounter_log import mark_undone as mark_undone
from bot.store.timestamps import utc_text

EncounterStatus = Literal["live", "archived"]

_DECISION_FILTER = (
    f"FROM decisions d WHERE d.encounter_id = e.id AND d.kind = '{decisions.REACTION}'"
    " AND d.status = 'open'"
)
_OPEN_DECISIONS = {
    "sqlite": (
        "(SELECT json_group_array(json_object('id', d.id, 'ref', d.ref,"
        "   'opened_version', d.opened_version, 'deadline', d.deadline,"
        f"   'prompt_message_id', d.prompt_message_id, 'asked', json(d.asked))) {_DECISION_FILTER})"
    ),
    "postgresql": (
        "(SELECT coalesce(json_agg(json_build_object('id', d.id, 'ref', d.ref,"
        "   'opened_version', d.opened_version, 'deadline', d.deadline,"
        "   'prompt_message_id', d.prompt_message_id, 'asked', d.asked::json)"
        f"   ORDER BY d.id)::text, '[]') {_DECISION_FILTER})"
    ),
}
"""An encounter's open decisions as one JSON text, per dialect; ``[]`` for none on both (never
NULL: a row's ``seen`` must be text for :func:`save` to check what moved without a version)."""
_GM_ROLE = (
    "(SELECT NULLIF(g.gm_role_id, g.guild_id) FROM guild_settings g WHERE g.guild_id = e.guild_id)"
)
"""The server's GM role as the encounter row reads it: none for @everyone (a row stored before
``/gm seat role`` refused it; :func:`bot.store.guild_settings.gm_role` reads it so too)."""


def _columns(conn: StoreConnection) -> str:
    return (
        "e.id, e.guild_id, e.channel_id, e.name, e.ruleset, e.started_by, e.gm_id, e.status,"
        " e.state, e.state_version, e.version, e.tracker_message_id, e.created_at, e.updated_at,"
        " e.ended_at,"
        f" e.paused, e.rules_overrides, e.rules, e.tracker_pinned,"
        f" {_OPEN_DECISIONS[conn.dialect]} AS open_decisions, {_GM_ROLE} AS gm_role_id"
    )


def _unmoved(conn: StoreConnection) -> str:
    """The versioned UPDATE's check that what changes without a version (the tracker message,
    the frozen rules, the starter after an erasure, the open decisions' rows, the server's GM
    role) is still as read; one more statement-free condition instead of reading the row in
    the transaction. ``IS NOT DISTINCT FROM`` is SQL's null-safe equality (SQLite ≥ 3.39 and
    PostgreSQL both have it)."""
    same = "IS NOT DISTINCT FROM ?"
    return (
        f" AND e.tracker_message_id {same} AND e.tracker_pinned = ?"
        " AND (CASE WHEN e.rules IS NULL THEN 1 ELSE 0 END) = ?"
        f" AND e.started_by = ? AND {_OPEN_DECISIONS[conn.dialect]} {same}"
        f" AND {_GM_ROLE} {same}"
    )


_FROM = "encounters e"
"""An encounter row; its open decisions (``decisions``, migrations 0012 and 0015) are read
alongside as one JSON list (``open_decisions``)."""


class OpenDecision(BaseModel):
    """An open decision of an encounter, as its row in ``decisions`` says: ``id`` (the row),
    ``ref`` (the engine's decision id), ``opened_version`` (buttons carry it with ``ref``),
    ``deadline``, ``prompt_message_id`` and ``asked`` (the members told; None when not
    known)."""

    model_config = ConfigDict(frozen=True)

    id: int
    ref: int
    opened_version: int
    deadline: datetime | None = None
    prompt_message_id: int | None = None
    asked: tuple[int, ...] | None = None


class EncounterRow(BaseModel):
    """One row of ``encounters``. ``state_json`` is the engine state as stored (JSON text; every
    row this module reads or writes has it; None only in a row held beside its parsed state,
    ``bot.services.encounter.Encounter``, which lets the text go — issue 15, "Memory");
    ``version`` starts at 1 and grows by one with every committed change. The open decisions
    it waits on come with it (``decisions``, by ``ref``); ``pending_version``,
    ``pending_deadline``, ``prompt_message_id``, ``decision_id`` and ``prompt_asked`` are the
    newest one's (the engine state's ``pending``), None when none is open."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    name: str
    ruleset: str
    started_by: int
    gm_id: int
    status: EncounterStatus
    state_json: str | None
    version: int
    tracker_message_id: int | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    decisions: tuple[OpenDecision, ...] = ()
    paused: bool = False
    gm_role_id: int | None = None
    """The server's GM role (``guild_settings``), read with the row; not an encounter column."""
    rules_overrides: str = "{}"
    rules: str | None = None
    """The rules the encounter plays by (``Ruleset.frozen``); None until frozen (migration 0013)."""

    @property
    def rules_version(self) -> int:
        """The version of the rules it plays by (1 before they were frozen)."""
        if self.rules is None:
            return 1
        try:
            return int(json.loads(self.rules).get("version", 1))
        except (ValueError, TypeError, AttributeError):
            return 1

    tracker_pinned: bool = False
    state_version: int | None = None
    """The version the stored state (``state_json``) is at when it is older than ``version``,
    else None (issue 15: a change whose log row keeps no snapshot does not rewrite the state;
    the changes after ``state_version`` are replayed from the log, :mod:`bot.services.replay`,
    as :meth:`bot.services.encounters.EncounterService` does when it loads a row)."""
    seen: str | None = None
    """The open decisions exactly as read (JSON text), so a write can check in its UPDATE that
    nothing kept without a version moved since (:func:`save`); a row :func:`save` returns
    carries them as written (read back in the write's trip when they changed); None for a row
    it archived (only its version is checked)."""

    @property
    def stored_state(self) -> str:
        """``state_json`` when it is the state at ``version``. Raises ``ValueError`` for a row
        held without it (an ``Encounter``'s: its parsed state is the state) and for a row whose
        stored state is older (:attr:`state_version`: the log has the changes since)."""
        if self.state_version is not None:
            raise ValueError(
                f"encounter {self.id}: the stored state is at version {self.state_version},"
                f" the row at {self.version} (the log replays the changes between)"
            )
        return self.stored_state_text

    @property
    def stored_state_text(self) -> str:
        """``state_json`` whatever version it is at (:attr:`stored_state_version`). Raises
        ``ValueError`` for a row held without it."""
        if self.state_json is None:
            raise ValueError(f"encounter {self.id}: this row was kept without its state text")
        return self.state_json

    @property
    def stored_state_version(self) -> int:
        """The version the stored state is at: :attr:`state_version`, or ``version``."""
        return self.version if self.state_version is None else self.state_version

    def open_decision(self, ref: int) -> OpenDecision | None:
        """The open decision the engine numbers ``ref``, or None."""
        for d in self.decisions:
            if d.ref == ref:
                return d
        return None

    @property
    def newest(self) -> OpenDecision | None:
        """The newest open decision (the highest ``ref``), or None."""
        return self.decisions[-1] if self.decisions else None

    @property
    def pending_version(self) -> int | None:
        return self.newest.opened_version if self.newest else None

    @property
    def pending_deadline(self) -> datetime | None:
        return self.newest.deadline if self.newest else None

    @property
    def prompt_message_id(self) -> int | None:
        return self.newest.prompt_message_id if self.newest else None

    @property
    def decision_id(self) -> int | None:
        return self.newest.id if self.newest else None

    @property
    def prompt_asked(self) -> tuple[int, ...] | None:
        return self.newest.asked if self.newest else None


def _ts(moment: datetime | None) -> str | None:
    """Timestamps are stored as fixed-width ISO 8601 text in UTC, so text order is time order."""
    if moment is None:
        return None
    return utc_text(moment)


STATE_PAD = 1024
"""Characters: on SQLite the live row's state is stored padded with trailing spaces to a
multiple of this (still valid JSON; :func:`_row` strips them), so the next version's row has the
same size and SQLite overwrites it in place — writing only the overflow pages whose bytes
changed — instead of freeing its overflow chain and allocating a new one (which also rewrote the
freelist and header pages). A lone command's commit: 17 → 9 WAL pages (issue 15, the p99).
The state is now rewritten only with a snapshot (:attr:`EncounterRow.state_version`); a lone
command without one writes 8 pages, two of them the row's overflow pages that hold the columns
stored after the state (``version``, ``updated_at``)."""


def _padded(conn: StoreConnection, text: str) -> str:
    """``text`` as the state column stores it (:data:`STATE_PAD`; PostgreSQL: as it is)."""
    if conn.dialect != "sqlite":
        return text
    return text + " " * (-len(text) % STATE_PAD)


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
        state_json=values["state"].rstrip(" "),  # the padding of _padded
        state_version=values["state_version"],
        version=values["version"],
        tracker_message_id=values["tracker_message_id"],
        created_at=values["created_at"],
        updated_at=values["updated_at"],
        ended_at=values["ended_at"],
        decisions=_open_decisions(values["open_decisions"]),
        paused=bool(values["paused"]),
        gm_role_id=values["gm_role_id"],
        rules_overrides=values["rules_overrides"],
        rules=values["rules"],
        tracker_pinned=bool(values["tracker_pinned"]),
        seen=values["open_decisions"],
    )


_OPEN_LIST: TypeAdapter[list[OpenDecision]] = TypeAdapter(list[OpenDecision])


def _open_decisions(text: str | None) -> tuple[OpenDecision, ...]:
    """The open decisions read with a row (``open_decisions``' JSON text), by ``ref``; parsed
    and validated in one pass (a write reads them back on most commands: issue 15)."""
    found = _OPEN_LIST.validate_json(text or "[]")
    return tuple(sorted(found, key=lambda d: d.ref))


async def unfrozen(conn: StoreConnection) -> list[EncounterRow]:
    """Live encounters whose rules were never frozen (started before migration 0013)."""
    rows = await conn.fetch_all(
        f"SELECT {_columns(conn)} FROM {_FROM} WHERE e.status = 'live' AND e.rules IS NULL"
    )
    return [_row(r) for r in rows]


async def freeze_rules(conn: StoreConnection, encounter_id: int, rules: str) -> bool:
    """Record the rules ``encounter_id`` plays by, unless some are recorded already. Returns
    whether this call recorded them."""
    changed = await conn.execute(
        "UPDATE encounters SET rules = ? WHERE id = ? AND rules IS NULL", (rules, encounter_id)
    )
    return changed > 0


async def live_with_character(
    conn: StoreConnection, guild_id: int, character_id: int
) -> EncounterRow | None:
    """The server's live encounter one of whose combatants carries ``character_id``'s campaign
    record (decision A), if any."""
    carries: tuple[str, int | str]
    if conn.dialect == "postgresql":
        carries = (
            "SELECT 1 FROM jsonb_array_elements(e.state::jsonb -> 'combatants') c"
            " WHERE c ->> 'character_id' = ?",
            str(character_id),
        )
    else:
        carries = (
            "SELECT 1 FROM json_each(e.state, '$.combatants') c"
            " WHERE json_extract(c.value, '$.character_id') = ?",
            character_id,
        )
    row = await conn.fetch_one(
        f"SELECT {_columns(conn)} FROM {_FROM} WHERE e.guild_id = ? AND e.status = 'live'"
        f" AND EXISTS ({carries[0]}) LIMIT 1",
        (guild_id, carries[1]),
    )
    return _row(row) if row is not None else None


async def live_in_channel(conn: StoreConnection, channel_id: int) -> EncounterRow | None:
    """The live encounter of ``channel_id``, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_columns(conn)} FROM {_FROM} WHERE e.channel_id = ? AND e.status = 'live'",
        (channel_id,),
    )
    return _row(row) if row else None


async def last_ended_in_channel(conn: StoreConnection, channel_id: int) -> EncounterRow | None:
    """The encounter of ``channel_id`` that ended last (archived), or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_columns(conn)} FROM {_FROM} WHERE e.channel_id = ? AND e.status = 'archived'"
        " ORDER BY e.ended_at DESC, e.id DESC LIMIT 1",
        (channel_id,),
    )
    return _row(row) if row else None


async def by_id(conn: StoreConnection, encounter_id: int) -> EncounterRow | None:
    """Any encounter (live or archived) by id, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_columns(conn)} FROM {_FROM} WHERE e.id = ?", (encounter_id,)
    )
    return _row(row) if row else None


async def insert(
    conn: StoreConnection,
    *,
    guild_id: int,
    channel_id: int,
    name: str,
    ruleset: str,
    started_by: int,
    state_json: str,
    now: datetime,
    rules_overrides: str = "{}",
    rules: str | None = None,
    running_turn: int = -1,
) -> EncounterRow:
    """Create a live encounter at version 1, keeping the server's ruleset-table changes in force
    now (``rules_overrides``, JSON) and the rules it plays by (``rules``: the full tables and
    rules version, ``Ruleset.frozen``) for its whole life. ``running_turn``: the state's
    :attr:`~bot.engine.core.state.EncounterState.running_turn` (-1: no turn runs).

    Raises :class:`Conflict` if the channel already has a live encounter (the partial unique
    index decides, so two racing inserts can never both succeed).
    """
    try:
        new_id = await conn.insert(
            "INSERT INTO encounters (guild_id, channel_id, name, ruleset, started_by, gm_id,"
            " status, state, version, created_at, updated_at, rules_overrides, rules,"
            " running_turn) VALUES (?, ?, ?, ?, ?, ?, 'live', ?, 1, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                name,
                ruleset,
                started_by,
                started_by,
                _padded(conn, state_json),
                _ts(now),
                _ts(now),
                rules_overrides,
                rules,
                running_turn,
            ),
        )
    except INTEGRITY_ERRORS as exc:
        raise Conflict("An encounter is already running in this channel.") from exc
    row = await by_id(conn, new_id)
    assert row is not None
    return row


async def save(
    conn: StoreConnection,
    current: EncounterRow,
    *,
    now: datetime,
    state_json: str | None = None,
    status: EncounterStatus | None = None,
    gm_id: int | None = None,
    tracker_message_id: int | None = None,
    pending: list[decisions.Opening] | None = None,
    paused: bool | None = None,
    then: Sequence[Statement] = (),
    return_state_text: bool = True,
    running_turn: int | None = None,
) -> EncounterRow:
    """Write a new version of ``current`` if nobody else did first.

    ``pending`` (when given) lists the decisions open afterwards (:class:`decisions.Opening`:
    ref, the version it opened at, deadline) and the ``decisions`` table follows
    (:func:`bot.store.decisions.sync`: a decision no longer listed, or listed as opened at
    another version, is closed; a new one is opened); archiving the encounter closes its open
    decisions. ``then`` are statements (e.g. the log row) sent in the same trip to the database
    thread as the UPDATE, run only if it matched. ``state_json`` is the new version's state
    text; without it the stored state is not rewritten and stays at the version it was at
    (:attr:`EncounterRow.state_version`) — for a change whose log row (in ``then``) replays it.

    Runs ``UPDATE … WHERE id = ? AND version = ?`` — and, for a row read from the database
    (``current.seen``), that what changes without a version is as read (:func:`_unmoved`);
    raises :class:`ConcurrentUpdate` when no row matched (the caller's copy is stale). Returns
    the row as stored, at ``current.version + 1``; when its open decisions changed they are
    read back in the same trip (:meth:`~bot.store.base.StoreConnection.execute_all_fetch`), so
    the row returned carries them as written (``seen``) and the next write can check against
    it without reading the row again. One trip to the database thread on SQLite, whatever
    changed. ``return_state_text`` False: the row returned has no state text (``state_json``
    None, as :func:`bot.services.encounter.held` holds rows) — for a caller that holds the
    parsed state, so the row is not copied again to drop it (issue 15, "CPU diet").
    ``running_turn`` (when given): the new version's
    :attr:`~bot.engine.core.state.EncounterState.running_turn`, kept in its column for
    :func:`bot.store.turn_pings.maybe_unannounced` (None: the column is left as it is — a
    change that cannot move the turn).
    """
    text = current.state_json if state_json is None else state_json
    # Without ``state_json`` the stored state stays as it is, at the version it was at (the
    # log row sent in ``then`` is the change; issue 15).
    state_version = None if state_json is not None else current.stored_state_version
    update: dict[str, Any] = {
        "state_json": text if return_state_text else None,
        "state_version": state_version,
        "status": current.status if status is None else status,
        "gm_id": current.gm_id if gm_id is None else gm_id,
        "tracker_message_id": (
            current.tracker_message_id if tracker_message_id is None else tracker_message_id
        ),
        "version": current.version + 1,
        "updated_at": now,
        "ended_at": now if status == "archived" else current.ended_at,
        "paused": current.paused if paused is None else paused,
        "seen": current.seen,  # the open decisions stay as read unless they follow below
    }
    # The columns set: the indexed ones (status, gm_id) only when they change — SQLite rewrites
    # every index that names a column set, changed or not (three index pages a command, issue
    # 15); the version check vouches for the rest of the row being as ``current`` has it.
    columns: list[tuple[str, Any]] = (
        [("state", _padded(conn, state_json))] if state_json is not None else []
    )
    if state_version != current.state_version:
        columns.append(("state_version", state_version))
    if update["status"] != current.status:
        columns.append(("status", update["status"]))
    if update["gm_id"] != current.gm_id:
        columns.append(("gm_id", update["gm_id"]))
    columns += [
        ("tracker_message_id", update["tracker_message_id"]),
        ("version", update["version"]),
        ("updated_at", _ts(now)),
        ("ended_at", _ts(update["ended_at"])),
        ("paused", int(update["paused"])),
    ]
    if running_turn is not None:
        columns.append(("running_turn", running_turn))
    params: tuple[Any, ...] = (*(value for _, value in columns), current.id, current.version)
    sql = (
        f"UPDATE encounters AS e SET {', '.join(f'{name} = ?' for name, _ in columns)}"
        " WHERE e.id = ? AND e.version = ?"
    )
    if current.seen is not None:
        sql += _unmoved(conn)
        params += (
            current.tracker_message_id,
            int(current.tracker_pinned),
            int(current.rules is None),
            current.started_by,
            current.seen,
            current.gm_role_id,
        )
    statements = [(sql, params), *then]
    if status == "archived":  # the row returned still names the decision it closed
        statements.append(decisions.close_all_statement(current.id, now))
        _require_moved(await conn.execute_all(statements))
        return current.model_copy(update={**update, "seen": None})
    kept = {(d.ref, d.opened_version) for d in current.decisions}
    if pending is None or kept == {(o.ref, o.opened_version) for o in pending}:
        _require_moved(await conn.execute_all(statements))
        return current.model_copy(update=update)
    statements += decisions.sync_statements(
        current.id, [(d.id, d.ref, d.opened_version) for d in current.decisions], pending, now
    )
    # The open decisions as written, read back in the same trip: their ids, and the text the
    # next versioned UPDATE checks (``seen``), so the row can be kept for the next change.
    counts, rows = await conn.execute_all_fetch(
        statements,
        f"SELECT {_OPEN_DECISIONS[conn.dialect]} FROM {_FROM} WHERE e.id = ?",
        (current.id,),
    )
    _require_moved(counts)
    assert rows is not None  # every statement ran
    seen = rows[0][0]
    return current.model_copy(update={**update, "decisions": _open_decisions(seen), "seen": seen})


def _require_moved(counts: list[int]) -> None:
    """Raise :class:`ConcurrentUpdate` unless the versioned UPDATE (the first count) matched."""
    if counts[0] != 1:
        raise ConcurrentUpdate(
            "The encounter changed while your command was being applied; please try again."
        )


ANY_TRACKER = -1
"""``replacing`` for :func:`set_tracker_message`: whatever message was recorded."""


async def set_tracker_message(
    conn: StoreConnection,
    encounter_id: int,
    message_id: int,
    *,
    pinned: bool = False,
    replacing: int | None = ANY_TRACKER,
) -> bool:
    """Remember which message shows the tracker and whether it is pinned (presentation only:
    no version bump) — if the message recorded is still ``replacing`` (None: none), unless
    that is :data:`ANY_TRACKER`. Whether it was recorded (False: another process recorded a
    tracker of its own meanwhile)."""
    sql = "UPDATE encounters SET tracker_message_id = ?, tracker_pinned = ? WHERE id = ?"
    params: tuple[Any, ...] = (message_id, int(pinned), encounter_id)
    if replacing is None:
        sql += " AND tracker_message_id IS NULL"
    elif replacing != ANY_TRACKER:
        sql += " AND tracker_message_id = ?"
        params += (replacing,)
    return await conn.execute(sql, params) == 1


async def set_prompt_message(
    conn: StoreConnection,
    encounter_id: int,
    pending_version: int,
    message_id: int,
    asked: list[int],
    ref: int = 1,
) -> decisions.Noted:
    """Remember the message showing the decision ``ref`` that opened at ``pending_version``
    and the members it ``asked`` (presentation only, no version bump); see
    :func:`bot.store.decisions.set_prompt`."""
    return await decisions.set_prompt(conn, encounter_id, pending_version, message_id, asked, ref)


_OPEN = (
    f"SELECT 1 FROM decisions d WHERE d.encounter_id = e.id AND d.kind = '{decisions.REACTION}'"
    " AND d.status = 'open'"
)


async def unprompted_decisions(conn: StoreConnection) -> list[EncounterRow]:
    """Live encounters with an open decision that has no recorded prompt message (the bot
    stopped between storing the decision and noting the message that shows it, or could not
    post)."""
    rows = await conn.fetch_all(
        f"SELECT {_columns(conn)} FROM {_FROM} WHERE e.status = 'live'"
        f" AND EXISTS ({_OPEN} AND d.prompt_message_id IS NULL) ORDER BY e.id"
    )
    return [_row(row) for row in rows]


async def channels_waiting(conn: StoreConnection) -> list[int]:
    """Channels of live encounters with an open decision that has a prompt."""
    rows = await conn.fetch_all(
        f"SELECT e.channel_id FROM {_FROM} WHERE e.status = 'live'"
        f" AND EXISTS ({_OPEN} AND d.prompt_message_id IS NOT NULL) ORDER BY e.id"
    )
    return [int(row["channel_id"]) for row in rows]


async def due_decisions(conn: StoreConnection, now: datetime) -> list[tuple[int, int]]:
    """``(encounter_id, pending_version)`` of live encounters with a decision, opened at that
    version, whose window ended (once per pair, however many decisions opened then)."""
    return await decisions.due(conn, now)


async def set_pending_deadline(
    conn: StoreConnection, encounter_id: int, decision_id: int, deadline: datetime
) -> None:
    """Give the open decision whose row is ``decision_id`` a new deadline (a resumed fight
    restarts its window; no version bump: buttons keep working)."""
    await decisions.set_deadline(conn, encounter_id, decision_id, deadline)
