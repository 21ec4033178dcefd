"""Which process runs which shards, on a PostgreSQL database every process shares.

Every shard from 0 to ``SHARD_COUNT - 1`` must be run by exactly one process (README,
"Sharding"): two processes running one shard both answer its servers' commands, and processes
that disagree on ``SHARD_COUNT`` (or an unsharded one beside sharded ones: the Procfile's
``worker`` scaled up with its shard types) split the servers differently, so some are answered
twice and others by nobody. Each process of the bot therefore holds, for as long as it runs, on
a connection of its own, a session advisory lock per shard it runs (an unsharded process runs
shard 0 of 1) and a shared lock on its shard count; :meth:`ShardClaim.take` refuses a shard
another process holds, or a database where a process runs with another count
(:class:`ShardsTaken`). The server lets a session's locks go when it ends, a crash included.

On SQLite each process has a database of its own (bot/store/process_lock.py): the processes
cannot see one another there."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Sequence

import asyncpg

SHARD_LOCKS = 0x7467_7368  # "tgsh": pg_advisory_lock(SHARD_LOCKS, shard), one per shard run
COUNT_LOCKS = 0x7467_636E  # "tgcn": pg_advisory_lock_shared(COUNT_LOCKS, shard count)
CONNECT_TIMEOUT = 10.0

OTHER_COUNTS = """
SELECT DISTINCT objid::bigint AS count FROM pg_locks
WHERE locktype = 'advisory' AND classid = $1::bigint::oid AND objsubid = 2
  AND objid <> $2::bigint::oid AND granted
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY count
"""


class ShardsTaken(Exception):
    """Another process on the database runs ``shards`` (of this process's), or runs with
    another shard count (``counts``: 1 for an unsharded process)."""

    def __init__(self, shards: Sequence[int] = (), counts: Sequence[int] = ()) -> None:
        super().__init__(f"shards run elsewhere: {list(shards)}; other counts: {list(counts)}")
        self.shards = list(shards)
        self.counts = list(counts)


class ShardClaim:
    """This process's claim on its shards, held until :meth:`release`."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn: asyncpg.Connection | None = conn

    @classmethod
    async def take(cls, url: str, count: int, shards: Sequence[int]) -> ShardClaim:
        """Claim ``shards`` of ``count`` on the database at ``url``; raises
        :class:`ShardsTaken` (claiming nothing) when another process runs one of them or runs
        with another count. The connection holding the claim is named (``application_name``)
        ``tabletop bot pid 1234 on host, shards …``, to find in ``pg_stat_activity``."""
        listed = ",".join(map(str, shards))
        name = (
            f"tabletop bot pid {os.getpid()} on {socket.gethostname()}, shards {listed} of {count}"
        )
        conn = await asyncpg.connect(
            url, timeout=CONNECT_TIMEOUT, server_settings={"application_name": name[:63]}
        )
        try:
            await conn.execute(
                "SELECT pg_advisory_lock_shared($1::int, $2::int)", COUNT_LOCKS, count
            )
            counts = [row["count"] for row in await conn.fetch(OTHER_COUNTS, COUNT_LOCKS, count)]
            if counts:
                raise ShardsTaken(counts=counts)
            taken = [
                shard
                for shard in shards
                if not await conn.fetchval(
                    "SELECT pg_try_advisory_lock($1::int, $2::int)", SHARD_LOCKS, shard
                )
            ]
            if taken:
                raise ShardsTaken(shards=taken)
        except BaseException:
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        return cls(conn)

    async def release(self) -> None:
        """Let every claim go (closing the connection that holds them)."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
