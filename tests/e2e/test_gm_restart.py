"""Undo reaches back across a restart: ``python -m bot`` is killed with SIGKILL, started again,
and ``/gm undo`` / ``/gm redo`` restore exactly the recorded game states (re-dated, so
commands sent for what stood before are refused)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.e2e.combat_helpers import answered, game_state, ok, slash
from tests.e2e.conftest import BotProcess, Table
from tests.harness.server import DiscordHarness


def stored(path: str) -> tuple[int, str, list[str]]:
    """The live encounter's version, state and the state of every logged version."""
    db = sqlite3.connect(Path(path))
    try:
        version, state = db.execute(
            "SELECT version, state FROM encounters WHERE status = 'live'"
        ).fetchone()
        log = [row[0] for row in db.execute("SELECT state FROM encounter_log ORDER BY version")]
    finally:
        db.close()
    return int(version), str(state), log


async def test_undo_and_redo_after_sigkill(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h = discord_harness
    database = bot_process.env["DATABASE_PATH"]
    await bot_process.start()
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="Across restarts"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=2))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm hp", combatant="Thug 1", health="-3"))
    await ok(await slash(h, gm, "gm hp", combatant="Thug 2", stamina="-1d6"))
    version, state, log = stored(database)
    assert version == len(log) == 5 and state == log[-1]

    bot_process.kill()
    await bot_process.start()

    for back in range(1, 4):  # the two hp changes and begin
        undo = await ok(await slash(h, gm, "gm undo"))
        assert "Undid" in undo.message.text()
        assert game_state(stored(database)[1]) == game_state(log[version - 1 - back])
    redo = await ok(await slash(h, gm, "gm redo"))
    assert "Redid **begin**" in redo.message.text()
    # begin's own snapshot: the same initiative, no re-roll
    assert game_state(stored(database)[1]) == game_state(log[2])
