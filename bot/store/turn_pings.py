"""Turn pings with buttons: the SQL that touches ``turn_pings`` (migration 0020; issue 17,
"Act from the ping"), and ``turn_announced`` (migration 0024): the turn each live fight's
announcement was last posted for. Rows leave this module as :class:`TurnPing`."""

from __future__ import annotations

from typing import NamedTuple

from bot.store.base import StoreConnection as Connection


class TurnPing(NamedTuple):
    """A posted turn ping (``message_id``, in ``channel_id``) whose buttons are for the turn
    ``turn_seq`` of ``encounter_id``; its text as it stands (``content``) and the words in it
    that say when the turn's deadline passes (``deadline_words``; migration 0023) — None for a
    ping recorded before, which is not edited."""

    message_id: int
    encounter_id: int
    channel_id: int
    turn_seq: int
    content: str | None = None
    deadline_words: str | None = None


async def put(conn: Connection, ping: TurnPing) -> None:
    """Record ``ping`` (a message recorded again keeps its latest turn)."""
    await conn.execute(
        "INSERT INTO turn_pings"
        " (message_id, encounter_id, channel_id, turn_seq, content, deadline_words)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO UPDATE SET"
        " encounter_id = excluded.encounter_id, channel_id = excluded.channel_id,"
        " turn_seq = excluded.turn_seq, content = excluded.content,"
        " deadline_words = excluded.deadline_words",
        tuple(ping),
    )


async def of_channel(conn: Connection, channel_id: int) -> list[TurnPing]:
    """The turn pings in the channel that still have their buttons, oldest first."""
    rows = await conn.fetch_all(
        "SELECT message_id, encounter_id, channel_id, turn_seq, content, deadline_words"
        " FROM turn_pings WHERE channel_id = ? ORDER BY message_id",
        (channel_id,),
    )
    return [
        TurnPing(
            int(r["message_id"]),
            int(r["encounter_id"]),
            int(r["channel_id"]),
            int(r["turn_seq"]),
            r["content"],
            r["deadline_words"],
        )
        for r in rows
    ]


async def reworded(conn: Connection, message_id: int, content: str, deadline_words: str) -> None:
    """The ping ``message_id`` now reads ``content``, saying ``deadline_words`` of its deadline."""
    await conn.execute(
        "UPDATE turn_pings SET content = ?, deadline_words = ? WHERE message_id = ?",
        (content, deadline_words, message_id),
    )


async def remove(conn: Connection, message_id: int) -> None:
    """Forget the ping ``message_id`` (its buttons are gone)."""
    await conn.execute("DELETE FROM turn_pings WHERE message_id = ?", (message_id,))


async def channels(conn: Connection) -> list[int]:
    """The channels that have turn pings still recorded with their buttons whose turn may be
    over: the ping's encounter is not live, or its running turn (column ``running_turn``,
    migration 0025; -1 when none runs) is another — or unknown (NULL: not written since the
    migration, to be read from its state). A ping of the turn running now is left out, so
    start-up does not load every live fight to find none over."""
    rows = await conn.fetch_all(
        "SELECT DISTINCT p.channel_id FROM turn_pings p"
        " LEFT JOIN encounters e ON e.id = p.encounter_id"
        " WHERE e.id IS NULL OR e.status <> 'live' OR e.running_turn IS NULL"
        " OR e.running_turn <> p.turn_seq"
        " ORDER BY p.channel_id"
    )
    return [int(r["channel_id"]) for r in rows]


async def announced(conn: Connection, encounter_id: int, turn_seq: int) -> None:
    """The encounter's result posted last showed its turn ``turn_seq``."""
    await conn.execute(
        "INSERT INTO turn_announced (encounter_id, turn_seq) VALUES (?, ?)"
        " ON CONFLICT (encounter_id) DO UPDATE SET turn_seq = excluded.turn_seq",
        (encounter_id, turn_seq),
    )


async def claim_announced(
    conn: Connection, encounter_id: int, was: int | None, turn_seq: int
) -> bool:
    """Note ``turn_seq`` shown for the encounter if the turn noted is still ``was`` (None: no
    row); whether this call did — another process's start-up may have been first."""
    if was is None:
        done = await conn.execute(
            "INSERT INTO turn_announced (encounter_id, turn_seq) VALUES (?, ?)"
            " ON CONFLICT (encounter_id) DO NOTHING",
            (encounter_id, turn_seq),
        )
    else:
        done = await conn.execute(
            "UPDATE turn_announced SET turn_seq = ? WHERE encounter_id = ? AND turn_seq = ?",
            (turn_seq, encounter_id, was),
        )
    return done == 1


async def release_announced(
    conn: Connection, encounter_id: int, was: int | None, turn_seq: int
) -> None:
    """Undo :func:`claim_announced` (the post failed), unless a later post noted its turn."""
    if was is None:
        await conn.execute(
            "DELETE FROM turn_announced WHERE encounter_id = ? AND turn_seq = ?",
            (encounter_id, turn_seq),
        )
    else:
        await conn.execute(
            "UPDATE turn_announced SET turn_seq = ? WHERE encounter_id = ? AND turn_seq = ?",
            (was, encounter_id, turn_seq),
        )


async def maybe_unannounced(conn: Connection) -> list[tuple[int, int | None]]:
    """``(channel_id, turn_seq announced)`` of each live encounter whose running turn may
    have gone unannounced: those with no row (None: begun since migration 0024) or a known
    one (a row of -1, a fight live before it, is left out), where a turn runs that is not the
    one announced. The running turn is read from its column (``running_turn``, migration
    0025); a row not written since it (NULL) is listed, to be read from its state."""
    rows = await conn.fetch_all(
        "SELECT e.channel_id, a.turn_seq FROM encounters e"
        " LEFT JOIN turn_announced a ON a.encounter_id = e.id"
        " WHERE e.status = 'live' AND (a.turn_seq IS NULL OR a.turn_seq >= 0)"
        " AND (e.running_turn IS NULL OR (e.running_turn >= 0"
        " AND (a.turn_seq IS NULL OR a.turn_seq <> e.running_turn)))"
        " ORDER BY e.id"
    )
    return [
        (int(r["channel_id"]), None if r["turn_seq"] is None else int(r["turn_seq"])) for r in rows
    ]
