"""Keeping each channel's tracker message current, in view, and eventually right.

One tracker message per encounter. After every change it is edited to the latest committed
state (edits are serialised per channel and always render the newest state, so they never go
back in time). It is pinned where the bot may pin; where it may not, it is posted again at the
bottom of the channel when a round starts (the old one deleted: one tracker at a time). An edit
that fails (Discord answering 500s past discord.py's retries, a lost permission) leaves the
channel marked stale, and :meth:`TrackerKeeper.retry_stale` — run by the bot's background loop
— tries again until the final state is shown. A post the bot is not allowed to make tells the
encounter's GM once (a member notice, delivered with their next command).

Several processes on one database (PostgreSQL shards) may work on one channel's tracker at once
— the process serving its server after a command, another one's expiry loop after it expired
something there — and the per-channel lock is each process's own. So a new tracker is recorded
only in place of the one it replaces (a tracker another process recorded meanwhile stays, and
this one is deleted), and where other processes share the database, an edit that lands after
the fight moved on (or after the tracker was replaced) is made again from the fight as it
stands (:data:`SHOWN_AGAIN` times at most, then the background loop's): a late edit never
leaves an older state showing, nor two trackers (attack21a).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.errors import NotFound
from bot.services.encounters import Encounter, EncounterService
from bot.ui.backoff import Backoff
from bot.ui.text import shown_name
from bot.ui.tracker import tracker_embed

log = logging.getLogger(__name__)


SHOWN_AGAIN = 3
"""Times :meth:`TrackerKeeper.refresh` shows the fight again when it moved on (another process)
while it was being shown; then the channel is left to the background loop (stale)."""

BLOCKED_FIRST = 30.0  # seconds before trying a channel that refused the bot again
BLOCKED_MAX = 900.0


def cannot_post(channel_id: int, what: str) -> str:
    """The notice a GM gets when the bot may not post in their encounter's channel."""
    return (
        f"I could not post {what} in <#{channel_id}>: I'm missing permissions there (View "
        "Channel, Send Messages — in a thread, Send Messages in Threads — Embed Links, Attach "
        "Files, Read Message History). The fight is saved and nothing is lost; a server admin "
        "can grant them to the bot's role or in the channel's settings."
    )


def removed_notice(encounter: Encounter) -> str:
    """The notice a GM gets when the bot was removed from the server while their encounter
    ran (:meth:`bot.services.moderation.ModerationService.pause_for_removal`)."""
    return (
        f"The bot was removed from this server, so **{shown_name(encounter.row.name)}** in "
        f"<#{encounter.row.channel_id}> was paused: nobody could see it or press its buttons, "
        "and no turn deadline or reaction window ran out meanwhile. Nothing is lost; "
        "`/gm resume` there resumes it."
    )


async def tell_gm(client: Any, encounter: Encounter, text: str) -> None:
    """Leave ``text`` for the encounter's GM, once (it waits for their next command). Never
    raises."""
    try:
        await client.services.notices.add(
            encounter.row.guild_id, encounter.row.gm_id, text, once=True
        )
    except Exception:
        log.exception("could not leave a notice for the GM of encounter %s", encounter.id)


