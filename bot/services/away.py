"""Away players (issue 17, "Away players"): ``/away [until] [delegate]`` and ``/back``.

While a member is away in a server, the GM of each encounter — or the member they named
(``delegate``) — may act and react for their combatants (:func:`bot.services.acting.controls`),
and turn pings, reaction pings and reminders go to the delegate, or the GM, instead
(:func:`bot.services.acting.answering`). The mark ends with ``/back``, or by itself at
``until``. A delegate cannot delegate further: what they stand in for does not pass on when
they go away themselves (the GM stands in then), so a member who is away cannot be named.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot import names
from bot.engine.core.pacing import parse_duration, parse_moment
from bot.errors import InvalidInput, NotFound
from bot.services.actor import Actor
from bot.store import away as repo
from bot.store import guild_encounters
from bot.store.away import AwayRow
from bot.store.base import Store
from bot.store.base import StoreConnection as StoreConnection

MAX_AWAY_DAYS = 90
NOT_AWAY = "You are not marked away in this server."
AWAY_MARKS_FRESH_S = 5.0
"""How long a server's away marks read by this process are used without reading them again
(seconds). This process's own ``/away``, ``/back`` and member-data erasures drop them at once
— a server's are served by the process of its shard alone; the background loop, which works on
every server's fights, reads them afresh where other processes share the database
(:func:`marks_read_fresh`)."""
AWAY_MARKS_KEPT = 1024
"""At most this many servers' away marks are kept; beyond it the stale ones are let go."""

_READ_FRESH: ContextVar[bool] = ContextVar("away_marks_read_fresh", default=False)


@contextmanager
def marks_read_fresh(fresh: bool = True) -> Iterator[None]:
    """Within the block (``fresh``), every read of away marks goes to the database, none is
    answered from the marks kept (:class:`AwayMarks`). For the bot's background loop where
    other processes share the database: it works on every server's fights — a reminder, a
    passed deadline, a reaction window — while a server's ``/away`` and ``/back`` are served
    by the process of its shard, whose own cache alone they drop. A mark kept here from a pass
    a moment before such a ``/away`` sent the reminder to the away member instead of their
    stand-in (the point then counts as sent: the stand-in was never reminded)."""
    token = _READ_FRESH.set(fresh or _READ_FRESH.get())
    try:
        yield
    finally:
        _READ_FRESH.reset(token)


class AwayMarks:
    """The away marks of each server as last read, kept for :data:`AWAY_MARKS_FRESH_S` so a
    command does not read them from the database every time (issue 15, "CPU diet": one read
    per command was a quarter of the trips to the database thread). One per database
    (:func:`away_marks`); ``monotonic`` is injectable for tests.

    A change to ``away_members`` made by this process calls :meth:`changed` after its commit;
    a read that began before that change is not kept (a generation count), so a mark set or
    ended here is seen by the next command."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._kept: dict[int, tuple[float, list[AwayRow]]] = {}
        self._generation = 0

    async def active(self, conn: StoreConnection, guild_id: int, now: datetime) -> list[AwayRow]:
        """The server's members away at ``now``, by user id (as
        :func:`bot.store.away.active`): from the marks kept if fresh (and not within
        :func:`marks_read_fresh`), else read through ``conn`` and kept."""
        kept = self._kept.get(guild_id)
        fresh = kept is not None and self._monotonic() - kept[0] < AWAY_MARKS_FRESH_S
        if kept is not None and fresh and not _READ_FRESH.get():
            return [m for m in kept[1] if m.until is None or m.until > now]
        generation = self._generation
        marks = await repo.active(conn, guild_id, now)
        if generation == self._generation:
            if len(self._kept) >= AWAY_MARKS_KEPT:
                self._let_go()
            self._kept[guild_id] = (self._monotonic(), marks)
        return marks

    def changed(self, guild_id: int | None = None) -> None:
        """Forget the marks kept of ``guild_id`` (``None``: of every server), after a change
        to them committed; a read still under way is not kept."""
        self._generation += 1
        if guild_id is None:
            self._kept.clear()
        else:
            self._kept.pop(guild_id, None)

    def _let_go(self) -> None:
        oldest = self._monotonic() - AWAY_MARKS_FRESH_S
        for guild_id in [g for g, (at, _) in self._kept.items() if at <= oldest]:
            del self._kept[guild_id]
        if len(self._kept) >= AWAY_MARKS_KEPT:
            self._kept.clear()


_MARKS: weakref.WeakKeyDictionary[object, AwayMarks] = weakref.WeakKeyDictionary()


def away_marks(db: object) -> AwayMarks:
    """The :class:`AwayMarks` of the database ``db`` (one per open database in this process,
    shared by every service over it)."""
    marks = _MARKS.get(db)
    if marks is None:
        marks = _MARKS[db] = AwayMarks()
    return marks


@dataclass(frozen=True)
class AwayChange:
    """A member's away mark after ``/away`` (``mark``) or the one ``/back`` ended, and the
    channels of the server's live encounters (whose trackers show who is away)."""

    mark: AwayRow
    channels: tuple[int, ...]


