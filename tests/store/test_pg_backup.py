"""Backing up PostgreSQL as the README says (issue 16, "README: … backups (``pg_dump``)"):
``pg_dump --format=custom`` of the bot's database while the bot holds it open, ``pg_restore``
into an empty database, and the bot's store takes the restored copy as it is — nothing left to
migrate, every row back, and new rows numbered after the restored ones (sequences restored).
The binaries are pgserver's own (the same major version as the test server)."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pgserver

from bot.store.pg import PgDatabase
from tests.pg.server import PgServer
from tests.store.test_encounter_side_stores import add_encounter

BIN = Path(pgserver.__file__).parent / "pginstall" / "bin"


def run(*argv: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr


async def test_a_pg_dump_taken_while_the_bot_runs_restores_into_a_database_the_bot_uses(
    tmp_path: Path, pg_url: str, pg_server: PgServer
) -> None:
    live = await PgDatabase.open(pg_url)  # the running bot's pool stays open through the dump
    restored_name = await pg_server.create_database()
    try:
        await live.migrate()
        async with live.transaction() as conn:
            first = await add_encounter(conn, 2**56, name="Brücke ⚔")
            await conn.execute(
                "INSERT INTO encounter_log (encounter_id, version, actor_id, command, options,"
                " result, state, created_at) VALUES (?, 1, 7, 'act', '{}', '{}', NULL,"
                " '2026-12-05T00:00:00+00:00')",
                (first,),
            )
        dump = tmp_path / "bot.dump"
        await asyncio.to_thread(
            run, str(BIN / "pg_dump"), "--format=custom", f"--file={dump}", pg_url
        )
        await asyncio.to_thread(
            run, str(BIN / "pg_restore"), f"--dbname={pg_server.url(restored_name)}", str(dump)
        )

        restored = await PgDatabase.open(pg_server.url(restored_name))
        try:
            assert await restored.migrate() == []  # at the dump's migration number already
            assert await restored.schema_version() == await live.schema_version()
            async with restored.read() as conn:
                row = await conn.fetch_one("SELECT id, name FROM encounters")
                logged = await conn.fetch_one("SELECT count(*) FROM encounter_log")
            assert row is not None and (row["id"], row["name"]) == (first, "Brücke ⚔")
            assert logged is not None and logged[0] == 1
            async with restored.transaction() as conn:
                second = await add_encounter(conn, 2**56 + 1)
            assert second > first  # the id sequence came back with the rows
        finally:
            await restored.close()
    finally:
        await live.close()
        await pg_server.drop_database(restored_name)
