"""The benchmarks stay runnable: they are not part of CI's figures, but a benchmark that no
longer imports (it fell behind a renamed module) measures nothing. Each is imported and its
setup built once, without timing anything."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import asyncpg
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
    argv = [
        "--channels",
        "2",
        "--commands",
        "20",
        "--rounds",
        "2",
        "--rate",
        "40",
        "--fresh",
        "100",
        "--open-rounds",
        "2",
    ]
    figures = await bench.run(bench.parse_args([*argv, "--seconds", "0.2"]), tmp_path)
    for key in JSON_KEYS:
        assert figures[key] >= 0, key
    assert len(figures["ratios"]) == 2 and figures["cmd_per_s"] > 0
    # the open loop alternates too: each run's p99, and the figure is their median
    service_p99s, bare_p99s = figures["p99s_ms_at_1000"], figures["bare_p99s_ms_at_1000"]
    assert len(service_p99s) == len(bare_p99s) == 2
    assert min(service_p99s) <= figures["p99_ms_at_1000"] <= max(service_p99s)
    assert figures["p99_ratio_to_bare"] > 0
    assert figures["db_bytes_per_1000_cmds"] > 0  # each service log row holds a state copy today
    assert figures["mib_per_1000_fresh"] > 1  # 1,000 parsed states are not free
    assert "closed loop: bare" in capsys.readouterr().out


JSON_KEYS = (
    "ratio_to_bare",
    "cmd_per_s",
    "bare_cmd_per_s",
    "p50_ms_at_1000",
    "p99_ms_at_1000",
    "bare_p99_ms_at_1000",
    "mib_per_1000_fresh",
    "db_bytes_per_1000_cmds",
    "bare_db_bytes_per_1000_cmds",
)
TINY_PG = ["--store", "postgres", "--channels", "4", "--commands", "40", "--rate", "40"]
TINY_PG += ["--fresh", "100", "--open-rounds", "1"]


async def test_the_service_benchmark_runs_on_postgresql(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--store postgres`` (issue 16): both paths run on the PostgreSQL database, with the same
    JSON keys as on SQLite, and the server's durability settings are reported."""
    bench = load("service_throughput")
    argv = [*TINY_PG, "--rounds", "2", "--seconds", "0.5", "--database-url", pg_url]
    figures = await bench.run(bench.parse_args(argv), tmp_path)
    for key in JSON_KEYS:
        assert figures[key] >= 0, key
    assert figures["store"] == "postgres" and figures["processes"] == 1
    assert len(figures["ratios"]) == 2 and figures["cmd_per_s"] > 0
    assert figures["db_bytes_per_1000_cmds"] > 0 and figures["bare_db_bytes_per_1000_cmds"] > 0
    assert figures["mib_per_1000_fresh"] > 1
    assert figures["postgres"]["synchronous_commit"] == "on"
    assert "store: postgres, 1 process(es)" in capsys.readouterr().out
    conn = await asyncpg.connect(pg_url)  # every channel's commands reached the database
    try:
        logged = await conn.fetchval("SELECT count(DISTINCT channel_id) FROM bare_log")
        versions = await conn.fetch("SELECT version FROM encounters WHERE status = 'live'")
    finally:
        await conn.close()
    assert logged == 4 and len(versions) == 4 and min(v[0] for v in versions) > 20


def test_the_service_benchmark_runs_in_two_processes_on_postgresql(pg_url: str) -> None:
    """``--processes 2``: two OS processes, two channels each, on one database; the JSON line
    (the last line printed) carries the aggregate and each process's figures, and both
    processes' channels were played."""
    argv = [*TINY_PG, "--rounds", "1", "--seconds", "0.5", "--processes", "2"]
    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "service_throughput.py"),
            *argv,
            "--database-url",
            pg_url,
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for key in JSON_KEYS:
        assert figures[key] >= 0, key
    assert figures["processes"] == 2 and figures["cmd_per_s"] > 0
    each = figures["per_process"]
    assert [p["channels"] for p in each] == [2, 2]
    assert all(p["cmd_per_s"] > 0 and p["bare_cmd_per_s"] > 0 for p in each)
    assert all(p["p99_ms_at_1000"] > 0 for p in each)

    async def played() -> list[int]:
        conn = await asyncpg.connect(pg_url)
        try:
            rows = await conn.fetch(
                "SELECT channel_id FROM encounters WHERE version > 10 ORDER BY channel_id"
            )
        finally:
            await conn.close()
        return [int(r[0]) for r in rows]

    assert asyncio.run(played()) == [1, 2, 3, 4]


def test_two_processes_on_sqlite_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("service_throughput")
    with pytest.raises(SystemExit):
        bench.parse_args(["--processes", "2"])
    assert "needs --store postgres" in capsys.readouterr().err


def test_the_write_path_threads_benchmark_reports_each_round(tmp_path: Path) -> None:
    """Two tiny rounds: commands per second, the loop's idle share, the main thread's CPU and
    the WAL's size, from a real run."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "write_path_threads.py"), "--commands", "200",
         "--rounds", "2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])["rounds"]
    assert len(figures) == 2
    for round_ in figures:
        assert round_["cmd_per_s"] > 0 and 0 <= round_["loop_idle"] <= 1
        assert any(t["thread"] == "main" for t in round_["threads_per_cmd"])
        assert round_["wal_mb"] > 0


def test_the_tail_phases_benchmark_cuts_every_command_into_its_phases() -> None:
    """One short open loop: every command is timed through its unit's trip, in phases that
    follow each other (none negative)."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "tail_phases.py"), "--rate", "200", "--seconds",
         "1", "--runs", "1", "--warm", "100"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (run,) = json.loads(done.stdout.strip().splitlines()[-1])
    assert run["all"]["n"] == 200  # one per command offered: each carried by a trip
    assert 0 < run["p50_ms"] <= run["p99_ms"]
    phases = ("wake", "compute", "queue", "trip", "after")
    assert all(run["all"][phase][0] >= 0 for phase in phases)
    assert run["all"]["trip"][0] > 0  # a COMMIT with its fsync
    assert run["at_p99"]["n"] >= 1 and run["all"]["batch"] >= 1


def test_the_rehearse_benchmark_builds_its_fight() -> None:
    """The rehearse benchmark's encounter: five UTTAS combatants in a running fight."""
    rules, state = load("rehearse").build()
    assert len(state.combatants) == 5 and state.phase == "active" and rules.key == "uttas"
