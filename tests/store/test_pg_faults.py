"""PostgreSQL store faults: a connection the server dropped becomes the domain's
``StorageUnavailable`` (nothing of the unit applied, one log line), the pool then reconnects;
a failing statement rolls its whole transaction back."""

from __future__ import annotations

import asyncpg
import pytest

from bot.errors import StorageUnavailable
from bot.store import meta
from bot.store.pg import PgDatabase


async def test_a_dropped_connection_is_storage_unavailable_then_the_pool_recovers(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = await PgDatabase.open(pg_url, max_size=1)
    try:
        await db.migrate()
        admin = await asyncpg.connect(pg_url)
        try:
            with pytest.raises(StorageUnavailable) as caught:
                async with db.transaction() as conn:
                    await meta.put(conn, "k", "half")
                    # The server ends the bot's connection mid-transaction (a restart, a kill).
                    await admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                    await meta.put(conn, "k", "whole")
        finally:
            await admin.close()
        assert "nothing was changed" in caught.value.args[0]
        assert any("storage refused a write" in r.getMessage() for r in caplog.records)
        async with db.transaction() as conn:  # a fresh connection from the pool
            assert await meta.get(conn, "k") is None
            await meta.put(conn, "k", "after")
        async with db.read() as conn:
            assert await meta.get(conn, "k") == "after"
    finally:
        await db.close()


async def test_a_failing_statement_rolls_back_the_whole_unit(pg_url: str) -> None:
    db = await PgDatabase.open(pg_url)
    try:
        await db.migrate()
        with pytest.raises(asyncpg.UndefinedTableError):
            async with db.transaction() as conn:
                await meta.put(conn, "k", "v")
                await conn.execute("SELECT * FROM no_such_table")
        async with db.read() as conn:
            assert await meta.get(conn, "k") is None
    finally:
        await db.close()
