"""A server's changes to its ruleset tables: the numbers the rules texts leave open (what a
Block adds, what each stance does, characteristic dice, …), kept per server in SQLite.

Changes are stored as a JSON document keyed by ruleset and deep-merged over the shipped tables
(``data/uttas/tables.json``); every change is validated by building the tables with it, so a
refused change stores nothing. Encounters started afterwards use them; a running fight keeps the
tables it started with (``docs/rules/uttas.md``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot import names
from bot.engine import REGISTRY, get_ruleset
from bot.engine.core.tables import planned_entry
from bot.errors import InvalidInput, NotAllowed
from bot.services.actor import Actor
from bot.services.permissions import is_server_gm
from bot.store import guild_settings
from bot.store.base import Store

OVERRIDES_MAX = 16_384  # characters of JSON per server
NOT_SERVER_GM = (
    "Only a GM of this server (Manage Server, Manage Channels or the server's GM role) can "
    "change its rule tables."
)
REMOVE = "-"


def _walk(data: Any, path: list[str]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            raise KeyError(part)
        data = data[part]
    return data


def parse_path(path: str) -> list[str]:
    """``"reactions.block.dodge_bonus"`` → its parts. Raises :class:`InvalidInput`."""
    parts = [p.strip() for p in path.strip().split(".")]
    if not path.strip() or any(not p for p in parts) or len(parts) > 6:
        raise InvalidInput(
            f"{names.code(path[:80])} is not a table entry; use dots: "
            "`reactions.block.dodge_bonus`."
        )
    return parts


def parse_value(raw: str) -> Any:
    """A number, true/false, null, a JSON list or object — else the text itself."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw.strip()


class TableService:
    """Read and change one server's ruleset tables."""

    def __init__(self, db: Store, *, clock: Callable[[], datetime]) -> None:
        self._db = db
        self._clock = clock

    async def overrides(self, guild_id: int) -> dict[str, Any]:
        """The server's changes, keyed by ruleset (empty when it has none)."""
        async with self._db.read() as conn:
            raw = await guild_settings.rules_overrides(conn, guild_id)
        loaded: dict[str, Any] = json.loads(raw)
        return loaded

    async def effective(self, guild_id: int, ruleset: str) -> dict[str, Any]:
        """The tables a new encounter of this server would use, as plain data."""
        raw = json.dumps(await self.overrides(guild_id))
        rules = get_ruleset(ruleset, raw)
        tables: dict[str, Any] = rules.tables.model_dump(mode="json")
        return tables

    async def value(self, guild_id: int, ruleset: str, path: str) -> Any:
        """The value in force at ``path``. Raises :class:`InvalidInput` for an unknown entry."""
        parts = parse_path(path)
        tables = await self.effective(guild_id, ruleset)
        try:
            return _walk(tables, resolve(tables, parts))
        except KeyError as missing:
            raise InvalidInput(_no_entry(ruleset, path, parts, str(missing.args[0]))) from None

    async def entry(self, guild_id: int, ruleset: str, path: str) -> str:
        """``path`` as the server's tables spell it (:func:`resolve`): what ``/tables set``
        changed, e.g. ``stances.Aggressive.dodge_bonus`` for ``stances.aggressive.dodge_bonus``."""
        return ".".join(resolve(await self.effective(guild_id, ruleset), parse_path(path)))

    @staticmethod
    def planned(ruleset: str, path: str) -> str | None:
        """Why the entry at ``path`` of ``ruleset``'s tables is not read yet
        (:func:`bot.engine.core.tables.planned`), or None (read, or no such entry)."""
        return planned_entry(type(get_ruleset(ruleset).tables), path.split("."))

    async def change(
        self, guild_id: int, actor: Actor, ruleset: str, path: str, raw: str
    ) -> dict[str, Any]:
        """Set the entry at ``path`` to ``raw`` (``-`` removes the server's change there; ``{}``
        where the shipped tables hold an object does too — merged over it, it changes nothing —
        and elsewhere is stored: a new stance with every effect at its default). Returns
        the server's new changes. Raises :class:`NotAllowed` for a non-GM and
        :class:`InvalidInput` for a value the tables refuse, or an entry no rule reads yet
        (:func:`bot.engine.core.tables.planned`; removing a change there is allowed) — nothing
        is stored then."""
        async with self._db.transaction() as conn:
            if not await is_server_gm(conn, guild_id, actor):  # before the options are read
                raise NotAllowed(NOT_SERVER_GM)
            current: dict[str, Any] = json.loads(
                await guild_settings.rules_overrides(conn, guild_id)
            )
            tables = get_ruleset(ruleset, json.dumps(current)).tables.model_dump(mode="json")
            parts = resolve(tables, parse_path(path))
            changes = current.setdefault(ruleset, {})
            node = changes
            for part in parts[:-1]:
                nxt = node.get(part)
                if not isinstance(nxt, dict):
                    nxt = node[part] = {}
                node = nxt
            value = None if raw.strip() == REMOVE else parse_value(raw)
            removing = value is None or (value == {} and _shipped_object(ruleset, parts))
            if removing:
                # "-", or an empty object where the shipped tables hold one: merged over it, it
                # changes nothing, so the server's changes there are cleared.
                node.pop(parts[-1], None)
            else:
                node[parts[-1]] = value
            _prune(current, [ruleset, *parts[:-1]])
            encoded = json.dumps(current, sort_keys=True)
            if len(encoded) > OVERRIDES_MAX:
                raise InvalidInput(
                    f"That makes this server's table changes {len(encoded):,} characters long; "
                    f"the limit is {OVERRIDES_MAX:,}."
                )
            _check(ruleset, encoded, parts, path, removing=removing)
            await guild_settings.set_rules_overrides(conn, guild_id, encoded, self._clock())
        return current

    async def reset(self, guild_id: int, actor: Actor, ruleset: str) -> None:
        """Forget every change this server made to ``ruleset``'s tables."""
        async with self._db.transaction() as conn:
            if not await is_server_gm(conn, guild_id, actor):
                raise NotAllowed(NOT_SERVER_GM)
            current: dict[str, Any] = json.loads(
                await guild_settings.rules_overrides(conn, guild_id)
            )
            current.pop(ruleset, None)
            await guild_settings.set_rules_overrides(
                conn, guild_id, json.dumps(current, sort_keys=True), self._clock()
            )


