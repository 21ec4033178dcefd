"""A real PostgreSQL for tests, started by the ``pgserver`` package (server binaries shipped in
its wheel; no root, no Docker, nothing installed by hand).

:func:`pg_server` (session) starts one server per test process in a temporary folder and stops
and deletes it at the end; :func:`pg_url` gives each test an empty database of its own on it
(dropped afterwards); :func:`store` runs a test on each store, SQLite and PostgreSQL. A test is
skipped — with the reason — only when pgserver cannot start a server on this platform, and under
CI (``CI`` set) not even then: it fails. A missing ``pgserver`` package is an error (it is a test
dependency).
"""

from __future__ import annotations

import asyncio
import fcntl
import itertools
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pgserver
import pytest

from bot.store.base import Store
from bot.store.db import Database
from bot.store.pg import PgDatabase

_databases = itertools.count(1)
T = TypeVar("T")


class PgServer:
    """One running test server: ``url(database)`` is the URL of a database on it."""

    def __init__(self, server: pgserver.PostgresServer) -> None:
        self._server = server

    def url(self, database: str = "postgres") -> str:
        return str(self._server.get_uri(database))

    async def create_database(self) -> str:
        """A new, empty database; returns its name."""
        name = f"test_{next(_databases)}"
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return name

    async def drop_database(self, name: str) -> None:
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for this test process. Skipped, with the reason, when pgserver
    cannot start one on this platform — except under CI (``CI`` set), where that is an error:
    CI must run the PostgreSQL tests."""
    # A short path: the server's Unix socket lives in this folder (socket paths max ~107 bytes).
    folder = Path(tempfile.mkdtemp(prefix="pgt"))
    try:
        # Run as root, pgserver creates a system user with `useradd` before its own lock: pytest
        # workers starting together would race on it, so they start their servers in turn.
        with open(Path(tempfile.gettempdir()) / "pgserver-tests.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            server = pgserver.get_server(folder, cleanup_mode="delete")
    except Exception as error:  # the platform cannot run the shipped binaries
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("CI"):
            raise
        pytest.skip(f"pgserver cannot start PostgreSQL on this platform: {error!r}")
    try:
        yield PgServer(server)
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def _in_thread(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to completion on a loop of its own in another thread (this fixture may be
    asked for from inside a running event loop, by an async fixture)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a fresh, empty database of this test's own (dropped after the test)."""
    name = _in_thread(pg_server.create_database())
    try:
        yield pg_server.url(name)
    finally:
        _in_thread(pg_server.drop_database(name))


STORES = ["sqlite", "postgres"]


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """An empty, migrated store of the kind in the test's id (``[sqlite]`` / ``[postgres]``)."""
    opened: Store
    if request.param == "sqlite":
        opened = await Database.open(tmp_path / "bot.sqlite3")
    else:
        opened = await PgDatabase.open(request.getfixturevalue("pg_url"))
    try:
        await opened.migrate()
        yield opened
    finally:
        await opened.close()


@pytest.fixture(params=STORES)
async def store_twice(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[list[Store]]:
    """One migrated database of the kind in the test's id, opened twice — as two bot processes
    sharing it would (a SQLite file; a PostgreSQL database): ``[first, second]``."""
    opened: list[Store] = []
    try:
        for _ in range(2):
            if request.param == "sqlite":
                opened.append(await Database.open(tmp_path / "bot.sqlite3"))
            else:
                opened.append(await PgDatabase.open(request.getfixturevalue("pg_url")))
            await opened[-1].migrate()
        yield opened
    finally:
        for each in opened:
            await each.close()
