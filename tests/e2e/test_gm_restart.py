"""Undo reaches back across a restart: ``python -m bot`` is killed with SIGKILL, started again,
and ``/gm undo`` / ``/gm redo`` restore exactly the recorded game states (re-dated, so
commands sent for what stood before are refused)."""

from __future__ import annotations

from pathlib import Path

from bot.services.encounters import state_of
from bot.store import encounters as encounter_rows
from bot.store.db import Connection, Database
from bot.store.encounters import EncounterRow
from tests.e2e.combat_helpers import answered, game_state, ok, slash
from tests.e2e.conftest import BotProcess, Table
from tests.harness.server import DiscordHarness


async def stored(path: str) -> tuple[int, str, list[str | None]]:
    """The live encounter's version, its state at that version as a bot started now reads it
    (the stored state with the log's changes since replayed: issue 15, the state is rewritten
    only with a snapshot) and the state snapshot of every logged version (None where the log
    keeps none)."""
    db = await Database.open(Path(path))
    try:
        async with db.read() as conn:
            row = await fetch_one_live(conn)
            state = (await state_of(conn, row)).model_dump_json()
            rows = await conn.fetch_all("SELECT state FROM encounter_log ORDER BY version")
    finally:
        await db.close()
    return row.version, state, [r["state"] for r in rows]


async def fetch_one_live(conn: Connection) -> EncounterRow:
    found = await conn.fetch_one("SELECT channel_id FROM encounters WHERE status = 'live'")
    assert found is not None
    row = await encounter_rows.live_in_channel(conn, found["channel_id"])
    assert row is not None
    return row


async def test_undo_and_redo_after_sigkill(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h = discord_harness
    database = bot_process.env["DATABASE_PATH"]
    await bot_process.start()
    gm = table.moderator
    states: list[str] = []  # the state committed at each version, as the bot stored it
    await ok(await slash(h, gm, "encounter start", name="Across restarts"))
    states.append((await stored(database))[1])
    await answered(await slash(h, gm, "npc import", example="thug"))
    for command, options in (
        ("gm add-npc", {"template": "Thug", "count": 2}),
        ("encounter begin", {}),
        ("gm hp", {"combatant": "Thug 1", "health": "-3"}),
        ("gm hp", {"combatant": "Thug 2", "stamina": "-1d6"}),
    ):
        await ok(await slash(h, gm, command, **options))
        states.append((await stored(database))[1])
    version, state, log = await stored(database)
    assert version == len(log) == len(states) == 5 and state == states[-1]
    # Only the start keeps a snapshot: every other version is replayed from the log.
    assert log[0] == states[0] and log[1:] == [None] * 4

    bot_process.kill()
    await bot_process.start()

    for back in range(1, 4):  # the two hp changes and begin
        undo = await ok(await slash(h, gm, "gm undo"))
        assert "Undid" in undo.message.text()
        assert game_state((await stored(database))[1]) == game_state(states[version - 1 - back])
    redo = await ok(await slash(h, gm, "gm redo"))
    assert "Redid **/encounter begin**" in redo.message.text()
    # begin's own state, replayed with its dice: the same initiative, no re-roll
    assert game_state((await stored(database))[1]) == game_state(states[2])