def resolve(tables: dict[str, Any], parts: list[str]) -> list[str]:
    """``parts`` spelt as ``tables`` (a ruleset's tables as plain data) spell them: a part
    naming an entry that is there under another way of writing the same name (README "Names":
    letter case, invisible characters, lookalike letters — ``aggressive``, ``Аggressive`` with
    a Cyrillic ``А``) becomes that entry's key, so the change reaches it rather than adding a
    second entry with the same name that lookups by name never find (stances, extra
    conditions); a part naming nothing there is kept in its normal form (``Ｗｉｌｄ`` →
    ``Wild``, as the tables store a new name), or as typed when it is no name at all."""
    resolved: list[str] = []
    node: Any = tables
    for part in parts:
        if isinstance(node, dict) and part not in node:
            same = [key for key in node if names.same(key, part)]
            if same:
                part = same[0]
            else:
                with contextlib.suppress(ValueError):  # no name: refused as no entry
                    part = names.clean(part)
        resolved.append(part)
        node = node.get(part) if isinstance(node, dict) else None
    return resolved


def _check(ruleset: str, encoded: str, parts: list[str], path: str, *, removing: bool) -> None:
    """Refuse the server's changes ``encoded`` when ``ruleset``'s tables do not take them, or
    when the entry set at ``parts`` is missing or not read yet. Raises :class:`InvalidInput`."""
    try:
        rules = get_ruleset(ruleset, encoded)  # raises InvalidInput naming the bad entry
    except InvalidInput:
        hint = elsewhere(ruleset, parts) if not _has(ruleset, parts) else ""
        if not hint:
            raise
        # An entry of another system's tables, sent without `ruleset:`.
        raise InvalidInput(_no_entry(ruleset, path, parts)) from None
    if removing:
        return
    try:
        _walk(rules.tables.model_dump(mode="json"), parts)
    except KeyError:
        raise InvalidInput(_no_entry(ruleset, path, parts)) from None
    reason = planned_entry(type(rules.tables), parts)
    if reason is not None:  # accepted, it would change nothing
        raise InvalidInput(
            f"{names.code(path[:80])} is not read by the bot yet (planned): {reason}. "
            "Nothing was changed."
        )


def _has(ruleset: str, parts: list[str]) -> bool:
    """Whether ``ruleset``'s shipped tables hold an entry at ``parts``."""
    try:
        _walk(get_ruleset(ruleset).tables.model_dump(mode="json"), parts)
    except KeyError:
        return False
    return True


def _no_entry(ruleset: str, path: str, parts: list[str], missing: str | None = None) -> str:
    """The refusal of an entry ``ruleset``'s tables lack: the system by its name ("The Utopia
    tables", not its key upper-cased), the entry as typed in a code span, the part not found
    when it is not the whole entry, and where else it is (:func:`elsewhere`)."""
    where = f" (no {names.quoted(missing)} there)" if missing and missing != path.strip() else ""
    return (
        f"The {get_ruleset(ruleset).title} tables have no entry {names.code(path[:120])}{where}."
        + elsewhere(ruleset, parts)
    )


def elsewhere(ruleset: str, parts: list[str]) -> str:
    """For an entry ``ruleset``'s tables lack: which other game systems' tables hold it and
    the ``ruleset:`` that reaches them (a server GM who left ``ruleset:`` out outside a fight of
    that system, UTTAS being the default there) — or "" when none does."""
    others = [key for key in REGISTRY.implemented if key != ruleset and _has(key, parts)]
    if not others:
        return ""
    titles = [get_ruleset(key).title for key in others]
    owners = " and ".join(title + "'s" for title in titles)
    adds = " or ".join(f"`ruleset:{title}`" for title in titles)
    return f" {owners} tables have it: add {adds}."


def _shipped_object(ruleset: str, parts: list[str]) -> bool:
    """Whether ``ruleset``'s shipped tables hold an object (not a number, text or list) at
    ``parts``."""
    try:
        found = _walk(get_ruleset(ruleset).tables.model_dump(mode="json"), parts)
    except KeyError:
        return False
    return isinstance(found, dict)


def _prune(data: dict[str, Any], path: list[str]) -> None:
    """Drop the objects along ``path`` (the parents of the entry just changed) that a removal
    left empty, deepest first — and no other: an empty object set as a value (``{}``, a new
    stance with every effect at its default) is a change, kept."""
    if not path or not isinstance(data.get(path[0]), dict):
        return
    _prune(data[path[0]], path[1:])
    if not data[path[0]]:
        del data[path[0]]


def leaf_paths(data: Any, prefix: str = "") -> list[str]:
    """Every ``a.b.c`` path to a non-object value in ``data`` (for autocomplete)."""
    if not isinstance(data, dict):
        return [prefix] if prefix else []
    paths: list[str] = []
    for key, value in data.items():
        paths += leaf_paths(value, f"{prefix}.{key}" if prefix else str(key))
    return paths
