"""0008: member notices, and every stored name in its normal form (:mod:`bot.names`).

1. ``member_notices``: messages owed to a member, delivered once on their next interaction
   (``bot/store/notices.py``).
2. ``sheets``: each sheet's name, ``name_key`` and the names inside its JSON (weapons, powers,
   martial arts, extra limbs, stances, skills, inflicted conditions, damage types) are
   normalised. Names unique before (``Willow`` and ``Willow<U+200B>``) can be equal now; within
   what the unique indexes of 0005 keep apart (a member's characters in a server; a server's
   NPC templates) the name already in normal form keeps it, then the oldest sheet, and every
   other one gets the first free number (``Willow 2``). Each rename is logged, and the owner
   gets a notice saying what the sheet is called now.
3. ``encounters``: every encounter's name; in live encounters' states the encounter's name and
   every combatant's (numbered the same way within the encounter, the combatant's controller —
   or, for an NPC, the GM — told), and the names inside their sheet snapshots and the attack,
   stance and power names the state refers to.

Old snapshots in ``encounter_log`` are left as they are: states are read back with
``bot.names.STORED``, which applies the same normal form, so undo still restores them.
Running the step again changes nothing (the table exists, every name is already normal, nobody
is told twice).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot import names
from bot.store.db import Connection

log = logging.getLogger(__name__)

NPC_NAME_MAX = 72  # an NPC template's name leaves room for a copy's number ("Thug 12")
ENCOUNTER_NAME_MAX = 100
SHORT_MAX = 40  # a combatant's side, a damage type's 30 rounded up
DAMAGE_TYPE_MAX = 30

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS member_notices (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        text         TEXT    NOT NULL,
        created_at   TEXT    NOT NULL,
        delivered_at TEXT
    )""",
    """CREATE INDEX IF NOT EXISTS member_notices_pending
        ON member_notices (guild_id, user_id) WHERE delivered_at IS NULL""",
)


def _dumps(data: Any) -> str:
    """JSON as pydantic's ``model_dump_json`` writes it (compact, UTF-8 kept)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _name(value: Any, max_length: int = names.NAME_MAX) -> Any:
    return names.clean_stored(value, max_length=max_length) if isinstance(value, str) else value


def _damage_type(value: Any) -> Any:
    return _name(value, DAMAGE_TYPE_MAX).lower() if isinstance(value, str) else value


def _items(data: dict[str, Any], field: str) -> list[Any]:
    value = data.get(field)
    return list(value) if isinstance(value, list) else []


def _normal_sheet(data: Any) -> Any:
    """A sheet's JSON data with every name normalised and weapon, power and martial-art names
    made unique (as ``UttasSheet`` does for stored sheets). Unknown shapes are left alone."""
    if not isinstance(data, dict):
        return data
    sheet = dict(data)
    if "name" in sheet:
        sheet["name"] = _name(sheet["name"])
    taken: set[str] = set()
    for field in ("weapons", "powers", "martial_arts"):
        if isinstance(sheet.get(field), list):
            sheet[field] = [_normal_item(item, taken) for item in _items(sheet, field)]
    if isinstance(sheet.get("extra_limbs"), list):
        sheet["extra_limbs"] = [
            {**limb, "name": _name(limb.get("name"))} if isinstance(limb, dict) else limb
            for limb in sheet["extra_limbs"]
        ]
    if isinstance(sheet.get("stances"), list):
        sheet["stances"] = [_name(x) for x in sheet["stances"]]
    for field, clean in (("skills", _name), ("armor", _damage_type), ("defense", _damage_type)):
        mapping = sheet.get(field)
        if isinstance(mapping, dict):
            sheet[field] = _merged_keys(mapping, clean)
    return sheet


def _normal_item(item: Any, taken: set[str]) -> Any:
    """A weapon, power or martial art with its names normalised, its own name numbered past
    those in ``taken`` (which it joins)."""
    if not isinstance(item, dict):
        return item
    item = dict(item)
    if isinstance(item.get("name"), str):
        item["name"] = names.numbered(_name(item["name"]), taken)
        taken.add(names.key(item["name"]))
    if "damage_type" in item:
        item["damage_type"] = _damage_type(item["damage_type"])
    if isinstance(item.get("inflicts"), list):
        item["inflicts"] = [_name(x) for x in item["inflicts"]]
    return item


def _merged_keys(mapping: dict[str, Any], clean: Callable[[Any], Any]) -> dict[str, Any]:
    """``mapping`` with its keys cleaned; of keys that become equal, the first one's value."""
    merged: dict[str, Any] = {}
    for key, value in mapping.items():
        merged.setdefault(clean(key), value)
    return merged


