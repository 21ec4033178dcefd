"""Group commit (bot/store/db.py): whatever one writer does — fails, is cancelled while queued,
is cancelled during the COMMIT — the group is committed (or failed) exactly once, and every
other writer of the group returns with its work durable, or gets the COMMIT's error.

Writers are real tasks on a real SQLite file; every wait is bounded by ``asyncio.timeout`` so a
stall fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.store.db import Connection, Database

LIMIT = 5.0  # seconds: a healthy group commits in milliseconds


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "group.sqlite3")
    async with database.transaction() as conn:
        await conn.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await conn.execute(
            "CREATE TABLE item (name TEXT PRIMARY KEY, parent_id INTEGER "
            "REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )
    try:
        yield database
    finally:
        async with asyncio.timeout(LIMIT):
            await database.close()


async def committed(db: Database) -> set[str]:
    """The names a reader sees (committed data only)."""
    async with db.read() as conn:
        rows = await conn.fetch_all("SELECT name FROM item")
    return {row["name"] for row in rows}


def writer(
    db: Database,
    name: str,
    *,
    before: Awaitable[Any] | None = None,
    body: Callable[[Connection], Awaitable[Any]] | None = None,
) -> asyncio.Task[None]:
    """A task that inserts ``name`` in one transaction (after awaiting ``before`` inside it)."""

    async def run() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO item (name) VALUES (?)", (name,))
            if body is not None:
                await body(conn)
            if before is not None:
                await before

    return asyncio.create_task(run(), name=f"writer {name}")


async def queued(db: Database, count: int) -> None:
    """Let the loop run until ``count`` writers are queued on the writer lock (they queue
    within a few loop turns; no clock involved)."""
    for _ in range(1000):
        if db._writers_waiting >= count:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"only {db._writers_waiting} of {count} writers queued")


@pytest.mark.parametrize("when", ["as it is woken", "while still queued"])
async def test_a_cancelled_queued_writer_leaves_the_others_committed(
    db: Database, when: str
) -> None:
    release = asyncio.Event()
    second: asyncio.Task[None] | None = None

    async def last_step(conn: Connection) -> None:
        await release.wait()
        # `first` is about to leave the group open for `second` (queued) and hand it the lock;
        # `second` is cancelled right then, before it can join the group and commit it.
        assert second is not None
        if when == "as it is woken":
            asyncio.get_running_loop().call_soon(second.cancel)
        else:
            second.cancel()

    first = writer(db, "first", body=last_step)
    await asyncio.sleep(0.01)  # first holds the lock inside its block
    second = writer(db, "second")
    await queued(db, 1)
    release.set()
    async with asyncio.timeout(LIMIT):
        await first
    with pytest.raises(asyncio.CancelledError):
        await second
    assert await committed(db) == {"first"}
    # and the database still takes writes
    async with asyncio.timeout(LIMIT):
        await writer(db, "after")
    assert await committed(db) == {"first", "after"}


async def test_one_failing_writer_leaves_the_others_work_committed(db: Database) -> None:
    release = asyncio.Event()
    first = writer(db, "first", before=release.wait())
    await asyncio.sleep(0.01)

    async def fail(conn: Connection) -> None:
        raise ValueError("this writer's own mistake")

    failing = writer(db, "failing", body=fail)
    await queued(db, 1)
    last = writer(db, "last")
    await queued(db, 2)
    release.set()
    async with asyncio.timeout(LIMIT):
        await first
        await last
        with pytest.raises(ValueError, match="own mistake"):
            await failing
    assert await committed(db) == {"first", "last"}


async def test_a_writer_whose_first_statement_fails_is_undone_alone(db: Database) -> None:
    """The SAVEPOINT travels with a writer's first statement (one trip): when that statement
    fails, the savepoint exists all the same and only that writer's work is rolled back."""
    release = asyncio.Event()
    first = writer(db, "first", before=release.wait())
    await asyncio.sleep(0.01)

    async def run() -> None:
        async with db.transaction() as conn:
            await conn.execute_all(
                [
                    ("INSERT INTO item (name) VALUES ('mine')", ()),
                    ("INSERT INTO item (name) VALUES ('first')", ()),
                ]
            )

    failing = asyncio.create_task(run())
    await queued(db, 1)
    last = writer(db, "last")
    await queued(db, 2)
    release.set()
    async with asyncio.timeout(LIMIT):
        await first
        await last
        with pytest.raises(sqlite3.IntegrityError):
            await failing
    assert await committed(db) == {"first", "last"}


