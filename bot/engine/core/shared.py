"""Shared sheets (issue 15, "Memory"): a combatant's sheet is an immutable snapshot (every
ruleset's sheet model is frozen and no code changes one in place; changes make a new one with
``model_copy``), so every combatant whose stored sheet is the same text — the same monster five
times, the same character in several encounters — can hold the one parsed object.

:func:`shared` parses a sheet once per distinct content and hands out that object while anything
still holds it (a weak map: a sheet no encounter holds any more is let go with it).
"""

from __future__ import annotations

import contextlib
import json
import weakref
from collections.abc import Callable
from typing import Any

_SHEETS: weakref.WeakValueDictionary[tuple[type, str, str], Any] = weakref.WeakValueDictionary()


def shared(owner: type, data: Any, context: Any, parse: Callable[[Any], Any]) -> Any:
    """The parsed sheet for ``data`` (as stored: a JSON object read into a dict), shared with
    every other combatant of model ``owner`` that was given the same content under the same
    validation ``context``; ``parse(data)`` makes it the first time. Anything but a dict (an
    already parsed sheet) is handed to ``parse`` as it is."""
    if not isinstance(data, dict):
        return parse(data)
    try:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        where = "" if context is None else json.dumps(context, sort_keys=True, default=str)
    except (TypeError, ValueError):  # not plain JSON data: nothing to share by
        return parse(data)
    key = (owner, where, text)
    found = _SHEETS.get(key)
    if found is not None:
        return found
    sheet = parse(data)
    with contextlib.suppress(TypeError):  # a model that cannot be weakly referenced: unshared
        _SHEETS[key] = sheet
    return sheet