@dataclass
class _Named:
    """One named thing in a group whose names must stay distinct."""

    ident: Any
    old: str
    normal: str
    final: str = ""


def _settle(group: list[_Named], max_length: int) -> list[tuple[_Named, str | None]]:
    """Give each thing of ``group`` (in order of age) its final name: its normal form, unless
    another one already has that name — the one whose stored name was already normal first,
    then the oldest — in which case the first free ``Name N``. Returns the ones whose owner
    must be told: renamed after a clash (with the name they clashed with) or blank before
    (``None``: now called ``Unnamed``)."""
    kept: dict[str, str] = {}
    clashing: list[_Named] = []
    for item in sorted(group, key=lambda n: n.old != n.normal):  # stable: keeps age order
        folded = names.key(item.normal)
        if folded in kept:
            clashing.append(item)
        else:
            kept[folded] = item.final = item.normal
    told: list[tuple[_Named, str | None]] = [
        (item, None) for item in group if item not in clashing and not names.visible(item.old)
    ]
    for item in clashing:
        item.final = names.numbered(item.normal, kept, max_length=max_length)
        kept[names.key(item.final)] = item.final
        told.append((item, kept[names.key(item.normal)]))
    age = {id(item): index for index, item in enumerate(group)}
    return sorted(told, key=lambda pair: age[id(pair[0])])


async def _notify(conn: Connection, guild_id: int, user_id: int, text: str, now: str) -> None:
    await conn.execute(
        "INSERT INTO member_notices (guild_id, user_id, text, created_at) VALUES (?, ?, ?, ?)",
        (guild_id, user_id, text, now),
    )


def _reason(other: str | None) -> str:
    return "the name was blank" if other is None else f"clashed with {other!r}"


def _why(whose: str, other: str | None, new: str) -> str:
    """The notice's sentence: ``whose`` names the group (``your characters``), ``other`` the
    name they shared (``None``: the name was blank)."""
    if other is None:
        return (
            f"with a blank name (only invisible characters) is now called **{names.escaped(new)}**."
        )
    return (
        f"two of {whose} were both called **{names.escaped(other)}** once invisible characters, "
        f"letter case and letter width are ignored; one of them is now called "
        f"**{names.escaped(new)}**."
    )


async def _sheets(conn: Connection, now: str) -> None:
    rows = await conn.fetch_all(
        "SELECT id, guild_id, owner_id, kind, name, name_key, sheet FROM sheets ORDER BY id"
    )
    groups = _sheet_groups(rows)
    by_id = {int(row["id"]): row for row in rows}
    renamed: list[tuple[_Named, str | None]] = []
    settled: list[_Named] = []
    for (_guild, kind, _owner), group in groups.items():
        renamed += _settle(group, NPC_NAME_MAX if kind == "npc" else names.NAME_MAX)
        settled += group
    changes = [
        change for item in settled if (change := _sheet_change(item, by_id[item.ident])) is not None
    ]
    await _write_sheets(conn, changes, by_id)
    for item, other in renamed:
        row = by_id[item.ident]
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
        said = _why(whose, other, item.final)
        text = (f"Your {noun} {said}" if other is None else said[:1].upper() + said[1:]) + (
            f" Use that name with `{command}` commands, or import it again under another name."
        )
        await _notify(conn, int(row["guild_id"]), int(row["owner_id"]), text, now)


def _sheet_groups(rows: list[Any]) -> dict[tuple[int, str, int | None], list[_Named]]:
    """The sheets whose names must stay distinct (a member's characters in a server; a
    server's NPC templates), each a list in order of age with its names' normal form."""
    groups: dict[tuple[int, str, int | None], list[_Named]] = {}
    for row in rows:
        npc = row["kind"] == "npc"
        limit = NPC_NAME_MAX if npc else names.NAME_MAX
        where = (int(row["guild_id"]), str(row["kind"]), None if npc else int(row["owner_id"]))
        normal = names.clean_stored(row["name"], max_length=limit)
        groups.setdefault(where, []).append(_Named(int(row["id"]), row["name"], normal))
    return groups


def _sheet_change(item: _Named, row: Any) -> tuple[int, str, str, str] | None:
    """``(id, name, name_key, sheet JSON)`` for a sheet whose stored row must change to its
    final name and normal names inside, else ``None``."""
    sheet_json = row["sheet"]
    try:
        stored = json.loads(sheet_json)
    except ValueError:
        stored = None  # unreadable JSON: left to the loader's error; the name still changes
    data = _normal_sheet(stored)
    if isinstance(data, dict):
        data["name"] = item.final
        if data != stored:
            sheet_json = _dumps(data)
    key = names.key(item.final)
    if (item.final, key, sheet_json) != (row["name"], row["name_key"], row["sheet"]):
        return item.ident, item.final, key, sheet_json
    return None


