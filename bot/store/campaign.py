"""Campaign records and the campaign clock: the only SQL that touches ``campaign_records`` and
``guild_settings.campaign_time_s`` (migration 0014; issue 10, decision A)."""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict

from bot.store.base import StoreConnection as Connection


class RecordRow(BaseModel):
    """One character's campaign record: ``record`` is the ruleset's record model as JSON."""

    model_config = ConfigDict(frozen=True)

    character_id: int
    guild_id: int
    ruleset: str
    record: str
    updated_at: datetime


def _ts(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _row(values: object) -> RecordRow:
    return RecordRow.model_validate(dict(values))  # type: ignore[call-overload]


async def get(conn: Connection, character_id: int) -> RecordRow | None:
    """The record of the character whose sheet is ``character_id``, or None."""
    row = await conn.fetch_one(
        "SELECT * FROM campaign_records WHERE character_id = ?", (character_id,)
    )
    return _row(row) if row is not None else None


async def of_guild(conn: Connection, guild_id: int) -> list[RecordRow]:
    """Every record of the server, by character id."""
    rows = await conn.fetch_all(
        "SELECT * FROM campaign_records WHERE guild_id = ? ORDER BY character_id", (guild_id,)
    )
    return [_row(r) for r in rows]


async def of_owner(conn: Connection, guild_id: int, owner_id: int) -> list[RecordRow]:
    """The records of the characters ``owner_id`` has in the server."""
    rows = await conn.fetch_all(
        "SELECT r.* FROM campaign_records r JOIN sheets s ON s.id = r.character_id"
        " WHERE s.guild_id = ? AND s.owner_id = ? AND s.kind = 'character'"
        " ORDER BY r.character_id",
        (guild_id, owner_id),
    )
    return [_row(r) for r in rows]


async def put(
    conn: Connection,
    *,
    character_id: int,
    guild_id: int,
    ruleset: str,
    record: str,
    now: datetime,
) -> None:
    """Store the character's record, replacing the one before."""
    await conn.execute(
        "INSERT INTO campaign_records (character_id, guild_id, ruleset, record, updated_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (character_id) DO UPDATE SET"
        " guild_id = excluded.guild_id, ruleset = excluded.ruleset, record = excluded.record,"
        " updated_at = excluded.updated_at",
        (character_id, guild_id, ruleset, record, _ts(now)),
    )


async def delete(conn: Connection, character_id: int) -> int:
    """Forget the character's record (it starts fresh from its sheet). Returns rows deleted."""
    return await conn.execute(
        "DELETE FROM campaign_records WHERE character_id = ?", (character_id,)
    )


async def delete_of_owner(conn: Connection, guild_id: int, owner_id: int) -> int:
    """Forget the records of every character ``owner_id`` has in the server."""
    return await conn.execute(
        "DELETE FROM campaign_records WHERE character_id IN"
        " (SELECT id FROM sheets WHERE guild_id = ? AND owner_id = ? AND kind = 'character')",
        (guild_id, owner_id),
    )


async def clock(conn: Connection, guild_id: int) -> int:
    """The server's campaign clock, in in-game seconds (0 for a server with none yet)."""
    row = await conn.fetch_one(
        "SELECT campaign_time_s FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return int(row["campaign_time_s"]) if row is not None else 0


async def advance_clock(conn: Connection, guild_id: int, to_s: int, now: datetime) -> None:
    """Move the server's campaign clock on to ``to_s`` — never back (two encounters that ran
    side by side both move it; the later time wins). A CASE rather than SQLite's two-argument
    ``MAX`` (PostgreSQL's is ``GREATEST``), so the one statement runs on both stores."""
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, campaign_time_s, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET campaign_time_s = CASE"
        " WHEN excluded.campaign_time_s > guild_settings.campaign_time_s"
        " THEN excluded.campaign_time_s ELSE guild_settings.campaign_time_s END,"
        " updated_at = excluded.updated_at",
        (guild_id, to_s, _ts(now)),
    )
