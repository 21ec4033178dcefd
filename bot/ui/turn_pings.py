"""Takes the buttons off turn pings whose turn is over (issue 17, "Act from the ping";
:mod:`bot.services.turn_pings` keeps which pings carry them), and keeps what the running turn's
ping says of its deadline true as a pause, a resume or a waiting decision moves it (fix19).

:func:`bot.ui.combat_flow.refresh_channel` runs :meth:`TurnPingKeeper.refresh` after every
change in a channel, so a ping loses its buttons when the turn moves on however it moved — a
click on the ping itself, a typed ``/endturn`` or attack that ended it, ``/gm next``, a passed
deadline, ``/encounter end``. An edit Discord refuses is tried again after the next change."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.services.encounters import Encounter
from bot.services.turn_pings import TurnPings
from bot.ui.combat import ping_deadline_words

log = logging.getLogger(__name__)


class TurnPingKeeper:
    """Records the turn pings the bot posts and retires those whose turn is over."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._locks: dict[int, asyncio.Lock] = {}

    @property
    def _pings(self) -> TurnPings:
        return TurnPings(self._client.services.encounters)

    async def posted(
        self,
        encounter: Encounter,
        message_id: int,
        content: str | None = None,
        deadline_words: str | None = None,
    ) -> None:
        """``message_id`` carries the buttons of ``encounter``'s current turn and reads
        ``content``, with ``deadline_words`` saying when the turn's deadline passes. Never
        raises."""
        try:
            await self._pings.posted(encounter, message_id, content, deadline_words)
        except Exception:
            log.exception("could not note turn ping %s of encounter %s", message_id, encounter.id)

    async def refresh(self, channel_id: int) -> None:
        """Take the buttons off the channel's pings whose turn is over. Never raises."""
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            try:
                over = await self._pings.over(channel_id)
            except Exception:
                log.exception("could not read the turn pings of channel %s", channel_id)
                return
            channel = self._client.get_partial_messageable(channel_id)
            for ping in over:
                # Its turn is over: no deadline of it holds any more.
                words = ping.deadline_words
                gone = ping.content.replace(words, "", 1) if words and ping.content else None
                try:
                    message = channel.get_partial_message(ping.message_id)
                    if gone is not None:
                        await message.edit(view=None, content=gone)
                    else:
                        await message.edit(view=None)
                except discord.NotFound:
                    pass  # deleted: nothing to take off
                except discord.HTTPException:
                    log.info("could not take the buttons off turn ping %s yet", ping.message_id)
                    continue
                try:
                    await self._pings.forget(ping.message_id)
                except Exception:
                    log.exception("could not forget turn ping %s", ping.message_id)
            await self._reword(channel_id)

    async def _reword(self, channel_id: int) -> None:
        """Edit the running turn's pings whose deadline moved (a pause or its resume, a
        decision that opened or was settled, a new setting): each says when the deadline
        passes now, or that it stands still (:func:`bot.ui.combat.ping_deadline_words`) — as
        the resume message and a decision's prompt do. Never raises; an edit Discord refuses
        is tried again after the next change."""
        try:
            found = await self._pings.running(channel_id)
            if found is None:
                return
            encounter, pings = found
            deadline = await self._client.services.combat.deadlines.running(encounter.id)
        except Exception:
            log.exception("could not read the turn pings' deadline in channel %s", channel_id)
            return
        words = ping_deadline_words(encounter, deadline)
        if words is None:
            return
        channel = self._client.get_partial_messageable(channel_id)
        for ping in pings:
            old = ping.deadline_words or ""
            if words == old or ping.content is None or old not in ping.content:
                continue
            content = ping.content.replace(old, words, 1)
            try:
                await channel.get_partial_message(ping.message_id).edit(content=content)
            except discord.NotFound:
                continue  # deleted: its row goes when its turn is over
            except discord.HTTPException:
                log.info("could not reword turn ping %s yet", ping.message_id)
                continue
            try:
                await self._pings.reworded(ping.message_id, content, words)
            except Exception:
                log.exception("could not note turn ping %s reworded", ping.message_id)
