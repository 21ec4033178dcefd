"""Benchmark: what start-up's look for lost turn pings costs with many live fights.

Before the gateway connects, the bot asks which live fights run a turn that no posted result
showed (:meth:`bot.services.turn_pings.TurnPings.owed`, ``setup_hook``). Sets up ``--fights``
of ``service_throughput.py``'s five-combatant UTTAS fights, plays ``--commands`` closed-loop
commands a fight, notes every running turn shown (as the posts after those commands do), then
— on the database opened again, no encounter in memory — times ``owed()`` (nothing owed),
then the reference (loading every live fight afresh, what ``owed()`` did before migration
0025), then ``owed()`` again after ``--owed`` fights played on until their turn moved, with
no post to note it.

Run: ``.venv/bin/python benchmarks/start_up.py [--fights N] [--commands K] [--owed M]``.
Prints the set-up's time and, last, one JSON object: ``owed_s`` (seconds, nothing owed),
``owed_some_s`` (seconds, ``--owed`` owed), how many each found, and ``load_all_s`` (the
reference, seconds). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_throughput as bench  # noqa: E402

from bot.services.combat import CombatService  # noqa: E402
from bot.services.encounters import EncounterService  # noqa: E402
from bot.services.turn_pings import TurnPings  # noqa: E402
from bot.store.db import Database  # noqa: E402


async def timed_owed(path: Path) -> tuple[float, int]:
    """Seconds ``owed()`` took on the database at ``path`` opened afresh, and how many."""
    db = await Database.open(path)
    try:
        encounters = EncounterService(db, clock=bench.utc_now, seeds=lambda: 7)
        start = time.perf_counter()
        owed = await TurnPings(encounters).owed()
        return time.perf_counter() - start, len(owed)
    finally:
        await db.close()


async def timed_load_all(path: Path, channels: list[int]) -> float:
    """The reference: seconds to load every live fight afresh, as ``owed()`` did before
    migration 0025 (it read each fight's running turn from its state)."""
    db = await Database.open(path)
    try:
        encounters = EncounterService(db, clock=bench.utc_now, seeds=lambda: 7)
        start = time.perf_counter()
        for channel in channels:
            await encounters.live(channel)
        return time.perf_counter() - start
    finally:
        await db.close()


async def move_turns(path: Path, channels: list[int]) -> None:
    """Each of ``channels`` plays on until its turn moves, and no post notes it."""
    db = await Database.open(path)
    try:
        encounters = EncounterService(db, clock=bench.utc_now, seeds=lambda: 7)
        combat = CombatService(encounters, clock=bench.utc_now)
        for channel in channels:
            seq = (await encounters.live(channel)).state.turn_seq
            last = None
            while last is None or last.encounter.state.turn_seq == seq:
                last = await bench.one_command(combat, encounters, channel, last)
    finally:
        await db.close()


async def measure(fights: int, commands: int, owed: int, folder: Path) -> dict[str, float]:
    path = folder / "start.sqlite3"
    db = await Database.open(path)
    await db.migrate()
    channels = list(range(1, fights + 1))
    try:
        encounters = EncounterService(db, clock=bench.utc_now, seeds=lambda: 7)
        combat = CombatService(encounters, clock=bench.utc_now)
        start = time.perf_counter()
        await bench.set_up(combat, encounters, channels)
        step = bench.service_step(combat, encounters)
        await bench.closed_loop(step, fights * commands, channels)
        pings = TurnPings(encounters)
        for channel in channels:
            await pings.announced(await encounters.live(channel))
        print(f"set up {fights:,} fights in {time.perf_counter() - start:.1f} s")
    finally:
        await db.close()
    none_s, none_found = await timed_owed(path)
    load_all_s = await timed_load_all(path, channels)
    await move_turns(path, channels[:owed])
    some_s, some_found = await timed_owed(path)
    return {
        "fights": fights,
        "owed_s": round(none_s, 4),
        "owed_found": none_found,
        "owed_some_s": round(some_s, 4),
        "owed_some_found": some_found,
        "load_all_s": round(load_all_s, 4),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fights", type=int, default=1000, help="live fights")
    parser.add_argument("--commands", type=int, default=10, help="commands a fight")
    parser.add_argument("--owed", type=int, default=10, help="fights left owing a ping")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(measure(args.fights, args.commands, args.owed, Path(folder)))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
