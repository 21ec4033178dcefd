"""Backing up and restoring SQLite as the README says ("Running it: stop, back up, upgrade"):
the README's own commands, run from a project folder. The backup, taken while the bot holds
the database open with changes still in its ``-wal`` file, has every committed change; a wrong
path fails instead of "backing up" a new empty database it creates; and the restore, after a
crash left a ``-wal`` file beside the database, gives exactly the backup's state — copying the
backup over the file would have the stale ``-wal`` replayed onto it."""

from __future__ import annotations

import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.store import meta
from bot.store.db import Database

ROOT = Path(__file__).resolve().parents[2]
CRASH = """
import asyncio, os, sys
from pathlib import Path
from bot.store import meta
from bot.store.db import Database

async def main():
    db = await Database.open(Path(sys.argv[1]))
    async with db.transaction() as conn:
        await meta.put(conn, "after the backup", "yes")
    os._exit(0)  # a crash: nothing closed, the change is in the -wal file only

asyncio.run(main())
"""


def readme_command(word: str) -> list[str]:
    """The README's ``.venv/bin/python -c "…"`` line that contains ``word``, run with this
    Python."""
    readme = (ROOT / "README.md").read_text()
    (line,) = [
        line.strip()
        for line in readme.splitlines()
        if line.strip().startswith(".venv/bin/python -c") and word in line
    ]
    args = shlex.split(line)
    return [sys.executable, *args[1:]]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"}
    )


def wal_bytes(database: Path) -> int:
    return Path(f"{database}-wal").stat().st_size


def facts(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return dict(conn.execute("SELECT key, value FROM bot_meta").fetchall())
    finally:
        conn.close()


async def test_the_readme_backup_and_restore(tmp_path: Path) -> None:
    backup_command = readme_command(".backup(sqlite3.connect('backup.sqlite3'))")
    restore_command = readme_command("backup.sqlite3?mode=ro")
    # A wrong path: nothing is created, and the command fails.
    done = run(backup_command, tmp_path)
    assert done.returncode != 0 and "unable to open database file" in done.stderr
    assert not (tmp_path / "backup.sqlite3").exists()
    assert not (tmp_path / "data").exists()

    database = tmp_path / "data" / "bot.sqlite3"
    db = await Database.open(database)  # the running bot
    try:
        await db.migrate()
        async with db.transaction() as conn:
            await meta.put(conn, "before the backup", "yes")
        assert wal_bytes(database) > 0  # not checkpointed yet
        done = run(backup_command, tmp_path)
        assert done.returncode == 0, done.stderr
    finally:
        await db.close()
    assert facts(tmp_path / "backup.sqlite3").get("before the backup") == "yes"

    crash = run([sys.executable, "-c", CRASH, str(database)], ROOT)
    assert crash.returncode == 0, crash.stderr
    assert wal_bytes(database) > 0  # the crash left its -wal file

    done = run(restore_command, tmp_path)
    assert done.returncode == 0, done.stderr
    restored = facts(database)
    assert restored.get("before the backup") == "yes"
    assert "after the backup" not in restored
