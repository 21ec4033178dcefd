"""The encounter store (``encounters``, ``encounter_log``) and a member's data across tables
(``member_data``) on both stores (SQLite and PostgreSQL, tests/store/conftest.py): a row reads
back the same, the versioned UPDATE and its log row are written together or not at all, a stale
copy (an older version, or open decisions that moved) is refused, undo/redo marks and the
snapshot history read back, and the erasing reads and writes find the member's rows."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.errors import ConcurrentUpdate, Conflict
from bot.store import encounters, member_data
from bot.store.base import Store
from bot.store.decisions import Opening

NOW = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
GUILD = 2**62 + 5  # Discord ids use all 64 bits; PostgreSQL keeps them as BIGINT
CHANNEL = 2**61 + 3
GM = 2**61 + 7
PLAYER = 2**60 + 11
STATE = json.dumps({"combatants": [{"name": "Ash", "character_id": 42, "controller_id": PLAYER}]})


async def start(store: Store, channel_id: int = CHANNEL) -> encounters.EncounterRow:
    async with store.transaction() as conn:
        return await encounters.insert(
            conn,
            guild_id=GUILD,
            channel_id=channel_id,
            name="Bridge",
            ruleset="uttas",
            started_by=GM,
            state_json=STATE,
            now=NOW,
        )


def log(row: encounters.EncounterRow, command: str, state: str | None) -> encounters.Statement:
    return encounters.log_statement(
        encounter_id=row.id,
        version=row.version + 1,
        actor_id=PLAYER,
        command=command,
        options="{}",
        result=f'{{"by": {PLAYER}}}',
        state=state,
        now=NOW,
    )


async def test_insert_reads_back_and_one_live_per_channel(store: Store) -> None:
    row = await start(store)
    assert (row.guild_id, row.channel_id, row.gm_id, row.version) == (GUILD, CHANNEL, GM, 1)
    assert row.decisions == () and row.status == "live" and row.created_at == NOW
    async with store.read() as conn:
        assert await encounters.live_in_channel(conn, CHANNEL) == row
        assert await encounters.by_id(conn, row.id) == row
        found = await encounters.live_with_character(conn, GUILD, 42)
        assert found is not None and found.id == row.id
        assert await encounters.live_with_character(conn, GUILD, 43) is None
    with pytest.raises(Conflict):
        await start(store)


async def test_save_writes_the_version_and_its_log_row_in_one_go(store: Store) -> None:
    row = await start(store)
    async with store.transaction() as conn:
        saved = await encounters.save(
            conn,
            row,
            now=NOW + timedelta(seconds=1),
            state_json='{"combatants": []}',
            pending=[Opening(1, 2, NOW + timedelta(minutes=5))],
            then=[log(row, "attack", None)],
        )
    assert saved.version == 2 and saved.decisions[0].ref == 1
    async with store.read() as conn:
        again = await encounters.by_id(conn, row.id)
        entries = await encounters.log_entries(conn, row.id)
    assert again is not None and again.version == 2 and again.state_json == '{"combatants": []}'
    assert [(d.ref, d.opened_version, d.deadline) for d in again.decisions] == [
        (1, 2, NOW + timedelta(minutes=5))
    ]
    assert [(e.version, e.command, e.state) for e in entries] == [(2, "attack", None)]

    # The stale copy (version 1) is refused, and its log row is not written.
    with pytest.raises(ConcurrentUpdate):
        async with store.transaction() as conn:
            await encounters.save(conn, row, now=NOW, then=[log(row, "move", None)])
    # A copy at the right version whose open decisions moved since it was read is refused too.
    async with store.transaction() as conn:
        await encounters.save(conn, again, now=NOW, pending=[])
    moved = again.model_copy(update={"version": 3})
    with pytest.raises(ConcurrentUpdate):
        async with store.transaction() as conn:
            await encounters.save(conn, moved, now=NOW, then=[log(moved, "move", None)])
    async with store.read() as conn:
        fresh = await encounters.by_id(conn, row.id)
        assert [e.version for e in await encounters.log_entries(conn, row.id)] == [2]
    assert fresh is not None and fresh.version == 3 and fresh.decisions == ()
    # The row as read now saves.
    async with store.transaction() as conn:
        await encounters.save(conn, fresh, now=NOW, then=[log(fresh, "move", STATE)])
    async with store.read() as conn:
        assert [e.version for e in await encounters.log_entries(conn, row.id)] == [2, 4]


async def test_a_row_held_without_its_state_text_saves_and_leaves_the_state_as_stored(
    store: Store,
) -> None:
    """A row an ``Encounter`` holds has no state text (issue 15, "Memory"): saving it without a
    new state moves the version and leaves the stored state as it is, at the version it was
    at (``state_version``: the log replays the changes since); with one, writes it."""
    row = await start(store)
    held = row.model_copy(update={"state_json": None})
    async with store.transaction() as conn:
        saved = await encounters.save(conn, held, now=NOW, status="archived")
    assert saved.version == 2 and saved.status == "archived" and saved.state_json is None
    assert saved.state_version == 1
    with pytest.raises(ValueError, match="without its state text"):
        _ = saved.stored_state_text
    async with store.read() as conn:
        again = await encounters.by_id(conn, row.id)
    assert again is not None and (again.version, again.state_json) == (2, STATE)
    assert (again.stored_state_text, again.stored_state_version) == (STATE, 1)
    with pytest.raises(ValueError, match="the stored state is at version 1, the row at 2"):
        _ = again.stored_state
    async with store.transaction() as conn:
        await encounters.save(
            conn, again.model_copy(update={"state_json": None}), now=NOW, state_json="{}"
        )
    async with store.read() as conn:
        last = await encounters.by_id(conn, row.id)
    assert last is not None and (last.version, last.state_json) == (3, "{}")
    assert last.state_version is None and last.stored_state == "{}"


async def test_a_save_can_return_its_row_without_the_state_text_it_wrote(store: Store) -> None:
    """``return_state_text=False`` (the change path, whose ``Encounter`` holds the parsed
    state): the state is written all the same, and the row returned — with the decisions read
    back when they changed — has no state text, so it need not be copied again to drop it."""
    row = await start(store)
    opening = Opening(ref=1, opened_version=row.version + 1, deadline=None)
    new_state = json.dumps({"combatants": [], "turn": 2})
    async with store.transaction() as conn:
        saved = await encounters.save(
            conn, row, now=NOW, state_json=new_state, pending=[opening], return_state_text=False
        )
    assert saved.state_json is None and saved.version == row.version + 1
    assert [(d.ref, d.opened_version) for d in saved.decisions] == [(1, row.version + 1)]
    async with store.transaction() as conn:  # the row returned is good for the next write
        again = await encounters.save(conn, saved, now=NOW, return_state_text=False)
    async with store.read() as conn:
        stored = await encounters.by_id(conn, row.id)
    assert stored is not None and (stored.version, stored.state_json) == (3, new_state)
    assert again.state_json is None and stored.decisions == again.decisions


async def test_undo_redo_marks_and_snapshot_history(store: Store) -> None:
    row = await start(store)
    async with store.transaction() as conn:
        await encounters.append_log(
            conn,
            encounter_id=row.id,
            version=1,
            actor_id=GM,
            command="start",
            options="{}",
            result="{}",
            state=STATE,
            now=NOW,
        )
        current = row
        for command in ("join", "attack"):
            current = await encounters.save(
                conn, current, now=NOW, then=[log(current, command, None)]
            )
    async with store.transaction() as conn:
        undoable = await encounters.last_undoable(conn, row.id)
        assert undoable is not None and undoable.command == "attack"
        await encounters.mark_undone(conn, row.id, undoable.version, 4)
        redoable = await encounters.last_redoable(conn, row.id)
        assert redoable is not None and redoable.version == 3
        await encounters.clear_redo(conn, row.id, 5)
        assert await encounters.last_redoable(conn, row.id) is None
    async with store.read() as conn:
        history = await encounters.history(conn, row.id, 3)
        entry = await encounters.log_entry(conn, row.id, 2)
    assert [(e.version, e.state is not None) for e in history] == [
        (1, True),
        (2, False),
        (3, False),
    ]
    assert entry is not None and entry.command == "join"


async def test_member_data_finds_and_forgets_a_member(store: Store) -> None:
    row = await start(store)
    async with store.transaction() as conn:
        await encounters.save(conn, row, now=NOW, then=[log(row, "attack", STATE)])
    async with store.read() as conn:
        named = await member_data.encounters_naming(conn, GUILD, PLAYER)
        issued = await member_data.log_issued_or_naming(conn, GUILD, PLAYER)
        rows = await member_data.log_rows_naming(conn, row.id, PLAYER)
        assert await member_data.encounter_ids(conn, GUILD) == [row.id]
        assert await member_data.encounters_naming(conn, GUILD, 999) == []
    assert [r.id for r in named] == [row.id]
    assert [(r.version, r.command) for r in issued] == [(2, "attack")]
    assert [(r.version, r.state) for r in rows] == [(2, STATE)]
    async with store.transaction() as conn:
        await member_data.rewrite_log(
            conn,
            row.id,
            [member_data.LogRewrite(2, member_data.TOMBSTONE_ID, "{}", "{}", None)],
        )
        assert await member_data.forget_seats(conn, GUILD, GM) == 1  # the starter; live GM stays
    async with store.read() as conn:
        assert await member_data.log_rows_naming(conn, row.id, PLAYER) == []
        after = await encounters.by_id(conn, row.id)
    assert after is not None and after.started_by == member_data.TOMBSTONE_ID and after.gm_id == GM


async def test_two_writers_of_one_version_one_wins(store: Store) -> None:
    """Two writers (on PostgreSQL: two pooled connections, as two processes would have) save
    the same version at once: exactly one commits its version and log row; the other gets
    :class:`ConcurrentUpdate` and writes nothing."""
    row = await start(store)

    async def write(command: str) -> str:
        try:
            async with store.transaction() as conn:
                await encounters.save(conn, row, now=NOW, then=[log(row, command, None)])
        except ConcurrentUpdate:
            return "refused"
        return command

    outcomes = await asyncio.gather(write("attack"), write("move"))
    assert outcomes.count("refused") == 1, outcomes
    (winner,) = [o for o in outcomes if o != "refused"]
    async with store.read() as conn:
        entries = await encounters.log_entries(conn, row.id)
        now = await encounters.by_id(conn, row.id)
    assert [(e.version, e.command) for e in entries] == [(2, winner)]
    assert now is not None and now.version == 2


async def test_a_copy_read_before_the_tracker_moved_is_refused(store: Store) -> None:
    """A row with no open decisions still carries what it read (``seen``), so a save from a
    copy read before the tracker message was noted is refused instead of writing the old
    (empty) tracker id back over the new one."""
    row = await start(store)
    assert row.decisions == () and row.seen is not None
    async with store.transaction() as conn:
        await encounters.set_tracker_message(conn, row.id, 777, pinned=False)
    with pytest.raises(ConcurrentUpdate):
        async with store.transaction() as conn:
            await encounters.save(conn, row, now=NOW, then=[log(row, "endturn", None)])
    async with store.read() as conn:
        fresh = await encounters.by_id(conn, row.id)
    assert fresh is not None and fresh.tracker_message_id == 777 and fresh.version == 1


async def test_a_tracker_is_recorded_only_in_place_of_the_one_it_replaces(store: Store) -> None:
    """Two processes that each posted a tracker for one encounter, both replacing the one they
    read: the first recorded stays, the second is told it lost (and deletes its message)."""
    row = await start(store)
    async with store.transaction() as conn:
        assert await encounters.set_tracker_message(conn, row.id, 777, replacing=None)
        assert not await encounters.set_tracker_message(conn, row.id, 778, replacing=None)
        assert await encounters.set_tracker_message(conn, row.id, 801, replacing=777)
        assert not await encounters.set_tracker_message(conn, row.id, 802, replacing=777)
    async with store.read() as conn:
        fresh = await encounters.by_id(conn, row.id)
    assert fresh is not None and fresh.tracker_message_id == 801


async def test_a_saved_row_carries_its_open_decisions_as_written(store: Store) -> None:
    """When a change opens or closes decisions, the row ``save`` returns carries them exactly
    as a read gives them (``seen``, the ids the database gave), so the next save from that row
    — the service keeps it instead of reading the row again — passes the check of what moved
    without a version; a prompt noted since is still caught."""
    row = await start(store)
    deadline = NOW + timedelta(minutes=5)
    async with store.transaction() as conn:
        opened = await encounters.save(
            conn,
            row,
            now=NOW,
            pending=[Opening(1, 2, deadline), Opening(2, 2, deadline)],
            then=[log(row, "attack", None)],
        )
    async with store.read() as conn:
        read = await encounters.by_id(conn, row.id)
    assert read is not None and opened.seen is not None
    assert opened.decisions == read.decisions and opened.seen == read.seen
    assert [d.ref for d in opened.decisions] == [1, 2] and opened.decisions[0].deadline == deadline
    async with store.transaction() as conn:  # one settled, from the row as returned: no read
        settled = await encounters.save(
            conn,
            opened,
            now=NOW,
            pending=[Opening(2, 2, deadline)],
            then=[log(opened, "react", None)],
        )
    async with store.read() as conn:
        read = await encounters.by_id(conn, row.id)
    assert read is not None and (settled.seen, settled.decisions) == (read.seen, read.decisions)
    assert settled.version == read.version == 3
    async with store.transaction() as conn:
        await encounters.set_prompt_message(conn, row.id, 2, 555, [PLAYER], ref=2)
    with pytest.raises(ConcurrentUpdate):  # the kept row is stale now: refused, not overwritten
        async with store.transaction() as conn:
            await encounters.save(
                conn, settled, now=NOW, pending=[], then=[log(settled, "x", None)]
            )
