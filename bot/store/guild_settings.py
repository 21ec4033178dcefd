"""Per-server settings: the only SQL that touches ``guild_settings``."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store.db import Connection


async def gm_role(conn: Connection, guild_id: int) -> int | None:
    """The id of the server's GM role, or ``None`` when it has none."""
    row = await conn.fetch_one(
        "SELECT gm_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return int(row["gm_role_id"]) if row and row["gm_role_id"] is not None else None


async def set_gm_role(conn: Connection, guild_id: int, role_id: int | None, now: datetime) -> None:
    """Make ``role_id`` the server's GM role (``None`` removes it)."""
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET gm_role_id = excluded.gm_role_id,"
        " updated_at = excluded.updated_at",
        (guild_id, role_id, now.astimezone(UTC).isoformat(timespec="microseconds")),
    )


async def rules_overrides(conn: Connection, guild_id: int) -> str:
    """The server's ruleset-table changes as JSON text (``"{}"`` when there are none)."""
    row = await conn.fetch_one(
        "SELECT rules_overrides FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return str(row["rules_overrides"]) if row else "{}"


async def set_rules_overrides(
    conn: Connection, guild_id: int, overrides: str, now: datetime
) -> None:
    """Store the server's ruleset-table changes (JSON text)."""
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, rules_overrides, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET rules_overrides = excluded.rules_overrides,"
        " updated_at = excluded.updated_at",
        (guild_id, overrides, now.astimezone(UTC).isoformat(timespec="microseconds")),
    )
