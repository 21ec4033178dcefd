"""A test-only registry swap for Untitled: while :func:`playing_untitled` is active, the
``untitled`` key runs :class:`~bot.engine.untitled.ruleset.UntitledRuleset` instead of being
refused as planned. The shipped registry keeps Untitled "planned" until it plays through
Discord (issue 13)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.engine.registry import REGISTRY
from bot.engine.untitled.ruleset import UntitledRuleset


@contextmanager
def playing_untitled() -> Iterator[None]:
    """While inside, ``get_ruleset("untitled")`` is :class:`UntitledRuleset`."""
    classes, planned = REGISTRY._classes, REGISTRY._planned
    cache, thawed = REGISTRY._cache, REGISTRY._thawed
    REGISTRY._classes = {**classes, "untitled": UntitledRuleset}
    REGISTRY._planned = {k: v for k, v in planned.items() if k != "untitled"}
    REGISTRY._cache, REGISTRY._thawed = {}, {}
    try:
        yield
    finally:
        REGISTRY._classes, REGISTRY._planned = classes, planned
        REGISTRY._cache, REGISTRY._thawed = cache, thawed