def parse_until(text: str, now: datetime) -> datetime:
    """When an away mark given as ``text`` ends: a duration from ``now`` (``2d``, ``1d12h``,
    ``90m``; the turn-deadline format, up to :data:`MAX_AWAY_DAYS` days) or a date or date and
    time in UTC (ISO 8601: ``2026-12-24``, ``2026-12-24 18:00``). Raises
    :class:`InvalidInput` for anything else, a moment not after ``now``, or one more than
    :data:`MAX_AWAY_DAYS` days ahead."""
    cleaned = text.strip()
    moment = parse_moment(cleaned, example="2026-12-24", duration="2d")
    if moment is not None:
        if moment <= now:
            raise InvalidInput(
                f"{names.code(cleaned[:40])} has already passed; name a later moment."
            )
        if moment - now > timedelta(days=MAX_AWAY_DAYS):
            raise InvalidInput(f"You can be marked away for at most {MAX_AWAY_DAYS} days.")
        return moment
    seconds = parse_duration(cleaned, what="Time away", max_days=MAX_AWAY_DAYS)
    if seconds == 0:
        raise InvalidInput(
            "Say how long you are away (`2d`, `12h`) or until when (`2026-12-24`), or leave "
            "`until` out to stay away until `/back`."
        )
    return now + timedelta(seconds=seconds)


class AwayService:
    """``/away`` and ``/back`` over the ``away_members`` store; ``clock`` is the services'
    injected clock (an away mark ends by itself when it passes ``until``)."""

    def __init__(self, db: Store, *, clock: Callable[[], datetime]) -> None:
        self._db = db
        self._clock = clock

    async def go_away(
        self,
        guild_id: int,
        actor: Actor,
        *,
        until: str | None = None,
        delegate_id: int | None = None,
        delegate_is_bot: bool = False,
    ) -> AwayChange:
        """Mark ``actor`` away in the server (replacing an earlier mark of theirs) until
        ``until`` (:func:`parse_until`; ``None``: until ``/back``), with ``delegate_id``
        standing in for them (``None``: the GM). Raises :class:`InvalidInput` for a bad
        ``until``, naming oneself, a bot, or a member who is away themselves (a delegate
        cannot delegate further)."""
        now = self._clock()
        ends = parse_until(until, now) if until is not None else None
        if delegate_id is not None:
            if delegate_id == actor.user_id:
                raise InvalidInput(
                    "You cannot stand in for yourself: name another member, or leave "
                    "`delegate` out and the GM acts for your combatants."
                )
            if delegate_is_bot:
                raise InvalidInput(
                    f"<@{delegate_id}> is a bot: only a person can act for your combatants. "
                    "Name a member, or leave `delegate` out and the GM acts for them."
                )
        async with self._db.transaction() as conn:
            if delegate_id is not None and await repo.of_member(conn, guild_id, delegate_id, now):
                raise InvalidInput(
                    f"<@{delegate_id}> is away too, and a delegate cannot delegate further: "
                    "name someone who is here, or leave `delegate` out and the GM acts for you."
                )
            await repo.put(
                conn, guild_id, actor.user_id, delegate_id=delegate_id, since=now, until=ends
            )
            live = await guild_encounters.live_in_guild(conn, guild_id)
        away_marks(self._db).changed(guild_id)
        mark = AwayRow(
            guild_id=guild_id, user_id=actor.user_id, delegate_id=delegate_id, since=now, until=ends
        )
        return AwayChange(mark, tuple(e.channel_id for e in live))

    async def come_back(self, guild_id: int, actor: Actor) -> AwayChange:
        """End ``actor``'s away mark in the server. Raises :class:`NotFound` when they are
        not away (never were, or their mark ended by itself)."""
        now = self._clock()
        async with self._db.transaction() as conn:
            mark = await repo.of_member(conn, guild_id, actor.user_id, now)
            await repo.remove(conn, guild_id, actor.user_id)  # a lapsed mark goes too
            live = await guild_encounters.live_in_guild(conn, guild_id)
        away_marks(self._db).changed(guild_id)
        if mark is None:
            raise NotFound(NOT_AWAY)
        return AwayChange(mark, tuple(e.channel_id for e in live))
