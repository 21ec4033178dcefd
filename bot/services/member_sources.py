"""Where the bot keeps something about a member: the list of *sources* behind ``/me export``
and ``/me delete`` (issue 9 §9).

Each :class:`Source` names one kind of record, how to export a member's records (a JSON value
under ``key`` in the export document) and how to erase them, inside one transaction. Adding a
table that stores a user id means adding a source to :data:`SOURCES` — the export and the
erasure then cover it, and ``tests/services/test_member_data.py`` checks that every ``*_id``
user column of the schema is claimed by a source.

What is kept, and what erasing does:

* ``campaign_records`` — each of the member's characters' state between fights (Health,
  rests, lasting conditions; decision A). Erased: deleted (before the sheets they belong to).
* ``characters`` — the member's sheets, whole. Erased: deleted.
* ``npc_templates_created`` — the server's NPC templates the member made. They are the
  server's (its GMs use them), so erasing keeps them with no author (``owner_id`` 0).
* ``encounters_run`` — encounters the member started or holds the GM seat of. Erased: the
  starter, and the GM of archived ones, become 0. (A live encounter's seat must be handed on
  with ``/gm seat transfer`` or the encounter ended first; the service refuses until then.)
* ``combatants`` — combatants the member controls in the server's encounters, live or
  archived. Erased: a live encounter loses the controller through
  :meth:`EncounterService.change` (command ``forget_member``, which undo never undoes; done by
  the service before these sources run), an archived one gets a new version with it removed.
* ``encounter_log`` — log entries the member issued or that name them (options, results),
  without the state snapshots (those are the whole table's fight, kept for the GM's
  ``/gm log`` and undo); a result is whole only in a fight the member holds the GM seat of,
  elsewhere it is what they were shown (:func:`_as_seen`: an NPC's hidden numbers stay
  hidden). Erased: the entry stays, with actor 0, ``<@id>`` → "a former member",
  and the id removed from options, results and every snapshot; an entry that, replayed
  scrubbed over the scrubbed state before it, would give another state than it left (a
  mention's more words, a name a later combatant took) keeps the state it left, scrubbed, as
  its snapshot, so undo and restarts rebuild every version as it was (:func:`scrub_encounter_log`).
* ``prompts`` — Confirm / Cancel prompts the member opened, or about their data. Erased: open
  ones cancelled; the id replaced by 0.
* ``decisions_asked`` — decisions in a fight the member was asked to make (a reaction; the
  bot remembers who it pinged so nobody is pinged twice). Erased: the id leaves those lists.
* ``away`` — your ``/away`` mark (until when, who stands in) and the marks of members who
  named you to stand in for them. Erased: your mark is deleted; where you were named, the GM
  stands in instead.
* ``standing_reactions`` — standing reactions the member set for combatants (``/me
  reactions``: what a combatant does when a reaction window runs out). Erased: deleted.
* ``member_settings`` — the member's time zone and quiet hours (``/me settings``). Erased:
  deleted.
* ``notices`` — messages the bot kept for the member to read with their next command (a renamed
  sheet, a problem in a channel they run). Erased: deleted.

Not kept by the bot, so not in the export: messages it posted in Discord (they are Discord's;
delete them there), and the server's settings (they hold role ids, never a member's id).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.engine import Ruleset, get_ruleset
from bot.engine.core.audience import View, controller
from bot.services import replay
from bot.services.encounter import playing_rules
from bot.services.member_scrub import controlled_by, scrub_json, scrub_string
from bot.store import away as away_repo
from bot.store import campaign as campaign_repo
from bot.store import encounter_log as log_repo
from bot.store import encounters as encounter_repo
from bot.store import member_data as repo
from bot.store import member_settings as settings_repo
from bot.store import notices as notice_repo
from bot.store import sheets as sheet_repo
from bot.store import standing as standing_repo
from bot.store.base import Store, StoreConnection
from bot.store.encounter_log import LogEntry
from bot.store.sheets import SheetRow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScrubPlan:
    """Where the replays of :func:`_walk` got to over an encounter's log: ``digest`` of
    everything they read (the encounter's rules, then per log entry walked its version, result,
    snapshot and scrubbed result — what a replay and its check depend on, :func:`_fold`),
    ``walked`` entries, the snapshots ``left`` so far (by version), and the two states after
    the last one (``had``: as the log replays; ``shown``: as the scrubbed log does). The same
    inputs give the same walk, so a later call whose log starts with the same entries goes on
    from here (issue 15: the replays run before the erasure's write transaction)."""

    digest: bytes
    walked: int
    left: dict[int, str]
    had: Any
    shown: Any


@dataclass(frozen=True)
class Erasure:
    """Whose data is erased (``user_id``) in which server, the id logged as having done it
    (0 when the member erased their own data, else the server GM's), and when."""

    guild_id: int
    user_id: int
    actor_id: int
    now: datetime
    plans: dict[int, ScrubPlan] = field(default_factory=dict, compare=False, repr=False)
    """Per encounter id: the replays :func:`plan_scrub` worked out before the erasure's write
    transaction, which :func:`scrub_encounter_log` goes on from instead of replaying the log
    again while it holds the writer lock."""


Exporter = Callable[[StoreConnection, int, int], Awaitable[Any]]
Eraser = Callable[[StoreConnection, Erasure], Awaitable[int]]


@dataclass(frozen=True)
class Source:
    """One kind of record about a member: its ``key`` in the export, what it is (``what``, one
    line for people), its ``export`` (``(conn, guild_id, user_id) -> JSON value``) and
    ``erase`` (``(conn, erasure) -> rows changed``), and the ``table.column`` s holding user
    ids that it covers."""

    key: str
    what: str
    export: Exporter
    erase: Eraser
    columns: tuple[str, ...] = ()


def _sheet(row: SheetRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "ruleset": row.ruleset,
        "created_at": row.created_at.isoformat(),
        "updated_at": row.updated_at.isoformat(),
        "sheet": json.loads(row.sheet_json),
    }


async def _export_records(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [
        {
            "character_id": row.character_id,
            "ruleset": row.ruleset,
            "updated_at": row.updated_at.isoformat(),
            "record": json.loads(row.record),
        }
        for row in await campaign_repo.of_owner(conn, guild_id, user_id)
    ]


async def _erase_records(conn: StoreConnection, e: Erasure) -> int:
    return await campaign_repo.delete_of_owner(conn, e.guild_id, e.user_id)


async def _export_characters(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [_sheet(row) for row in await sheet_repo.characters_of(conn, guild_id, user_id)]


async def _erase_characters(conn: StoreConnection, e: Erasure) -> int:
    return await repo.delete_characters(conn, e.guild_id, e.user_id)


async def _export_npcs(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [_sheet(row) for row in await repo.npcs_authored(conn, guild_id, user_id)]


async def _erase_npcs(conn: StoreConnection, e: Erasure) -> int:
    return await repo.disown_npcs(conn, e.guild_id, e.user_id)


async def _export_encounters_run(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [
        {
            "encounter_id": ref.id,
            "encounter": ref.name,
            "channel_id": str(ref.channel_id),
            "status": ref.status,
            "you_hold_the_gm_seat": ref.gm_id == user_id,
            "you_started_it": ref.started_by == user_id,
            "created_at": ref.created_at.isoformat(),
            "ended_at": ref.ended_at.isoformat() if ref.ended_at else None,
        }
        for ref in await repo.encounters_naming(conn, guild_id, user_id)
        if user_id in (ref.gm_id, ref.started_by)
    ]


async def _erase_encounters_run(conn: StoreConnection, e: Erasure) -> int:
    return await repo.forget_seats(conn, e.guild_id, e.user_id)


async def _export_combatants(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    found: list[dict[str, Any]] = []
    for ref in await repo.encounters_naming(conn, guild_id, user_id):
        for combatant in controlled_by(json.loads(ref.state_json), user_id):
            found.append(
                {
                    "encounter_id": ref.id,
                    "encounter": ref.name,
                    "channel_id": str(ref.channel_id),
                    "status": ref.status,
                    "combatant_id": combatant["id"],
                    "combatant": combatant["name"],
                }
            )
    return found


async def _erase_archived_combatants(conn: StoreConnection, e: Erasure) -> int:
    """Archived encounters naming the member get a new version without them (validated by the
    ruleset, logged as ``forget_member``). Live ones were done through the write path."""
    changed = 0
    for ref in await repo.encounters_naming(conn, e.guild_id, e.user_id):
        row = await encounter_repo.by_id(conn, ref.id)
        if row is None or row.status != "archived" or str(e.user_id) not in row.stored_state:
            continue
        released = [c["name"] for c in controlled_by(json.loads(row.stored_state), e.user_id)]
        state = get_ruleset(row.ruleset).load_state(scrub_json(row.stored_state, e.user_id))
        saved = await encounter_repo.save(conn, row, now=e.now, state_json=state.model_dump_json())
        await encounter_repo.append_log(
            conn,
            encounter_id=row.id,
            version=saved.version,
            actor_id=e.actor_id,
            command="forget_member",
            options="{}",
            result=json.dumps({"released": released}),
            state=saved.state_json,
            now=e.now,
        )
        changed += 1
    return changed


def _entry(row: repo.LogRow) -> dict[str, Any]:
    def loads(text: str) -> Any:
        try:
            return json.loads(text)
        except ValueError:
            return text

    return {
        "encounter_id": row.encounter_id,
        "version": row.version,
        "at": row.created_at.isoformat(),
        "issued_by_you": None,  # filled in by the exporter
        "command": row.command,
        "options": loads(row.options),
        "result": loads(row.result),
        "undone_by": row.undone_by,
    }


async def _export_log(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    """The log entries ``user_id`` issued or that name them. The entries of an encounter they
    hold the GM seat of are whole (the engine's commands, events and dice: what ``/gm log``
    gives); any other entry's result says what happened as the member saw it
    (:func:`_as_seen`), so an NPC's hidden numbers stay hidden."""
    entries = []
    readers: dict[int, _Reader | None] = {}
    for row in await repo.log_issued_or_naming(conn, guild_id, user_id):
        entry = _entry(row)
        entry["issued_by_you"] = row.actor_id == user_id
        if row.encounter_id not in readers:
            readers[row.encounter_id] = await _reader(conn, row.encounter_id, user_id)
        reader = readers[row.encounter_id]
        if reader is not None:
            entry["result"] = _as_seen(entry["result"], reader)
        entries.append(entry)
    return {"count": len(entries), "omitted": 0, "entries": entries}


@dataclass(frozen=True)
class _Reader:
    """How a member reads one encounter's events: its rules (to parse them; None when they
    cannot be known) and the member's view."""

    rules: Ruleset[Any] | None
    view: View | None


async def _reader(conn: StoreConnection, encounter_id: int, user_id: int) -> _Reader | None:
    """How ``user_id`` reads encounter ``encounter_id``'s events: ``None`` when they hold its
    GM seat (every number), else as the controller of their combatants over its stored state
    (a combatant that state does not hold shows no number, :meth:`View.reveals`; an encounter
    whose rules or state cannot be read shows no event)."""
    row = await encounter_repo.by_id(conn, encounter_id)
    if row is None:
        return _Reader(None, None)
    if row.gm_id == user_id:
        return None
    try:
        rules = playing_rules(row)
        if row.state_version is None:
            state = rules.load_state(row.stored_state_text)
        else:  # the stored state is behind the row: the log has the changes since
            state = replay.rebuild(rules, await log_repo.history(conn, row.id, row.version))
    except replay.UNREADABLE:
        return _Reader(None, None)
    return _Reader(rules, rules.view(state, controller(user_id)))


_EXACT = ("commands", "events", "dice")
"""A log result's keys that hold the engine's exact work (module :mod:`bot.services.event_log`)."""


def _as_seen(result: Any, reader: _Reader) -> Any:
    """A log entry's result as the member saw it: the service's own data (who joined, to whom
    a seat went…) and ``shown``, the lines its events render for the member — without the
    engine's exact events, commands and dice, which carry the numbers the GM keeps."""
    if not isinstance(result, dict):
        return result
    kept = {k: v for k, v in result.items() if k not in _EXACT}
    logged = result.get("events")
    if isinstance(logged, list):
        shown: list[str] = []
        if reader.rules is not None and reader.view is not None:
            for raw in logged:
                if isinstance(raw, dict):
                    event = reader.rules.parse_event(raw)
                    shown.extend(line for line in event.render(reader.view) if line.strip())
        kept["shown"] = shown
    return kept


async def scrub_encounter_log(conn: StoreConnection, encounter_id: int, e: Erasure) -> int:
    """Replace the member in every log row of one encounter (actor, options, result, state
    snapshot); returns the rows changed.

    A row that keeps no snapshot and that, replayed as scrubbed over the scrubbed state before
    it, would not give the state it left scrubbed gets that state as its snapshot (rebuilt from
    the log before anything is scrubbed, :func:`_walk`). Scrubbing changes what replaying
    gives: a Talk's ``<@id>`` becomes "a former member", more words against the round's 25; a
    combatant named after the member takes a name a later row's new combatant may hold. An undo
    to an earlier version, a redo or a restart of a row whose stored state is behind would
    replay it (issue 15: a state is its nearest snapshot with the changes after it replayed);
    with the snapshot each version still rebuilds as the state it had, scrubbed. When the log
    cannot rebuild those states (damaged, or rules a newer bot froze) the rows from there on are
    scrubbed without them: the member's erasure comes first. The replays go on from
    ``e.plans[encounter_id]`` (:func:`plan_scrub`) when the log still starts as it read it
    (:func:`_walk`)."""
    rows = await repo.log_rows_naming(conn, encounter_id, e.user_id)
    results = {row.version: scrub_json(row.result, e.user_id) for row in rows}
    left: dict[int, str] = {}
    read = await _log_read(conn, encounter_id, rows)
    if read is not None:
        *_, left = _walk(encounter_id, *read, results, e.user_id, e.plans)  # to its end
    rewrites = [
        repo.LogRewrite(
            version=row.version,
            actor_id=repo.TOMBSTONE_ID if row.actor_id == e.user_id else row.actor_id,
            options=scrub_json(row.options, e.user_id),
            result=results[row.version],
            state=None if row.state is None else scrub_json(row.state, e.user_id),
        )
        for row in rows
    ]
    # ``left``'s snapshots after the rewrites: rows the scrub leaves unchanged among them.
    await repo.rewrite_log(conn, encounter_id, rewrites, left)
    return len(rows)


async def plan_scrub(db: Store, encounter_id: int, e: Erasure) -> None:
    """Work out, from committed data and with no lock held while it replays, what
    :func:`scrub_encounter_log` of this encounter will replay, into ``e.plans``
    (:class:`ScrubPlan`): the erasure's write transaction then only reads the log again, checks
    that it starts as read here (a digest) and replays what came since. Those replays (about
    0.2 ms a version after the member's first mention) otherwise ran inside the transaction,
    holding every channel's writes up (issue 15). The log is read through ``db.read()``, which
    is released before the replays, and they give the event loop a turn every
    :data:`PLAN_SLICE` versions. Nothing is planned for a log the replays cannot read."""
    async with db.read() as conn:
        rows = await repo.log_rows_naming(conn, encounter_id, e.user_id)
        read = await _log_read(conn, encounter_id, rows)
    if read is None:
        return
    results = {row.version: scrub_json(row.result, e.user_id) for row in rows}
    walk = _walk(encounter_id, *read, results, e.user_id, e.plans)
    while True:
        for _ in range(PLAN_SLICE):
            if next(walk, None) is None:
                return
        await asyncio.sleep(0)


PLAN_SLICE = 25
"""Versions :func:`plan_scrub` replays between two turns of the event loop (~5 ms)."""


async def _log_read(
    conn: StoreConnection, encounter_id: int, rows: list[repo.LogRow]
) -> tuple[Any, list[LogEntry]] | None:
    """The encounter's row and the log entries :func:`_walk` replays for ``rows`` (naming the
    member, ascending): from the nearest snapshot at or before the first of them to the row's
    version. None when no row names the member or the encounter is gone."""
    row = await encounter_repo.by_id(conn, encounter_id)
    if not rows or row is None:
        return None
    entries = await encounter_repo.history(conn, encounter_id, rows[0].version)
    entries += await encounter_repo.changes_after(conn, encounter_id, rows[0].version, row.version)
    return row, entries


def _fold(digest: Any, *parts: str | None) -> None:
    """Add ``parts`` to ``digest`` (each length-prefixed, None apart from any text)."""
    for part in parts:
        digest.update(b"\x00" if part is None else f"{len(part)}:{part}".encode())


def _fold_entry(digest: Any, entry: LogEntry, result: str | None) -> None:
    """Add what :func:`_walk` reads of ``entry`` to ``digest``: what its replay and check
    depend on (version, result, snapshot; ``result``, its scrubbed result if it names the
    member)."""
    _fold(digest, str(entry.version), entry.result, entry.state, result)


def _walk(
    encounter_id: int,
    row: Any,
    entries: list[LogEntry],
    results: dict[int, str],
    user_id: int,
    plans: dict[int, ScrubPlan],
) -> Iterator[dict[int, str]]:
    """The snapshots (scrubbed JSON text, by version) the entries without one need so that
    every version from the first row naming the member on rebuilds, from the scrubbed log, as
    the state it had scrubbed (``results``: those rows' scrubbed results). One pass from the
    nearest snapshot (:func:`_step`), going on from ``plans[encounter_id]`` when the log's
    first entries are those it walked, and yielding the snapshots found so far after each entry
    (so a caller can give the event loop turns); its end is kept in ``plans``. When the log
    cannot be replayed from some version on, the snapshots found before it are kept (logged)
    and no plan is."""
    plan = plans.pop(encounter_id, None)
    left: dict[int, str] = {}
    try:
        rules = playing_rules(row)
        if not entries or entries[0].state is None:
            raise replay.ReplayFailed("no snapshot to start from")
        digest = hashlib.sha256()
        _fold(digest, row.ruleset, row.rules_overrides, row.rules)
        start, had, shown = 0, None, None
        if plan is not None and plan.walked <= len(entries):
            probe = digest.copy()
            for entry in entries[: plan.walked]:
                _fold(
                    probe, str(entry.version), entry.result, entry.state, results.get(entry.version)
                )
            if probe.digest() == plan.digest:
                start, had, shown, digest = plan.walked, plan.had, plan.shown, probe
                left.update(plan.left)
        for version, entry in enumerate(entries[start:], start=entries[0].version + start):
            if entry.version != version:
                raise replay.ReplayFailed(f"the log does not hold version {version}")
            result = results.get(entry.version)
            had, shown, snapshot = _step(rules, had, shown, entry, result, user_id)
            _fold_entry(digest, entry, result)
            if snapshot is not None:
                left[entry.version] = snapshot
            yield left
        plans[encounter_id] = ScrubPlan(digest.digest(), len(entries), dict(left), had, shown)
    except replay.UNREADABLE as error:
        log.warning(
            "encounter %s: the states its scrubbed log rows left could not all be rebuilt (%s);"
            " those from there on are scrubbed without snapshots",
            encounter_id,
            error,
        )
    yield left


def _step(
    rules: Ruleset[Any], had: Any, shown: Any, entry: LogEntry, result: str | None, user_id: int
) -> tuple[Any, Any, str | None]:
    """One log entry of :func:`_walk`: the state its version had (``had`` after it,
    replayed from the log as it is), the state the scrubbed log rebuilds (``shown``: ``had``
    itself while the two agree, the member named in neither) and the snapshot the entry needs
    (None: none). ``result``: the entry's scrubbed result when it names the member. An entry
    whose replay, scrubbed, over the scrubbed state before it is refused or gives another state
    than the one it left, scrubbed, keeps that state as its snapshot."""
    digits = str(user_id)
    if entry.state is not None:
        had = rules.load_state(entry.state)
        if digits not in entry.state:
            return had, had, None
        return had, rules.load_state(scrub_json(entry.state, user_id)), None
    if shown is had and result is None:
        had = replay.replay(rules, had, entry)
        return had, had, None
    had = replay.replay(rules, had, entry)
    scrubbed = entry if result is None else entry.model_copy(update={"result": result})
    try:
        again: Any = replay.replay(rules, shown, scrubbed)
    except replay.UNREADABLE:
        again = None
    text = had.model_dump_json()
    if again is not None:
        shown_text = again.model_dump_json()
        if shown_text == text and digits not in text:  # the member is named in neither
            return had, had, None
        if shown_text == _controllers_scrubbed(text, digits):
            return had, again, None
    expected = scrub_json(text, user_id)
    wanted = had if expected == text else rules.load_state(expected)
    if again is not None and again.model_dump_json() == wanted.model_dump_json():
        return had, wanted, None
    return had, wanted, expected


def _controllers_scrubbed(text: str, digits: str) -> str | None:
    """State text whose only traces of the member are as combatants' controller, with those
    removed — :func:`scrub_json` of it without walking it (the common case: the member played
    in the fight; every version of it is checked) — or None when the id is elsewhere too. (A
    longer number starting with the id's digits gives text that is not JSON: equal to no
    state's.)"""
    controlled = f'"controller_id":{digits}'
    if text.count(digits) != text.count(controlled):
        return None
    return text.replace(controlled, '"controller_id":null')


async def _erase_log(conn: StoreConnection, e: Erasure) -> int:
    changed = 0
    for encounter_id in await repo.encounter_ids(conn, e.guild_id):
        changed += await scrub_encounter_log(conn, encounter_id, e)
    return changed


async def _export_prompts(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [
        {
            "id": p.id,
            "kind": p.kind,
            "status": p.status,
            "opened_by_you": p.opened_by == user_id,
            "channel_id": str(p.channel_id) if p.channel_id is not None else None,
            "created_at": p.created_at.isoformat(),
            "answered_at": p.answered_at.isoformat() if p.answered_at else None,
        }
        for p in await repo.prompts_naming(conn, guild_id, user_id)
    ]


async def _erase_prompts(conn: StoreConnection, e: Erasure) -> int:
    return await repo.forget_prompts(conn, e.guild_id, e.user_id, e.now)


async def _export_notices(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return await notice_repo.for_member(conn, guild_id, user_id)


async def _erase_notices(conn: StoreConnection, e: Erasure) -> int:
    return await notice_repo.delete_for_member(conn, e.guild_id, e.user_id)


async def _export_decisions(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [
        {
            "encounter_id": row["encounter_id"],
            "encounter": row["name"],
            "decision": row["kind"],
            "status": row["status"],
            "opened_at": row["created_at"],
        }
        for row in await repo.decisions_asking(conn, guild_id, user_id)
    ]


async def _erase_decisions(conn: StoreConnection, e: Erasure) -> int:
    def scrub(text: str) -> str:
        return scrub_string(text, e.user_id)

    asked = await repo.forget_asked(conn, e.guild_id, e.user_id)
    return asked + await repo.forget_in_retired_prompts(conn, e.guild_id, e.user_id, scrub)


async def _export_pings(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [
        {
            "encounter_id": row["encounter_id"],
            "encounter": row["name"],
            "channel_id": str(row["channel_id"]),
            "message_id": str(row["message_id"]),
            "turn": row["turn_seq"],
            "text": row["content"],
        }
        for row in await repo.pings_naming(conn, guild_id, user_id)
    ]


async def _erase_pings(conn: StoreConnection, e: Erasure) -> int:
    def scrub(text: str) -> str:
        return scrub_string(text, e.user_id)

    return await repo.forget_in_pings(conn, e.guild_id, e.user_id, scrub)


async def _export_away(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return [
        {
            "you_are_away": row.user_id == user_id,
            "away_member_id": str(row.user_id),
            "you_stand_in": row.delegate_id == user_id,
            "since": row.since.isoformat(),
            "until": row.until.isoformat() if row.until else None,
            "delegate_id": str(row.delegate_id) if row.delegate_id is not None else None,
        }
        for row in await away_repo.naming(conn, guild_id, user_id)
    ]


async def _erase_away(conn: StoreConnection, e: Erasure) -> int:
    return await away_repo.forget(conn, e.guild_id, e.user_id)


async def _export_standing(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return await standing_repo.of_member(conn, guild_id, user_id)


async def _erase_standing(conn: StoreConnection, e: Erasure) -> int:
    return await standing_repo.delete_of_member(conn, e.guild_id, e.user_id)


async def _export_settings(conn: StoreConnection, guild_id: int, user_id: int) -> Any:
    return await settings_repo.export(conn, guild_id, user_id)


async def _erase_settings(conn: StoreConnection, e: Erasure) -> int:
    return await settings_repo.delete(conn, e.guild_id, e.user_id)


SOURCES: tuple[Source, ...] = (
    Source(
        "campaign_records",
        "your characters' state between fights (Health, rests, lasting conditions)",
        _export_records,
        _erase_records,
        ("campaign_records.character_id",),
    ),
    Source(
        "characters",
        "your character sheets",
        _export_characters,
        _erase_characters,
        ("sheets.owner_id",),
    ),
    Source(
        "npc_templates_created",
        "NPC templates you created (they stay the server's, without your name)",
        _export_npcs,
        _erase_npcs,
        ("sheets.owner_id",),
    ),
    Source(
        "encounters_run",
        "encounters you started or run as GM",
        _export_encounters_run,
        _erase_encounters_run,
        ("encounters.started_by", "encounters.gm_id"),
    ),
    Source(
        "combatants",
        "combatants you control (the GM runs them from then on)",
        _export_combatants,
        _erase_archived_combatants,
        ("encounters.state",),
    ),
    Source(
        "encounter_log",
        "encounter-log entries you issued or that name you (kept, with your name replaced)",
        _export_log,
        _erase_log,
        (
            "encounter_log.actor_id",
            "encounter_log.options",
            "encounter_log.result",
            "encounter_log.state",
        ),
    ),
    Source(
        "prompts",
        "Confirm / Cancel prompts you opened",
        _export_prompts,
        _erase_prompts,
        ("prompts.opened_by", "prompts.target_id"),
    ),
    Source(
        "decisions_asked",
        "decisions in a fight you were asked to make (so you are pinged only once)",
        _export_decisions,
        _erase_decisions,
        ("decisions.asked", "decisions.retire_text", "decisions.retire_embed"),
    ),
    Source(
        "turn_pings",
        "turn pings that name you, still with their buttons (their text is kept to update "
        "the deadline in it)",
        _export_pings,
        _erase_pings,
        ("turn_pings.content", "turn_pings.deadline_words"),
    ),
    Source(
        "away",
        "your /away mark, and those of members who named you to act for them",
        _export_away,
        _erase_away,
        ("away_members.user_id", "away_members.delegate_id"),
    ),
    Source(
        "standing_reactions",
        "standing reactions you set for combatants (what they do when a window runs out)",
        _export_standing,
        _erase_standing,
        ("standing_reactions.member_id",),
    ),
    Source(
        "member_settings",
        "your time zone and quiet hours",
        _export_settings,
        _erase_settings,
        ("member_settings.user_id",),
    ),
    Source(
        "notices",
        "messages the bot kept for you to read on your next command",
        _export_notices,
        _erase_notices,
        ("member_notices.user_id",),
    ),
)
"""Every place the bot keeps something about a member, in export order. The encounter log
comes after ``combatants`` so that the ``forget_member`` entries archived encounters get are
scrubbed with the rest."""
