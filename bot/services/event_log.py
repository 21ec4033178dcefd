"""The one event-log format (issue 10, decision G): what every change of an encounter logs, and
the one reader that undo and redo, ``/gm log`` (its Markdown and JSON files), a member's data
export — and later a recap, charts and a database copy — all go through.

One log entry per committed version (``encounter_log``): who (``actor_id``; 0 for the bot), the
command's name (``command``: ``attack``, ``join``, ``undo``…), the options a member typed
(``options``, JSON object), its **result** (JSON object, written by :func:`result`):

``{"commands": [<engine command>, …], "events": [<engine event>, …], "dice": [<int>, …],
"at": <ISO 8601>, "marker": <int>, …}``

— the engine commands applied in order (each a ruleset command's ``model_dump``, discriminated
by ``kind``), every event they produced (the ruleset's events, discriminated by ``kind``, every
die kept), every die the change rolled in the order it was rolled (``dice``; absent when none
was and in entries written before it), the engine clock the commands ran at (``at``: present
when the commands are all the change did to the state, or it changed nothing), the issue mark
it dated a new turn or decision with (``marker``), and any service data about the change
(``added``, ``to``…). A change that ran no engine command (a transfer, a pause) has no
``commands``/``events``/``dice``. An entry keeps a full snapshot of the state after it
(``state``) only every N versions, when a fight ends, and when it has no ``at`` (start, undo,
redo, a refresh, an erasure…); any other state is rebuilt by replaying the commands over the
nearest earlier snapshot with their dice (:mod:`bot.services.replay`, issue 15). Entries written
before this format read the same way (with fewer events; each kept its state).

The JSON document ``/gm log`` sends (:func:`document`) is this format with ``"format":
FORMAT`` at the top: the same entries, one object each.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict

from bot.engine import Event
from bot.engine.core.commands import CommandBase
from bot.engine.core.contract import Ruleset
from bot.store.encounters import LogEntry

FORMAT = "combat-log/1"


def result(
    commands: Sequence[CommandBase] = (),
    events: Sequence[Event] = (),
    dice: Sequence[int] = (),
    at: datetime | None = None,
    **data: Any,
) -> dict[str, Any]:
    """A change's result in the log's format (module docstring): the engine ``commands`` it
    applied, every event they produced, every die rolled in order (``dice``), the engine clock
    they ran at (``at``; given only when ``commands`` are all the change did to the state, so
    it can be replayed — :mod:`bot.services.replay`) and the service's own ``data``. The
    commands and events are written already (:func:`written`)."""
    out: dict[str, Any] = dict(data)
    if at is not None:
        out["at"] = at.isoformat()
    if commands:
        out["commands"] = written(commands)
    if events:
        out["events"] = written(events)
    if dice:
        out["dice"] = list(dice)
    return out


def written(models: Sequence[BaseModel]) -> orjson.Fragment:
    """``models`` as a JSON list, written by pydantic once (issue 15, "CPU diet": no
    ``model_dump`` to plain data for ``orjson`` to write again): the same JSON as
    ``[m.model_dump(mode="json") for m in models]`` written by ``orjson``. A result's
    ``commands`` and ``events`` are these, which the log writes as they are
    (``bot.services.encounters._dumps``); read them back from the log's text (:func:`read`)."""
    return orjson.Fragment(
        b"[" + b",".join(m.__pydantic_serializer__.to_json(m) for m in models) + b"]"
    )


class LogRecord(BaseModel):
    """One log entry read back: the entry's fields with ``options`` and the result parsed —
    ``commands`` (plain data), ``events`` (the ruleset's events; one this version cannot read
    becomes a GM-only note) and ``data`` (the rest of the result)."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    version: int
    at: datetime
    actor_id: int
    command: str
    options: dict[str, Any]
    commands: list[dict[str, Any]]
    events: list[Event]
    raw_events: list[dict[str, Any]]
    data: dict[str, Any]
    dice: list[int] = []
    ran_at: str | None = None
    """When the engine ran the change (``at``, ISO 8601): present when it can be replayed."""
    marker: int | None = None
    """The issue mark the change dated what began in it with (``marker``), if any."""
    undone_by: int | None = None
    redo_cleared_by: int | None = None


def _object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def read(entry: LogEntry, rules: Ruleset[Any]) -> LogRecord:
    """``entry`` in the log's format, its events parsed by ``rules`` (the encounter's)."""
    found = _object(entry.result)
    commands = found.pop("commands", [])
    logged = found.pop("events", [])
    dice = found.pop("dice", [])
    ran_at, marker = found.pop("at", None), found.pop("marker", None)
    raw = [e for e in logged if isinstance(e, dict)] if isinstance(logged, list) else []
    return LogRecord(
        version=entry.version,
        at=entry.created_at,
        actor_id=entry.actor_id,
        command=entry.command,
        options=_object(entry.options),
        commands=[c for c in commands if isinstance(c, dict)] if isinstance(commands, list) else [],
        events=[rules.parse_event(e) for e in raw],
        raw_events=raw,
        data=found,
        dice=[d for d in dice if isinstance(d, int)] if isinstance(dice, list) else [],
        ran_at=ran_at if isinstance(ran_at, str) else None,
        marker=marker if isinstance(marker, int) else None,
        undone_by=entry.undone_by,
        redo_cleared_by=entry.redo_cleared_by,
    )


def entry_json(record: LogRecord) -> dict[str, Any]:
    """One entry of the JSON document: the stored fields, the result exactly as logged (events
    this version cannot read included)."""
    return {
        "version": record.version,
        "at": record.at.isoformat(),
        "actor_id": str(record.actor_id),
        "command": record.command,
        "options": record.options,
        "result": {
            **record.data,
            **({"commands": record.commands} if record.commands else {}),
            **({"events": record.raw_events} if record.raw_events else {}),
            **({"dice": record.dice} if record.dice else {}),
            **({"at": record.ran_at} if record.ran_at is not None else {}),
            **({"marker": record.marker} if record.marker is not None else {}),
        },
        "undone_by": record.undone_by,
        "redo_cleared_by": record.redo_cleared_by,
    }


def document(
    encounter: dict[str, Any], records: Iterable[LogRecord], state: dict[str, Any]
) -> dict[str, Any]:
    """The log as one JSON document: ``format``, the ``encounter`` it belongs to, every entry
    (:func:`entry_json`) and the ``state`` now."""
    return {
        "format": FORMAT,
        "encounter": encounter,
        "entries": [entry_json(r) for r in records],
        "state": state,
    }
