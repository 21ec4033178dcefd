"""Server-wide reads of ``encounters``: a server's live encounters and those one member runs.

Read-only companions of :mod:`bot.store.encounters` (which holds every write to that table):
they list rows without their state, for ``/server encounters`` and the start cap.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from bot.store.base import StoreConnection as Connection

_COLUMNS = "id, channel_id, name, gm_id, version, created_at, updated_at"


class LiveEncounter(BaseModel):
    """One live encounter of a server, without its state: where, what, who runs it, its
    version and when it last changed."""

    model_config = ConfigDict(frozen=True)

    id: int
    channel_id: int
    name: str
    gm_id: int
    version: int
    created_at: datetime
    updated_at: datetime


async def live_in_guild(conn: Connection, guild_id: int) -> list[LiveEncounter]:
    """Every live encounter of ``guild_id``, oldest first."""
    rows = await conn.fetch_all(
        f"SELECT {_COLUMNS} FROM encounters WHERE guild_id = ? AND status = 'live' ORDER BY id",
        (guild_id,),
    )
    return [LiveEncounter.model_validate(dict(row)) for row in rows]


async def guilds_with_running(conn: Connection) -> list[int]:
    """The servers that have a live encounter not paused, in id order."""
    rows = await conn.fetch_all(
        "SELECT DISTINCT guild_id FROM encounters WHERE status = 'live' AND paused = 0"
        " ORDER BY guild_id",
        (),
    )
    return [int(row["guild_id"]) for row in rows]


async def live_run_by(conn: Connection, guild_id: int, gm_id: int) -> list[LiveEncounter]:
    """The live encounters of ``guild_id`` whose GM seat ``gm_id`` holds, oldest first (the
    partial index ``encounters_live_by_gm`` answers it)."""
    rows = await conn.fetch_all(
        f"SELECT {_COLUMNS} FROM encounters WHERE guild_id = ? AND gm_id = ? AND status = 'live'"
        " ORDER BY id",
        (guild_id, gm_id),
    )
    return [LiveEncounter.model_validate(dict(row)) for row in rows]
