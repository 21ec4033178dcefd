"""A test-only registry swap for Uune: while :func:`playing_uune` is active, the ``uune`` key
runs :class:`~bot.engine.uune.ruleset.UuneRuleset` instead of being refused as planned. The
shipped registry keeps Uune "planned" until it plays through Discord (issue 14)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.engine.registry import REGISTRY
from bot.engine.uune.ruleset import UuneRuleset


@contextmanager
def playing_uune() -> Iterator[None]:
    """While inside, ``get_ruleset("uune")`` is :class:`UuneRuleset`."""
    classes, planned = REGISTRY._classes, REGISTRY._planned
    cache, thawed = REGISTRY._cache, REGISTRY._thawed
    REGISTRY._classes = {**classes, "uune": UuneRuleset}
    REGISTRY._planned = {k: v for k, v in planned.items() if k != "uune"}
    REGISTRY._cache, REGISTRY._thawed = {}, {}
    try:
        yield
    finally:
        REGISTRY._classes, REGISTRY._planned = classes, planned
        REGISTRY._cache, REGISTRY._thawed = cache, thawed
