"""Benchmark: CPU time per service command on the main thread (the event loop), the figure
issue 15's "CPU diet" cuts — less inflated by other work on a shared machine than the wall-clock
commands per second of ``service_throughput.py``.

The set-up and command mix are ``service_throughput.py``'s (100 channels of five-combatant
UTTAS fights, closed loop, the real service path: SQLite WAL, synchronous=FULL). After 1,000
warm-up commands, ``--rounds`` rounds of ``--commands`` commands each; per round the main
thread's CPU time (``time.thread_time``, which the database thread's work and the time spent
waiting do not count) and the process's (``time.process_time``: both threads) per command.

Run: ``.venv/bin/python benchmarks/service_cpu.py [--commands N] [--rounds K]``. Prints a
line per round, and last one JSON object: the medians in µs per command. A benchmark aid, not a
test: compare two versions run back to back, not absolute figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_throughput as bench  # noqa: E402


async def measure(commands: int, rounds: int, folder: Path) -> dict[str, float]:
    """Main-thread and process CPU µs per command (medians of ``rounds``) and commands/s."""
    async with bench.sqlite_service(folder) as (_db, encounters, combat):
        step = bench.service_step(combat, encounters)
        await bench.closed_loop(step, 1000)
        main, process, rates = [], [], []
        done = max(1, commands // bench.CHANNELS) * bench.CHANNELS
        for _ in range(rounds):
            thread0, process0 = time.thread_time(), time.process_time()
            rates.append(await bench.closed_loop(step, commands))
            main.append((time.thread_time() - thread0) * 1e6 / done)
            process.append((time.process_time() - process0) * 1e6 / done)
            print(
                f"main thread {main[-1]:,.0f} µs, process {process[-1]:,.0f} µs a command; "
                f"{rates[-1]:,.0f} commands/s"
            )
    return {
        "main_cpu_us_per_cmd": round(statistics.median(main), 1),
        "process_cpu_us_per_cmd": round(statistics.median(process), 1),
        "cmd_per_s": round(statistics.median(rates), 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000, help="commands per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(measure(args.commands, args.rounds, Path(folder)))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
