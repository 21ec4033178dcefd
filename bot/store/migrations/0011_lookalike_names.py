"""0011: names that look the same are one name, and names that show as blank are not names.

:func:`bot.names.key` became Unicode's confusables skeleton (``Willow`` and ``Wіllow`` with a
Cyrillic ``і`` have one key), and :mod:`bot.names` now refuses names with nothing visible (a lone
combining mark) and unassigned or private-use code points; stored ones read back as
:data:`bot.names.PLACEHOLDER` (or without those code points). What was stored before must agree:

1. ``sheets``: every ``name_key`` is recomputed (a key of a name outside ASCII changed: it is in
   NFD now, and lookalike letters map to their prototypes). Within what the unique indexes of
   0005 keep apart (a member's characters in a server; a server's NPC templates), sheets whose
   names now share a key are numbered as 0008 numbered them: the oldest keeps its name, every
   other gets the first free number (``Wіllow 2``). A name that now shows as blank becomes
   ``Unnamed``. The names inside each sheet's JSON (weapons, powers, martial arts: numbered the
   same way) follow. Each rename is logged and the owner gets a notice.
2. ``encounters``: in live encounters, combatants whose names now share a key are numbered the
   same way (their controller — or, for an NPC, the GM — told), blank-looking names become
   ``Unnamed``, and the names inside their sheet snapshots follow.

It reuses 0008's normalising steps (which apply today's :mod:`bot.names`), with notices that say
what happened here. Archived encounters and ``encounter_log`` snapshots are left as they are:
states are read back with :data:`bot.names.STORED`, which numbers lookalikes the same way. Running
the step again changes nothing.
"""

from __future__ import annotations

import importlib
import json
import logging
from datetime import UTC, datetime
from typing import Any

from bot import names
from bot.store.db import Connection

log = logging.getLogger(__name__)

_v8: Any = importlib.import_module("bot.store.migrations.0008_names_and_notices")


def _said(whose: str, other: str | None, old: str, new: str) -> str:
    """The notice's sentence about one renamed thing of ``whose`` (``your characters``);
    ``other`` is the name it looked like (``None``: it showed as blank)."""
    if other is None:
        return f"whose name showed as blank is now called **{names.escaped(new)}**."
    return (
        f"two of {whose} had names that look the same, **{names.escaped(other)}** and "
        f"**{names.escaped(old)}**, so the bot now treats them as one name; one of them is now "
        f"called **{names.escaped(new)}**."
    )


def _reason(other: str | None) -> str:
    return "the name showed as blank" if other is None else f"looked like {other!r}"


async def _sheets(conn: Connection, now: str) -> None:
    rows = await conn.fetch_all(
        "SELECT id, guild_id, owner_id, kind, name, name_key, sheet FROM sheets ORDER BY id"
    )
    by_id = {int(row["id"]): row for row in rows}
    groups = _v8._sheet_groups(rows)
    renamed: list[tuple[Any, str | None]] = []
    for (_guild, kind, _owner), group in groups.items():
        renamed += _v8._settle(group, _v8.NPC_NAME_MAX if kind == "npc" else names.NAME_MAX)
    changes: list[tuple[int, str, str, str]] = [
        change
        for group in groups.values()
        for item in group
        if (change := _v8._sheet_change(item, by_id[item.ident])) is not None
    ]
    # Two steps, so that no row ever holds a key another row still has (the unique indexes).
    for ident, *_ in changes:
        await conn.execute("UPDATE sheets SET name_key = ? WHERE id = ?", (f"\x00{ident}", ident))
    for ident, final, key, sheet_json in changes:
        await conn.execute(
            "UPDATE sheets SET name = ?, name_key = ?, sheet = ? WHERE id = ?",
            (final, key, sheet_json, ident),
        )
    for item, other in renamed:
        await _tell_owner(conn, by_id[item.ident], item, other, now)


async def _tell_owner(conn: Connection, row: Any, item: Any, other: str | None, now: str) -> None:
    """Log a sheet's rename and tell its owner (``other``: the name it looked like)."""
    noun = "NPC template" if row["kind"] == "npc" else "character"
    log.warning(
        "sheet %s (%s of member %s in server %s) renamed %r -> %r (%s)",
        item.ident,
        noun,
        row["owner_id"],
        row["guild_id"],
        item.old,
        item.final,
        _reason(other),
    )
    command = "/npc" if row["kind"] == "npc" else "/character"
    whose = "this server's NPC templates" if row["kind"] == "npc" else "your characters"
    said = _said(whose, other, item.old, item.final)
    text = (f"Your {noun} {said}" if other is None else said[:1].upper() + said[1:]) + (
        f" Use that name with `{command}` commands, or import it again under another name."
    )
    await _v8._notify(conn, int(row["guild_id"]), int(row["owner_id"]), text, now)


async def _encounters(conn: Connection, now: str) -> None:
    rows = await conn.fetch_all(
        "SELECT id, guild_id, gm_id, name, state FROM encounters WHERE status = 'live' ORDER BY id"
    )
    for row in rows:
        title = names.clean_stored(row["name"], max_length=_v8.ENCOUNTER_NAME_MAX)
        try:
            state = json.loads(row["state"])
        except ValueError:
            state = None
        state_json, renamed = row["state"], []
        if isinstance(state, dict):
            normal, renamed = _v8._normal_state(state, title)
            if normal != state:
                state_json = _v8._dumps(normal)
        if (title, state_json) == (row["name"], row["state"]):
            continue
        await conn.execute(
            "UPDATE encounters SET name = ?, state = ? WHERE id = ?", (title, state_json, row["id"])
        )
        for combatant, old, other in renamed:
            new = combatant["name"]
            controller = combatant.get("controller_id")
            told = int(controller) if controller is not None else int(row["gm_id"])
            log.warning(
                "encounter %s: combatant %s renamed %r -> %r (%s)",
                row["id"],
                combatant.get("id"),
                old,
                new,
                _reason(other),
            )
            said = _said("its combatants", other, old, new)
            where = f"In the encounter **{names.escaped(title)}**,"
            text = f"{where} {'your combatant ' + said if other is None else said}"
            await _v8._notify(conn, int(row["guild_id"]), told, text, now)


async def migrate(conn: Connection) -> None:
    """Recompute name keys and number lookalike or blank-looking names (see the module
    docstring). Runs inside the migration's transaction."""
    now = datetime.now(UTC).isoformat()
    await _sheets(conn, now)
    await _encounters(conn, now)
