"""Storage faults while running: SQLite's "database or disk is full" (and its I/O, read-only and
busy errors) become :class:`StorageUnavailable` with a message for the member, one log line and
no traceback; nothing of the refused write is kept, no writer is told "done" for work that was
lost, and writes work again once there is room.

"Full" is made with ``PRAGMA max_page_count`` on the writer connection: SQLite then answers
SQLITE_FULL exactly as on a full disk, without filling one.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.errors import DomainError, StorageUnavailable
from bot.store.db import Database, storage_error
from tests.store.test_group_commit import queued

FULL = "The bot's storage is full; nothing was changed. Tell whoever hosts the bot."
LIMIT = 5.0


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "full.sqlite3")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE item (name TEXT PRIMARY KEY, blob BLOB)")
    try:
        yield database
    finally:
        await database.close()


async def fill_up(db: Database) -> int:
    """Cap the file at its current size (SQLite keeps the cap at least the current page count);
    return the old cap."""
    async with db.transaction() as conn:
        old = await conn.fetch_one("PRAGMA max_page_count")
        await conn.execute("PRAGMA max_page_count = 1")
    assert old is not None
    return int(old[0])


async def make_room(db: Database, pages: int) -> None:
    async with db.transaction() as conn:
        await conn.execute(f"PRAGMA max_page_count = {int(pages)}")


async def names(db: Database) -> set[str]:
    async with db.read() as conn:
        return {row["name"] for row in await conn.fetch_all("SELECT name FROM item")}


async def insert(db: Database, name: str, size: int = 100_000) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO item VALUES (?, zeroblob(?))", (name, size))


async def test_a_full_database_refuses_with_the_message_and_recovers(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    old = await fill_up(db)
    with (
        caplog.at_level(logging.WARNING, logger="bot.store.db"),
        pytest.raises(StorageUnavailable) as refused,
    ):
        await insert(db, "too big")
    assert isinstance(refused.value, DomainError)
    assert str(refused.value) == FULL
    assert refused.value.reason == "SQLITE_FULL"
    records = [r for r in caplog.records if r.name == "bot.store.db"]
    assert len(records) == 1
    assert "SQLITE_FULL" in records[0].getMessage()
    assert records[0].exc_info is None and "\n" not in records[0].getMessage()
    assert await names(db) == set()

    await make_room(db, old)
    await insert(db, "too big")
    assert await names(db) == {"too big"}


async def test_a_full_disk_in_a_group_never_reports_lost_work_as_done(db: Database) -> None:
    """Whatever SQLite does with the rest of the transaction on SQLITE_FULL (it may roll all of
    it back), each writer's outcome matches what was stored."""
    await insert(db, "seed", 10)
    old = await fill_up(db)
    release = asyncio.Event()

    async def first() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE item SET blob = x'01' WHERE name = 'seed'")
            await conn.execute("INSERT INTO item VALUES ('small', x'00')")
            await release.wait()

    tasks = [asyncio.create_task(first())]
    await asyncio.sleep(0.01)
    tasks.append(asyncio.create_task(insert(db, "too big")))
    tasks.append(asyncio.create_task(insert(db, "after", 10)))
    await queued(db, 2)
    release.set()
    async with asyncio.timeout(LIMIT):
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(outcomes[1], StorageUnavailable), outcomes
    stored = await names(db)
    assert "too big" not in stored
    for name, outcome in (("small", outcomes[0]), ("after", outcomes[2])):
        assert (outcome is None) == (name in stored), (name, outcome, stored)
        if outcome is not None:
            assert isinstance(outcome, StorageUnavailable), outcome
    await make_room(db, old)
    await insert(db, "later")
    assert "later" in await names(db)


@pytest.mark.parametrize(
    ("code", "name", "words"),
    [
        (sqlite3.SQLITE_FULL, "SQLITE_FULL", "is full"),
        (sqlite3.SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE", "disk error"),
        (sqlite3.SQLITE_READONLY, "SQLITE_READONLY", "read-only"),
        (sqlite3.SQLITE_BUSY, "SQLITE_BUSY", "busy"),
    ],
)
def test_storage_errors_map_by_sqlite_result_code(code: int, name: str, words: str) -> None:
    error = sqlite3.OperationalError("whatever SQLite said")
    error.sqlite_errorcode = code
    error.sqlite_errorname = name
    mapped = storage_error(error)
    assert mapped is not None
    assert words in str(mapped) and "nothing was changed" in str(mapped)
    assert mapped.reason == name


def test_other_errors_are_not_storage_faults() -> None:
    constraint = sqlite3.IntegrityError("UNIQUE constraint failed")
    constraint.sqlite_errorcode = sqlite3.SQLITE_CONSTRAINT_UNIQUE
    assert storage_error(constraint) is None
    assert storage_error(ValueError("x")) is None
