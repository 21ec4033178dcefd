"""Benchmark: the combat service (no Discord) under 100 concurrent channels of fights, measured
against a bare reference path (``bare_path.py``, issue 15's "L1": one transaction per command)
on the same store, in the same run, alternating A B A B A B so both see the same machine.

Every service command takes the real path — channel lock → read → engine → versioned UPDATE →
log → COMMIT — and is only counted once committed. Two stores (issue 16):

- ``--store sqlite`` (default): SQLite files in a temporary folder (WAL, synchronous=FULL); the
  bare path is :class:`bare_path.BarePath` on a file of its own.
- ``--store postgres``: the service on :class:`bot.store.pg.PgDatabase` (its default pool of 10
  connections; writers take its one writer lock) and :class:`bare_path.PgBarePath` (a pool of
  10, transactions of different channels overlapping, no writer lock), both in one database:
  a PostgreSQL server the benchmark starts with ``pgserver`` in a temporary folder, or the
  **empty** database at ``--database-url``. ``synchronous_commit = on`` (PostgreSQL's default);
  the server's ``fsync`` and ``synchronous_commit`` are printed.
- ``--processes N`` (PostgreSQL only): N OS processes (this script with a hidden ``--worker``
  flag; their job, the database URL included, on their stdin, not their command line) each run
  both paths over their share of the channels (contiguous blocks), on the same database,
  started together at each phase. Figures are aggregates: closed-loop cmd/s =
  all processes' commands ÷ (last finish − first start); open-loop latencies pooled; each
  process's own figures are in ``per_process``. SQLite with N > 1 is refused: processes sharing
  one SQLite file lock each other out (README, "One database per process").
- ``--bare-writer-lock`` (PostgreSQL only): the bare path also takes the bot's one writer lock
  in each transaction (``bot.store.pg.WRITER_LOCK``), to tell what that lock costs from what
  the service's own work costs; ``ratio_to_bare`` is then against that locked reference.

Run: ``.venv/bin/python benchmarks/service_throughput.py [--store sqlite|postgres]
[--database-url URL] [--processes N] [--commands N] [--rounds K] [--rate R] [--seconds S]
[--open-rounds K] [--channels C] [--fresh N] [--bare-writer-lock]``. Prints, per phase, a
human line, and last one JSON object (how results are read):

- closed loop: every channel issues commands back to back; ``--rounds`` pairs of (bare,
  service) runs → commands per second each, and ``ratio_to_bare`` = the median of the pairs'
  service/bare ratios (≥ 1.0 is issue 15's target);
- open loop: commands offered at ``--rate`` per second spread over the channels for
  ``--seconds``, in ``--open-rounds`` pairs of (bare, service) runs → p50 / p99 latency (ms)
  from the moment each was due to its commit, and the service path's p50 over the first and
  the second half of its run (equal when the queue does not grow). Each figure is the median
  over the path's runs (on these shared machines one run's p99 can be set by a few stalls of
  the host that the other path's run did not meet); ``p99s_ms_at_1000`` and
  ``bare_p99s_ms_at_1000`` list every run's p99 and ``p99_ratio_to_bare`` is the median of
  the pairs' service/bare p99 ratios;
- memory: tracemalloc of 1,000 encounters (``--fresh``; scaled to 1,000 when fewer) each freshly
  read and parsed from the database (no state cache shared between them) → MiB per 1,000 (in
  one process);
- database growth before and after the closed loop → bytes per 1,000 service commands (and the
  same for the bare path). SQLite: database plus WAL after a TRUNCATE checkpoint. PostgreSQL:
  the sum of ``pg_total_relation_size`` (heap, indexes, TOAST) of the service's tables (every
  table of the schema but ``bare_*``) and of ``bare_*``; no VACUUM is run (autovacuum as
  configured), so dead row versions count; the WAL is not counted.

Each process first sets its garbage collector as the bot does once start-up is done
(:func:`bot.heap.settle`), before either path is set up.

A benchmark, not a test: figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, cast

import asyncpg

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bare_path import BarePath, PgBarePath  # noqa: E402

from bot import heap  # noqa: E402
from bot.engine.core.commands import Begin, EndTurn  # noqa: E402
from bot.engine.uttas.commands import AddCombatant, Attack, Command  # noqa: E402
from bot.engine.uttas.sheet import UttasSheet  # noqa: E402
from bot.engine.uttas.state import Combatant  # noqa: E402
from bot.services.actor import Actor  # noqa: E402
from bot.services.combat import CombatResult, CombatService, option_code  # noqa: E402
from bot.services.encounters import (  # noqa: E402
    Encounter,
    EncounterService,
    state_of,
    utc_now,
)
from bot.store import encounters as encounter_rows  # noqa: E402
from bot.store.db import Database  # noqa: E402
from bot.store.pg import PgDatabase  # noqa: E402

CHANNELS = 100
GM = Actor(user_id=1, manages_channel=True)
SHEETS = ROOT / "data" / "sheets" / "uttas"


def durable(name: str) -> UttasSheet:
    """An example sheet with the most Health and Stamina a sheet may have, so fights last."""
    data = json.loads((SHEETS / name).read_text())
    data.update(health=10_000, stamina=10_000)
    return UttasSheet.model_validate(data)


def all_channels() -> list[int]:
    """Channels 1..``CHANNELS``."""
    return list(range(1, CHANNELS + 1))


async def set_up(
    combat: CombatService, encounters: EncounterService, channels: Sequence[int] | None = None
) -> None:
    """A running five-combatant UTTAS fight in each of ``channels`` (default 1..``CHANNELS``)."""
    hero, thug = durable("willow.json"), durable("thug.json")
    for channel in all_channels() if channels is None else channels:
        await encounters.start(
            guild_id=1, channel_id=channel, actor=GM, ruleset="uttas", name=f"Bench {channel}"
        )
        roster = [("Willow", hero, 10, False), ("Ally", hero, 11, False)]
        roster += [(f"Thug {i}", thug, None, True) for i in (1, 2, 3)]
        for name, sheet, controller, npc in roster:
            command = AddCombatant(name=name, sheet=sheet, controller_id=controller, is_npc=npc)
            await combat.gm_command(channel, GM, "add", {}, lambda _e, c=command: c, action="add")
        await combat.gm_command(channel, GM, "begin", {}, lambda _e: Begin(), action="begin")


async def one_command(
    combat: CombatService, encounters: EncounterService, channel: int, last: CombatResult | None
) -> CombatResult:
    """The next sensible command in a channel, chosen from what the previous one returned (as a
    player decides from what the channel shows; the first time, from a read): answer a waiting
    attack, else the current combatant attacks someone on the other side (or ends its turn)."""
    if last is None:
        live = await encounters.live(channel)
        encounter_id, decision = live.id, combat.decision(live)
    else:
        encounter_id, decision = last.encounter.id, last.decision
    if decision is not None:
        options = decision.deciders.get(decision.subject_id or "") or next(
            iter(decision.deciders.values())
        )
        choice = next((o for o in options if o.choice in ("evade", "none")), options[0])
        return await combat.decide(
            encounter_id, decision.pending_version, GM, option_code(choice), decision.ref
        )

    def make(current: Encounter, me: Combatant) -> Command:
        foes = [c for c in current.state.combatants if c.side != me.side and c.health > 0]
        weapon = me.sheet.weapons[0].name
        if not foes or me.stamina < 20:
            return EndTurn(actor=me.id)
        return Attack(actor=me.id, target=foes[0].id, attack=weapon)

    return await combat.act(channel, GM, None, "attack", {}, make)


Step = Callable[[int, Any], Awaitable[Any]]
"""One command in a channel: ``step(channel, previous result)`` → this command's result."""


