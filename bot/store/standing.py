"""Standing reactions: the SQL that touches ``standing_reactions`` (migrations 0018 and 0026;
issue 17, "Standing reactions"). Rows leave this module as :class:`StandingRow`."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, NamedTuple

from bot.store.base import StoreConnection as Connection
from bot.store.decisions import ts


class StandingRow(NamedTuple):
    """One combatant's standing reaction in an encounter, set by ``member_id``: the ``rule`` as
    typed and its ``steps`` (``[{"choice": ..., "condition": ...}]``, as
    ``bot.engine.core.standing.StandingRule`` dumps them); ``set_as``: how the member was the
    fight's GM when they set it, if by the GM role or by Manage Channels
    (:func:`bot.services.standing.gm_way`; '' otherwise)."""

    encounter_id: int
    combatant_id: str
    member_id: int
    rule: str
    steps: list[dict[str, Any]]
    updated_at: datetime
    set_as: str = ""


_COLUMNS = "encounter_id, combatant_id, member_id, rule, steps, updated_at, set_as"


def _row(values: Any) -> StandingRow:
    return StandingRow(
        encounter_id=int(values["encounter_id"]),
        combatant_id=str(values["combatant_id"]),
        member_id=int(values["member_id"]),
        rule=str(values["rule"]),
        steps=list(json.loads(values["steps"])),
        updated_at=datetime.fromisoformat(values["updated_at"]),
        set_as=str(values["set_as"]),
    )


async def put(
    conn: Connection,
    encounter_id: int,
    combatant_id: str,
    member_id: int,
    rule: str,
    steps: list[dict[str, Any]],
    now: datetime,
    set_as: str = "",
) -> None:
    """Set (or replace) the standing reaction of ``combatant_id`` in the encounter."""
    await conn.execute(
        "INSERT INTO standing_reactions (encounter_id, combatant_id, member_id, rule, steps,"
        " updated_at, set_as) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (encounter_id, combatant_id) DO UPDATE SET member_id = excluded.member_id,"
        " rule = excluded.rule, steps = excluded.steps, updated_at = excluded.updated_at,"
        " set_as = excluded.set_as",
        (encounter_id, combatant_id, member_id, rule, json.dumps(steps), ts(now), set_as),
    )


async def of_encounter(conn: Connection, encounter_id: int) -> list[StandingRow]:
    """Every standing reaction set in the encounter, by combatant id."""
    rows = await conn.fetch_all(
        f"SELECT {_COLUMNS} FROM standing_reactions WHERE encounter_id = ? ORDER BY combatant_id",
        (encounter_id,),
    )
    return [_row(row) for row in rows]


async def remove(conn: Connection, encounter_id: int, combatant_ids: list[str]) -> int:
    """Clear the standing reactions of ``combatant_ids`` in the encounter; returns how many
    there were."""
    removed = 0
    for combatant_id in combatant_ids:
        removed += await conn.execute(
            "DELETE FROM standing_reactions WHERE encounter_id = ? AND combatant_id = ?",
            (encounter_id, combatant_id),
        )
    return removed


async def of_member(conn: Connection, guild_id: int, member_id: int) -> list[dict[str, Any]]:
    """The standing reactions ``member_id`` set in the server's encounters (for ``/me
    export``)."""
    rows = await conn.fetch_all(
        "SELECT s.encounter_id, e.name, s.combatant_id, s.rule, s.updated_at"
        " FROM standing_reactions s JOIN encounters e ON e.id = s.encounter_id"
        " WHERE e.guild_id = ? AND s.member_id = ? ORDER BY s.encounter_id, s.combatant_id",
        (guild_id, member_id),
    )
    return [
        {
            "encounter_id": row["encounter_id"],
            "encounter": row["name"],
            "combatant_id": row["combatant_id"],
            "rule": row["rule"],
            "updated_at": row["updated_at"],
        }
        for row in rows
    ]


async def delete_of_member(conn: Connection, guild_id: int, member_id: int) -> int:
    """Erase the standing reactions ``member_id`` set in the server (``/me delete``)."""
    return await conn.execute(
        "DELETE FROM standing_reactions WHERE member_id = ? AND encounter_id IN"
        " (SELECT id FROM encounters WHERE guild_id = ?)",
        (member_id, guild_id),
    )
