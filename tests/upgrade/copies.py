"""A fixture database, copied and upgraded in place by this version's migrations."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

from bot.store.db import Database


async def upgraded(
    fixture: Path, folder: Path, *, schema: int | None = None
) -> AsyncIterator[Database]:
    """``fixture`` copied into ``folder``, opened, checked to be at migration ``schema`` (when
    given) and migrated to this version's; closed when the caller is done."""
    path = folder / "bot.sqlite3"
    shutil.copyfile(fixture, path)
    database = await Database.open(path)
    if schema is not None:
        assert await database.schema_version() == schema
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()
