"""The small stores beside the encounter store, on both stores (SQLite and PostgreSQL,
tests/store/conftest.py): turn timers, turn pings, reminder points, standing reactions, default
actions and the server-wide encounter lists read back the same on both, and their
exactly-once steps (closing a timer, claiming a reminder point) succeed once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

from bot.services.turn_pings import LEASE
from bot.store import (
    default_actions,
    guild_encounters,
    reminders,
    standing,
    turn_pings,
    turn_timers,
)
from bot.store.base import Store, StoreConnection
from bot.store.db import Database, bundled_migrations
from bot.store.decisions import REACTION, Opening, sync, ts
from bot.store.turn_pings import TurnPing

NOW = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
GUILD = 2**62 + 5  # Discord ids use all 64 bits; PostgreSQL keeps them as BIGINT
GM = 2**61 + 7
PLAYER = 2**60 + 11


async def add_encounter(
    conn: StoreConnection,
    channel_id: int,
    *,
    guild_id: int = GUILD,
    gm_id: int = GM,
    name: str = "Bridge",
    status: str = "live",
    paused: int = 0,
) -> int:
    """A bare encounter row (the encounter store's writes are not what these tests check)."""
    return await conn.insert(
        "INSERT INTO encounters (guild_id, channel_id, name, ruleset, started_by, gm_id, status,"
        " state, created_at, updated_at, paused) VALUES (?, ?, ?, 'uttas', ?, ?, ?, '{}', ?, ?, ?)",
        (guild_id, channel_id, name, gm_id, gm_id, status, ts(NOW), ts(NOW), paused),
    )


def state(*, deadline_s: int, turn_seq: int = 1, phase: str = "active") -> SimpleNamespace:
    """The parts of an encounter state :func:`turn_timers.follow` reads."""
    return SimpleNamespace(
        settings=SimpleNamespace(turn_deadline_s=deadline_s),
        phase=phase,
        turn=object() if phase == "active" else None,
        turn_seq=turn_seq,
    )


async def test_turn_timer_opens_pauses_resumes_and_closes_once(store: Store) -> None:
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
    async with store.read() as conn:
        timer = await turn_timers.open_timer(conn, enc)
        assert timer is not None
        assert (timer.ref, timer.deadline, timer.remaining_s) == (
            1,
            NOW + timedelta(seconds=60),
            None,
        )
        assert await turn_timers.due(conn, NOW + timedelta(seconds=59)) == []
        assert await turn_timers.due(conn, NOW + timedelta(seconds=60)) == [(enc, timer.id)]
    async with store.transaction() as conn:
        await turn_timers.pause(conn, enc, NOW + timedelta(seconds=20))
    async with store.read() as conn:
        paused = await turn_timers.get(conn, timer.id)
        assert paused is not None and paused.deadline is None and paused.remaining_s == 40.0
        assert await turn_timers.due(conn, NOW + timedelta(days=1)) == []
    async with store.transaction() as conn:
        await turn_timers.resume(conn, enc, NOW + timedelta(seconds=100), 60)
    async with store.transaction() as conn:
        assert await turn_timers.close(conn, timer.id, NOW + timedelta(seconds=200))
        assert not await turn_timers.close(conn, timer.id, NOW + timedelta(seconds=200))
    async with store.read() as conn:
        assert await turn_timers.open_timer(conn, enc) is None
        assert await turn_timers.get(conn, timer.id) is None
    async with store.transaction() as conn:  # the same turn gets no second deadline
        await turn_timers.follow(conn, enc, state(deadline_s=60), state(deadline_s=60), 3, NOW)
    async with store.read() as conn:
        assert await turn_timers.open_timer(conn, enc) is None


async def test_turn_timer_resumed_runs_the_seconds_left(store: Store) -> None:
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
        await turn_timers.pause(conn, enc, NOW + timedelta(seconds=20))
        await turn_timers.resume(conn, enc, NOW + timedelta(seconds=100), 60)
    async with store.read() as conn:
        timer = await turn_timers.open_timer(conn, enc)
        assert timer is not None
        assert timer.deadline == NOW + timedelta(seconds=140) and timer.remaining_s is None


async def test_a_turns_clock_stops_and_runs_on_with_each_change(store: Store) -> None:
    """``follow(stopped=True)`` — a change that leaves a decision open or the fight paused —
    stops the running deadline keeping the seconds left, a later change without either runs
    it on with them, and a turn that begins while stopped starts stopped with the whole
    setting."""
    later = NOW + timedelta(hours=5)
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
        on = state(deadline_s=60)
        await turn_timers.follow(conn, enc, on, on, 3, NOW + timedelta(seconds=20), stopped=True)
        stopped = await turn_timers.open_timer(conn, enc)
        assert stopped is not None and (stopped.deadline, stopped.remaining_s) == (None, 40.0)
        await turn_timers.follow(conn, enc, on, on, 4, NOW + timedelta(hours=1), stopped=True)
        await turn_timers.follow(conn, enc, on, on, 5, later)
        running = await turn_timers.open_timer(conn, enc)
        assert running is not None and running.deadline == later + timedelta(seconds=40)
        assert running.remaining_s is None
        nxt = state(deadline_s=60, turn_seq=2)
        await turn_timers.follow(conn, enc, on, nxt, 6, later, stopped=True)
        begun = await turn_timers.open_timer(conn, enc)
        assert begun is not None and (begun.ref, begun.deadline, begun.remaining_s) == (
            2,
            None,
            60.0,
        )


async def test_a_waiting_reaction_holds_the_turn_deadline(store: Store) -> None:
    late = NOW + timedelta(minutes=5)
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
        await sync(conn, enc, [], [Opening(1, 2, None)], NOW, REACTION)
    async with store.read() as conn:
        assert await turn_timers.due(conn, late) == []
    async with store.transaction() as conn:
        await sync(conn, enc, [(await _reaction_id(conn, enc), 1, 2)], [], NOW, REACTION)
    async with store.read() as conn:
        assert [e for e, _ in await turn_timers.due(conn, late)] == [enc]


async def _reaction_id(conn: StoreConnection, encounter_id: int) -> int:
    row = await conn.fetch_one(
        "SELECT id FROM decisions WHERE encounter_id = ? AND kind = ? AND status = 'open'",
        (encounter_id, REACTION),
    )
    assert row is not None
    return int(row["id"])


async def test_reminder_points_are_claimed_once(store: Store) -> None:
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        await turn_timers.follow(conn, enc, state(deadline_s=0), state(deadline_s=60), 2, NOW)
        paused = await add_encounter(conn, 11, paused=1)
        await turn_timers.follow(conn, paused, state(deadline_s=0), state(deadline_s=60), 2, NOW)
    async with store.read() as conn:
        running = await reminders.running(conn, NOW + timedelta(seconds=30))
        assert [(w.encounter_id, w.kind, w.ref, w.reminded) for w in running] == [
            (enc, "turn", 1, 0)
        ]
        window = running[0]
        assert window.deadline == NOW + timedelta(seconds=60) and window.version == 1
        assert await reminders.get(conn, window.id) == window
        assert await reminders.running(conn, NOW + timedelta(seconds=60)) == []
    async with store.transaction() as conn:
        assert await reminders.claim(conn, window.id, 0, 1)
        assert not await reminders.claim(conn, window.id, 0, 1)  # another pass did
    async with store.read() as conn:
        again = await reminders.get(conn, window.id)
        assert again is not None and again.reminded == 1
    # A pause committed after the window was read (another process's `/gm pause`): the claim
    # itself refuses it, and takes it once the encounter is resumed.
    async with store.transaction() as conn:
        await conn.execute("UPDATE encounters SET paused = 1 WHERE id = ?", (enc,))
    async with store.transaction() as conn:
        assert not await reminders.claim(conn, window.id, 1, 2)
    async with store.transaction() as conn:
        await conn.execute("UPDATE encounters SET paused = 0 WHERE id = ?", (enc,))
    async with store.transaction() as conn:
        assert await reminders.claim(conn, window.id, 1, 2)


async def test_turn_pings_put_replace_list_remove(store: Store) -> None:
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 2**55)
        await turn_pings.put(conn, TurnPing(2**58 + 2, enc, 2**55, 3))
        await turn_pings.put(conn, TurnPing(2**58 + 1, enc, 2**55, 1))
        await turn_pings.put(conn, TurnPing(2**58 + 2, enc, 2**55, 4))  # replaces its turn
    async with store.read() as conn:
        assert await turn_pings.of_channel(conn, 2**55) == [
            TurnPing(2**58 + 1, enc, 2**55, 1),
            TurnPing(2**58 + 2, enc, 2**55, 4),
        ]
        assert await turn_pings.of_channel(conn, 1) == []
    async with store.transaction() as conn:
        await turn_pings.remove(conn, 2**58 + 1)
    async with store.read() as conn:
        assert await turn_pings.of_channel(conn, 2**55) == [TurnPing(2**58 + 2, enc, 2**55, 4)]


