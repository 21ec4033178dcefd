"""Loading a ruleset's GM-changeable tables (issue 10: every system keeps its numbers in
``data/<ruleset>/tables.json``): the shipped defaults read once per file, a server's changes
deep-merged on top, the result validated by the ruleset's own pydantic model. The engine reads
no file itself beyond these shipped defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot import names
from bot.engine.core.json_words import said
from bot.errors import InvalidInput

T = TypeVar("T", bound=BaseModel)


def deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``over`` on top: nested mappings merged key by key, anything else
    replaced. Neither argument changes."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


@lru_cache(maxsize=8)
def shipped(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` (a shipped tables file), read once."""
    with path.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def load(
    model: type[T],
    title: str,
    default_path: Path,
    source: Path | Mapping[str, Any] | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> T:
    """``model`` validated from a JSON file path or an already-parsed mapping (default:
    ``default_path``), ``overrides`` deep-merged on top. Raises :class:`InvalidInput` naming the
    first invalid field ("Invalid UTTAS table value at reactions.block.dodge_bonus: …")."""
    if source is None or isinstance(source, Path):
        base = shipped(source or default_path)
    else:
        base = dict(source)
    merged = deep_merge(base, overrides) if overrides else base
    try:
        return model.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(the tables)"
        # The entry's path holds what a server GM typed (a new stance's name): shown as typed,
        # in a code span (names.code: no Markdown read, no invisible character echoed).
        raise InvalidInput(
            f"Invalid {title} table value at {names.code(where)}: {said(first)}"
        ) from None


PLANNED = "planned"
"""The key a table field's ``json_schema_extra`` marks it with when no rule reads it yet: its
value says what the bot does instead (:func:`planned`)."""


def planned(reason: str) -> dict[str, Any]:
    """``json_schema_extra`` for a table entry the model keeps but no rule reads yet: setting
    it would change nothing, so ``/tables set`` refuses it (:func:`planned_entry`). ``reason``:
    what the bot plays by instead (a sentence)."""
    return {PLANNED: reason}


def planned_entry(model: type[BaseModel], path: Sequence[str]) -> str | None:
    """The reason the entry at ``path`` (or a table above it) is not read yet
    (:func:`planned`), or None: read, or not an entry of ``model``."""
    current: Any = model
    for part in path:
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return None
        field = current.model_fields.get(part)
        if field is None:
            return None
        extra = field.json_schema_extra
        if isinstance(extra, dict) and isinstance(extra.get(PLANNED), str):
            return str(extra[PLANNED])
        current = field.annotation
    return None
