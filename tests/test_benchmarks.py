"""The benchmarks stay runnable: they are not part of CI's figures, but a benchmark that no
longer imports (it fell behind a renamed module) measures nothing. Each is imported and its
setup built once, without timing anything."""

from __future__ import annotations

import importlib
import importlib.util
import sqlite3
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


def test_the_engine_mix_makes_the_service_paths_engine_calls() -> None:
    """The engine mix plays what the service benchmark plays: attacks, the decisions they open
    answered, and NPC targets' reactions lapsing."""
    _us, spent = load("engine_mix").run(16, 1)
    assert {"apply", "decision_options", "decision_words", "apply (lapse)"} <= set(spent)


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


async def test_the_bare_path_commits_one_versioned_change_and_one_log_row_per_command(
    tmp_path: Path,
) -> None:
    """The reference path does the work it stands for: each command reads, changes and writes
    its channel's ~2 KB state under the version check and logs one row, durably."""
    load("service_throughput")  # puts the benchmarks folder on the import path
    bare_path = importlib.import_module("bare_path")
    bare = await bare_path.BarePath.open(tmp_path / "bare.sqlite3", 2)
    try:
        versions = [await bare.command(1) for _ in range(5)] + [await bare.command(2)]
        assert versions == [2, 3, 4, 5, 6, 2]
        assert 1500 <= await bare.state_size(1) <= 2600
    finally:
        await bare.close()
    with sqlite3.connect(tmp_path / "bare.sqlite3") as conn:
        logged = conn.execute("SELECT channel_id, version FROM bare_log ORDER BY 1, 2").fetchall()
        (state,) = conn.execute("SELECT state FROM bare_states WHERE channel_id = 1").fetchone()
    assert logged == [(1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2)]
    assert bare_path.BareState.model_validate_json(state) != bare_path.new_state(1)


async def test_the_service_benchmark_ends_with_its_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tiny run (two channels) still measures both paths and prints the JSON line issue 15's
    targets are read from, with every key and figures that come from the run."""
    bench = load("service_throughput")
    argv = ["--channels", "2", "--commands", "20", "--rounds", "2", "--rate", "40"]
    figures = await bench.run(bench.parse_args([*argv, "--seconds", "0.2"]), tmp_path)
    for key in (
        "ratio_to_bare",
        "cmd_per_s",
        "bare_cmd_per_s",
        "p50_ms_at_1000",
        "p99_ms_at_1000",
        "bare_p99_ms_at_1000",
        "mib_per_1000_fresh",
        "db_bytes_per_1000_cmds",
    ):
        assert figures[key] >= 0, key
    assert len(figures["ratios"]) == 2 and figures["cmd_per_s"] > 0
    assert figures["db_bytes_per_1000_cmds"] > 0  # each service log row holds a state copy today
    assert figures["mib_per_1000_fresh"] > 1  # 1,000 parsed states are not free
    assert "closed loop: bare" in capsys.readouterr().out


def test_the_rehearse_benchmark_builds_its_fight() -> None:
    """The rehearse benchmark's encounter: five UTTAS combatants in a running fight."""
    rules, state = load("rehearse").build()
    assert len(state.combatants) == 5 and state.phase == "active" and rules.key == "uttas"
