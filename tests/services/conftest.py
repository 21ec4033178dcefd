"""Fixtures for the service tests: a migrated SQLite database in a temporary folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A fresh database file, migrated to the latest schema, closed after the test."""
    database = await Database.open(tmp_path / "bot.sqlite3")
    await database.migrate()
    yield database
    await database.close()