async def test_turn_announced_and_the_channels_with_pings(store: Store) -> None:
    """The turn each live fight last showed (migration 0024): a fight with no row may owe its
    turn's ping, one with a row says which turn it showed; an ended fight owes nothing."""
    async with store.transaction() as conn:
        shown = await add_encounter(conn, 2**55)
        await add_encounter(conn, 2**55 + 1)  # begun, nothing posted yet
        await add_encounter(conn, 2**55 + 2, status="archived")
        await turn_pings.announced(conn, shown, 3)
        await turn_pings.announced(conn, shown, 4)  # the latest turn shown
        await turn_pings.put(conn, TurnPing(2**58, shown, 2**55, 4))
    async with store.read() as conn:
        assert await turn_pings.maybe_unannounced(conn, NOW) == [
            (2**55, 4, None),
            (2**55 + 1, None, None),
        ]
        assert await turn_pings.channels(conn) == [2**55]


async def test_the_running_turn_column_leaves_out_the_fights_whose_turn_was_shown(
    store: Store,
) -> None:
    """Migration 0025: a fight whose running turn (its column) is the one announced, or that
    runs no turn (-1), owes nothing, and start-up need not load it; one whose column is NULL
    (not written since the migration) is listed, to be read from its state. Likewise a
    turn ping of the turn running now is not among those that may be over."""
    rows = {"shown": (5, 5), "moved on": (6, 5), "no turn": (-1, None), "unknown": (None, 5)}
    ids = {}
    async with store.transaction() as conn:
        for n, (label, (running, announced)) in enumerate(rows.items()):
            ids[label] = await add_encounter(conn, 2**55 + n)
            await conn.execute(
                "UPDATE encounters SET running_turn = ? WHERE id = ?", (running, ids[label])
            )
            if announced is not None:
                await turn_pings.announced(conn, ids[label], announced)
                await turn_pings.put(conn, TurnPing(2**58 + n, ids[label], 2**55 + n, announced))
        fresh = await add_encounter(conn, 2**55 + 9)
        await conn.execute("UPDATE encounters SET running_turn = 1 WHERE id = ?", (fresh,))
        ended = await add_encounter(conn, 2**55 + 8, status="archived")
        await conn.execute("UPDATE encounters SET running_turn = 2 WHERE id = ?", (ended,))
        await turn_pings.put(conn, TurnPing(2**58 + 8, ended, 2**55 + 8, 2))
    async with store.read() as conn:
        assert await turn_pings.maybe_unannounced(conn, NOW) == [
            (2**55 + 1, 5, None),  # moved on from the turn shown
            (2**55 + 3, 5, None),  # unknown: read from its state
            (2**55 + 9, None, None),  # a turn runs, none ever shown
        ]
        # the turn moved on, unknown, the fight ended: "shown" (its ping's turn runs) is not
        assert await turn_pings.channels(conn) == [2**55 + 1, 2**55 + 3, 2**55 + 8]


