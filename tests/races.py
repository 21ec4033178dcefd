"""Racing two changes of one channel in an order the test chooses: hold the channel's lock,
start both, wait until both queue on it, let go."""

from __future__ import annotations

import asyncio

from bot.services.encounters import EncounterService


class WatchedLock(asyncio.Lock):
    """A channel lock that counts the tasks that had to wait for it."""

    def __init__(self) -> None:
        super().__init__()
        self.queued = 0
        self._changed = asyncio.Event()

    async def acquire(self) -> bool:
        if self.locked():
            self.queued += 1
            self._changed.set()
        return await super().acquire()

    async def wait_queued(self, count: int, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Wait until ``count`` tasks in all have queued for the lock."""
        async with asyncio.timeout(timeout):
            while self.queued < count:
                self._changed.clear()
                await self._changed.wait()


def watch_channel_lock(service: EncounterService, channel_id: int) -> WatchedLock:
    """Give the channel a :class:`WatchedLock` (before anything holds its lock) and return it;
    every change of that channel queues on it, in arrival order."""
    assert channel_id not in service._locks or not service._locks[channel_id].locked()
    lock = service._locks[channel_id] = WatchedLock()
    return lock