@contextlib.asynccontextmanager
async def sqlite_service(
    folder: Path,
) -> AsyncIterator[tuple[Database, EncounterService, CombatService]]:
    """The service on a fresh, migrated SQLite database in ``folder`` with the benchmark's fights
    set up (:func:`set_up`): ``(database, encounters, combat)``; the database is closed after.
    For the benchmarks that look inside the service path (profile, CPU, memory). The garbage
    collector is set first as the bot's start-up sets it (:func:`bot.heap.settle`)."""
    heap.settle()
    db = await Database.open(folder / "bench.sqlite3")
    await db.migrate()
    try:
        encounters = EncounterService(db, clock=utc_now, seeds=lambda: 7)
        combat = CombatService(encounters, clock=utc_now)
        await set_up(combat, encounters)
        yield db, encounters, combat
    finally:
        await db.close()


def service_step(combat: CombatService, encounters: EncounterService) -> Step:
    """The service path's step. It keeps each channel's last result across phases, so a
    phase's first command in a channel follows from what the channel shows (as every later one
    does) instead of reading and parsing the encounter first: that read is the benchmark's, not
    the command's, and it fell on the first 100 commands of every run (2 % of a 5-second open
    loop, 2-4 ms each: enough to set its p99)."""
    shown: dict[int, CombatResult] = {}

    async def step(channel: int, last: Any) -> Any:
        result = await one_command(combat, encounters, channel, last or shown.get(channel))
        shown[channel] = result
        return result

    return step


