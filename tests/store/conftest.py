"""Helpers for the store tests. Their ``store`` fixture (tests/pg/server.py) runs each test twice,
on SQLite (a temporary file) and on PostgreSQL (a database of its own on the pgserver test
server), both migrated to head — one suite for the one store contract
(:class:`bot.store.base.Store`)."""

from __future__ import annotations

from bot.store.base import Store
from bot.store.db import bundled_migrations
from bot.store.pg import PgDatabase, bundled_pg_migrations


def head_version(store: Store) -> int:
    """The migration number a fully migrated store of this kind is at."""
    if isinstance(store, PgDatabase):
        return bundled_pg_migrations()[-1].version
    return len(bundled_migrations())


async def index_names(store: Store, table: str) -> set[str]:
    """The names of ``table``'s indexes (the ones a migration created, by name)."""
    sql = (
        "SELECT indexname AS name FROM pg_indexes WHERE tablename = ?"
        if isinstance(store, PgDatabase)
        else "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
    )
    async with store.read() as conn:
        return {row["name"] for row in await conn.fetch_all(sql, (table,))}
