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

A process that died with its host (no connection closed) would keep its shards for as long as
the server takes to notice — by default the operating system's two hours of TCP keepalive —
and a restarted process would be refused all that while. So the claim's connection asks the
server to probe it often (:data:`KEEPALIVES`: a dead peer is dropped within about 25 s), and a
shard held at start — or another shard count run with — is waited for, up to :data:`WAIT_S`,
before the process is refused: a restart right after a crash gets its shards back, with the
same SHARD_COUNT or a new one. A holder that is a live process on this very
host (its session's name says which) is not waited for: that is a second process, refused at
once.

On SQLite each process has a database of its own (bot/store/process_lock.py): the processes
cannot see one another there."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import time
from collections.abc import Sequence

import asyncpg

SHARD_LOCKS = 0x7467_7368  # "tgsh": pg_advisory_lock(SHARD_LOCKS, shard), one per shard run
COUNT_LOCKS = 0x7467_636E  # "tgcn": pg_advisory_lock_shared(COUNT_LOCKS, shard count)
CONNECT_TIMEOUT = 10.0
KEEPALIVES = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}
"""The server's TCP keepalive for the claim's session (seconds; probes): a process gone with
its host lets its shards go within about 25 s, not the system default's two hours."""
WAIT_S = 40.0
"""How long a shard another session holds is waited for at start (more than :data:`KEEPALIVES`
takes to drop a dead peer), trying again every :data:`RETRY_S` seconds."""
RETRY_S = 2.0

log = logging.getLogger(__name__)

OTHER_COUNTS = """
SELECT DISTINCT objid::bigint AS count FROM pg_locks
WHERE locktype = 'advisory' AND classid = $1::bigint::oid AND objsubid = 2
  AND objid <> $2::bigint::oid AND granted
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY count
"""

HOLDERS = """
SELECT DISTINCT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.classid = $1::bigint::oid AND l.objsubid = 2
  AND l.objid = ANY($2::bigint[]::oid[]) AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""
"""The names of the sessions holding any of the locks ``$2`` of the kind ``$1`` (shards run,
or shard counts run with)."""
NAMED = re.compile(r"tabletop bot pid (\d+) on ([^\s,]+)(,?)")
"""A claim's session name: its pid, its host — cut short, without the ',' after it, when the
name was longer than PostgreSQL keeps (63 characters: a host with a long name)."""


class ShardsTaken(Exception):
    """Another process on the database runs ``shards`` (of this process's), or runs with
    another shard count (``counts``: 1 for an unsharded process)."""

    def __init__(
        self, shards: Sequence[int] = (), counts: Sequence[int] = (), holders: Sequence[str] = ()
    ) -> None:
        super().__init__(f"shards run elsewhere: {list(shards)}; other counts: {list(counts)}")
        self.shards = list(shards)
        self.counts = list(counts)
        self.holders = list(holders)
        """The holding sessions' names (``application_name``), as the server lists them."""

    def held_here(self) -> bool:
        """Whether a holder is a live process on this host (its session's name says which)."""
        for holder in self.holders:
            named = NAMED.match(holder)
            if named is None:
                continue
            host, whole = named.group(2), named.group(3) == ","
            here = socket.gethostname()
            if host != here if whole else not here.startswith(host):
                continue
            try:
                os.kill(int(named.group(1)), 0)
            except ProcessLookupError:
                continue
            except OSError:
                return True  # it exists, under another user
            return True
        return False


class ShardClaim:
    """This process's claim on its shards, held until :meth:`release`."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn: asyncpg.Connection | None = conn

    @classmethod
    async def take(
        cls, url: str, count: int, shards: Sequence[int], *, wait_s: float = WAIT_S
    ) -> ShardClaim:
        """Claim ``shards`` of ``count`` on the database at ``url``; raises
        :class:`ShardsTaken` (claiming nothing) when another process still runs with another
        count, or one of the shards, after ``wait_s`` seconds (a session of a process that just
        died may hold its claims until the server notices) — at once when it is a live process
        on this host. The connection holding the claim is
        named (``application_name``) ``tabletop bot pid 1234 on host, shards …``, to find in
        ``pg_stat_activity``."""
        deadline = time.monotonic() + wait_s
        told = False
        while True:
            try:
                return await cls._take(url, count, shards)
            except ShardsTaken as taken:
                if taken.held_here() or time.monotonic() + RETRY_S > deadline:
                    raise
                if not told:
                    told = True
                    held = (
                        f"SHARD_COUNT={', '.join(map(str, taken.counts))} is run with"
                        if taken.counts
                        else f"shard {', '.join(map(str, taken.shards))} of {count} is held"
                    )
                    log.warning(
                        "%s by another session; waiting up to %.0f s for it (a process that "
                        "just stopped lets it go)",
                        held,
                        deadline - time.monotonic(),
                    )
                await asyncio.sleep(RETRY_S)

    @classmethod
    async def _take(cls, url: str, count: int, shards: Sequence[int]) -> ShardClaim:
        """One try of :meth:`take`."""
        listed = ",".join(map(str, shards))
        name = (
            f"tabletop bot pid {os.getpid()} on {socket.gethostname()}, shards {listed} of {count}"
        )
        conn = await asyncpg.connect(
            url,
            timeout=CONNECT_TIMEOUT,
            server_settings={"application_name": name[:63], **KEEPALIVES},
        )
        try:
            await conn.execute(
                "SELECT pg_advisory_lock_shared($1::int, $2::int)", COUNT_LOCKS, count
            )
            counts = [row["count"] for row in await conn.fetch(OTHER_COUNTS, COUNT_LOCKS, count)]
            if counts:
                holders = [r["name"] for r in await conn.fetch(HOLDERS, COUNT_LOCKS, counts)]
                raise ShardsTaken(counts=counts, holders=holders)
            taken = [
                shard
                for shard in shards
                if not await conn.fetchval(
                    "SELECT pg_try_advisory_lock($1::int, $2::int)", SHARD_LOCKS, shard
                )
            ]
            if taken:
                holders = [r["name"] for r in await conn.fetch(HOLDERS, SHARD_LOCKS, taken)]
                raise ShardsTaken(shards=taken, holders=holders)
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
