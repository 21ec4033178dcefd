"""Benchmark: the combat service (no Discord) under 100 concurrent channels of fights, measured
against a bare reference path (``bare_path.py``, issue 15's "L1": one transaction per command)
in the same process and run, alternating A B A B A B so both see the same machine.

Every service command takes the real path — channel lock → read → engine → versioned UPDATE →
log → COMMIT (SQLite WAL, synchronous=FULL) — and is only counted once committed.

Run: ``.venv/bin/python benchmarks/service_throughput.py [--commands N] [--rounds K] [--rate R]``.
Prints, per phase, a human line, and last one JSON object (how results are read):

- closed loop: every channel issues commands back to back; ``--rounds`` pairs of (bare,
  service) runs → commands per second each, and ``ratio_to_bare`` = the median of the pairs'
  service/bare ratios (≥ 1.0 is issue 15's target);
- open loop: commands offered at ``--rate`` per second spread over the channels, bare then
  service → p50 / p99 latency (ms) from the moment each was due to its commit, and the service
  path's p50 over the first and the second half of its run (equal when the queue does not grow);
- memory: tracemalloc of 1,000 encounters each freshly read and parsed from the database (no
  state cache shared between them) → MiB per 1,000;
- database growth: database plus WAL after a TRUNCATE checkpoint, before and after the closed
  loop → bytes per 1,000 service commands (and the same for the bare path).

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
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bare_path import BarePath  # noqa: E402

from bot.engine import get_ruleset  # noqa: E402
from bot.engine.core.commands import Begin, EndTurn  # noqa: E402
from bot.engine.uttas.commands import AddCombatant, Attack, Command  # noqa: E402
from bot.engine.uttas.sheet import UttasSheet  # noqa: E402
from bot.engine.uttas.state import Combatant  # noqa: E402
from bot.services.actor import Actor  # noqa: E402
from bot.services.combat import CombatResult, CombatService, option_code  # noqa: E402
from bot.services.encounters import Encounter, EncounterService, utc_now  # noqa: E402
from bot.store import encounters as encounter_rows  # noqa: E402
from bot.store.db import Database  # noqa: E402

CHANNELS = 100
GM = Actor(user_id=1, manages_channel=True)
SHEETS = ROOT / "data" / "sheets" / "uttas"


def durable(name: str) -> UttasSheet:
    """An example sheet with the most Health and Stamina a sheet may have, so fights last."""
    data = json.loads((SHEETS / name).read_text())
    data.update(health=10_000, stamina=10_000)
    return UttasSheet.model_validate(data)


async def set_up(combat: CombatService, encounters: EncounterService) -> None:
    hero, thug = durable("willow.json"), durable("thug.json")
    for channel in range(1, CHANNELS + 1):
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


def service_step(combat: CombatService, encounters: EncounterService) -> Step:
    async def step(channel: int, last: Any) -> Any:
        return await one_command(combat, encounters, channel, last)

    return step


def bare_step(bare: BarePath) -> Step:
    async def step(channel: int, _last: Any) -> Any:
        return await bare.command(channel)

    return step


async def closed_loop(step: Step, total: int) -> float:
    """Every channel issues ``total / CHANNELS`` commands back to back → commands per second."""
    per_channel = max(1, total // CHANNELS)

    async def worker(channel: int) -> None:
        last = None
        for _ in range(per_channel):
            last = await step(channel, last)

    started = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in range(1, CHANNELS + 1)))
    return per_channel * CHANNELS / (time.perf_counter() - started)


async def open_loop(step: Step, rate: float, seconds: float) -> list[tuple[float, float]]:
    """Offer ``rate`` commands per second round-robin over the channels; a channel's next
    command waits for its previous one (as one channel's commands do). Returns (when due, s
    since the start; latency, s) per command, latency measured from when it was due to when it
    committed."""
    latencies: list[tuple[float, float]] = []
    interval = CHANNELS / rate  # each channel gets a command every `interval` seconds
    count = max(1, int(seconds * rate / CHANNELS))
    origin = time.perf_counter() + 0.05

    async def worker(channel: int) -> None:
        offset = (channel - 1) / rate
        last = None
        for n in range(count):
            due = origin + offset + n * interval
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            last = await step(channel, last)
            latencies.append((due - origin, time.perf_counter() - due))

    await asyncio.gather(*(worker(c) for c in range(1, CHANNELS + 1)))
    return latencies


async def memory_per_thousand(db: Database) -> float:
    """MiB held by 1,000 encounters, each row read and its state parsed afresh (as 1,000 busy
    channels would hold them; nothing shared through a cache)."""
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    held = []
    for i in range(1000):
        async with db.read() as conn:
            row = await encounter_rows.live_in_channel(conn, 1 + i % CHANNELS)
        assert row is not None
        held.append(Encounter(row=row, state=get_ruleset(row.ruleset).load_state(row.state_json)))
    now, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return (now - base) / 2**20


def disk_bytes(path: Path) -> int:
    """Database plus WAL, in bytes, after a TRUNCATE checkpoint (call while no write is open)."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    wal = path.with_name(path.name + "-wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_ms(samples: list[tuple[float, float]]) -> dict[str, float]:
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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commands", type=int, default=6000, help="closed-loop commands/round")
    parser.add_argument("--rounds", type=int, default=3, help="closed-loop (bare, service) pairs")
    parser.add_argument("--rate", type=float, default=1000.0, help="open-loop commands/s offered")
    parser.add_argument("--seconds", type=float, default=5.0, help="open-loop duration")
    parser.add_argument("--channels", type=int, default=100, help="concurrent channels")
    return parser.parse_args(argv)


