"""One bot process per SQLite database (README, "Sharding": several processes on one SQLite file
lock each other out, so that is not supported). A second ``python -m bot`` started on the file
another runs on — ``./scripts/run.sh`` twice, a host scaled to two workers on one volume, two
Procfile shard groups given the same ``DATABASE_PATH`` — is refused at start in one line naming
the file and the process that holds it (exit 2): it used to connect as well, and both processes
answered every command, each committing it (a second attack for one typed /attack)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import BotProcess
from tests.harness.server import DiscordHarness


async def exit_status(process: BotProcess, h: DiscordHarness) -> int:
    """Start ``process`` and wait until it exits by itself (it must not connect)."""
    sessions_before = len(h.sessions)
    process.spawn()
    assert process.proc is not None
    await h.wait_for(lambda: process.proc is not None and process.proc.poll() is not None, 20)
    assert len(h.sessions) == sessions_before, "the refused process connected to Discord"
    return process.proc.returncode


@pytest.mark.async_timeout(90)
async def test_a_second_process_on_one_sqlite_file_is_refused(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    h = discord_harness
    first = BotProcess(h, tmp_path, {})
    second = BotProcess(h, tmp_path, {})
    second.log = tmp_path / "second.log"
    try:
        await first.start()
        assert await exit_status(second, h) == 2
        lines = second.output().strip().splitlines()
        refusal = [line for line in lines if " INFO " not in line]
        assert len(refusal) == 1, second.output()
        assert str(tmp_path / "bot.sqlite3") in refusal[0]
        assert first.proc is not None and f"pid {first.proc.pid}" in refusal[0]
        assert "DATABASE_PATH" in refusal[0]
        assert "Traceback" not in second.output()
        assert first.proc.poll() is None  # the first one runs on
        # A crash (SIGKILL: no shutdown code) leaves no stale lock: the file is free again.
        first.kill()
        third = BotProcess(h, tmp_path, {})
        third.log = tmp_path / "third.log"
        try:
            await third.start()
            assert third.proc is not None and third.proc.poll() is None
            assert await third.terminate() == 0
        finally:
            third.stop()
    finally:
        first.stop()
        second.stop()


@pytest.mark.async_timeout(90)
@pytest.mark.parametrize("linked", ["file", "folder"])
async def test_a_second_process_reaching_the_file_by_another_path_is_refused(
    discord_harness: DiscordHarness, tmp_path: Path, linked: str
) -> None:
    """The lock file sat beside the path given, not the file: a second process given a symlink
    to the database (a host's ``data/bot.sqlite3`` linked to the file on its persistent disk,
    one process started with each path) took a lock file of its own, ran, and both answered
    every command. The lock is now beside the file the path leads to."""
    h = discord_harness
    disk = tmp_path / "disk"
    disk.mkdir()
    if linked == "file":
        (tmp_path / "bot.sqlite3").symlink_to(disk / "bot.sqlite3")
        other = tmp_path / "bot.sqlite3"
    else:
        (tmp_path / "data").symlink_to(disk, target_is_directory=True)
        other = tmp_path / "data" / "bot.sqlite3"
    first = BotProcess(h, tmp_path, {"DATABASE_PATH": str(disk / "bot.sqlite3")})
    second = BotProcess(h, tmp_path, {"DATABASE_PATH": str(other)})
    second.log = tmp_path / "second.log"
    try:
        await first.start()
        assert await exit_status(second, h) == 2, second.output()
        assert "in use by another bot process" in second.output(), second.output()
        assert str(other) in second.output()  # named as it was given
    finally:
        first.stop()
        second.stop()
