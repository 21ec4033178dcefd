"""Member notices: short messages the bot owes a member, delivered on their next interaction
(the only SQL that touches ``member_notices``, created by migration 0008).

A notice is delivered once: :func:`take` marks the member's pending notices delivered and
returns them in the same statement, so two interactions finishing together cannot both get
them.
"""

from __future__ import annotations

from datetime import datetime

from bot.store.base import StoreConnection as Connection


async def add(conn: Connection, *, guild_id: int, user_id: int, text: str, now: datetime) -> int:
    """Store a pending notice for ``user_id`` in ``guild_id``; returns its id."""
    return await conn.insert(
        "INSERT INTO member_notices (guild_id, user_id, text, created_at) VALUES (?, ?, ?, ?)",
        (guild_id, user_id, text, now.isoformat()),
    )


async def pending_with_text(conn: Connection, guild_id: int, user_id: int, text: str) -> bool:
    """Whether the same notice already waits for ``user_id`` in ``guild_id``."""
    row = await conn.fetch_one(
        "SELECT 1 FROM member_notices WHERE guild_id = ? AND user_id = ?"
        " AND delivered_at IS NULL AND text = ? LIMIT 1",
        (guild_id, user_id, text),
    )
    return row is not None


async def has_pending(conn: Connection, guild_id: int, user_id: int) -> bool:
    """Whether ``user_id`` has an undelivered notice in ``guild_id`` (an indexed lookup)."""
    row = await conn.fetch_one(
        "SELECT 1 FROM member_notices WHERE guild_id = ? AND user_id = ?"
        " AND delivered_at IS NULL LIMIT 1",
        (guild_id, user_id),
    )
    return row is not None


async def take(conn: Connection, *, guild_id: int, user_id: int, now: datetime) -> list[str]:
    """Mark every pending notice of ``user_id`` in ``guild_id`` delivered at ``now`` and return
    their texts, oldest first."""
    rows = await conn.fetch_all(
        "UPDATE member_notices SET delivered_at = ? WHERE guild_id = ? AND user_id = ?"
        " AND delivered_at IS NULL RETURNING id, text",
        (now.isoformat(), guild_id, user_id),
    )
    return [str(row["text"]) for row in sorted(rows, key=lambda row: int(row["id"]))]


async def pending_count(
    conn: Connection, guild_id: int | None = None, user_id: int | None = None
) -> int:
    """How many notices wait for delivery: all of them, or one server's, or one member's in a
    server (for tests and health checks)."""
    sql = "SELECT COUNT(*) FROM member_notices WHERE delivered_at IS NULL"
    params: list[int] = []
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(guild_id)
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    row = await conn.fetch_one(sql, params)
    return int(row[0]) if row else 0


async def for_member(conn: Connection, guild_id: int, user_id: int) -> list[dict[str, str | None]]:
    """Every notice for ``user_id`` in ``guild_id`` (delivered or not), oldest first, for the
    member's data export."""
    rows = await conn.fetch_all(
        "SELECT text, created_at, delivered_at FROM member_notices"
        " WHERE guild_id = ? AND user_id = ? ORDER BY id",
        (guild_id, user_id),
    )
    return [
        {"text": row["text"], "created_at": row["created_at"], "delivered_at": row["delivered_at"]}
        for row in rows
    ]


async def delete_for_member(conn: Connection, guild_id: int, user_id: int) -> int:
    """Delete every notice for ``user_id`` in ``guild_id``; returns how many."""
    return await conn.execute(
        "DELETE FROM member_notices WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
