"""Member notices: tell a member something on their next interaction in a server ("your
character was renamed", "the bot lost a channel permission").

Anyone may leave a notice with :meth:`NoticeService.add`; the Discord layer calls
:meth:`NoticeService.take` after each of the member's slash commands has been answered and
sends what it returns as an ephemeral followup (``bot.ui.notices``). A notice is handed out
once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.errors import InvalidInput
from bot.store import notices as repo
from bot.store.base import Store

TEXT_MAX = 1900  # characters: one Discord message, with room for a heading


def utc_now() -> datetime:
    return datetime.now(UTC)


class NoticeService:
    """Pending notices per member and server, kept in SQLite (they survive restarts)."""

    def __init__(self, db: Store, *, clock: Callable[[], datetime] = utc_now) -> None:
        self._db = db
        self._clock = clock

    async def add(self, guild_id: int, user_id: int, text: str, *, once: bool = False) -> None:
        """Leave ``text`` (Markdown, 1–1900 characters; escape any names in it) for
        ``user_id`` in ``guild_id``; with ``once``, not if the same text already waits for them
        (a problem that repeats is told once). Raises :class:`InvalidInput` for an empty or too
        long text."""
        if not text.strip():
            raise InvalidInput("A notice needs some text.")
        if len(text) > TEXT_MAX:
            raise InvalidInput(f"A notice is at most {TEXT_MAX} characters; this is {len(text)}.")
        async with self._db.transaction() as conn:
            if once and await repo.pending_with_text(conn, guild_id, user_id, text):
                return
            await repo.add(conn, guild_id=guild_id, user_id=user_id, text=text, now=self._clock())

    async def take(self, guild_id: int, user_id: int) -> list[str]:
        """The member's pending notices, oldest first, marked delivered in one transaction (a
        second call, or a simultaneous one, gets none of them). Most members have none: that
        costs one indexed read and no write."""
        async with self._db.read() as conn:
            if not await repo.has_pending(conn, guild_id, user_id):
                return []
        async with self._db.transaction() as conn:
            return await repo.take(conn, guild_id=guild_id, user_id=user_id, now=self._clock())
