"""A member's own settings in a server: the SQL that touches ``member_settings`` (migration
0019; issue 17, "Reminders"). Rows leave this module as :class:`MemberSettingsRow`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from bot.store.db import Connection
from bot.store.decisions import ts


class MemberSettingsRow(NamedTuple):
    """A member's time zone (IANA name, None: UTC) and quiet hours (minutes after local
    midnight; None: none)."""

    guild_id: int
    user_id: int
    timezone: str | None
    quiet_start: int | None
    quiet_end: int | None


def _row(values: Any) -> MemberSettingsRow:
    return MemberSettingsRow(
        guild_id=int(values["guild_id"]),
        user_id=int(values["user_id"]),
        timezone=values["timezone"],
        quiet_start=values["quiet_start"],
        quiet_end=values["quiet_end"],
    )


async def get(conn: Connection, guild_id: int, user_id: int) -> MemberSettingsRow | None:
    """The member's settings in the server, if they set any."""
    row = await conn.fetch_one(
        "SELECT guild_id, user_id, timezone, quiet_start, quiet_end FROM member_settings"
        " WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return _row(row) if row is not None else None


async def put(conn: Connection, row: MemberSettingsRow, now: datetime) -> None:
    """Store the member's settings (replacing any)."""
    await conn.execute(
        "INSERT INTO member_settings (guild_id, user_id, timezone, quiet_start, quiet_end,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " timezone = excluded.timezone, quiet_start = excluded.quiet_start,"
        " quiet_end = excluded.quiet_end, updated_at = excluded.updated_at",
        (row.guild_id, row.user_id, row.timezone, row.quiet_start, row.quiet_end, ts(now)),
    )


async def export(conn: Connection, guild_id: int, user_id: int) -> dict[str, Any] | None:
    """The member's settings as ``/me export`` shows them."""
    row = await conn.fetch_one(
        "SELECT timezone, quiet_start, quiet_end, updated_at FROM member_settings"
        " WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    if row is None:
        return None
    return {k: row[k] for k in ("timezone", "quiet_start", "quiet_end", "updated_at")}


async def delete(conn: Connection, guild_id: int, user_id: int) -> int:
    """Erase the member's settings in the server (``/me delete``)."""
    return await conn.execute(
        "DELETE FROM member_settings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )
