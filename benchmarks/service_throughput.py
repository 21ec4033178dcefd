"""Benchmark: the combat service (no Discord) under 100 concurrent channels of fights.

Every command takes the real path — channel lock → read → engine → versioned UPDATE → log →
COMMIT (SQLite WAL, synchronous=FULL) — and is only counted once committed.

Run: ``.venv/bin/python benchmarks/service_throughput.py [--commands N] [--rate R]``.
Prints:

- closed loop: 100 channels each issuing commands back to back → commands per second;
- open loop: commands offered at ``--rate`` per second spread over the channels → p50 / p99
  latency from the moment each was due to its commit;
- memory: tracemalloc of 1,000 loaded encounters (the states a busy bot holds while working).

Targets on the 2-core reference machines: ≥ 1,700 commands/s, p99 < 10 ms at 1,000 commands/s
offered, < 16 MiB per 1,000 live encounters. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine.core.commands import Begin, EndTurn  # noqa: E402
from bot.engine.uttas.commands import AddCombatant, Attack, Command  # noqa: E402
from bot.engine.uttas.sheet import UttasSheet  # noqa: E402
from bot.engine.uttas.state import Combatant  # noqa: E402
from bot.services.actor import Actor  # noqa: E402
from bot.services.combat import CombatResult, CombatService, option_code  # noqa: E402
from bot.services.encounters import Encounter, EncounterService, utc_now  # noqa: E402
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


async def closed_loop(combat: CombatService, encounters: EncounterService, total: int) -> float:
    per_channel = max(1, total // CHANNELS)

    async def worker(channel: int) -> None:
        last = None
        for _ in range(per_channel):
            last = await one_command(combat, encounters, channel, last)

    started = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in range(1, CHANNELS + 1)))
    return per_channel * CHANNELS / (time.perf_counter() - started)


async def open_loop(
    combat: CombatService, encounters: EncounterService, rate: float, seconds: float
) -> list[float]:
    """Offer ``rate`` commands per second round-robin over the channels; a channel's next
    command waits for its previous one (as one channel's commands do). Latency is measured from
    when a command was due to when it committed."""
    latencies: list[float] = []
    interval = CHANNELS / rate  # each channel gets a command every `interval` seconds
    count = int(seconds * rate / CHANNELS)
    origin = time.perf_counter() + 0.05

    async def worker(channel: int) -> None:
        offset = (channel - 1) / rate
        last = None
        for n in range(count):
            due = origin + offset + n * interval
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            last = await one_command(combat, encounters, channel, last)
            latencies.append(time.perf_counter() - due)

    await asyncio.gather(*(worker(c) for c in range(1, CHANNELS + 1)))
    return latencies


async def memory_per_thousand(encounters: EncounterService) -> float:
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    held = [await encounters.live(1 + i % CHANNELS) for i in range(1000)]
    now, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(held) == 1000
    return (now - base) / 2**20


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=6000, help="closed-loop commands")
    parser.add_argument("--rate", type=float, default=1000.0, help="open-loop commands/s offered")
    parser.add_argument("--seconds", type=float, default=5.0, help="open-loop duration")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        await db.migrate()
        encounters = EncounterService(db, clock=utc_now, seeds=lambda: 7)
        combat = CombatService(encounters, clock=utc_now)
        await set_up(combat, encounters)
        throughput = await closed_loop(combat, encounters, args.commands)
        latencies = await open_loop(combat, encounters, args.rate, args.seconds)
        memory = await memory_per_thousand(encounters)
        state_size = len((await encounters.live(1)).row.state_json)
        await db.close()
    print(f"channels: {CHANNELS}, state JSON per encounter: {state_size / 1024:.1f} KiB")
    print(f"closed loop: {throughput:,.0f} commands/s (each committed before acknowledged)")
    print(
        f"open loop at {args.rate:,.0f} commands/s offered: {len(latencies)} commands, "
        f"p50 {statistics.median(latencies) * 1000:.2f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.2f} ms"
    )
    print(f"memory: {memory:.1f} MiB per 1,000 live encounters")


if __name__ == "__main__":
    asyncio.run(main())
