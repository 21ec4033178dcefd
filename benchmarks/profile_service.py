"""Profile the service path of ``service_throughput.py`` on the main thread (cProfile): its 100
channels set up as there, 1,000 warm-up commands, then 4,000 profiled closed-loop commands.

Run: ``.venv/bin/python benchmarks/profile_service.py [OUT.prof]`` → commands per second while
profiled, then the main thread's time by share (what docs/performance.md quotes): waiting on the
database thread (epoll), aiosqlite hand-offs, (de)serialisation and model copies, engine,
service/store code, the asyncio loop. A benchmark aid, not a test.
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import service_throughput as bench  # noqa: E402

PROFILED = 4000  # closed-loop commands profiled
HANDOFFS = ("put_nowait", "'recv'", "'send'", "call_soon_threadsafe", "_write_to_self")


def share_of(path: str, name: str) -> str:
    """The share a function's own time counts towards."""
    if "'poll' of 'select.epoll'" in name or path.endswith("selectors.py"):
        return "waiting on the database thread (epoll)"
    if "aiosqlite" in path or "futures.py" in path or any(h in name for h in HANDOFFS):
        return "aiosqlite hand-offs"
    if any(k in path or k in name for k in ("pydantic", "json", "isoformat", "copy.py")):
        return "(de)serialisation and model copies"
    if "/bot/engine/" in path:
        return "engine"
    if "/bot/services/" in path or "/bot/store/" in path:
        return "service/store code"
    if "benchmarks" in path:
        return "benchmark driver"
    if "asyncio" in path or "contextvars" in name:
        return "asyncio loop and locks"
    return "other (builtins, stdlib)"


def shares(profile: str) -> None:
    """Print the main thread's own time by share, largest first, with its top three items."""
    stats = pstats.Stats(profile)
    total, by_share = 0.0, defaultdict(list)
    for (path, line, name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        by_share[share_of(path, name)].append((own, f"{Path(path).name}:{line}({name})"))
        total += own
    for share, items in sorted(by_share.items(), key=lambda kv: -sum(t for t, _ in kv[1])):
        own = sum(t for t, _ in items)
        top = "; ".join(f"{n} {t:.2f}s" for t, n in sorted(items, reverse=True)[:3])
        print(f"{share:42s} {own:6.2f}s {100 * own / total:5.1f}%  {top}")
    print(f"total {total:.2f}s")
    # One trip = one function queued to an aiosqlite thread (its _execute's put_nowait);
    # _execute's own ncalls counts twice, as cProfile counts a coroutine's resumption as a call.
    trips = sum(
        calls
        for (_path, _line, name), (*_counts, callers) in stats.stats.items()  # type: ignore[attr-defined]
        if "put_nowait" in name
        for (path, _l, caller), (_cc, calls, *_rest) in callers.items()
        if caller == "_execute" and path.endswith("aiosqlite/core.py")
    )
    print(f"trips to the database threads: {trips:,} ({trips / PROFILED:.2f} a command)")


async def profile(out: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with bench.sqlite_service(Path(folder)) as (_db, encounters, combat):
            step = bench.service_step(combat, encounters)
            await bench.closed_loop(step, 1000)
            profiler = cProfile.Profile()
            started = time.perf_counter()
            profiler.enable()
            rate = await bench.closed_loop(step, PROFILED)
            profiler.disable()
            print(f"{rate:,.0f} commands/s profiled, {time.perf_counter() - started:.2f} s")
            if "--by-caller" in sys.argv:
                pstats.Stats(profiler).sort_stats("tottime").print_callers("_execute")
            profiler.dump_stats(out)


if __name__ == "__main__":
    given = [a for a in sys.argv[1:] if not a.startswith("--")]
    target = given[0] if given else "service.prof"
    asyncio.run(profile(target))
    shares(target)
