"""Combatants' default actions for a passed turn deadline (migration 0017; issue 17): the only
SQL that touches ``default_actions``. A row maps one combatant of one encounter to the
``/act`` key of the action it takes when its turn's deadline passes."""

from __future__ import annotations

from bot.store.base import StoreConnection as Connection


async def of_encounter(conn: Connection, encounter_id: int) -> dict[str, str]:
    """The encounter's default actions: combatant id → action key."""
    rows = await conn.fetch_all(
        "SELECT combatant_id, action FROM default_actions WHERE encounter_id = ?"
        " ORDER BY combatant_id",
        (encounter_id,),
    )
    return {str(row["combatant_id"]): str(row["action"]) for row in rows}


async def put(conn: Connection, encounter_id: int, combatant_id: str, action: str | None) -> None:
    """Set (``action``) or clear (``None``) one combatant's default action."""
    if action is None:
        await conn.execute(
            "DELETE FROM default_actions WHERE encounter_id = ? AND combatant_id = ?",
            (encounter_id, combatant_id),
        )
        return
    await conn.execute(
        "INSERT INTO default_actions (encounter_id, combatant_id, action) VALUES (?, ?, ?)"
        " ON CONFLICT (encounter_id, combatant_id) DO UPDATE SET action = excluded.action",
        (encounter_id, combatant_id, action),
    )
