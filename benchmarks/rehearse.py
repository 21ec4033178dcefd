"""Benchmark: ``/rehearse`` — 1,000 fights of a 5-combatant UTTAS encounter (Willow and the
Brawler against two Thugs and a Lackey, from round 1), policy ``simple``.

Two ways, each ``--runs`` times (median reported):

- ``workers``: the bot's path — the fights in chunks on a spawned process pool
  (:func:`bot.services.rehearsal.default_executor`, at most 2 workers) through
  :func:`bot.services.rehearsal.play_in_worker`; the pool is started and warmed before timing,
  as it is after the bot's first rehearsal;
- ``one process``: :func:`bot.engine.core.rehearse.rehearse` in this process, for comparison,
  with its CPU time (``time.process_time``): the work itself, which other processes on the
  machine do not inflate as they inflate the wall-clock figures.

Run: ``.venv/bin/python benchmarks/rehearse.py [--fights N] [--runs K]``. Prints a human line
per way, and last one JSON object. Target (issue 18): under 10 s for 1,000 fights. A benchmark,
not a test: figures depend on the machine and on what else runs on it (the reference machines
have 2 cores).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import Executor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import RandomRoller, get_ruleset  # noqa: E402
from bot.engine.core.commands import Begin  # noqa: E402
from bot.engine.core.rehearse import ROUNDS_MAX, Tally, chunks, rehearse  # noqa: E402
from bot.engine.uttas.commands import AddCombatant  # noqa: E402
from bot.engine.uttas.sheet import UttasSheet  # noqa: E402
from bot.services.rehearsal import default_executor, play_in_worker  # noqa: E402

CAST = (
    ("Willow", "willow", False),
    ("Brawler", "brawler", False),
    ("Thug", "thug", True),
    ("Thug 2", "thug", True),
    ("Lackey", "lackey", True),
)


def build() -> tuple[Any, Any]:
    """The ruleset and the encounter at the start of round 1."""
    rules = get_ruleset("uttas")
    sheets = ROOT / "data" / "sheets" / "uttas"
    roller = RandomRoller(seed=1)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    state = rules.new_encounter(name="Bench", seed=1)
    for name, sheet, npc in CAST:
        data = json.loads((sheets / f"{sheet}.json").read_text())
        add = AddCombatant(name=name, sheet=UttasSheet.model_validate(data), is_npc=npc)
        state = rules.apply(state, add, roller, now).state
    state = rules.apply(state, Begin(), roller, now).state
    return rules, state


def in_workers(pool: Executor, rules: Any, state: Any, fights: int, seed: int) -> Tally:
    frozen, state_json = rules.frozen(), state.model_dump_json()
    deadline = time.monotonic() + 3600
    futures = [
        pool.submit(
            play_in_worker,
            rules.key,
            frozen,
            state_json,
            "simple",
            seed,
            index,
            n,
            ROUNDS_MAX,
            deadline,
        )
        for index, n in chunks(fights)
    ]
    total = Tally()
    for future in futures:
        total.add(future.result())
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rules, state = build()
    pool = default_executor()
    workers = getattr(pool, "_max_workers", None)
    in_workers(pool, rules, state, 200, seed=0)  # start and warm the workers
    pooled: list[float] = []
    single: list[float] = []
    cpu: list[float] = []
    for run in range(args.runs):
        t0 = time.perf_counter()
        tally = in_workers(pool, rules, state, args.fights, seed=run)
        pooled.append(time.perf_counter() - t0)
        assert tally.fights == args.fights
        t0, c0 = time.perf_counter(), time.process_time()
        rehearse(rules, state, fights=args.fights, seed=run)
        single.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    pool.shutdown()
    w, s, c = statistics.median(pooled), statistics.median(single), statistics.median(cpu)
    print(
        f"rehearse, {args.fights:,} fights of 5 UTTAS combatants: median {w:.2f} s in "
        f"{workers} worker processes (the bot's path), runs {[round(x, 2) for x in pooled]}; "
        "target < 10 s"
    )
    print(
        f"same in one process: median {s:.2f} s, runs {[round(x, 2) for x in single]}; "
        f"CPU time {c:.2f} s (the work itself, whatever else runs on the machine)"
    )
    print(
        json.dumps(
            {
                "fights": args.fights,
                "runs": args.runs,
                "workers": workers,
                "median_s_workers": round(w, 3),
                "median_s_one_process": round(s, 3),
                "median_cpu_s_one_process": round(c, 3),
                "target_s": 10,
            }
        )
    )


if __name__ == "__main__":
    main()