async def test_one_start_up_claims_a_lost_turn_and_gives_it_back_if_its_post_fails(
    store: Store,
) -> None:
    """Two processes starting on one database: only one claims the turn to ping; a failed
    post gives it back at once (its claim lapsed), to either process."""
    mine, theirs = (turn_pings.lease(NOW + LEASE, who) for who in ("first", "second"))
    async with store.transaction() as conn:
        new = await add_encounter(conn, 2**55)
        shown = await add_encounter(conn, 2**55 + 1)
        await turn_pings.announced(conn, shown, 2)
    async with store.transaction() as conn:
        assert await turn_pings.claim_announced(conn, new, None, 1, mine, NOW)
        assert not await turn_pings.claim_announced(conn, new, None, 1, theirs, NOW)
        assert await turn_pings.claim_announced(conn, shown, 2, 3, mine, NOW)
        assert not await turn_pings.claim_announced(conn, shown, 2, 3, theirs, NOW)
    async with store.read() as conn:
        assert await turn_pings.maybe_unannounced(conn, NOW) == [
            (2**55, 1, mine),
            (2**55 + 1, 3, mine),
        ]
        assert await turn_pings.lapsed_claims(conn, NOW) == []
    async with store.transaction() as conn:
        await turn_pings.release_announced(conn, new, 1, mine)
        await turn_pings.release_announced(conn, shown, 3, mine)
    async with store.read() as conn:
        assert await turn_pings.lapsed_claims(conn, NOW) == [2**55, 2**55 + 1]
    async with store.transaction() as conn:  # the other process takes them at once
        assert await turn_pings.claim_announced(conn, new, 1, 1, theirs, NOW)
        assert await turn_pings.claim_announced(conn, shown, 3, 3, theirs, NOW)
        await turn_pings.confirm_announced(conn, new, 1, theirs)
        await turn_pings.confirm_announced(conn, shown, 3, mine)  # not its claim: no change
    async with store.read() as conn:
        assert await turn_pings.lapsed_claims(conn, NOW + 2 * LEASE) == [2**55 + 1]


