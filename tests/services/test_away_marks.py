"""The away marks a command reads are kept per server (issue 15, "CPU diet"), yet /away, /back
and a member-data erasure made here are seen by the very next read, and a mark set by another
process by the read after :data:`AWAY_MARKS_FRESH_S`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.services.actor import Actor
from bot.services.away import AWAY_MARKS_FRESH_S, AwayMarks, AwayService, away_marks
from bot.store import away as repo
from bot.store.db import Database

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GUILD = 5


async def test_away_and_back_here_are_seen_by_the_next_read(db: Database) -> None:
    marks, away = away_marks(db), AwayService(db, clock=lambda: NOW)
    async with db.read() as conn:
        assert await marks.active(conn, GUILD, NOW) == []
    await away.go_away(GUILD, Actor(user_id=7), until="2d")
    async with db.read() as conn:
        assert [m.user_id for m in await marks.active(conn, GUILD, NOW)] == [7]
    await away.come_back(GUILD, Actor(user_id=7))
    async with db.read() as conn:
        assert await marks.active(conn, GUILD, NOW) == []


async def test_a_mark_from_elsewhere_is_read_once_the_kept_marks_are_stale(db: Database) -> None:
    clock = [0.0]
    marks = AwayMarks(monotonic=lambda: clock[0])
    async with db.read() as conn:
        assert await marks.active(conn, GUILD, NOW) == []
    async with db.transaction() as conn:  # as another process sharing the database would
        await repo.put(conn, GUILD, 8, delegate_id=None, since=NOW, until=None)
    clock[0] = AWAY_MARKS_FRESH_S - 0.1
    async with db.read() as conn:
        assert await marks.active(conn, GUILD, NOW) == []  # kept: no read
    clock[0] = AWAY_MARKS_FRESH_S
    async with db.read() as conn:
        assert [m.user_id for m in await marks.active(conn, GUILD, NOW)] == [8]


async def test_a_kept_mark_ends_by_itself_at_until(db: Database) -> None:
    marks = AwayMarks(monotonic=lambda: 0.0)
    async with db.transaction() as conn:
        await repo.put(conn, GUILD, 9, delegate_id=None, since=NOW, until=NOW + timedelta(hours=1))
    async with db.read() as conn:
        assert [m.user_id for m in await marks.active(conn, GUILD, NOW)] == [9]
        assert await marks.active(conn, GUILD, NOW + timedelta(hours=1)) == []


async def test_a_read_begun_before_a_change_is_not_kept(db: Database) -> None:
    marks = AwayMarks(monotonic=lambda: 0.0)
    async with db.transaction() as conn:
        await repo.put(conn, GUILD, 3, delegate_id=None, since=NOW, until=None)

    class Racing:
        """A connection whose read lets a /back commit before it returns (what it read)."""

        async def fetch_all(self, sql: str, params: tuple[object, ...]) -> list[object]:
            async with db.read() as real:
                rows = await real.fetch_all(sql, params)
            marks.changed(GUILD)
            return list(rows)

    assert [m.user_id for m in await marks.active(Racing(), GUILD, NOW)] == [3]  # type: ignore[arg-type]
    async with db.transaction() as conn:
        await repo.remove(conn, GUILD, 3)
    async with db.read() as conn:
        assert await marks.active(conn, GUILD, NOW) == []