async def _write_sheets(
    conn: Connection, changes: list[tuple[int, str, str, str]], by_id: dict[int, Any]
) -> None:
    """Store ``changes`` in two steps, so that no row ever holds a key another row still has
    (the unique indexes); each new name is logged (``by_id``: the rows as they were)."""
    for ident, *_ in changes:
        await conn.execute("UPDATE sheets SET name_key = ? WHERE id = ?", (f"\x00{ident}", ident))
    for ident, final, key, sheet_json in changes:
        await conn.execute(
            "UPDATE sheets SET name = ?, name_key = ?, sheet = ? WHERE id = ?",
            (final, key, sheet_json, ident),
        )
        if by_id[ident]["name"] != final:
            log.info("sheet %s: name %r is now %r", ident, by_id[ident]["name"], final)


def _normal_state(
    state: dict[str, Any], title: str
) -> tuple[dict[str, Any], list[tuple[dict[str, Any], str, str | None]]]:
    """A live state with every name normalised; returns it and the combatants renamed
    because of a clash, with their old name and the name they clashed with."""
    result = dict(state)
    result["name"] = title
    combatants = [dict(c) for c in _items(state, "combatants") if isinstance(c, dict)]
    group = [
        _Named(i, c["name"], _name(c["name"]))
        for i, c in enumerate(combatants)
        if isinstance(c.get("name"), str)
    ]
    clashes = _settle(group, names.NAME_MAX)
    for item in group:
        combatants[item.ident]["name"] = item.final
    renamed = [(combatants[item.ident], item.old, other) for item, other in clashes]
    for c in combatants:
        _normal_combatant(c)
    if "combatants" in state:
        result["combatants"] = combatants
    pending = state.get("pending")
    if isinstance(pending, dict):
        result["pending"] = _normal_pending(pending)
    return result, renamed


def _normal_combatant(c: dict[str, Any]) -> None:
    """Normalise, in place, the names inside a combatant: its sheet snapshot, side, stance,
    maintained powers and readied attack."""
    clean: Callable[[Any], Any] = _name
    c["sheet"] = _normal_sheet(c.get("sheet"))
    if "side" in c:
        c["side"] = _name(c["side"], SHORT_MAX)
    if c.get("stance") is not None:
        c["stance"] = clean(c["stance"])
    if isinstance(c.get("maintained"), list):
        c["maintained"] = [
            {**m, "power": clean(m.get("power"))} if isinstance(m, dict) else m
            for m in c["maintained"]
        ]
    readied = c.get("readied")
    if isinstance(readied, dict) and readied.get("attack") is not None:
        c["readied"] = {**readied, "attack": clean(readied["attack"])}


def _normal_pending(pending: dict[str, Any]) -> dict[str, Any]:
    """A waiting attack with its attack's name, and its coordinated allies', normalised."""
    clean: Callable[[Any], Any] = _name
    pending = dict(pending)
    if "attack" in pending:
        pending["attack"] = clean(pending["attack"])
    if isinstance(pending.get("joint"), dict):
        pending["joint"] = {k: clean(v) for k, v in pending["joint"].items()}
    return pending


async def _encounters(conn: Connection, now: str) -> None:
    rows = await conn.fetch_all(
        "SELECT id, guild_id, gm_id, name, status, state FROM encounters ORDER BY id"
    )
    for row in rows:
        title = names.clean_stored(row["name"], max_length=ENCOUNTER_NAME_MAX)
        state_json = row["state"]
        renamed: list[tuple[dict[str, Any], str, str | None]] = []
        if row["status"] == "live":
            try:
                state = json.loads(row["state"])
            except ValueError:
                state = None
            if isinstance(state, dict):
                normal, renamed = _normal_state(state, title)
                if normal != state:
                    state_json = _dumps(normal)
        if (title, state_json) == (row["name"], row["state"]):
            continue
        await conn.execute(
            "UPDATE encounters SET name = ?, state = ? WHERE id = ?", (title, state_json, row["id"])
        )
        if title != row["name"]:
            log.info("encounter %s: name %r is now %r", row["id"], row["name"], title)
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
            where = f"In the encounter **{names.escaped(title)}**,"
            said = _why("its combatants", other, new)
            text = f"{where} {'your combatant ' + said if other is None else said}"
            await _notify(conn, int(row["guild_id"]), told, text, now)


async def migrate(conn: Connection) -> None:
    """Create ``member_notices`` and normalise every stored name (see the module docstring).
    Runs inside the migration's transaction."""
    for statement in SCHEMA:
        await conn.execute(statement)
    now = datetime.now(UTC).isoformat()
    await _sheets(conn, now)
    await _encounters(conn, now)