async def test_a_claim_not_posted_in_time_lapses_and_is_owed_again(store: Store) -> None:
    """A process claims a lost turn's ping and is killed before posting it: while its claim
    holds nobody takes it; once lapsed, the turn is owed again (listed, its channel among the
    lapsed claims) and exactly one of two processes claims it; a post confirmed is shown."""
    dead, first = (turn_pings.lease(NOW + LEASE, w) for w in ("dead", "first"))
    later = NOW + LEASE + timedelta(seconds=1)
    again = [turn_pings.lease(later + LEASE, w) for w in ("first", "second")]
    async with store.transaction() as conn:
        fight = await add_encounter(conn, 2**55)
        await conn.execute("UPDATE encounters SET running_turn = 4 WHERE id = ?", (fight,))
        await turn_pings.announced(conn, fight, 3)
        assert await turn_pings.claim_announced(conn, fight, 3, 4, dead, NOW)
    async with store.transaction() as conn:  # while the claim holds
        assert await turn_pings.maybe_unannounced(conn, NOW) == []
        assert await turn_pings.lapsed_claims(conn, NOW) == []
        assert not await turn_pings.claim_announced(conn, fight, 4, 4, first, NOW)
    async with store.transaction() as conn:
        assert await turn_pings.maybe_unannounced(conn, later) == [(2**55, 4, dead)]
        assert await turn_pings.lapsed_claims(conn, later) == [2**55]
        assert await turn_pings.claim_announced(conn, fight, 4, 4, again[0], later)
        assert not await turn_pings.claim_announced(conn, fight, 4, 4, again[1], later)
        await turn_pings.confirm_announced(conn, fight, 4, again[0])
    far = later + 10 * LEASE
    async with store.transaction() as conn:  # shown: owed to nobody, ever
        assert await turn_pings.maybe_unannounced(conn, far) == []
        assert await turn_pings.lapsed_claims(conn, far) == []
        assert not await turn_pings.claim_announced(conn, fight, 4, 4, first, far)
        await turn_pings.announced(conn, fight, 5)  # a command's post: any claim is moot
    async with store.read() as conn:
        rows = await conn.fetch_all("SELECT turn_seq, claim FROM turn_announced")
        assert [(r["turn_seq"], r["claim"]) for r in rows] == [(5, None)]


