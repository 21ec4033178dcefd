"""A test-only registry swap for Utopia: while :func:`playing_utopia` is active, the ``utopia``
key runs :class:`~bot.engine.utopia.ruleset.UtopiaRuleset` instead of being refused as
planned. The shipped registry keeps Utopia "planned" until it plays through Discord (issue 12)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.engine.registry import REGISTRY
from bot.engine.utopia.ruleset import UtopiaRuleset


@contextmanager
def playing_utopia() -> Iterator[None]:
    """While inside, ``get_ruleset("utopia")`` is :class:`UtopiaRuleset`."""
    classes, planned = REGISTRY._classes, REGISTRY._planned
    cache, thawed = REGISTRY._cache, REGISTRY._thawed
    REGISTRY._classes = {**classes, "utopia": UtopiaRuleset}
    REGISTRY._planned = {k: v for k, v in planned.items() if k != "utopia"}
    REGISTRY._cache, REGISTRY._thawed = {}, {}
    try:
        yield
    finally:
        REGISTRY._classes, REGISTRY._planned = classes, planned
        REGISTRY._cache, REGISTRY._thawed = cache, thawed
