"""Replacing a forgotten member's identity in stored JSON and text (pure; no I/O).

A member's Discord id can sit anywhere in what the bot stores about a fight: a combatant's
``controller_id``, a transfer's ``{"member": id}`` options, ``{"from": id, "to": id}`` results,
a ``<@id>`` mention in an event's text. Rather than list those places (and miss the next one),
:func:`scrub_value` walks a whole JSON value and replaces every occurrence:

* ``controller_id`` equal to the id → ``None`` (the combatant has no player: the GM runs it);
* any other integer equal to the id → :data:`TOMBSTONE_ID` (0);
* in strings, ``<@id>`` / ``<@!id>`` → :data:`FORMER_MEMBER`, and the id's digits standing
  alone (not inside a longer number) → ``0``.

Discord ids are 17-20 digit snowflakes, so no game number (Health, dice, versions) is mistaken
for one.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bot.store.member_data import TOMBSTONE_ID

FORMER_MEMBER = "a former member"
_CONTROLLER = "controller_id"


def _patterns(user_id: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    return re.compile(rf"<@!?{user_id}>"), re.compile(rf"(?<!\d){user_id}(?!\d)")


def scrub_string(text: str, user_id: int) -> str:
    """``text`` with mentions of ``user_id`` replaced by :data:`FORMER_MEMBER` and the bare id
    by ``0``."""
    if str(user_id) not in text:
        return text
    mention, bare = _patterns(user_id)
    return bare.sub(str(TOMBSTONE_ID), mention.sub(FORMER_MEMBER, text))


def scrub_value(value: Any, user_id: int) -> Any:
    """A copy of a JSON value (dicts, lists, strings, numbers) with every trace of ``user_id``
    replaced (see the module docstring)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return TOMBSTONE_ID if value == user_id else value
    if isinstance(value, str):
        return scrub_string(value, user_id)
    if isinstance(value, list):
        return [scrub_value(item, user_id) for item in value]
    if isinstance(value, dict):
        scrubbed: dict[str, Any] = {}
        for key, item in value.items():
            if key == _CONTROLLER and item == user_id:
                scrubbed[key] = None
            else:
                scrubbed[scrub_string(str(key), user_id)] = scrub_value(item, user_id)
        return scrubbed
    return value


def scrub_json(text: str, user_id: int) -> str:
    """A stored JSON text with every trace of ``user_id`` replaced, written compactly as the
    store writes it; text that is not JSON is scrubbed as a string. Unchanged when the id's
    digits do not occur in it."""
    if str(user_id) not in text:
        return text
    try:
        value = json.loads(text)
    except ValueError:
        return scrub_string(text, user_id)
    return json.dumps(scrub_value(value, user_id), ensure_ascii=False, separators=(",", ":"))


def controlled_by(state: Any, user_id: int) -> list[dict[str, Any]]:
    """The combatants (``{"id", "name"}``) of a parsed encounter state that ``user_id``
    controls."""
    combatants = state.get("combatants", []) if isinstance(state, dict) else []
    return [
        {"id": c.get("id"), "name": c.get("name")}
        for c in combatants
        if isinstance(c, dict) and c.get(_CONTROLLER) == user_id
    ]
