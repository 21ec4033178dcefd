"""The benchmarks stay runnable: they are not part of CI's figures, but a benchmark that no
longer imports (it fell behind a renamed module) measures nothing. Each is imported and its
setup built once, without timing anything."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCHMARKS.glob("*.py")))
def test_each_benchmark_imports(name: str) -> None:
    load(name)


def test_the_attack_benchmark_builds_its_fight() -> None:
    rules, state, _roller, _now, attack, target = load("engine_attack").build()
    assert len(state.combatants) == 20 and attack.target == target and rules.key == "uttas"


async def test_the_service_benchmark_plays_a_few_commands_in_one_channel(tmp_path: Path) -> None:
    """The service benchmark's command loop runs against today's services (it fell behind
    once: it read a decision's ``target``, which decisions no longer have)."""
    bench = load("service_throughput")
    db = await bench.Database.open(tmp_path / "bench.sqlite3")
    try:
        await db.migrate()
        encounters = bench.EncounterService(db, clock=bench.utc_now, seeds=lambda: 7)
        combat = bench.CombatService(encounters, clock=bench.utc_now)
        bench.CHANNELS = 1
        await bench.set_up(combat, encounters)
        last = None
        for _ in range(12):  # attacks, answers to the decisions they open, ends of turns
            last = await bench.one_command(combat, encounters, 1, last)
        assert (await encounters.live(1)).version > 12
    finally:
        await db.close()
