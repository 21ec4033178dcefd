"""Benchmark aid: where a closed-loop run of the service path spends its threads' time, round
after round — the figures docs/performance.md ("Single-trip units and the WAL restart") quotes.

The set-up and command mix are ``service_throughput.py``'s (100 channels of five-combatant
UTTAS fights, SQLite WAL, synchronous=FULL). After 1,000 warm-up commands, ``--rounds`` rounds
of ``--commands`` commands; per round: commands per second, the share of the round the event
loop sat idle waiting for I/O (an epoll selector that times its waits), each busy thread's user
and system CPU per command (``/proc/self/task/*/stat``: the main thread, the database threads),
the WAL's size at the end of the round and the background checkpoints so far. A growing WAL or
a growing system time on the database thread shows the WAL is not being restarted.

Run: ``.venv/bin/python benchmarks/write_path_threads.py [--commands N] [--rounds K]``. Linux
only (``/proc``). Prints one line per round and last one JSON object (the rounds).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import selectors
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_throughput as bench  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


class TimedSelector(selectors.EpollSelector):
    """An epoll selector that adds up the seconds the event loop waits in it."""

    waited = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        started = time.perf_counter()
        try:
            return super().select(timeout)
        finally:
            self.waited += time.perf_counter() - started


def thread_cpu() -> dict[str, tuple[float, float]]:
    """Per thread id: (user, system) CPU seconds so far."""
    found = {}
    for tid in os.listdir("/proc/self/task"):
        fields = Path(f"/proc/self/task/{tid}/stat").read_text()
        rest = fields[fields.rindex(")") + 2 :].split()
        found[tid] = (int(rest[11]) / TICKS, int(rest[12]) / TICKS)
    return found


async def measure(
    selector: TimedSelector, commands: int, rounds: int, folder: Path
) -> list[dict[str, Any]]:
    main_tid = str(threading.get_native_id())
    figures = []
    async with bench.sqlite_service(folder) as (db, encounters, combat):
        step = bench.service_step(combat, encounters)
        await bench.closed_loop(step, 1000)
        done = max(1, commands // bench.CHANNELS) * bench.CHANNELS
        for _ in range(rounds):
            before, selector.waited, started = thread_cpu(), 0.0, time.perf_counter()
            rate = await bench.closed_loop(step, commands)
            wall, after = time.perf_counter() - started, thread_cpu()
            threads = []
            for tid, (user, system) in after.items():
                user0, system0 = before.get(tid, (0.0, 0.0))
                spent = ((user - user0) * 1e6 / done, (system - system0) * 1e6 / done)
                if sum(spent) >= 5:
                    name = "main" if tid == main_tid else "database"
                    threads.append(
                        {"thread": name, "user_us": round(spent[0]), "sys_us": round(spent[1])}
                    )
            wal = folder / "bench.sqlite3-wal"
            figures.append(
                {
                    "cmd_per_s": round(rate, 1),
                    "loop_idle": round(selector.waited / wall, 3),
                    "threads_per_cmd": threads,
                    "wal_mb": round(wal.stat().st_size / 1e6, 1) if wal.exists() else 0.0,
                    "checkpoints": db.checkpoints,
                }
            )
            print(json.dumps(figures[-1]))
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commands", type=int, default=4000, help="commands per round")
    parser.add_argument("--rounds", type=int, default=4, help="rounds")
    args = parser.parse_args(argv)
    selector = TimedSelector()
    loop = asyncio.SelectorEventLoop(selector)
    try:
        with tempfile.TemporaryDirectory() as folder:
            figures = loop.run_until_complete(
                measure(selector, args.commands, args.rounds, Path(folder))
            )
    finally:
        loop.close()
    print(json.dumps({"rounds": figures}))


if __name__ == "__main__":
    main()
