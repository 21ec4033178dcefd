"""The garbage collector's settings for a long-running bot process (issue 15).

The command path makes no cyclic garbage (measured: ``gc.DEBUG_SAVEALL`` over 1,000 benchmark
commands keeps nothing), so every collection is pure overhead: it walks live objects to find
none to free. With CPython's defaults a collection of the young objects runs every 700 net
allocations — about every 25 commands — and a full one walks every object alive, start-up's
included (107,000 objects in the benchmark: 45–76 ms with the event loop stopped, a command's
p99 at 1,000 commands/s). :func:`settle` makes both rare; measured in ``docs/performance.md``
("Garbage collection"): 47 µs of collector time per command → under 10 µs, and no collection at
all in 10 s at 1,000 commands/s.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 50_000
"""Net allocations of tracked objects between two collections of the young generation
(CPython's default: 700). At 10,000 the benchmark still collected 5–6 times in 10 s at 1,000
commands/s, 10–20 ms each (the young generation holds every state made since the last
collection, ~25,000 objects); at 50,000 none in 10 s. What it costs: cyclic garbage from other
paths (exceptions, the gateway) waits up to 50,000 allocations to be freed."""


def settle() -> int:
    """Call once start-up has built what lives as long as the process (modules, rules tables,
    the composition root's services): collect once, move every object alive now out of the
    collector's reach for good (``gc.freeze``: later full collections no longer walk them), and
    collect the young generation every :data:`YOUNG_THRESHOLD` net allocations instead of 700
    (the older generations keep their thresholds). Returns how many objects were frozen.
    Reference counting still frees everything as before; only the cycle collector runs less."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, older, oldest)
    frozen = gc.get_freeze_count()
    log.info("start-up objects kept out of garbage collection: %d", frozen)
    return frozen