async def test_standing_reactions_put_replace_export_delete(store: Store) -> None:
    steps = [{"choice": "dodge", "condition": "always"}]
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10, name="Éclair")
        other = await add_encounter(conn, 11, guild_id=GUILD + 1)
        await standing.put(conn, enc, "b", PLAYER, "dodge", steps, NOW)
        await standing.put(conn, enc, "a", PLAYER, "block", [], NOW)
        await standing.put(conn, enc, "b", PLAYER, "dodge always", steps, NOW)  # replaces
        await standing.put(conn, other, "a", PLAYER, "block", [], NOW)
    async with store.read() as conn:
        rows = await standing.of_encounter(conn, enc)
        assert [(r.combatant_id, r.rule, r.steps) for r in rows] == [
            ("a", "block", []),
            ("b", "dodge always", steps),
        ]
        assert rows[0].updated_at == NOW and rows[0].member_id == PLAYER
        assert await standing.of_member(conn, GUILD, PLAYER) == [
            {
                "encounter_id": enc,
                "encounter": "Éclair",
                "combatant_id": c,
                "rule": rule,
                "updated_at": ts(NOW),
            }
            for c, rule in (("a", "block"), ("b", "dodge always"))
        ]
    async with store.transaction() as conn:
        assert await standing.remove(conn, enc, ["a", "zz"]) == 1
        assert await standing.delete_of_member(conn, GUILD, PLAYER) == 1  # not the other server's
    async with store.read() as conn:
        assert await standing.of_encounter(conn, enc) == []
        assert len(await standing.of_encounter(conn, other)) == 1


async def test_default_actions_set_replace_clear(store: Store) -> None:
    async with store.transaction() as conn:
        enc = await add_encounter(conn, 10)
        await default_actions.put(conn, enc, "b", "defend")
        await default_actions.put(conn, enc, "a", "attack")
        await default_actions.put(conn, enc, "b", "dodge")
        await default_actions.put(conn, enc, "c", None)  # clearing nothing is fine
    async with store.read() as conn:
        assert await default_actions.of_encounter(conn, enc) == {"a": "attack", "b": "dodge"}
    async with store.transaction() as conn:
        await default_actions.put(conn, enc, "a", None)
    async with store.read() as conn:
        assert await default_actions.of_encounter(conn, enc) == {"b": "dodge"}


async def test_guild_encounter_lists(store: Store) -> None:
    async with store.transaction() as conn:
        first = await add_encounter(conn, 10, name="Zed")
        second = await add_encounter(conn, 11, name="alpha", gm_id=PLAYER)
        await add_encounter(conn, 12, status="archived")
        await add_encounter(conn, 13, guild_id=GUILD + 1)
    async with store.read() as conn:
        live = await guild_encounters.live_in_guild(conn, GUILD)
        assert [(e.id, e.channel_id, e.name, e.gm_id) for e in live] == [
            (first, 10, "Zed", GM),
            (second, 11, "alpha", PLAYER),
        ]
        assert live[0].created_at == NOW and live[0].version == 1
        assert [e.id for e in await guild_encounters.live_run_by(conn, GUILD, PLAYER)] == [second]
        assert await guild_encounters.live_in_guild(conn, GUILD + 2) == []


async def test_fights_live_before_migration_0024_owe_no_ping(tmp_path: Path) -> None:
    """A fight live when the bot is upgraded was shown as always: migration 0024 notes it
    shown (-1, turn unknown), so the first start after the upgrade pings nobody again; a
    fight begun after it may owe its ping."""
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        await db.migrate([m for m in bundled_migrations() if m.version < 24])
        async with db.transaction() as conn:
            await add_encounter(conn, 2**55)
        await db.migrate()
        async with db.transaction() as conn:
            await add_encounter(conn, 2**55 + 1)
        async with db.read() as conn:
            assert await turn_pings.maybe_unannounced(conn, NOW) == [(2**55 + 1, None, None)]
    finally:
        await db.close()
