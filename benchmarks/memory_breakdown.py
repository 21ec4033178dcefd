"""Benchmark: what the memory of a live encounter is made of (issue 15, "Memory": ≤ 16 MiB per
1,000 live encounters).

Sets up ``service_throughput.py``'s fights (100 channels of five-combatant UTTAS fights, then
``--commands`` closed-loop commands so they are under way), then holds 1,000 encounters each
freshly read and parsed from the database — as ``service_throughput.memory_per_thousand`` does,
no parsed state shared through a cache — and prints:

- ``mib_per_1000_fresh``: ``memory_per_thousand``'s own figure (the benchmark's key);
- the largest allocation sites of the held encounters (tracemalloc, by file and line);
- one encounter taken apart (``sys.getsizeof`` of every object reachable from it): bytes by
  kind, split into what it holds alone and what it shares with the encounter of another
  channel (shared sheets, interned strings, shared fields sets and empty containers);
- the last line: one JSON object with the figures.

Run: ``.venv/bin/python benchmarks/memory_breakdown.py [--commands N] [--top K]``.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import json
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_throughput as bench  # noqa: E402
from pydantic import BaseModel  # noqa: E402

from bot.services.encounters import Encounter, state_of  # noqa: E402
from bot.store import encounters as encounter_rows  # noqa: E402
from bot.store.db import Database  # noqa: E402


async def held_encounters(db: Database, count: int = 1000) -> list[Encounter]:
    """``count`` encounters, each row read and its state parsed afresh (round-robin over the
    channels), as ``memory_per_thousand`` holds them."""
    held = []
    for i in range(count):
        async with db.read() as conn:
            row = await encounter_rows.live_in_channel(conn, 1 + i % bench.CHANNELS)
            assert row is not None
            held.append(Encounter(row=row, state=await state_of(conn, row)))
    return held


async def allocation_sites(db: Database, top: int) -> list[tuple[str, float, int]]:
    """The ``top`` allocation sites (file:line, KiB per encounter, blocks) of 1,000 held
    encounters."""
    gc.collect()
    tracemalloc.start()
    held = await held_encounters(db)
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    snapshot = snapshot.filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    sites = [
        (str(stat.traceback[0]), stat.size / 1024 / len(held), stat.count)
        for stat in snapshot.statistics("lineno")[:top]
    ]
    del held
    return sites


def reachable(root: Any) -> dict[int, tuple[Any, str]]:
    """Every object reachable from ``root`` through models, dicts, lists, tuples and sets, by
    id, with its kind: ``model`` objects, their ``__dict__`` and fields sets, containers,
    strings and other values."""
    found: dict[int, tuple[Any, str]] = {}
    stack: list[tuple[Any, str]] = [(root, "encounter")]
    while stack:
        obj, kind = stack.pop()
        if id(obj) in found:
            continue
        found[id(obj)] = (obj, kind)
        if isinstance(obj, Encounter):
            stack += [
                (obj.__dict__, "Encounter __dict__"),
                (obj.row, "model"),
                (obj.state, "model"),
            ]
            stack += [(obj.away, "dict")]
        elif isinstance(obj, BaseModel):
            stack += [(obj.__dict__, "model __dict__"), (obj.__pydantic_fields_set__, "fields set")]
            stack += [(value, _kind(value)) for value in obj.__dict__.values()]
        elif isinstance(obj, dict):
            for key, value in obj.items():
                stack += [(key, _kind(key)), (value, _kind(value))]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack += [(value, _kind(value)) for value in obj]
    return found


def _kind(value: Any) -> str:
    if isinstance(value, BaseModel):
        return "model"
    if isinstance(value, str):
        return "str (long text: state, rules)" if len(value) > 2000 else "str"
    if isinstance(value, (list, dict, tuple, set)):
        return type(value).__mro__[-2].__name__  # list, dict… also for their subclasses
    return "other values"


def take_apart(one: Encounter, other: Encounter) -> dict[str, dict[str, int]]:
    """Bytes of ``one`` by kind: ``alone`` (not reachable from ``other``) and ``shared``."""
    mine, theirs = reachable(one), reachable(other)
    parts: dict[str, dict[str, int]] = {
        "alone": collections.Counter(),
        "shared": collections.Counter(),
    }
    for key, (obj, kind) in mine.items():
        parts["shared" if key in theirs else "alone"][kind] += sys.getsizeof(obj)
    return parts


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    bench.CHANNELS = args.channels
    async with bench.sqlite_service(folder) as (db, encounters, combat):
        await bench.closed_loop(bench.service_step(combat, encounters), args.commands)
        mib = await bench.memory_per_thousand(db)
        sites = await allocation_sites(db, args.top)
        one, other = await held_encounters(db, 2)
        text = len((await encounters.live(1)).state_json)
    print(f"mib_per_1000_fresh (service_throughput.memory_per_thousand): {mib:.2f} MiB")
    print(f"state JSON as stored: {text / 1024:.1f} KiB")
    print("largest allocation sites of 1,000 held encounters (KiB per encounter, blocks):")
    for where, kib, blocks in sites:
        print(f"  {kib:7.2f} KiB {blocks:8,d}  {where}")
    parts = take_apart(one, other)
    print("one encounter taken apart (sys.getsizeof, bytes): alone | shared with another")
    for kind in sorted(
        set(parts["alone"]) | set(parts["shared"]), key=lambda k: -parts["alone"][k]
    ):
        print(f"  {parts['alone'][kind]:8,d} | {parts['shared'][kind]:8,d}  {kind}")
    alone = sum(parts["alone"].values())
    print(f"  {alone:8,d} | {sum(parts['shared'].values()):8,d}  total")
    return {
        "mib_per_1000_fresh": round(mib, 2),
        "bytes_alone_per_encounter": alone,
        "state_json_bytes": text,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000, help="closed-loop commands first")
    parser.add_argument("--channels", type=int, default=100, help="channels (fights)")
    parser.add_argument("--top", type=int, default=12, help="allocation sites shown")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(args, Path(folder)))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
