"""Installation facts in ``bot_meta`` (key → text)."""

from __future__ import annotations

from bot.store.base import StoreConnection as Connection


async def get(conn: Connection, key: str) -> str | None:
    """The value stored under ``key``, or ``None``."""
    row = await conn.fetch_one("SELECT value FROM bot_meta WHERE key = ?", (key,))
    return str(row["value"]) if row else None


async def put(conn: Connection, key: str, value: str) -> None:
    """Store ``value`` under ``key``, replacing any earlier value."""
    await conn.execute(
        "INSERT INTO bot_meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
