"""Per-server settings: the only SQL that touches ``guild_settings``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.store.base import StoreConnection as Connection


async def gm_role(conn: Connection, guild_id: int) -> int | None:
    """The id of the server's GM role, or ``None`` when it has none (or a row stored before
    @everyone was refused names it: :func:`_role`)."""
    row = await conn.fetch_one(
        "SELECT gm_role_id FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return _role(guild_id, row["gm_role_id"]) if row else None


def _role(guild_id: int, stored: int | None) -> int | None:
    """A stored role setting (the GM role, the starter role) as it applies: ``None`` for none
    and for @everyone — its id is the server's, every member holds it, and a setting that names
    it would make every member a server GM (``/gm seat role`` and ``/server settings`` refuse
    it; rows stored before they did are read as no role)."""
    return None if stored is None or int(stored) == guild_id else int(stored)


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


# --- who may start encounters, and the cap (issue 9 §8; migration 0009) -----------------------

StartPolicy = Literal["everyone", "gms"]


class StartSettings(BaseModel):
    """Who may start encounters in a server and how many live encounters one member may run.

    ``who_can_start``: ``everyone``, or ``gms`` (server GMs plus members with
    ``starter_role_id`` when it is set). ``max_live_encounters``: live encounters one member may
    be the GM of at once (server GMs are exempt); 0 means no cap. A server without a row has the
    defaults."""

    model_config = ConfigDict(frozen=True)

    who_can_start: StartPolicy = "everyone"
    starter_role_id: int | None = None
    max_live_encounters: int = 3
    gm_role_id: int | None = None


async def start_settings(conn: Connection, guild_id: int) -> StartSettings:
    """The server's start settings (the defaults when it never changed them)."""
    row = await conn.fetch_one(
        "SELECT start_policy, starter_role_id, max_live_encounters, gm_role_id"
        " FROM guild_settings WHERE guild_id = ?",
        (guild_id,),
    )
    if row is None:
        return StartSettings()
    return StartSettings(
        who_can_start=row["start_policy"],
        starter_role_id=_role(guild_id, row["starter_role_id"]),
        max_live_encounters=row["max_live_encounters"],
        gm_role_id=_role(guild_id, row["gm_role_id"]),
    )


async def set_start_settings(
    conn: Connection, guild_id: int, settings: StartSettings, now: datetime
) -> None:
    """Store the server's start settings (its GM role is left as it is)."""
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, start_policy, starter_role_id,"
        " max_live_encounters, updated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET start_policy = excluded.start_policy,"
        " starter_role_id = excluded.starter_role_id,"
        " max_live_encounters = excluded.max_live_encounters, updated_at = excluded.updated_at",
        (
            guild_id,
            settings.who_can_start,
            settings.starter_role_id,
            settings.max_live_encounters,
            now.astimezone(UTC).isoformat(timespec="microseconds"),
        ),
    )
