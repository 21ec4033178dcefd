"""bot/heap.py: what start-up built is frozen out of the cycle collector and young objects are
collected every YOUNG_THRESHOLD net allocations (issue 15). Run in a fresh interpreter, so the
test process's own collector is left as it is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import gc, json
import bot.heap as heap
before = gc.get_threshold()
frozen = heap.settle()
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": frozen,
                  "count": gc.get_freeze_count()}))
"""


def test_settle_freezes_what_lives_and_collects_young_objects_less_often() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["before"] == [700, 10, 10]  # CPython's defaults
    assert figures["after"] == [50_000, 10, 10]
    assert figures["frozen"] == figures["count"] > 1000  # modules, classes, functions at least


def test_the_bot_settles_its_heap_after_start_up_builds_it() -> None:
    source = (ROOT / "bot" / "__main__.py").read_text()
    build = source.index("bot = await opened(settings)")  # build(), its failures named
    assert build < source.index("heap.settle()") < source.index("await bot.connect()")
