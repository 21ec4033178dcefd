"""Waiting longer between tries at something Discord refused (a channel the bot lost access to),
so a lost channel does not cost a refused request every second. Shared by the tracker and the
decision-prompt keepers; times are seconds of the event loop's clock."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class Backoff(Generic[K]):
    """When to try each refused key again: ``first`` seconds after the first refusal, doubling
    with each further refusal up to ``most``."""

    def __init__(self, first: float, most: float) -> None:
        self.first, self.most = first, most
        self.waits: dict[K, tuple[float, float]] = {}  # key -> (next try, current wait)

    def __contains__(self, key: object) -> bool:
        return key in self.waits

    def refused(self, key: K) -> None:
        """``key`` was refused (again): wait before the next try."""
        _, wait = self.waits.get(key, (0.0, self.first / 2))
        wait = min(wait * 2, self.most)
        self.waits[key] = (asyncio.get_running_loop().time() + wait, wait)

    def cleared(self, key: K) -> None:
        """``key`` worked (or no longer needs trying)."""
        self.waits.pop(key, None)

    def waiting(self, key: K) -> bool:
        """Whether ``key`` was refused and its wait is not over yet."""
        entry = self.waits.get(key)
        return entry is not None and entry[0] > asyncio.get_running_loop().time()

    def due(self) -> list[K]:
        """The refused keys whose wait is over."""
        now = asyncio.get_running_loop().time()
        return [key for key, (when, _) in self.waits.items() if when <= now]