def bare_step(bare: BarePath | PgBarePath) -> Step:
    async def step(channel: int, _last: Any) -> Any:
        return await bare.command(channel)

    return step


async def wait_until(moment: float | None) -> None:
    """Sleep until ``time.monotonic()`` reaches ``moment`` (system-wide on Linux, so processes
    given one moment start together); ``None``: at once."""
    if moment is not None:
        await asyncio.sleep(max(0.0, moment - time.monotonic()))


async def timed_closed_loop(
    step: Step, total: int, channels: Sequence[int], start_at: float | None = None
) -> dict[str, float]:
    """Every channel of ``channels`` issues ``total / len(channels)`` commands back to back,
    from ``start_at`` (monotonic seconds). Returns ``commands``, ``started``, ``ended``
    (monotonic seconds)."""
    per_channel = max(1, total // len(channels))

    async def worker(channel: int) -> None:
        last = None
        for _ in range(per_channel):
            last = await step(channel, last)

    await wait_until(start_at)
    started = time.monotonic()
    await asyncio.gather(*(worker(c) for c in channels))
    return {"commands": per_channel * len(channels), "started": started, "ended": time.monotonic()}


async def closed_loop(step: Step, total: int, channels: Sequence[int] | None = None) -> float:
    """Every channel (default 1..``CHANNELS``) issues ``total / channels`` commands back to back
    → commands per second."""
    run = await timed_closed_loop(step, total, all_channels() if channels is None else channels)
    return run["commands"] / (run["ended"] - run["started"])


async def open_loop(
    step: Step,
    rate: float,
    seconds: float,
    channels: Sequence[int] | None = None,
    start_at: float | None = None,
) -> list[tuple[float, float]]:
    """Offer ``rate`` commands per second round-robin over ``channels`` (default
    1..``CHANNELS``) from ``start_at`` (monotonic; default in 50 ms); a channel's next command
    waits for its previous one (as one channel's commands do). Returns (when due, s since the
    start; latency, s) per command, latency measured from when it was due to when it
    committed."""
    chosen = all_channels() if channels is None else list(channels)
    latencies: list[tuple[float, float]] = []
    interval = len(chosen) / rate  # each channel gets a command every `interval` seconds
    count = max(1, int(seconds * rate / len(chosen)))
    origin = time.monotonic() + 0.05 if start_at is None else start_at

    async def worker(index: int, channel: int) -> None:
        offset = index / rate
        last = None
        for n in range(count):
            due = origin + offset + n * interval
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            last = await step(channel, last)
            latencies.append((due - origin, time.monotonic() - due))

    await asyncio.gather(*(worker(i, c) for i, c in enumerate(chosen)))
    return latencies


async def memory_per_thousand(
    db: Database, channels: Sequence[int] | None = None, encounters: int = 1000
) -> float:
    """MiB held by 1,000 encounters, each row read and its state parsed afresh (as 1,000 busy
    channels would hold them; nothing shared through a cache), cycling over ``channels``
    (default 1..``CHANNELS``). ``encounters`` below 1,000 (quick runs): that many are held and
    the figure scaled to 1,000."""
    chosen = all_channels() if channels is None else list(channels)
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    held = []
    for i in range(encounters):
        async with db.read() as conn:
            row = await encounter_rows.live_in_channel(conn, chosen[i % len(chosen)])
            assert row is not None
            held.append(Encounter(row=row, state=await state_of(conn, row)))
    now, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return (now - base) / 2**20 * 1000 / encounters


async def disk_bytes(path: Path) -> int:
    """Database plus WAL, in bytes, after a TRUNCATE checkpoint (call while no write is open).

    A TRUNCATE checkpoint empties the WAL file only when no reader is in it (the service's own
    read connection may be, for a moment): it is retried until it reports not busy (up to 2 s),
    else a WAL file holding pages already copied into the database would be counted as growth
    in the figure taken before and not in the one after (a negative growth was printed)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        for _ in range(100):
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                break
            await asyncio.sleep(0.02)
    return file_bytes(path) + file_bytes(path.with_name(path.name + "-wal"))


def file_bytes(path: Path) -> int:
    """The size of the file at ``path`` in bytes (0 when there is none)."""
    return path.stat().st_size if path.exists() else 0


PG_TABLE_BYTES = """
SELECT c.relname, pg_total_relation_size(c.oid)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'r' AND n.nspname = current_schema()
"""


async def pg_bytes(url: str) -> dict[str, int]:
    """``pg_total_relation_size`` (heap, indexes, TOAST) summed over the schema's tables:
    ``bare`` for ``bare_*``, ``service`` for every other table."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(PG_TABLE_BYTES)
    finally:
        await conn.close()
    sizes = {"service": 0, "bare": 0}
    for name, size in rows:
        sizes["bare" if name.startswith("bare_") else "service"] += int(size)
    return sizes


async def pg_settings(url: str) -> dict[str, str]:
    """The server's version and the settings durability depends on."""
    conn = await asyncpg.connect(url)
    try:
        return {
            name: str(await conn.fetchval(f"SHOW {name}"))
            for name in ("server_version", "fsync", "synchronous_commit", "wal_sync_method")
        }
    finally:
        await conn.close()


async def require_empty(url: str) -> None:
    """Refuse (``SystemExit``, one line) a database that already has tables: the benchmark
    migrates it and starts fights in channels 1..N, which must not exist yet."""
    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        )
    finally:
        await conn.close()
    if tables:
        raise SystemExit(
            f"--database-url must name an empty database; this one has {tables} tables "
            "(drop and create it again between runs)"
        )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_ms(samples: Sequence[Sequence[float]]) -> dict[str, float]:
    """p50 / p99 of the latencies (ms), and p50 over the first and the second half of the run
    (by when each command was due)."""
    values = [lat for _, lat in samples]
    middle = statistics.median(due for due, _ in samples)
    first = [lat for due, lat in samples if due < middle] or values
    second = [lat for due, lat in samples if due >= middle] or values
    return {
        "p50": statistics.median(values) * 1000,
        "p99": percentile(values, 0.99) * 1000,
        "p50_first_half": statistics.median(first) * 1000,
        "p50_second_half": statistics.median(second) * 1000,
    }


