"""Undo reaches back across a restart: ``python -m bot`` is killed with SIGKILL, started again,
and ``/gm undo`` / ``/gm redo`` restore exactly the recorded game states (re-dated, so
commands sent for what stood before are refused)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.combat_helpers import answered, game_state, ok, slash
from tests.e2e.conftest import BotProcess, Table
from tests.harness.server import DiscordHarness


def stored(path: str) -> tuple[int, str, list[str | None]]:
    """The live encounter's version, state (without the spaces that pad it on SQLite,
    ``bot.store.encounters.STATE_PAD``) and the state snapshot of every logged version (None
    where the log keeps none: issue 15, the state is replayed)."""
    db = sqlite3.connect(Path(path))
    try:
        version, state = db.execute(
            "SELECT version, state FROM encounters WHERE status = 'live'"
        ).fetchone()
        log = [row[0] for row in db.execute("SELECT state FROM encounter_log ORDER BY version")]
    finally:
        db.close()
    return int(version), str(state).rstrip(" "), log  # as the store reads it: no STATE_PAD spaces


async def test_undo_and_redo_after_sigkill(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h = discord_harness
    database = bot_process.env["DATABASE_PATH"]
    await bot_process.start()
    gm = table.moderator
    states: list[str] = []  # the state committed at each version, as the bot stored it
    await ok(await slash(h, gm, "encounter start", name="Across restarts"))
    states.append(stored(database)[1])
    await answered(await slash(h, gm, "npc import", example="thug"))
    for command, options in (
        ("gm add-npc", {"template": "Thug", "count": 2}),
        ("encounter begin", {}),
        ("gm hp", {"combatant": "Thug 1", "health": "-3"}),
        ("gm hp", {"combatant": "Thug 2", "stamina": "-1d6"}),
    ):
        await ok(await slash(h, gm, command, **options))
        states.append(stored(database)[1])
    version, state, log = stored(database)
    assert version == len(log) == len(states) == 5 and state == states[-1]
    # Only the start keeps a snapshot: every other version is replayed from the log.
    assert log[0] == states[0] and log[1:] == [None] * 4

    bot_process.kill()
    await bot_process.start()

    for back in range(1, 4):  # the two hp changes and begin
        undo = await ok(await slash(h, gm, "gm undo"))
        assert "Undid" in undo.message.text()
        assert game_state(stored(database)[1]) == game_state(states[version - 1 - back])
    redo = await ok(await slash(h, gm, "gm redo"))
    assert "Redid **begin**" in redo.message.text()
    # begin's own state, replayed with its dice: the same initiative, no re-roll
    assert game_state(stored(database)[1]) == game_state(states[2])