class TrackerKeeper:
    """The trackers of one bot process: per-channel locks and the channels whose last edit
    failed."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._locks: dict[int, asyncio.Lock] = {}
        self.stale: set[int] = set()
        # Channels where the bot was refused, tried again less and less often.
        self.blocked: Backoff[int] = Backoff(BLOCKED_FIRST, BLOCKED_MAX)

    @property
    def _service(self) -> EncounterService:
        service: EncounterService = self._client.services.encounters
        return service

    async def refresh(self, channel_id: int, *, new_round: bool = False) -> None:
        """Show the channel's latest state in its tracker (``new_round``: a round started, so
        an unpinned tracker moves to the bottom). Never raises; a failure marks it stale."""
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            try:
                if not await self._refresh(channel_id, new_round=new_round):
                    self.stale.add(channel_id)  # still moving on: the loop shows it later
                    return
            except discord.Forbidden:
                self.stale.discard(channel_id)  # the GM is told; try again later, less often
                self.blocked.refused(channel_id)
            except Exception:
                self.stale.add(channel_id)
                log.exception("could not refresh the tracker in channel %s", channel_id)
            else:
                self.stale.discard(channel_id)
                self.blocked.cleared(channel_id)

    async def retry_stale(self) -> None:
        """Try every stale tracker again, and those in channels that refused the bot once
        their wait is over (the bot's background loop calls this)."""
        for channel_id in [*self.stale, *self.blocked.due()]:
            await self.refresh(channel_id)

    async def _refresh(self, channel_id: int, *, new_round: bool) -> bool:
        """Show the fight as it stands; whether it is shown (False: it kept moving on while
        being shown — another process — :data:`SHOWN_AGAIN` times)."""
        for _ in range(SHOWN_AGAIN):
            shown = await self._show(channel_id, new_round=new_round)
            if shown is None:
                return True
            version, tracker = shown
            if tracker is not None and not self._client.settings.shares_database:
                return True  # alone on the database: this process's lock kept the order
            try:
                now = await self._service.live(channel_id)
            except NotFound:
                return True
            if (now.version, now.row.tracker_message_id) == (version, tracker):
                return True
            new_round = False  # a tracker was posted for the round: edit the one recorded
        return False

    async def _show(self, channel_id: int, *, new_round: bool) -> tuple[int, int | None] | None:
        """Edit (or post) the tracker to show the channel's fight; the version shown and the
        tracker message recorded now (None: another process recorded one of its own first,
        and this one's was deleted). None: no tracker to show."""
        try:
            encounter = await self._service.live(channel_id)
        except NotFound:
            return None
        if encounter.state.phase == "setup" and encounter.row.tracker_message_id is None:
            return None
        embed = tracker_embed(encounter)
        channel = self._client.get_partial_messageable(channel_id)
        old = encounter.row.tracker_message_id
        if old is not None and (encounter.row.tracker_pinned or not new_round):
            try:
                await channel.get_partial_message(old).edit(embed=embed)
                return encounter.version, old
            except discord.NotFound:
                log.info("tracker of encounter %s was deleted; posting it again", encounter.id)
                old = None
            except discord.Forbidden:
                await tell_gm(self._client, encounter, cannot_post(channel_id, "the tracker"))
                raise
        return await self._post(encounter, embed, old)

    async def _post(
        self, encounter: Encounter, embed: discord.Embed, old: int | None
    ) -> tuple[int, int | None]:
        """Post the tracker anew and record it in place of the one read with ``encounter``
        (then delete ``old``, left behind at a round's start); see :meth:`_show`."""
        channel_id = encounter.row.channel_id
        channel = self._client.get_partial_messageable(channel_id)
        try:
            message = await channel.send(embed=embed)
        except discord.Forbidden:
            await tell_gm(self._client, encounter, cannot_post(channel_id, "the tracker"))
            raise
        pinned = await _pin(message)
        recorded = await self._service.set_tracker_message(
            encounter.id, message.id, pinned=pinned, replacing=encounter.row.tracker_message_id
        )
        if not recorded:  # another process posted (and recorded) a tracker of its own first
            log.info("encounter %s has a newer tracker: deleting %s", encounter.id, message.id)
            try:
                await message.delete()
            except discord.HTTPException:
                log.info("could not delete the extra tracker %s", message.id)
            return encounter.version, None
        if old is not None:  # the previous tracker, left behind at a round's start
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException:
                log.info("could not delete the old tracker %s", old)
        return encounter.version, message.id


async def _pin(message: discord.Message) -> bool:
    """Pin the tracker if the bot may; whether it is pinned."""
    try:
        await message.pin(reason="The encounter's tracker")
    except discord.HTTPException:
        return False
    return True
