"""The bare reference path for ``service_throughput.py`` (issue 15's "L1"): what one command
costs with nothing but the essentials, so the service path's figure is a ratio measured in the
same process and run rather than an absolute number that moves with the machine's load.

Per command: a per-channel asyncio lock → read a ~2 KB JSON state → pydantic validate →
modify → ``UPDATE … WHERE version = ?`` → INSERT a log row → COMMIT. One transaction per
command (no group commit) — the same durability as the bot: a command counts only once its
COMMIT returned. Two stores, as the bot has:

- :class:`BarePath` (SQLite): one aiosqlite connection, WAL, ``synchronous=FULL``, one
  transaction at a time (SQLite has one writer);
- :class:`PgBarePath` (PostgreSQL, issue 16): an asyncpg pool (10 connections, as
  :class:`bot.store.pg.PgDatabase`'s default), ``synchronous_commit = on``; transactions of
  different channels overlap (no global writer lock: the reference is what PostgreSQL allows,
  not what the bot's one writer lock allows). With ``writer_lock=True`` each transaction first
  takes the bot's writer lock (``pg_advisory_xact_lock(bot.store.pg.WRITER_LOCK)``), as every
  write of :class:`bot.store.pg.PgDatabase` does: what that lock alone costs.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

import aiosqlite
import asyncpg
from pydantic import BaseModel

from bot.store.pg import WRITER_LOCK

SCHEMA = """
CREATE TABLE IF NOT EXISTS bare_states (
    channel_id INTEGER PRIMARY KEY,
    version    INTEGER NOT NULL,
    state      TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS bare_log (
    channel_id INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    command    TEXT    NOT NULL,
    options    TEXT    NOT NULL,
    PRIMARY KEY (channel_id, version)
);
"""


class BareCombatant(BaseModel):
    """A combatant of the reference state, sized so five make a ~2 KB state."""

    id: str
    name: str
    side: str
    health: int
    stamina: int
    stance: str = "neutral"
    position: tuple[int, int] = (0, 0)
    initiative: int = 10
    effects: list[str] = []
    notes: str = ""


class BareState(BaseModel):
    """The reference encounter state: five combatants and whose turn it is."""

    name: str
    round: int = 1
    turn: int = 0
    seed: int = 7
    combatants: list[BareCombatant]


def new_state(channel: int) -> BareState:
    """The starting state of ``channel``'s reference fight (two heroes, three thugs)."""
    people = [("Willow", "heroes"), ("Ally", "heroes")]
    people += [(f"Thug {i}", "foes") for i in (1, 2, 3)]
    return BareState(
        name=f"Bench {channel}",
        combatants=[
            BareCombatant(
                id=f"c{n}",
                name=name,
                side=side,
                health=10_000,
                stamina=10_000,
                position=(n, n),
                initiative=10 + n,
                effects=["guarded", "inspired"],
                notes="A reference combatant for the bare path. " * 5,
            )
            for n, (name, side) in enumerate(people)
        ],
    )


def modify(state: BareState, rng: random.Random) -> tuple[str, str]:
    """One command's change, in place: the current combatant attacks the first foe standing, or
    ends its turn when out of stamina. Returns the log's command and options (JSON)."""
    me = state.combatants[state.turn]
    foes = [c for c in state.combatants if c.side != me.side and c.health > 0]
    if not foes or me.stamina < 20:
        state.turn = (state.turn + 1) % len(state.combatants)
        state.round += state.turn == 0
        return "end-turn", f'{{"actor": "{me.id}"}}'
    damage = rng.randint(1, 6) + rng.randint(1, 6)
    foes[0].health -= damage
    me.stamina -= 1
    state.turn = (state.turn + 1) % len(state.combatants)
    return "attack", f'{{"actor": "{me.id}", "target": "{foes[0].id}", "dice": [{damage}]}}'


class BarePath:
    """The reference path over its own SQLite file (see the module docstring)."""

    def __init__(self, raw: aiosqlite.Connection, path: Path) -> None:
        self._raw = raw
        self.path = path
        self._db_lock = asyncio.Lock()  # one transaction at a time on the one connection
        self._locks: dict[int, asyncio.Lock] = {}
        self._rng = random.Random(7)

    @classmethod
    async def open(cls, path: Path, channels: int) -> BarePath:
        """Create the file, its tables and one state per channel (1..``channels``)."""
        raw = await aiosqlite.connect(path, isolation_level=None)
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            await raw.execute(f"PRAGMA {pragma}")
        await raw.executescript(SCHEMA)
        await raw.execute("BEGIN")
        await raw.executemany(
            "INSERT INTO bare_states VALUES (?, 1, ?)",
            [(c, new_state(c).model_dump_json()) for c in range(1, channels + 1)],
        )
        await raw.execute("COMMIT")
        return cls(raw, path)

    async def close(self) -> None:
        await self._raw.close()

    async def command(self, channel: int) -> int:
        """One command in ``channel``, committed before it returns; the new version."""
        lock = self._locks.setdefault(channel, asyncio.Lock())
        async with lock, self._db_lock:
            await self._raw.execute("BEGIN IMMEDIATE")
            try:
                rows = await self._raw.execute_fetchall(
                    "SELECT version, state FROM bare_states WHERE channel_id = ?", (channel,)
                )
                version, text = next(iter(rows))
                state = BareState.model_validate_json(text)
                command, options = modify(state, self._rng)
                cursor = await self._raw.execute(
                    "UPDATE bare_states SET state = ?, version = version + 1"
                    " WHERE channel_id = ? AND version = ?",
                    (state.model_dump_json(), channel, version),
                )
                if cursor.rowcount != 1:
                    raise RuntimeError("version moved under the channel lock")
                await self._raw.execute(
                    "INSERT INTO bare_log VALUES (?, ?, ?, ?)",
                    (channel, version + 1, command, options),
                )
                await self._raw.execute("COMMIT")
            except BaseException:
                await self._raw.execute("ROLLBACK")
                raise
        return int(version) + 1

    async def state_size(self, channel: int) -> int:
        """The length of ``channel``'s state JSON, in characters."""
        rows = await self._raw.execute_fetchall(
            "SELECT length(state) FROM bare_states WHERE channel_id = ?", (channel,)
        )
        return int(next(iter(rows))[0])


PG_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS bare_states (
        channel_id BIGINT PRIMARY KEY,
        version    BIGINT NOT NULL,
        state      TEXT   NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS bare_log (
        channel_id BIGINT NOT NULL,
        version    BIGINT NOT NULL,
        command    TEXT   NOT NULL,
        options    TEXT   NOT NULL,
        PRIMARY KEY (channel_id, version)
    )""",
]
PG_SCHEMA_LOCK = 0x6261_7265  # "bare": processes creating the tables at once take turns
PG_POOL_SIZE = 10  # bot.store.pg.PgDatabase.open's default max_size


class PgBarePath:
    """The reference path on PostgreSQL (see the module docstring): tables ``bare_states`` and
    ``bare_log`` in the database at the URL, next to the service's tables."""

    def __init__(self, pool: asyncpg.Pool, *, writer_lock: bool = False) -> None:
        self._pool = pool
        self._writer_lock = writer_lock
        self._locks: dict[int, asyncio.Lock] = {}
        self._rng = random.Random(7)

    @classmethod
    async def open(
        cls,
        url: str,
        channels: Sequence[int],
        *,
        pool_size: int = PG_POOL_SIZE,
        writer_lock: bool = False,
    ) -> PgBarePath:
        """Connect (``synchronous_commit = on``), create the tables if missing (under an
        advisory lock: several processes may open at once) and one state per channel in
        ``channels`` (each process its own channels). ``writer_lock``: see the module
        docstring."""
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=pool_size, server_settings={"synchronous_commit": "on"}
        )
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", PG_SCHEMA_LOCK)
            for statement in PG_SCHEMA:
                await conn.execute(statement)
            await conn.executemany(
                "INSERT INTO bare_states VALUES ($1, 1, $2)",
                [(c, new_state(c).model_dump_json()) for c in channels],
            )
        return cls(pool, writer_lock=writer_lock)

    async def close(self) -> None:
        await self._pool.close()

    async def command(self, channel: int) -> int:
        """One command in ``channel``, committed before it returns; the new version."""
        lock = self._locks.setdefault(channel, asyncio.Lock())
        async with lock, self._pool.acquire() as conn, conn.transaction():
            if self._writer_lock:
                await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITER_LOCK)
            row = await conn.fetchrow(
                "SELECT version, state FROM bare_states WHERE channel_id = $1", channel
            )
            version, text = row["version"], row["state"]
            state = BareState.model_validate_json(text)
            command, options = modify(state, self._rng)
            status = await conn.execute(
                "UPDATE bare_states SET state = $1, version = version + 1"
                " WHERE channel_id = $2 AND version = $3",
                state.model_dump_json(),
                channel,
                version,
            )
            if status != "UPDATE 1":
                raise RuntimeError("version moved under the channel lock")
            await conn.execute(
                "INSERT INTO bare_log VALUES ($1, $2, $3, $4)",
                channel,
                version + 1,
                command,
                options,
            )
        return int(version) + 1

    async def state_size(self, channel: int) -> int:
        """The length of ``channel``'s state JSON, in characters."""
        async with self._pool.acquire() as conn:
            size = await conn.fetchval(
                "SELECT length(state) FROM bare_states WHERE channel_id = $1", channel
            )
        return int(size)
