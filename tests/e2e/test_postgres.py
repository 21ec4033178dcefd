"""The bot on PostgreSQL (issue 16): the composition root builds it with ``DATABASE_URL`` set
(a database of its own on the pgserver test server), and a fight runs through Discord exactly as
on SQLite — start, join, begin, an attack answered with a reaction button, undo — with every
row in PostgreSQL; and ``/me export`` / ``/me delete`` (tests/e2e/test_member_data.py's
scenarios), the tracker edited in place and three clicks on one decision deciding once
(tests/e2e/test_tracker.py's and tests/e2e/test_decisions_decisions.py's) on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from pydantic import SecretStr

from bot.__main__ import build
from bot.client import CombatBot
from bot.store.pg import PgDatabase
from tests.e2e import test_decisions_decisions as decisions_e2e
from tests.e2e import test_member_data as member_data_e2e
from tests.e2e import test_tracker as tracker_e2e
from tests.e2e.combat_helpers import (
    game_state,
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table, bot_settings
from tests.harness.server import DiscordHarness


@pytest_asyncio.fixture
async def pg_bot(
    discord_patched: DiscordHarness, tmp_path: Path, pg_url: str
) -> AsyncIterator[CombatBot]:
    """The real bot, built by the composition root with ``DATABASE_URL`` pointing at an empty
    PostgreSQL database (migrated at start-up), with seeded dice."""
    settings = bot_settings(
        discord_patched, tmp_path / "unused.sqlite3", database_url=SecretStr(pg_url)
    )
    client = await build(
        settings, guild_ready_timeout=0.05, seeds=lambda: 20261129, expiry_interval=0.2
    )
    try:
        async with discord_patched.run_client(client):
            yield client
    finally:
        await client.db.close()


async def test_a_fight_with_a_reaction_and_undo_runs_on_postgresql(
    pg_bot: CombatBot, discord_harness: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    h, gm = discord_harness, table.moderator
    assert isinstance(pg_bot.db, PgDatabase)
    await set_up_fight(h, table, thugs=1)  # start, NPC, two characters join, begin
    await pass_turns_until(pg_bot, h, table, "Thug 1")
    before = await pg_bot.services.encounters.live(h.channel.id)

    attack = await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    await press(h, table.player, attack.message, "Evade")  # Willow's player reacts
    await h.wait_for(lambda: h.message(attack.message).components == [])
    answered = await pg_bot.services.encounters.live(h.channel.id)
    assert answered.version > before.version and answered.state.pending is None

    undo = await ok(await slash(h, gm, "gm undo"))
    assert "Undid" in undo.message.text(), undo.message.text()
    undone = await pg_bot.services.encounters.live(h.channel.id)
    assert undone.version == answered.version + 1
    # The reaction is taken back: the attack waits on Willow's reaction again.
    assert undone.state.pending is not None and undone.state.pending.awaiting == "reaction"
    assert game_state(undone.row.state_json) != game_state(answered.row.state_json)

    # Everything above was written to PostgreSQL: the encounter, its log (with the undo) and
    # the reaction's decision row; nothing went to a SQLite file.
    async with pg_bot.db.read() as conn:
        assert conn.dialect == "postgresql"
        commands = [
            row["command"]
            for row in await conn.fetch_all(
                "SELECT command FROM encounter_log WHERE encounter_id = ? ORDER BY version",
                (undone.id,),
            )
        ]
        closed = await conn.fetch_one(
            "SELECT count(*) AS n FROM decisions WHERE encounter_id = ? AND status = 'closed'",
            (undone.id,),
        )
    assert commands[0] == "start" and commands[-3:] == ["attack", "react", "undo"]
    assert closed is not None and closed["n"] >= 1
    assert not (tmp_path / "unused.sqlite3").exists()


async def test_me_export_and_me_delete_run_on_postgresql(
    pg_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/me export`` and ``/me delete`` read and erase across the tables (member data, the
    encounter log, decisions) on PostgreSQL: the SQLite suite's own scenarios, run on it."""
    await member_data_e2e.test_export_holds_my_sheet_and_nothing_of_another_members(
        pg_bot, discord_harness, table
    )


async def test_me_delete_erases_a_member_on_postgresql(
    pg_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    await member_data_e2e.test_delete_erases_me_and_the_fight_goes_on_under_the_gm(
        pg_bot, discord_harness, table
    )


async def test_the_tracker_is_edited_in_place_on_postgresql(
    pg_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The tracker's message id, noted without a version, survives the next command (on
    PostgreSQL an encounter with no open decision once read its decisions as NULL, so the
    next change wrote the tracker id it had read — none — back over it and the tracker was
    posted anew on every turn)."""
    await tracker_e2e.test_tracker_is_edited_in_place_and_reposted_when_deleted(
        pg_bot, discord_harness, table
    )


async def test_two_deciders_clicking_together_decide_once_on_postgresql(
    pg_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Three clicks on one decision at once: one decides, the others are refused (the SQLite
    suite's scenario; on PostgreSQL the clicks reach the channel in any order)."""
    await decisions_e2e.test_two_deciders_clicking_together_decide_once(
        pg_bot, discord_harness, table
    )
