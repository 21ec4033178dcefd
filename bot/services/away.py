"""Away players (issue 17, "Away players"): ``/away [until] [delegate]`` and ``/back``.

While a member is away in a server, the GM of each encounter — or the member they named
(``delegate``) — may act and react for their combatants (:func:`bot.services.acting.controls`),
and turn pings, reaction pings and reminders go to the delegate, or the GM, instead
(:func:`bot.services.acting.answering`). The mark ends with ``/back``, or by itself at
``until``. A delegate cannot delegate further: what they stand in for does not pass on when
they go away themselves (the GM stands in then), so a member who is away cannot be named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine.core.pacing import parse_duration, parse_moment
from bot.errors import InvalidInput, NotFound
from bot.services.actor import Actor
from bot.store import away as repo
from bot.store import guild_encounters
from bot.store.away import AwayRow
from bot.store.db import Database

MAX_AWAY_DAYS = 90
NOT_AWAY = "You are not marked away in this server."


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
            raise InvalidInput(f"`{cleaned[:40]}` has already passed; name a later moment.")
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

    def __init__(self, db: Database, *, clock: Callable[[], datetime]) -> None:
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
        if mark is None:
            raise NotFound(NOT_AWAY)
        return AwayChange(mark, tuple(e.channel_id for e in live))