OpenRun = tuple[dict[str, float], list[dict[str, float]]]


def middle_run(runs: Sequence[OpenRun]) -> OpenRun:
    """Of one path's open-loop runs, each figure's median over the runs (aggregate and per
    process): one disturbed run of a noisy machine does not decide the figure."""

    def median_of(figures: Sequence[dict[str, float]]) -> dict[str, float]:
        return {key: statistics.median(f[key] for f in figures) for key in figures[0]}

    processes = len(runs[0][1])
    return (
        median_of([run[0] for run in runs]),
        [median_of([run[1][n] for run in runs]) for n in range(processes)],
    )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commands", type=int, default=6000, help="closed-loop commands/round")
    parser.add_argument("--rounds", type=int, default=3, help="closed-loop (bare, service) pairs")
    parser.add_argument("--rate", type=float, default=1000.0, help="open-loop commands/s offered")
    parser.add_argument("--seconds", type=float, default=5.0, help="open-loop duration")
    parser.add_argument(
        "--open-rounds", type=int, default=3, help="open-loop (bare, service) pairs"
    )
    parser.add_argument("--channels", type=int, default=100, help="concurrent channels")
    parser.add_argument(
        "--fresh",
        type=int,
        default=1000,
        help="encounters parsed for the memory figure (scaled to per 1,000)",
    )
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url",
        help="postgres: an empty database to use (default: start a server with pgserver)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="OS processes sharing the channels (postgres)"
    )
    parser.add_argument(
        "--bare-writer-lock",
        action="store_true",
        help="postgres: the bare path takes the bot's writer lock too",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.processes < 1 or args.processes > args.channels:
        parser.error("--processes must be between 1 and --channels")
    if args.processes > 1 and args.store != "postgres":
        parser.error(
            "--processes above 1 needs --store postgres: processes sharing one SQLite file lock "
            "each other out (README, 'One database per process')"
        )
    if (args.database_url or args.bare_writer_lock) and args.store != "postgres":
        parser.error("--database-url and --bare-writer-lock are for --store postgres")
    return args


class Paths:
    """Both paths — the service and the bare one — over one store, for some channels, in this
    process."""

    def __init__(
        self,
        db: Database | PgDatabase,
        bare: BarePath | PgBarePath,
        encounters: EncounterService,
        channels: Sequence[int],
    ) -> None:
        self.db, self.bare, self.encounters, self.channels = db, bare, encounters, list(channels)
        combat = CombatService(encounters, clock=utc_now)
        self.steps = {"service": service_step(combat, encounters), "bare": bare_step(bare)}
        self._combat = combat

    @classmethod
    async def open(
        cls, store: str, where: str, channels: Sequence[int], *, writer_lock: bool = False
    ) -> Paths:
        """Open the service's database and the bare path and set up ``channels`` on both.
        ``where``: the folder (sqlite) or the database URL (postgres); the service's database
        is already migrated. ``writer_lock``: :class:`PgBarePath`'s."""
        db: Database | PgDatabase
        bare: BarePath | PgBarePath
        if store == "sqlite":
            db = await Database.open(Path(where) / "bench.sqlite3")
            bare = await BarePath.open(Path(where) / "bare.sqlite3", max(channels))
        else:
            db = await PgDatabase.open(where)
            bare = await PgBarePath.open(where, channels, writer_lock=writer_lock)
        # The service takes either store (bot.store.base.Store), as bot/__main__.py builds it.
        encounters = EncounterService(cast(Database, db), clock=utc_now, seeds=lambda: 7)
        paths = cls(db, bare, encounters, channels)
        await set_up(paths._combat, encounters, channels)
        return paths

    async def closed(self, kind: str, commands: int, start_at: float) -> dict[str, float]:
        return await timed_closed_loop(self.steps[kind], commands, self.channels, start_at)

    async def open_loop(
        self, kind: str, rate: float, seconds: float, start_at: float
    ) -> list[tuple[float, float]]:
        return await open_loop(self.steps[kind], rate, seconds, self.channels, start_at)

    async def sizes(self) -> dict[str, int]:
        """State JSON length (characters) of the first channel: ``service`` and ``bare``."""
        live = await self.encounters.live(self.channels[0])
        return {
            "service": len(live.state_json),
            "bare": await self.bare.state_size(self.channels[0]),
        }

    async def memory(self, encounters: int) -> float:
        return await memory_per_thousand(cast(Database, self.db), self.channels, encounters)

    async def close(self) -> None:
        await self.bare.close()
        await self.db.close()


class Worker:
    """:class:`Paths` in a child process (this script with ``--worker``), given its job as the
    first JSON line on its stdin (so the URL, which may hold a password, is not on a command
    line), then driven by one JSON line per request there, answered by one JSON line on its
    stdout."""

    def __init__(self, process: asyncio.subprocess.Process, channels: Sequence[int]) -> None:
        self._process = process
        self.channels = list(channels)

    @classmethod
    async def start(
        cls, store: str, where: str, channels: Sequence[int], *, writer_lock: bool = False
    ) -> Worker:
        job = json.dumps(
            {"store": store, "where": where, "channels": list(channels), "lock": writer_lock}
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(SCRIPT),
            "--store",
            store,
            "--worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=2**26,  # an open loop's samples come back on one line
        )
        worker = cls(process, channels)
        assert process.stdin is not None
        process.stdin.write((job + "\n").encode())
        await worker._answer()  # set up
        return worker

    async def _ask(self, op: str, **fields: Any) -> Any:
        assert self._process.stdin is not None
        self._process.stdin.write((json.dumps({"op": op, **fields}) + "\n").encode())
        await self._process.stdin.drain()
        return await self._answer()

    async def _answer(self) -> Any:
        assert self._process.stdout is not None
        line = await self._process.stdout.readline()
        if not line:
            code = await self._process.wait()
            raise RuntimeError(f"a benchmark worker process ended (exit status {code})")
        return json.loads(line)["answer"]

    async def closed(self, kind: str, commands: int, start_at: float) -> dict[str, float]:
        return cast(
            dict[str, float],
            await self._ask("closed", kind=kind, commands=commands, start_at=start_at),
        )

    async def open_loop(
        self, kind: str, rate: float, seconds: float, start_at: float
    ) -> list[tuple[float, float]]:
        return cast(
            list[tuple[float, float]],
            await self._ask("open", kind=kind, rate=rate, seconds=seconds, start_at=start_at),
        )

    async def sizes(self) -> dict[str, int]:
        return cast(dict[str, int], await self._ask("sizes"))

    async def memory(self, encounters: int) -> float:
        return float(await self._ask("memory", encounters=encounters))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._ask("close")
        await self._process.wait()


async def serve() -> None:
    """A child process's loop (``--worker``): read the job (first stdin line), open
    :class:`Paths` for its channels, say so, then answer requests from stdin until ``close``."""
    loop = asyncio.get_running_loop()
    spec = json.loads(await loop.run_in_executor(None, sys.stdin.readline))
    paths = await Paths.open(
        spec["store"], spec["where"], spec["channels"], writer_lock=spec["lock"]
    )

    def reply(answer: Any) -> None:
        sys.stdout.write(json.dumps({"answer": answer}) + "\n")
        sys.stdout.flush()

    reply("ready")
    try:
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            request = json.loads(line)
            if request["op"] == "close":
                break
            reply(await handle(paths, request))
    finally:
        await paths.close()
    reply("closed")


async def handle(paths: Paths, request: dict[str, Any]) -> Any:
    op = request["op"]
    if op == "closed":
        return await paths.closed(request["kind"], request["commands"], request["start_at"])
    if op == "open":
        return await paths.open_loop(
            request["kind"], request["rate"], request["seconds"], request["start_at"]
        )
    if op == "sizes":
        return await paths.sizes()
    if op == "memory":
        return await paths.memory(request["encounters"])
    raise ValueError(f"unknown request {op!r}")


Runner = Paths | Worker


def groups(channels: list[int], processes: int) -> list[list[int]]:
    """``channels`` cut into ``processes`` contiguous blocks (sizes differing by one at most)."""
    size, extra = divmod(len(channels), processes)
    cut, out = 0, []
    for n in range(processes):
        step = size + (n < extra)
        out.append(channels[cut : cut + step])
        cut += step
    return out


class Phases:
    """The runners (one :class:`Paths` here, or one :class:`Worker` per process) run each phase
    together; figures per phase, aggregate and per process."""

    def __init__(self, runners: Sequence[Runner]) -> None:
        self.runners = list(runners)

    async def closed(self, kind: str, total: int) -> tuple[float, list[float], int]:
        """``total`` commands (split over the processes by their channels) → (aggregate
        cmd/s, each process's cmd/s, commands run)."""
        start_at = time.monotonic() + 0.1
        runs = await asyncio.gather(
            *(r.closed(kind, total * len(r.channels) // CHANNELS, start_at) for r in self.runners)
        )
        span = max(r["ended"] for r in runs) - min(r["started"] for r in runs)
        each = [r["commands"] / (r["ended"] - r["started"]) for r in runs]
        commands = sum(int(r["commands"]) for r in runs)
        return commands / span, each, commands

    async def open(
        self, kind: str, rate: float, seconds: float
    ) -> tuple[dict[str, float], list[dict[str, float]]]:
        """``rate`` commands/s offered (split by channels) → (latencies of all commands, each
        process's latencies), as :func:`latency_ms`."""
        start_at = time.monotonic() + 0.1
        runs = await asyncio.gather(
            *(
                r.open_loop(kind, rate * len(r.channels) / CHANNELS, seconds, start_at)
                for r in self.runners
            )
        )
        return latency_ms([s for run in runs for s in run]), [latency_ms(run) for run in runs]


async def open_runners(args: argparse.Namespace, where: str) -> Phases:
    """One :class:`Paths` in this process, or ``--processes`` workers, with their channels."""
    if args.processes == 1:
        paths = await Paths.open(
            args.store, where, all_channels(), writer_lock=args.bare_writer_lock
        )
        return Phases([paths])
    blocks = groups(all_channels(), args.processes)
    workers = await asyncio.gather(
        *(Worker.start(args.store, where, b, writer_lock=args.bare_writer_lock) for b in blocks)
    )
    return Phases(workers)


@contextlib.asynccontextmanager
async def postgres(args: argparse.Namespace, folder: Path) -> AsyncIterator[str]:
    """The URL of an empty database: ``--database-url`` (checked empty), else a database on a
    server started with pgserver in ``folder`` (stopped and deleted afterwards)."""
    if args.database_url:
        await require_empty(args.database_url)
        yield args.database_url
        return
    import pgserver  # a test dependency; only this mode needs it

    server = await asyncio.to_thread(pgserver.get_server, folder / "pg", cleanup_mode="delete")
    try:
        conn = await asyncpg.connect(server.get_uri("postgres"))
        try:
            await conn.execute("CREATE DATABASE bench")
        finally:
            await conn.close()
        yield str(server.get_uri("bench"))
    finally:
        await asyncio.to_thread(server.cleanup)


async def store_bytes(args: argparse.Namespace, where: str) -> dict[str, int]:
    """The database growth measure of the module docstring: ``service`` and ``bare``."""
    if args.store == "sqlite":
        folder = Path(where)
        return {
            "service": await disk_bytes(folder / "bench.sqlite3"),
            "bare": await disk_bytes(folder / "bare.sqlite3"),
        }
    return await pg_bytes(where)


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Set both paths up on ``args.store`` (files in ``folder``, or PostgreSQL), measure them
    and return the figures (the JSON line)."""
    global CHANNELS
    CHANNELS = args.channels
    if args.store == "sqlite":
        return await measure(args, str(folder))
    async with postgres(args, folder) as url:
        return await measure(args, url)


async def migrate(store: str, where: str) -> None:
    db = await (
        Database.open(Path(where) / "bench.sqlite3")
        if store == "sqlite"
        else PgDatabase.open(where)
    )
    try:
        await db.migrate()
    finally:
        await db.close()


async def measure(args: argparse.Namespace, where: str) -> dict[str, Any]:
    """The phases of the module docstring, on the store at ``where`` (folder or URL)."""
    await migrate(args.store, where)
    settings = await pg_settings(where) if args.store == "postgres" else {}
    phases = await open_runners(args, where)
    try:
        before = await store_bytes(args, where)
        pairs: list[tuple[float, float]] = []
        done = 0  # service commands in the closed loop
        each: list[tuple[list[float], list[float]]] = []
        for _ in range(args.rounds):  # A B A B A B
            bare, bare_each, _ = await phases.closed("bare", args.commands)
            service, service_each, commands = await phases.closed("service", args.commands)
            done += commands
            pairs.append((bare, service))
            each.append((bare_each, service_each))
            print(f"closed loop: bare {bare:,.0f}/s, service {service:,.0f}/s")
        after = await store_bytes(args, where)
        open_pairs = []
        for _ in range(args.open_rounds):  # A B A B A B, as the closed loop
            bare_run = await phases.open("bare", args.rate, args.seconds)
            service_run = await phases.open("service", args.rate, args.seconds)
            open_pairs.append((bare_run, service_run))
            print(
                f"open loop at {args.rate:,.0f}/s: p99 bare {bare_run[0]['p99']:.2f} ms, "
                f"service {service_run[0]['p99']:.2f} ms"
            )
        bare_open, bare_open_each = middle_run([b for b, _ in open_pairs])
        service_open, service_open_each = middle_run([s for _, s in open_pairs])
        memory = await phases.runners[0].memory(args.fresh)
        sizes = await phases.runners[0].sizes()
    finally:
        await asyncio.gather(*(r.close() for r in phases.runners))
    report(args, sizes, settings, {"bare": bare_open, "service": service_open})
    figures: dict[str, Any] = {
        "ratio_to_bare": round(statistics.median(s / b for b, s in pairs), 3),
        "ratios": [round(s / b, 3) for b, s in pairs],
        "cmd_per_s": round(statistics.median(s for _, s in pairs), 1),
        "bare_cmd_per_s": round(statistics.median(b for b, _ in pairs), 1),
        "p50_ms_at_1000": round(service_open["p50"], 2),
        "p99_ms_at_1000": round(service_open["p99"], 2),
        "p50_ms_first_half": round(service_open["p50_first_half"], 2),
        "p50_ms_second_half": round(service_open["p50_second_half"], 2),
        "bare_p50_ms_at_1000": round(bare_open["p50"], 2),
        "bare_p99_ms_at_1000": round(bare_open["p99"], 2),
        "p99s_ms_at_1000": [round(s[0]["p99"], 2) for _, s in open_pairs],
        "bare_p99s_ms_at_1000": [round(b[0]["p99"], 2) for b, _ in open_pairs],
        "p99_ratio_to_bare": round(
            statistics.median(s[0]["p99"] / b[0]["p99"] for b, s in open_pairs), 3
        ),
        "offered_per_s": args.rate,
        "mib_per_1000_fresh": round(memory, 2),
        "db_bytes_per_1000_cmds": round((after["service"] - before["service"]) * 1000 / done),
        "bare_db_bytes_per_1000_cmds": round((after["bare"] - before["bare"]) * 1000 / done),
        "store": args.store,
        "processes": args.processes,
    }
    if args.store == "postgres":
        figures["postgres"] = settings
        figures["bare_writer_lock"] = args.bare_writer_lock
    if args.processes > 1:
        figures["per_process"] = [
            {
                "channels": len(r.channels),
                "cmd_per_s": round(statistics.median(s[n] for _, s in each), 1),
                "bare_cmd_per_s": round(statistics.median(b[n] for b, _ in each), 1),
                "p50_ms_at_1000": round(service_open_each[n]["p50"], 2),
                "p99_ms_at_1000": round(service_open_each[n]["p99"], 2),
                "bare_p99_ms_at_1000": round(bare_open_each[n]["p99"], 2),
            }
            for n, r in enumerate(phases.runners)
        ]
    return figures


def report(
    args: argparse.Namespace,
    sizes: dict[str, int],
    settings: dict[str, str],
    latencies: dict[str, dict[str, float]],
) -> None:
    """The human lines after the closed loop's."""
    print(
        f"store: {args.store}, {args.processes} process(es), channels: {CHANNELS}; state JSON: "
        f"service {sizes['service'] / 1024:.1f} KiB, bare {sizes['bare'] / 1024:.1f} KiB"
    )
    if settings:
        lock = "; bare path takes the writer lock" if args.bare_writer_lock else ""
        print("postgres: " + ", ".join(f"{k} {v}" for k, v in settings.items()) + lock)
    for name, figures in latencies.items():
        print(
            f"open loop at {args.rate:,.0f}/s offered, {name}: p50 {figures['p50']:.2f} ms "
            f"(halves {figures['p50_first_half']:.2f} / {figures['p50_second_half']:.2f}), "
            f"p99 {figures['p99']:.2f} ms"
        )


async def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    heap.settle()  # as the bot's start-up does (a run inside the test suite leaves it alone)
    if args.worker:
        await serve()
        return
    with tempfile.TemporaryDirectory() as folder:
        figures = await run(args, Path(folder))
    print(json.dumps(figures))


if __name__ == "__main__":
    asyncio.run(main())
