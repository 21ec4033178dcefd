"""Benchmark aid: where the open loop's slow commands spend their time — the per-phase figures
docs/performance.md ("The tail, measured again") quotes.

The set-up and command mix are ``service_throughput.py``'s (100 channels of five-combatant
UTTAS fights, SQLite WAL, synchronous=FULL). After ``--warm`` closed-loop commands, ``--runs``
open loops of ``--seconds`` at ``--rate`` commands/s. Each command's latency (from when it was
due to when its step returned, as ``service_throughput.py`` measures it) is cut into phases:

* ``wake``: due → the step starts (the event loop busy, or its timer late);
* ``compute``: the step starts → its unit of statements is queued (engine, service, store);
* ``queue``: queued → the database thread begins the trip that carries it (a trip running);
* ``trip``: that trip, ``BEGIN`` to ``COMMIT`` returned (its statements, the fsync, waits for
  the GIL on that thread);
* ``after``: the trip ended → the step returned (the event loop hands back the outcome, the
  service finishes the command).

Per run: p50 and p99, then the median and mean of each phase (ms) over all commands, those from
p95 to p99, and those at or above p99, with the median batch (units a trip carried). A command
that queued no unit (none in this mix) is left out. It wraps two private hooks of
``bot.store.db`` (``Database._submit``, ``_run_units``) for the run; a benchmark aid, not a
test.

Run: ``.venv/bin/python benchmarks/tail_phases.py [--rate R] [--seconds S] [--runs K]``. Prints
one block per run and last one JSON object (the runs' figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import itertools
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_throughput as bench  # noqa: E402

from bot.store import db as db_module  # noqa: E402

PHASES = ("wake", "compute", "queue", "trip", "after")

_command: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar(
    "command", default=None
)
_units: dict[int, dict[str, float]] = {}  # id(unit's future) → its command's record


def hook() -> Callable[[], None]:
    """Wrap the hooks that time a command's unit; returns what unwraps them."""
    submit, run_units = db_module.Database._submit, db_module._run_units

    async def timed_submit(
        self: db_module.Database,
        statements: Sequence[tuple[str, Sequence[Any]]],
        query: str | None,
        params: Sequence[Any],
    ) -> Any:
        record = _command.get()
        if record is not None:
            record["queued"] = time.monotonic()
        return await submit(self, statements, query, params)

    def timed_run_units(conn: Any, units: Sequence[Any], catch_up: bool = False) -> Any:
        began = time.monotonic()
        try:
            return run_units(conn, units, catch_up)
        finally:
            ended = time.monotonic()
            for unit in units:
                record = _units.pop(id(unit.future), None)
                if record is not None:
                    record.update(began=began, ended=ended, batch=len(units))

    unit_init = db_module._Unit.__init__

    def recorded_init(self: Any, *args: Any) -> None:
        unit_init(self, *args)
        record = _command.get()
        if record is not None:
            _units[id(self.future)] = record

    db_module.Database._submit = timed_submit  # type: ignore[method-assign]
    db_module._run_units = timed_run_units
    db_module._Unit.__init__ = recorded_init  # type: ignore[method-assign]

    def unhook() -> None:
        db_module.Database._submit = submit  # type: ignore[method-assign]
        db_module._run_units = run_units
        db_module._Unit.__init__ = unit_init  # type: ignore[method-assign]

    return unhook


def phases(record: dict[str, float]) -> tuple[float, ...]:
    """A command's phases in ms (:data:`PHASES`)."""
    marks = (
        record["due"],
        record["start"],
        record["queued"],
        record["began"],
        record["ended"],
        record["end"],
    )
    return tuple((b - a) * 1e3 for a, b in itertools.pairwise(marks))


def summary(records: list[dict[str, float]]) -> dict[str, Any]:
    """Median and mean of each phase (ms) and the median batch of ``records``."""
    cut = [phases(r) for r in records]
    return {
        "n": len(records),
        **{
            name: [
                round(statistics.median(p[i] for p in cut), 3),
                round(statistics.mean(p[i] for p in cut), 3),
            ]
            for i, name in enumerate(PHASES)
        },
        "batch": statistics.median(r["batch"] for r in records),
    }


async def run(args: argparse.Namespace, folder: Path) -> list[dict[str, Any]]:
    figures = []
    async with bench.sqlite_service(folder) as (_db, encounters, combat):
        inner = bench.service_step(combat, encounters)
        records: list[dict[str, float]] = []

        async def step(channel: int, last: Any) -> Any:
            record = {"start": time.monotonic()}
            token = _command.set(record)
            try:
                result = await inner(channel, last)
            finally:
                _command.reset(token)
            record["end"] = time.monotonic()
            records.append(record)
            return result

        await bench.closed_loop(step, args.warm)
        for _ in range(args.runs):
            records.clear()
            origin = time.monotonic() + 0.05
            latencies = await bench.open_loop(step, args.rate, args.seconds, start_at=origin)
            # The open loop records a latency right after its step returns, with no other task
            # between: the n-th record is the n-th latency's command.
            for record, (due, latency) in zip(records, latencies, strict=True):
                record["due"], record["latency"] = origin + due, latency
            timed = [r for r in records if "began" in r]
            values = [latency for _due, latency in latencies]
            p95, p99 = bench.percentile(values, 0.95), bench.percentile(values, 0.99)
            figure = {
                "p50_ms": round(bench.percentile(values, 0.5) * 1e3, 2),
                "p99_ms": round(p99 * 1e3, 2),
                "all": summary(timed),
                "p95_to_p99": summary([r for r in timed if p95 <= r["latency"] < p99] or timed),
                "at_p99": summary([r for r in timed if r["latency"] >= p99] or timed),
            }
            figures.append(figure)
            print(f"p50 {figure['p50_ms']} ms, p99 {figure['p99_ms']} ms")
            for group in ("all", "p95_to_p99", "at_p99"):
                shown = figure[group]
                cells = "  ".join(
                    f"{name} {shown[name][0]:.2f}/{shown[name][1]:.2f}" for name in PHASES
                )
                print(f"  {group:10} n {shown['n']:5}: {cells}  batch {shown['batch']}")
    return figures


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=1000.0, help="open-loop commands/s")
    parser.add_argument("--seconds", type=float, default=5.0, help="each open loop's length")
    parser.add_argument("--runs", type=int, default=3, help="open loops")
    parser.add_argument("--warm", type=int, default=6000, help="closed-loop commands first")
    return parser.parse_args(argv)


async def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    unhook = hook()
    try:
        with tempfile.TemporaryDirectory() as folder:
            figures = await run(args, Path(folder))
    finally:
        unhook()
    print(json.dumps(figures))


if __name__ == "__main__":
    asyncio.run(main())
