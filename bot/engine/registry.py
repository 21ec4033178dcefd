"""The ruleset registry: every game system the bot knows, by its stable key.

Each implemented ruleset is registered once here (one line); a system that is planned but not
built yet is listed with its title so that choosing it is refused with a clear message. Keys are
unique, case-insensitively: registering one twice is a programming error (``ValueError``) found
at import time. Rulesets are looked up with :func:`get_ruleset`, with the shipped tables or a
server's changes on top (cached per distinct change set).
"""

from __future__ import annotations

import json
from typing import Any

from bot import names
from bot.engine.core.contract import Ruleset
from bot.engine.untitled.ruleset import UntitledRuleset
from bot.engine.utopia.ruleset import UtopiaRuleset
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uune.ruleset import UuneRuleset
from bot.errors import InvalidInput, RulesetNotImplemented

CACHE_MAX = 64


class Registry:
    """Ruleset classes by key, the planned systems, and a cache of configured instances."""

    def __init__(self) -> None:
        self._classes: dict[str, type[Ruleset[Any]]] = {}
        self._planned: dict[str, str] = {}
        self._cache: dict[tuple[str, str], Ruleset[Any]] = {}
        self._thawed: dict[tuple[str, str], Ruleset[Any]] = {}  # by (key, frozen rules)

    def register(self, cls: type[Ruleset[Any]]) -> None:
        """Add a ruleset class under its ``key``. Raises ``ValueError`` for a key taken."""
        key = cls.key.casefold()
        if key in self._classes or key in self._planned:
            raise ValueError(f"a ruleset with the key {cls.key!r} is already registered")
        self._classes[key] = cls

    def plan(self, key: str, title: str) -> None:
        """List a system that is planned but cannot run encounters yet."""
        if key in self._classes or key in self._planned:
            raise ValueError(f"a ruleset with the key {key!r} is already registered")
        self._planned[key] = title

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key, implemented or planned, in the order they were added."""
        return (*self._classes, *self._planned)

    @property
    def implemented(self) -> tuple[str, ...]:
        return tuple(self._classes)

    def get(
        self, key: str, overrides: str | None = None, frozen: str | None = None
    ) -> Ruleset[Any]:
        """The ruleset for ``key`` (case-insensitive): playing by ``frozen`` — the rules an
        encounter stored when it started (``Ruleset.frozen``) — when given; otherwise at the
        current rules version with the shipped tables, and a server's changes on top when
        ``overrides`` (JSON keyed by ruleset) has some.

        Raises :class:`RulesetNotImplemented` for a planned system,
        :class:`~bot.errors.RulesVersionUnknown` for frozen rules of a version this bot does
        not know, and :class:`InvalidInput` for an unknown key or changes the tables do not
        accept."""
        cls = self._class(key)
        k = cls.key.casefold()
        if frozen is not None:  # one instance per distinct rule set (rows share their text's hash)
            thawed = self._thawed.get((k, frozen))
            if thawed is None:
                if len(self._thawed) >= CACHE_MAX:
                    self._thawed.pop(next(iter(self._thawed)))
                thawed = self._thawed[(k, frozen)] = cls.thawed(frozen)
            return thawed
        changes = json.loads(overrides).get(k) if overrides else None
        cache_key = (k, json.dumps(changes, sort_keys=True) if changes else "")
        found = self._cache.get(cache_key)
        if found is None:
            found = self._remember(cache_key, cls.configured(changes))
        return found

    def _remember(self, cache_key: tuple[str, str], ruleset: Ruleset[Any]) -> Ruleset[Any]:
        if len(self._cache) >= CACHE_MAX:  # forget the oldest but the plain shipped tables
            self._cache.pop(next(c for c in self._cache if c[1]))
        self._cache[cache_key] = ruleset
        return ruleset

    def _class(self, key: str) -> type[Ruleset[Any]]:
        k = key.strip().casefold()
        cls = self._classes.get(k)
        if cls is None:
            if k in self._planned:
                raise RulesetNotImplemented(
                    f"{self._planned[k]} combat is planned but not available yet; "
                    "use UTTAS for now."
                )
            raise InvalidInput(
                f"Unknown ruleset {names.quoted(key)}. Choose one of: {', '.join(self.keys)}."
            )
        return cls


REGISTRY = Registry()
REGISTRY.register(UttasRuleset)
REGISTRY.register(UtopiaRuleset)
REGISTRY.register(UntitledRuleset)
REGISTRY.register(UuneRuleset)


def get_ruleset(key: str, overrides: str | None = None, frozen: str | None = None) -> Ruleset[Any]:
    """The ruleset for ``key`` (see :meth:`Registry.get`)."""
    return REGISTRY.get(key, overrides, frozen)


RULESET_KEYS = REGISTRY.keys
"""Every game system the product plans, in menu order."""
