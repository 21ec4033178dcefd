"""Takes the buttons off turn pings whose turn is over (issue 17, "Act from the ping";
:mod:`bot.services.turn_pings` keeps which pings carry them).

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

log = logging.getLogger(__name__)


class TurnPingKeeper:
    """Records the turn pings the bot posts and retires those whose turn is over."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._locks: dict[int, asyncio.Lock] = {}

    @property
    def _pings(self) -> TurnPings:
        return TurnPings(self._client.services.encounters)

    async def posted(self, encounter: Encounter, message_id: int) -> None:
        """``message_id`` carries the buttons of ``encounter``'s current turn. Never raises."""
        try:
            await self._pings.posted(encounter, message_id)
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
                try:
                    await channel.get_partial_message(ping.message_id).edit(view=None)
                except discord.NotFound:
                    pass  # deleted: nothing to take off
                except discord.HTTPException:
                    log.info("could not take the buttons off turn ping %s yet", ping.message_id)
                    continue
                try:
                    await self._pings.forget(ping.message_id)
                except Exception:
                    log.exception("could not forget turn ping %s", ping.message_id)