async def test_a_writer_cancelled_while_its_one_trip_runs_is_undone_alone(db: Database) -> None:
    """Cancelled as soon as its trip (savepoint and statements) is queued: the trip still runs
    on the database thread, and the writer's undo, queued behind it, takes it all back."""
    release = asyncio.Event()
    first = writer(db, "first", before=release.wait())
    await asyncio.sleep(0.01)
    sent = asyncio.Event()

    async def run() -> None:
        async with db.transaction() as conn:
            trip = asyncio.ensure_future(
                conn.execute_all([("INSERT INTO item (name) VALUES ('cancelled')", ())])
            )
            await asyncio.sleep(0)  # one loop turn: the trip task starts and queues its work
            assert conn.savepoint_sent  # queued on the database thread
            sent.set()
            await trip

    cancelled = asyncio.create_task(run())
    await queued(db, 1)
    last = writer(db, "last")
    await queued(db, 2)
    release.set()
    async with asyncio.timeout(LIMIT):
        await sent.wait()
        cancelled.cancel()
        await first
        await last
        with pytest.raises(asyncio.CancelledError):
            await cancelled
    assert await committed(db) == {"first", "last"}


async def test_a_failed_commit_is_reported_to_every_writer_of_the_group(db: Database) -> None:
    release = asyncio.Event()
    first = writer(db, "first", before=release.wait())
    await asyncio.sleep(0.01)

    async def orphan(conn: Connection) -> None:
        # A deferred foreign key: accepted now, refused by the COMMIT of the whole group.
        await conn.execute("UPDATE item SET parent_id = 999 WHERE name = 'orphan'")

    bad = writer(db, "orphan", body=orphan)
    await queued(db, 1)
    last = writer(db, "last")
    await queued(db, 2)
    release.set()
    async with asyncio.timeout(LIMIT):
        results = await asyncio.gather(first, bad, last, return_exceptions=True)
    assert [type(r) for r in results] == [sqlite3.IntegrityError] * 3, results
    assert all("FOREIGN KEY" in str(r) for r in results)
    assert await committed(db) == set()
    async with asyncio.timeout(LIMIT):
        await writer(db, "after")
    assert await committed(db) == {"after"}


async def test_cancelling_the_writer_that_commits_during_the_commit_resolves_the_group(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = asyncio.Event()
    first = writer(db, "first", before=release.wait())
    await asyncio.sleep(0.01)
    last = writer(db, "last")
    await queued(db, 1)

    execute = Connection.execute

    async def cancel_last_during_commit(self: Connection, sql: str, params: Any = ()) -> int:
        if sql == "COMMIT":
            last.cancel()  # `last` ended the group, so it is the one waiting on this COMMIT
            await asyncio.sleep(0)
        return await execute(self, sql, params)

    monkeypatch.setattr(Connection, "execute", cancel_last_during_commit)
    release.set()
    async with asyncio.timeout(LIMIT):
        await first  # its work is durable and it is told so
        with pytest.raises(asyncio.CancelledError):
            await last
    monkeypatch.undo()
    # The COMMIT ran once and covered both: `last` was cancelled after its block finished.
    assert await committed(db) == {"first", "last"}
    async with asyncio.timeout(LIMIT):
        await writer(db, "after")
    assert "after" in await committed(db)


async def test_wal_checkpoints_run_in_the_background_not_in_a_commit(db: Database) -> None:
    """Issue 15: no COMMIT checkpoints (``wal_autocheckpoint`` is 0 on every connection); every
    ``checkpoint_every`` committed writers a background task copies the WAL into the database on
    its own connection, and the commits go on meanwhile."""
    async with db.read() as conn:
        row = await conn.fetch_one("PRAGMA wal_autocheckpoint")
    assert row is not None and row[0] == 0
    db.checkpoint_every = 5
    for round_ in (1, 2):
        for i in range(5):
            async with asyncio.timeout(LIMIT), db.transaction() as conn:
                await conn.execute("INSERT INTO item (name) VALUES (?)", (f"w{round_}.{i}",))
        async with asyncio.timeout(LIMIT):
            await db.checkpointed()  # the one the 5th commit started
        assert db.checkpoints == round_
    assert len(await committed(db)) == 10
