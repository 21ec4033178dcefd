"""Character sheets and NPC templates: the only SQL that touches ``sheets``.

Rows leave this module as :class:`SheetRow` (pydantic). The sheet itself travels as the JSON text
its ruleset's sheet model serialised to; validating it is the service's job. Uniqueness of names
(per member for characters, per server for NPC templates) is decided by partial unique indexes on
``name_key``, so two racing inserts can never both succeed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bot import names
from bot.errors import Conflict
from bot.store.base import INTEGRITY_ERRORS
from bot.store.base import StoreConnection as Connection

SheetKind = Literal["character", "npc"]

_COLUMNS = "id, guild_id, owner_id, kind, ruleset, name, name_key, sheet, created_at, updated_at"


class SheetRow(BaseModel):
    """One row of ``sheets``. ``sheet_json`` is the ruleset's sheet model as JSON."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    owner_id: int
    kind: SheetKind
    ruleset: str
    name: str
    name_key: str
    sheet_json: str
    created_at: datetime
    updated_at: datetime


def _row(values: Any) -> SheetRow:
    return SheetRow(
        id=values["id"],
        guild_id=values["guild_id"],
        owner_id=values["owner_id"],
        kind=values["kind"],
        ruleset=values["ruleset"],
        name=values["name"],
        name_key=values["name_key"],
        sheet_json=values["sheet"],
        created_at=values["created_at"],
        updated_at=values["updated_at"],
    )


def _duplicate(kind: SheetKind, name: str) -> Conflict:
    shown = names.escaped(name)
    if kind == "npc":
        return Conflict(f"This server already has an NPC template called **{shown}**.")
    return Conflict(f"You already have a character called **{shown}**.")


async def by_id(conn: Connection, sheet_id: int) -> SheetRow | None:
    """A sheet by id, or ``None``."""
    row = await conn.fetch_one(f"SELECT {_COLUMNS} FROM sheets WHERE id = ?", (sheet_id,))
    return _row(row) if row else None


async def character_by_key(
    conn: Connection, guild_id: int, owner_id: int, name_key: str
) -> SheetRow | None:
    """A member's character by exact (case-folded) name, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_COLUMNS} FROM sheets WHERE guild_id = ? AND owner_id = ? AND"
        " kind = 'character' AND name_key = ?",
        (guild_id, owner_id, name_key),
    )
    return _row(row) if row else None


async def npc_by_key(conn: Connection, guild_id: int, name_key: str) -> SheetRow | None:
    """A server's NPC template by exact (case-folded) name, or ``None``."""
    row = await conn.fetch_one(
        f"SELECT {_COLUMNS} FROM sheets WHERE guild_id = ? AND kind = 'npc' AND name_key = ?",
        (guild_id, name_key),
    )
    return _row(row) if row else None


async def characters_of(
    conn: Connection, guild_id: int, owner_id: int, ruleset: str | None = None
) -> list[SheetRow]:
    """A member's characters in a server (optionally of one ruleset), by name."""
    sql = (
        f"SELECT {_COLUMNS} FROM sheets WHERE guild_id = ? AND owner_id = ? AND kind = 'character'"
    )
    params: list[Any] = [guild_id, owner_id]
    if ruleset is not None:
        sql += " AND ruleset = ?"
        params.append(ruleset)
    rows = await conn.fetch_all(sql + " ORDER BY name_key", params)
    return [_row(row) for row in rows]


async def npcs_of(conn: Connection, guild_id: int, ruleset: str | None = None) -> list[SheetRow]:
    """A server's NPC templates (optionally of one ruleset), by name."""
    sql = f"SELECT {_COLUMNS} FROM sheets WHERE guild_id = ? AND kind = 'npc'"
    params: list[Any] = [guild_id]
    if ruleset is not None:
        sql += " AND ruleset = ?"
        params.append(ruleset)
    rows = await conn.fetch_all(sql + " ORDER BY name_key", params)
    return [_row(row) for row in rows]


async def count_characters(conn: Connection, guild_id: int, owner_id: int) -> int:
    row = await conn.fetch_one(
        "SELECT COUNT(*) FROM sheets WHERE guild_id = ? AND owner_id = ? AND kind = 'character'",
        (guild_id, owner_id),
    )
    return int(row[0]) if row else 0


async def count_npcs(conn: Connection, guild_id: int) -> int:
    row = await conn.fetch_one(
        "SELECT COUNT(*) FROM sheets WHERE guild_id = ? AND kind = 'npc'", (guild_id,)
    )
    return int(row[0]) if row else 0


async def insert(
    conn: Connection,
    *,
    guild_id: int,
    owner_id: int,
    kind: SheetKind,
    ruleset: str,
    name: str,
    name_key: str,
    sheet_json: str,
    now: datetime,
) -> SheetRow:
    """Store a new sheet. Raises :class:`Conflict` when the name is taken (index decides)."""
    try:
        new_id = await conn.insert(
            "INSERT INTO sheets (guild_id, owner_id, kind, ruleset, name, name_key, sheet,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                owner_id,
                kind,
                ruleset,
                name,
                name_key,
                sheet_json,
                now.isoformat(),
                now.isoformat(),
            ),
        )
    except INTEGRITY_ERRORS as exc:
        raise _duplicate(kind, name) from exc
    row = await by_id(conn, new_id)
    assert row is not None
    return row


async def update(
    conn: Connection,
    current: SheetRow,
    *,
    name: str,
    name_key: str,
    sheet_json: str,
    now: datetime,
) -> SheetRow:
    """Replace a sheet's contents (and name). Raises :class:`Conflict` when the new name is taken
    by another sheet of the same owner (characters) or server (NPC templates)."""
    try:
        await conn.execute(
            "UPDATE sheets SET name = ?, name_key = ?, sheet = ?, updated_at = ? WHERE id = ?",
            (name, name_key, sheet_json, now.isoformat(), current.id),
        )
    except INTEGRITY_ERRORS as exc:
        raise _duplicate(current.kind, name) from exc
    return current.model_copy(
        update={"name": name, "name_key": name_key, "sheet_json": sheet_json, "updated_at": now}
    )


async def delete(conn: Connection, sheet_id: int) -> bool:
    """Remove a sheet; returns whether it existed."""
    return await conn.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,)) == 1