async def run(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    """Set both paths up in ``folder``, measure them and return the figures (the JSON line)."""
    global CHANNELS
    CHANNELS = args.channels
    db = await Database.open(folder / "bench.sqlite3")
    await db.migrate()
    bare = await BarePath.open(folder / "bare.sqlite3", CHANNELS)
    try:
        encounters = EncounterService(db, clock=utc_now, seeds=lambda: 7)
        combat = CombatService(encounters, clock=utc_now)
        await set_up(combat, encounters)
        service, reference = service_step(combat, encounters), bare_step(bare)
        disk = {"service": disk_bytes(db.path), "bare": disk_bytes(bare.path)}
        pairs: list[tuple[float, float]] = []
        for _ in range(args.rounds):  # A B A B A B
            pairs.append(
                (
                    await closed_loop(reference, args.commands),
                    await closed_loop(service, args.commands),
                )
            )
            print(f"closed loop: bare {pairs[-1][0]:,.0f}/s, service {pairs[-1][1]:,.0f}/s")
        done = args.rounds * max(1, args.commands // CHANNELS) * CHANNELS
        grown = {
            "service": disk_bytes(db.path) - disk["service"],
            "bare": disk_bytes(bare.path) - disk["bare"],
        }
        bare_open = latency_ms(await open_loop(reference, args.rate, args.seconds))
        service_open = latency_ms(await open_loop(service, args.rate, args.seconds))
        memory = await memory_per_thousand(db)
        size = len((await encounters.live(1)).state_json)
        bare_size = await bare.state_size(1)
    finally:
        await bare.close()
        await db.close()
    print(
        f"channels: {CHANNELS}; state JSON: service {size / 1024:.1f} KiB, "
        f"bare {bare_size / 1024:.1f} KiB"
    )
    for name, figures in (("bare", bare_open), ("service", service_open)):
        print(
            f"open loop at {args.rate:,.0f}/s offered, {name}: p50 {figures['p50']:.2f} ms "
            f"(halves {figures['p50_first_half']:.2f} / {figures['p50_second_half']:.2f}), "
            f"p99 {figures['p99']:.2f} ms"
        )
    return {
        "ratio_to_bare": round(statistics.median(s / b for b, s in pairs), 3),
        "ratios": [round(s / b, 3) for b, s in pairs],  # type: ignore[dict-item]
        "cmd_per_s": round(statistics.median(s for _, s in pairs), 1),
        "bare_cmd_per_s": round(statistics.median(b for b, _ in pairs), 1),
        "p50_ms_at_1000": round(service_open["p50"], 2),
        "p99_ms_at_1000": round(service_open["p99"], 2),
        "p50_ms_first_half": round(service_open["p50_first_half"], 2),
        "p50_ms_second_half": round(service_open["p50_second_half"], 2),
        "bare_p50_ms_at_1000": round(bare_open["p50"], 2),
        "bare_p99_ms_at_1000": round(bare_open["p99"], 2),
        "offered_per_s": args.rate,
        "mib_per_1000_fresh": round(memory, 2),
        "db_bytes_per_1000_cmds": round(grown["service"] * 1000 / done),
        "bare_db_bytes_per_1000_cmds": round(grown["bare"] * 1000 / done),
    }


async def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        figures = await run(args, Path(folder))
    print(json.dumps(figures))


if __name__ == "__main__":
    asyncio.run(main())
