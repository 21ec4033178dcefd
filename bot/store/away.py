"""Away players (migration 0017; issue 17, "Away players"): the only SQL that touches
``away_members``.

A row says that member ``user_id`` is away in server ``guild_id`` since ``since`` and until
``until`` (``None``: until ``/back``), and who stands in for them (``delegate_id``; ``None``:
the GM). A row whose ``until`` has passed is ignored by every read here (it ended by itself)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from bot.store.db import Connection
from bot.store.decisions import ts


class AwayRow(BaseModel):
    """One member's away mark in one server (times are aware UTC datetimes)."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    user_id: int
    delegate_id: int | None
    since: datetime
    until: datetime | None


_SELECT = "SELECT guild_id, user_id, delegate_id, since, until FROM away_members"
_ACTIVE = "(until IS NULL OR until > ?)"


async def active(conn: Connection, guild_id: int, now: datetime) -> list[AwayRow]:
    """The server's members away at ``now``, by user id."""
    rows = await conn.fetch_all(
        f"{_SELECT} WHERE guild_id = ? AND {_ACTIVE} ORDER BY user_id", (guild_id, ts(now))
    )
    return [AwayRow.model_validate(dict(row)) for row in rows]


async def of_member(conn: Connection, guild_id: int, user_id: int, now: datetime) -> AwayRow | None:
    """The member's away mark in the server if it lasts at ``now``."""
    row = await conn.fetch_one(
        f"{_SELECT} WHERE guild_id = ? AND user_id = ? AND {_ACTIVE}",
        (guild_id, user_id, ts(now)),
    )
    return AwayRow.model_validate(dict(row)) if row is not None else None


async def put(
    conn: Connection,
    guild_id: int,
    user_id: int,
    *,
    delegate_id: int | None,
    since: datetime,
    until: datetime | None,
) -> None:
    """Mark the member away (replacing any earlier mark of theirs in the server)."""
    await conn.execute(
        "INSERT INTO away_members (guild_id, user_id, delegate_id, since, until)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " delegate_id = excluded.delegate_id, since = excluded.since, until = excluded.until",
        (guild_id, user_id, delegate_id, ts(since), ts(until)),
    )


async def remove(conn: Connection, guild_id: int, user_id: int) -> int:
    """End the member's away mark in the server (lasting or lapsed); returns rows deleted."""
    return await conn.execute(
        "DELETE FROM away_members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    )


async def naming(conn: Connection, guild_id: int, user_id: int) -> list[AwayRow]:
    """Every row of the server that names the member: their own away mark (lasting or
    lapsed) and the marks of members who named them their delegate, by user id."""
    rows = await conn.fetch_all(
        f"{_SELECT} WHERE guild_id = ? AND (user_id = ? OR delegate_id = ?) ORDER BY user_id",
        (guild_id, user_id, user_id),
    )
    return [AwayRow.model_validate(dict(row)) for row in rows]


async def forget(conn: Connection, guild_id: int, user_id: int) -> int:
    """Erase the member from the server's away marks: their own mark is deleted; where they
    were named delegate, the GM stands in instead (``delegate_id`` NULL). Returns rows
    changed."""
    own = await remove(conn, guild_id, user_id)
    named = await conn.execute(
        "UPDATE away_members SET delegate_id = NULL WHERE guild_id = ? AND delegate_id = ?",
        (guild_id, user_id),
    )
    return own + named
