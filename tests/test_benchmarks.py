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
