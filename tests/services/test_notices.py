"""Member notices on both stores (SQLite and PostgreSQL, the ``store`` fixture): kept per member
and server, handed out once — also to two interactions finishing at the same moment — and
refused when empty or too long; they survive a restart (SQLite)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.errors import InvalidInput
from bot.services.notices import TEXT_MAX, NoticeService
from bot.store import notices as repo
from bot.store.base import Store
from bot.store.db import Database


async def test_notices_are_taken_once_in_order(store: Store) -> None:
    service = NoticeService(store)
    await service.add(1, 10, "first")
    await service.add(1, 10, "second")
    await service.add(1, 11, "someone else's")
    await service.add(2, 10, "another server's")
    assert await service.take(1, 10) == ["first", "second"]
    assert await service.take(1, 10) == []
    assert await service.take(1, 11) == ["someone else's"]
    assert await service.take(2, 10) == ["another server's"]
    async with store.read() as conn:
        assert await repo.pending_count(conn) == 0


async def test_simultaneous_takes_hand_a_notice_out_once(store: Store) -> None:
    service = NoticeService(store)
    for index in range(5):
        await service.add(1, 10, f"notice {index}")
    results = await asyncio.gather(*(service.take(1, 10) for _ in range(8)))
    handed = [text for result in results for text in result]
    assert sorted(handed) == [f"notice {i}" for i in range(5)]
    assert sum(1 for result in results if result) == 1


async def test_notices_survive_a_restart(db: Database, tmp_path: Path) -> None:
    await NoticeService(db).add(1, 10, "kept")
    again = await Database.open(tmp_path / "bot.sqlite3")
    try:
        assert await NoticeService(again).take(1, 10) == ["kept"]
    finally:
        await again.close()


@pytest.mark.parametrize(("text", "message"), [(" ", "needs some text"), ("x" * 1901, "1900")])
async def test_bad_notices_are_refused(store: Store, text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        await NoticeService(store).add(1, 10, text)
    assert TEXT_MAX == 1900
