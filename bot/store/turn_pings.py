"""Turn pings with buttons: the SQL that touches ``turn_pings`` (migration 0020; issue 17,
"Act from the ping"), and ``turn_announced`` (migration 0024): the turn each live fight's
announcement was last posted for — or, while a start-up posts a lost turn's ping, claimed for
(``claim``, migration 0027: a lease, "<until> <claimer>" as ``decisions.claim``; NULL once a
post showed the turn). Rows leave this module as :class:`TurnPing`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from bot.store.base import StoreConnection as Connection
from bot.store.timestamps import utc_text

RELEASED = f"{utc_text(datetime(1970, 1, 1, tzinfo=UTC))} released"
"""The claim a failed post leaves: lapsed at once (text order is time order), so the turn is
owed again to any process."""


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
    """The encounter's result posted last showed its turn ``turn_seq`` (no claim holds)."""
    await conn.execute(
        "INSERT INTO turn_announced (encounter_id, turn_seq) VALUES (?, ?)"
        " ON CONFLICT (encounter_id) DO UPDATE SET turn_seq = excluded.turn_seq, claim = NULL",
        (encounter_id, turn_seq),
    )


def lease(until: datetime, claimer: str) -> str:
    """A claim's text: ``"<until> <claimer>"`` (``claimer`` one word)."""
    if " " in claimer or not claimer:
        raise ValueError(f"a claimer's name is one word, got {claimer!r}")
    return f"{utc_text(until)} {claimer}"


def lapsed(claim: str | None, now: datetime) -> bool:
    """Whether ``claim`` is one whose time is over (None: no claim, the turn was shown)."""
    return claim is not None and claim < utc_text(now)


async def claim_announced(
    conn: Connection, encounter_id: int, was: int | None, turn_seq: int, claim: str, now: datetime
) -> bool:
    """Claim ``turn_seq``'s ping for the encounter (``claim``: :func:`lease`) if the turn noted
    is still ``was`` (None: no row) and no other claim holds: an earlier turn shown (no claim),
    or any claim that lapsed at ``now`` (its process died between claiming and posting). Whether
    this call did — another process may have been first; two claims never both hold."""
    if was is None:
        done = await conn.execute(
            "INSERT INTO turn_announced (encounter_id, turn_seq, claim) VALUES (?, ?, ?)"
            " ON CONFLICT (encounter_id) DO NOTHING",
            (encounter_id, turn_seq, claim),
        )
    else:
        done = await conn.execute(
            "UPDATE turn_announced SET turn_seq = ?, claim = ? WHERE encounter_id = ?"
            " AND turn_seq = ? AND (claim < ? OR (claim IS NULL AND turn_seq <> ?))",
            (turn_seq, claim, encounter_id, was, utc_text(now), turn_seq),
        )
    return done == 1


async def confirm_announced(conn: Connection, encounter_id: int, turn_seq: int, claim: str) -> None:
    """The ping :func:`claim_announced` claimed (``claim``) was posted: the turn is shown."""
    await conn.execute(
        "UPDATE turn_announced SET claim = NULL"
        " WHERE encounter_id = ? AND turn_seq = ? AND claim = ?",
        (encounter_id, turn_seq, claim),
    )


async def release_announced(conn: Connection, encounter_id: int, turn_seq: int, claim: str) -> None:
    """Undo :func:`claim_announced` (the post failed): the claim lapses at once
    (:data:`RELEASED`), so the turn is owed again — unless a later post noted its turn."""
    await conn.execute(
        "UPDATE turn_announced SET claim = ? WHERE encounter_id = ? AND turn_seq = ? AND claim = ?",
        (RELEASED, encounter_id, turn_seq, claim),
    )


async def maybe_unannounced(
    conn: Connection, now: datetime
) -> list[tuple[int, int | None, str | None]]:
    """``(channel_id, turn_seq noted, claim)`` of each live encounter whose running turn may
    have gone unannounced: those with no row (None: begun since migration 0024) or a known
    one (a row of -1, a fight live before it, is left out), where a turn runs that is not the
    one noted — or is, under a claim that lapsed at ``now`` (a process died between claiming
    its ping and posting it). The running turn is read from its column (``running_turn``,
    migration 0025); a row not written since it (NULL) is listed, to be read from its state."""
    rows = await conn.fetch_all(
        "SELECT e.channel_id, a.turn_seq, a.claim FROM encounters e"
        " LEFT JOIN turn_announced a ON a.encounter_id = e.id"
        " WHERE e.status = 'live' AND (a.turn_seq IS NULL OR a.turn_seq >= 0)"
        " AND (e.running_turn IS NULL OR (e.running_turn >= 0"
        " AND (a.turn_seq IS NULL OR a.turn_seq <> e.running_turn OR a.claim < ?)))"
        " ORDER BY e.id",
        (utc_text(now),),
    )
    return [
        (int(r["channel_id"]), None if r["turn_seq"] is None else int(r["turn_seq"]), r["claim"])
        for r in rows
    ]


async def lapsed_claims(conn: Connection, now: datetime) -> list[int]:
    """The channels of the live encounters whose lost turn's ping a process claimed and did not
    post before its claim lapsed at ``now`` (it died, or its post hung): owed again (by the
    index on claimed rows, only those are read)."""
    rows = await conn.fetch_all(
        "SELECT e.channel_id FROM turn_announced a JOIN encounters e ON e.id = a.encounter_id"
        " WHERE a.claim IS NOT NULL AND a.claim < ? AND e.status = 'live' ORDER BY e.id",
        (utc_text(now),),
    )
    return [int(r["channel_id"]) for r in rows]
