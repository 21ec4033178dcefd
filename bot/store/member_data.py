"""A member's own data across tables (issue 9 §9): the SQL that finds and removes one member's
rows in one server for ``/me export`` and ``/me delete``.

The tables' own modules hold their everyday SQL; this module holds the cross-table reads and
the erasing writes, so what "everything the bot keeps about a member" means is in one place
(together with the source list in :mod:`bot.services.member_data`). Every query is scoped to
one server. ``instr(column, ?)`` (PostgreSQL: ``strpos``) with the member's id as text
pre-filters JSON columns; the
service decides on the parsed JSON what really names the member.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.errors import Conflict
from bot.store.base import StoreConnection
from bot.store.prompts import PromptRow
from bot.store.sheets import SheetRow
from bot.store.sheets import by_id as sheet_by_id

TOMBSTONE_ID = 0
"""What replaces a forgotten member's id in columns that must hold one (``actor_id``,
``started_by``, ``owner_id`` of a server's NPC template, ``opened_by``). No Discord user has
id 0."""


def _find(conn: StoreConnection) -> str:
    """The dialect's "position of a substring" function: ``instr`` (SQLite), ``strpos``
    (PostgreSQL); both take (text, what) and give 0 when it is absent."""
    return "strpos" if conn.dialect == "postgresql" else "instr"


class EncounterRef(BaseModel):
    """An encounter that names a member: as its GM or starter, or somewhere in its state
    (``state_json``, e.g. a combatant's ``controller_id``)."""

    model_config = ConfigDict(frozen=True)

    id: int
    channel_id: int
    name: str
    status: str
    gm_id: int
    started_by: int
    version: int
    created_at: datetime
    ended_at: datetime | None
    state_json: str
    state_version: int | None = None
    """The version ``state_json`` is at when older than ``version`` (the changes since are in
    the log only: :attr:`bot.store.encounters.EncounterRow.state_version`), else None."""


class LogRow(BaseModel):
    """One ``encounter_log`` row; ``state`` is empty when it was not asked for and None when the
    row keeps no snapshot (migration 0021)."""

    model_config = ConfigDict(frozen=True)

    encounter_id: int
    version: int
    actor_id: int
    command: str
    options: str
    result: str
    state: str | None = ""
    created_at: datetime
    undone_by: int | None = None


async def encounters_naming(
    conn: StoreConnection, guild_id: int, user_id: int
) -> list[EncounterRef]:
    """The server's encounters (live and archived) whose GM or starter is ``user_id`` or whose
    current state contains the id's digits, oldest first."""
    rows = await conn.fetch_all(
        f"SELECT {_REF_COLUMNS} FROM encounters WHERE guild_id = ?"
        f" AND (gm_id = ? OR started_by = ? OR {_find(conn)}(state, ?) > 0) ORDER BY id",
        (guild_id, user_id, user_id, str(user_id)),
    )
    return [EncounterRef.model_validate(dict(row)) for row in rows]


async def live_behind(conn: StoreConnection, guild_id: int) -> list[EncounterRef]:
    """The server's live encounters whose stored state is older than their version (issue 15:
    what a change wrote since — a member named in a readied action's plan — is in the log only,
    so :func:`encounters_naming` cannot see it), oldest first."""
    rows = await conn.fetch_all(
        f"SELECT {_REF_COLUMNS} FROM encounters WHERE guild_id = ? AND status = 'live'"
        " AND state_version IS NOT NULL ORDER BY id",
        (guild_id,),
    )
    return [EncounterRef.model_validate(dict(row)) for row in rows]


_REF_COLUMNS = (
    "id, channel_id, name, status, gm_id, started_by, version, created_at, ended_at,"
    " state AS state_json, state_version"
)


async def encounter_ids(conn: StoreConnection, guild_id: int) -> list[int]:
    """Every encounter id of the server (live and archived), oldest first."""
    rows = await conn.fetch_all(
        "SELECT id FROM encounters WHERE guild_id = ? ORDER BY id", (guild_id,)
    )
    return [int(row["id"]) for row in rows]


async def npcs_authored(conn: StoreConnection, guild_id: int, user_id: int) -> list[SheetRow]:
    """The server's NPC templates that ``user_id`` created (``owner_id``), by name."""
    rows = await conn.fetch_all(
        "SELECT id FROM sheets WHERE guild_id = ? AND kind = 'npc' AND owner_id = ?"
        " ORDER BY name_key",
        (guild_id, user_id),
    )
    found = [await sheet_by_id(conn, int(row["id"])) for row in rows]
    return [sheet for sheet in found if sheet is not None]


async def log_issued_or_naming(conn: StoreConnection, guild_id: int, user_id: int) -> list[LogRow]:
    """The server's log entries that ``user_id`` issued or whose options or result contain the
    id's digits (e.g. a transfer to them), oldest first, without their state snapshots."""
    rows = await conn.fetch_all(
        "SELECT l.encounter_id, l.version, l.actor_id, l.command, l.options, l.result,"
        " l.created_at, l.undone_by FROM encounter_log l JOIN encounters e"
        " ON e.id = l.encounter_id WHERE e.guild_id = ? AND (l.actor_id = ?"
        f" OR {_find(conn)}(l.options, ?) > 0 OR {_find(conn)}(l.result, ?) > 0)"
        " ORDER BY l.created_at, l.encounter_id, l.version",
        (guild_id, user_id, str(user_id), str(user_id)),
    )
    return [LogRow.model_validate(dict(row)) for row in rows]


async def log_rows_naming(
    conn: StoreConnection, encounter_id: int, user_id: int, *, after: int = 0
) -> list[LogRow]:
    """One encounter's log rows (of versions above ``after``) that ``user_id`` issued or whose
    options, result or state snapshot contain the id's digits, with their snapshots."""
    rows = await conn.fetch_all(
        "SELECT encounter_id, version, actor_id, command, options, result, state, created_at,"
        " undone_by FROM encounter_log WHERE encounter_id = ? AND version > ? AND (actor_id = ?"
        f" OR {_find(conn)}(options, ?) > 0 OR {_find(conn)}(result, ?) > 0"
        f" OR {_find(conn)}(state, ?) > 0)"
        " ORDER BY version",
        (encounter_id, after, user_id, str(user_id), str(user_id), str(user_id)),
    )
    return [LogRow.model_validate(dict(row)) for row in rows]


async def live_versions(conn: StoreConnection, guild_id: int) -> dict[int, int]:
    """The server's live encounters: id → version."""
    rows = await conn.fetch_all(
        "SELECT id, version FROM encounters WHERE guild_id = ? AND status = 'live'", (guild_id,)
    )
    return {int(row["id"]): int(row["version"]) for row in rows}


@dataclass(frozen=True)
class LogRewrite:
    """A log entry's new actor and texts (:func:`rewrite_log`); ``state`` None: it keeps no
    snapshot."""

    version: int
    actor_id: int
    options: str
    result: str
    state: str | None


async def rewrite_log(
    conn: StoreConnection,
    encounter_id: int,
    rewrites: Sequence[LogRewrite],
    snapshots: Mapping[int, str] | None = None,
) -> None:
    """Replace who issued each entry of ``rewrites`` and its texts (each stays at its version),
    then keep ``snapshots`` (version → state JSON) as those entries' snapshots; all in one
    :meth:`~bot.store.base.StoreConnection.execute_all` (one trip on SQLite). Raises
    :class:`~bot.errors.Conflict` — the caller's transaction then rolls back — unless every
    entry named exists."""
    statements: list[tuple[str, Sequence[Any]]] = [
        (
            "UPDATE encounter_log SET actor_id = ?, options = ?, result = ?, state = ?"
            " WHERE encounter_id = ? AND version = ?",
            (r.actor_id, r.options, r.result, r.state, encounter_id, r.version),
        )
        for r in rewrites
    ]
    statements += [
        (
            "UPDATE encounter_log SET state = ? WHERE encounter_id = ? AND version = ?",
            (state, encounter_id, version),
        )
        for version, state in (snapshots or {}).items()
    ]
    if not statements:
        return
    counts = await conn.execute_all(statements)
    if counts != [1] * len(statements):
        raise Conflict("The fight's log changed while it was being rewritten; nothing was.")


async def forget_seats(conn: StoreConnection, guild_id: int, user_id: int) -> int:
    """Replace ``user_id`` as the starter of any of the server's encounters and as the GM of
    its archived ones with :data:`TOMBSTONE_ID` (a live encounter's GM seat is never emptied
    here: it is handed on or ended first). Returns the rows changed."""
    started = await conn.execute(
        "UPDATE encounters SET started_by = ? WHERE guild_id = ? AND started_by = ?",
        (TOMBSTONE_ID, guild_id, user_id),
    )
    ran = await conn.execute(
        "UPDATE encounters SET gm_id = ? WHERE guild_id = ? AND gm_id = ? AND status = 'archived'",
        (TOMBSTONE_ID, guild_id, user_id),
    )
    return started + ran


async def delete_characters(conn: StoreConnection, guild_id: int, user_id: int) -> int:
    """Delete the member's characters in the server; returns how many."""
    return await conn.execute(
        "DELETE FROM sheets WHERE guild_id = ? AND owner_id = ? AND kind = 'character'",
        (guild_id, user_id),
    )


async def disown_npcs(conn: StoreConnection, guild_id: int, user_id: int) -> int:
    """The server's NPC templates the member created stay the server's, with no author."""
    return await conn.execute(
        "UPDATE sheets SET owner_id = ? WHERE guild_id = ? AND kind = 'npc' AND owner_id = ?",
        (TOMBSTONE_ID, guild_id, user_id),
    )


_PROMPTS_NAMING = "guild_id = ? AND (opened_by = ? OR (kind LIKE 'member.%' AND target_id = ?))"


async def prompts_naming(conn: StoreConnection, guild_id: int, user_id: int) -> list[PromptRow]:
    """The server's prompts the member opened, and those about the member's own data."""
    rows = await conn.fetch_all(
        "SELECT id, kind, target_id, guild_id, channel_id, opened_by, status, created_at,"
        f" answered_at FROM prompts WHERE {_PROMPTS_NAMING} ORDER BY id",
        (guild_id, user_id, user_id),
    )
    return [PromptRow.model_validate(dict(row)) for row in rows]


async def forget_prompts(conn: StoreConnection, guild_id: int, user_id: int, now: datetime) -> int:
    """Cancel the member's prompts still open and replace the member's id in all of them with
    :data:`TOMBSTONE_ID` (they stay, answered, so their buttons keep saying so)."""
    stamp = now.astimezone(UTC).isoformat(timespec="microseconds")
    await conn.execute(
        "UPDATE prompts SET status = 'cancelled', answered_at = ?"
        f" WHERE status = 'open' AND {_PROMPTS_NAMING}",
        (stamp, guild_id, user_id, user_id),
    )
    opened = await conn.execute(
        "UPDATE prompts SET opened_by = ? WHERE guild_id = ? AND opened_by = ?",
        (TOMBSTONE_ID, guild_id, user_id),
    )
    about = await conn.execute(
        "UPDATE prompts SET target_id = ? WHERE guild_id = ? AND kind LIKE 'member.%'"
        " AND target_id = ?",
        (TOMBSTONE_ID, guild_id, user_id),
    )
    return opened + about


async def decisions_asking(
    conn: StoreConnection, guild_id: int, user_id: int
) -> list[dict[str, Any]]:
    """The server's decisions (``decisions``) whose ``asked`` list holds the member."""
    rows = await conn.fetch_all(
        "SELECT d.id, d.encounter_id, e.name, d.kind, d.status, d.asked, d.created_at"
        " FROM decisions d JOIN encounters e ON e.id = d.encounter_id"
        f" WHERE e.guild_id = ? AND d.asked IS NOT NULL AND {_find(conn)}(d.asked, ?) > 0"
        " ORDER BY d.id",
        (guild_id, str(user_id)),
    )
    return [dict(row) for row in rows if user_id in json.loads(row["asked"])]


async def forget_asked(conn: StoreConnection, guild_id: int, user_id: int) -> int:
    """Take the member out of every ``asked`` list of the server's decisions."""
    changed = 0
    for row in await decisions_asking(conn, guild_id, user_id):
        left = [uid for uid in json.loads(row["asked"]) if uid != user_id]
        changed += await conn.execute(
            "UPDATE decisions SET asked = ? WHERE id = ?", (json.dumps(left), row["id"])
        )
    return changed


async def pings_naming(conn: StoreConnection, guild_id: int, user_id: int) -> list[dict[str, Any]]:
    """The server's turn pings (``turn_pings``, still with their buttons) whose kept text
    names the member (``<@id>``: the ping addressed them)."""
    rows = await conn.fetch_all(
        "SELECT p.message_id, p.encounter_id, e.name, p.channel_id, p.turn_seq, p.content,"
        " p.deadline_words FROM turn_pings p JOIN encounters e ON e.id = p.encounter_id"
        f" WHERE e.guild_id = ? AND ({_find(conn)}(COALESCE(p.content, ''), ?) > 0"
        f" OR {_find(conn)}(COALESCE(p.deadline_words, ''), ?) > 0)"
        " ORDER BY p.message_id",
        (guild_id, str(user_id), str(user_id)),
    )
    return [dict(row) for row in rows]


async def forget_in_pings(
    conn: StoreConnection, guild_id: int, user_id: int, scrub: Callable[[str], str]
) -> int:
    """Rewrite the kept text of every turn ping naming the member with ``scrub`` (their
    mention becomes "a former member"); the pings keep their buttons. Returns rows changed."""
    rows = await pings_naming(conn, guild_id, user_id)
    return await _rewrite(
        conn, rows, "turn_pings", "message_id", ("content", "deadline_words"), scrub
    )


async def forget_in_retired_prompts(
    conn: StoreConnection, guild_id: int, user_id: int, scrub: Callable[[str], str]
) -> int:
    """Rewrite with ``scrub`` the text and embed a closed decision's prompt is still to be
    edited to (``retire_text``, ``retire_embed``: kept while Discord refused the edit) where
    they name the member. Returns rows changed."""
    rows = await conn.fetch_all(
        "SELECT d.id, d.retire_text, d.retire_embed FROM decisions d"
        " JOIN encounters e ON e.id = d.encounter_id WHERE e.guild_id = ?"
        f" AND ({_find(conn)}(COALESCE(d.retire_text, ''), ?) > 0"
        f" OR {_find(conn)}(COALESCE(d.retire_embed, ''), ?) > 0)",
        (guild_id, str(user_id), str(user_id)),
    )
    return await _rewrite(conn, rows, "decisions", "id", ("retire_text", "retire_embed"), scrub)


async def _rewrite(
    conn: StoreConnection,
    rows: Any,
    table: str,
    key: str,
    columns: tuple[str, ...],
    scrub: Callable[[str], str],
) -> int:
    """Write each of ``rows`` (keyed by ``key``) back to ``table`` with its text ``columns``
    passed through ``scrub`` (NULL stays NULL). Returns rows changed."""
    sets = ", ".join(f"{column} = ?" for column in columns)
    changed = 0
    for row in rows:
        values = tuple(None if row[c] is None else scrub(row[c]) for c in columns)
        changed += await conn.execute(
            f"UPDATE {table} SET {sets} WHERE {key} = ?", (*values, row[key])
        )
    return changed
