"""``/gm log``: the encounter's whole log as a Markdown file (to read) and a JSON file (to keep or
process), built from the stored log entries. Only the GM receives them, so numbers are exact."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import discord

from bot.services import event_log
from bot.services.encounters import Encounter
from bot.services.log_commands import by_the_bot, shown_command
from bot.store.encounters import LogEntry
from bot.ui.text import inline_code, shown_name

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def log_document(encounter: Encounter, entries: list[LogEntry]) -> dict[str, Any]:
    """Everything the JSON file holds, in the log's format (:mod:`bot.services.event_log`): the
    encounter, every entry (who, what, options, the engine's commands and events with every
    die, the version, when, undo marks) and the state now."""
    records = [event_log.read(e, encounter.rules) for e in entries]
    about = {
        "id": encounter.id,
        "name": encounter.row.name,
        "ruleset": encounter.row.ruleset,
        "rules_version": encounter.row.rules_version,
        "gm_id": str(encounter.row.gm_id),
        "version": encounter.version,
        "paused": encounter.row.paused,
    }
    return event_log.document(about, records, json.loads(encounter.state_json))


def _dice(value: Any) -> list[str]:
    """Every rolled pool inside an event (``Roll`` dumps: ``purpose``, ``dice``, ``total``)."""
    found: list[str] = []
    if isinstance(value, dict):
        if isinstance(value.get("dice"), list) and "total" in value:
            faces = ", ".join(str(d) for d in value["dice"])
            modifier = int(value.get("modifier") or 0)
            plus = f" {modifier:+d}" if modifier else ""
            found.append(f"{value.get('purpose', 'roll')}: [{faces}]{plus} = {value['total']}")
        else:
            for inner in value.values():
                found.extend(_dice(inner))
    elif isinstance(value, list):
        for inner in value:
            found.extend(_dice(inner))
    return found


def log_markdown(encounter: Encounter, entries: list[LogEntry]) -> str:
    """The log as Markdown: one section per version, with options, what happened and the dice.
    Everything people typed or the engine wrote (names, options, event texts) is escaped, so a
    name holding Markdown or a mention shows as typed."""
    lines = [
        f"# {shown_name(encounter.row.name)} — encounter log",
        "",
        f"Ruleset: {encounter.rules.title}. Version now: {encounter.version}. "
        f"GM: <@{encounter.row.gm_id}>." + (" **Paused.**" if encounter.row.paused else ""),
        "",
    ]
    for e in (event_log.read(entry, encounter.rules) for entry in entries):
        mark = ""
        if e.undone_by is not None:
            mark = f" — *undone by version {e.undone_by}*"
        elif e.redo_cleared_by is not None:
            mark = f" — *redo cleared by version {e.redo_cleared_by}*"
        when = e.at.strftime("%Y-%m-%d %H:%M:%S UTC")
        # the command as members know it (the JSON file keeps the log's own label)
        command = shown_name(shown_command(e.command, e.options))
        lines.append(f"## Version {e.version}: {command}{mark}")
        lines.append(f"{when} · by {'the bot' if by_the_bot(e.actor_id) else f'<@{e.actor_id}>'}")
        if e.options:
            shown = ", ".join(f"{k}: {inline_code(str(v))}" for k, v in e.options.items())
            lines.append(f"Options: {shown}")
        for event in e.raw_events:
            said = str(event.get("text", event.get("kind", "")))
            lines.append(f"- {shown_name(said)}")
            lines.extend(f"  - 🎲 {shown_name(roll)}" for roll in _dice(event))
        if not e.raw_events and e.data:
            lines.append("- " + shown_name(", ".join(f"{k}: {v}" for k, v in e.data.items())))
        lines.append("")
    return "\n".join(lines)


def log_files(encounter: Encounter, entries: list[LogEntry]) -> list[discord.File]:
    """The Markdown and JSON files for one encounter's log."""
    stem = _UNSAFE.sub("-", encounter.row.name).strip("-")[:40] or "encounter"
    stem = f"{stem}-{encounter.id}-log"
    markdown = log_markdown(encounter, entries).encode()
    document = json.dumps(log_document(encounter, entries), indent=1, ensure_ascii=False).encode()
    return [
        discord.File(io.BytesIO(markdown), filename=f"{stem}.md"),
        discord.File(io.BytesIO(document), filename=f"{stem}.json"),
    ]
