"""Storage faults at start-up: ``python -m bot`` with a database it cannot use prints exactly one
line naming the file and exits with status 2 — it never hangs (an open aiosqlite connection's
worker thread used to keep the process alive) and never prints a traceback."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.__main__ import database_problem, shards_described
from bot.errors import StorageUnavailable
from bot.settings import load_settings
from tests.environ import clean_env
from tests.tmpfs import mounted_tmpfs

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 30  # seconds; the bot gives up in well under one


def run_bot(tmp_path: Path, database: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``tmp_path`` with SQLite at ``database`` and any other ``settings``
    (e.g. ``DATABASE_URL``), Discord pointed at a closed port; waits for it to exit."""
    env = clean_env(
        {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "startup-test-token",
            "DATABASE_PATH": str(database),
            # Never reached: the database fails first. Pointed at a closed port just in case.
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            **settings,
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def assert_one_line_naming(done: subprocess.CompletedProcess[str], path: Path, *words: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(path) in lines[0]
    for word in words:
        assert word in lines[0], lines[0]
    assert "Traceback" not in done.stderr + done.stdout
    return lines[0]


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(64 * 1024))


def text_file(path: Path) -> None:
    path.write_text("These are my campaign notes, not a database.\n" * 50)


def garbled_schema(path: Path) -> None:
    """A real SQLite file whose first page (the schema) is overwritten after the header."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
        conn.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(2000)])
    conn.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = random.Random(3).randbytes(4096 - 100)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "make", [random_bytes, text_file, garbled_schema], ids=["random", "text", "garbled"]
)
def test_a_corrupted_database_file_is_one_line_and_exit_2(
    tmp_path: Path, make: Callable[[Path], None]
) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    database.parent.mkdir()
    make(database)
    before = database.read_bytes()
    line = assert_one_line_naming(run_bot(tmp_path, database), database, "DATABASE_PATH")
    assert "corrupted" in line or "malformed" in line
    assert database.read_bytes() == before  # the bot did not write over it


def test_a_read_only_database_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Read-only for everyone, root included: a file-format write version above 2 (byte 18 of
    the header) makes SQLite open the file read-only."""
    database = tmp_path / "bot.sqlite3"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
    conn.close()
    data = bytearray(database.read_bytes())
    data[18] = 3
    database.write_bytes(bytes(data))
    line = assert_one_line_naming(run_bot(tmp_path, database), database)
    assert "read-only" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="file permissions do not bind root")
def test_a_database_without_write_permission_is_one_line_and_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    database = folder / "bot.sqlite3"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
    conn.close()
    database.chmod(0o444)
    folder.chmod(0o555)
    try:
        line = assert_one_line_naming(run_bot(tmp_path, database), database)
    finally:
        folder.chmod(0o755)
    assert "read-only" in line


def test_an_unopenable_database_path_is_one_line_and_exit_2(tmp_path: Path) -> None:
    database = tmp_path / "a-folder.sqlite3"
    database.mkdir()  # SQLite cannot open a directory
    assert_one_line_naming(run_bot(tmp_path, database), database, "DATABASE_PATH")


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        ({}, "unsharded (one gateway connection serves every server)"),
        ({"SHARD_COUNT": "4"}, "0-3 of 4 (this process runs every shard)"),
        (
            {"SHARD_COUNT": "8", "SHARD_IDS": "2,3,5,6-7"},
            "2-3,5-7 of 8 (other processes run the others)",
        ),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0"}, "0 of 4 (other processes run the others)"),
    ],
)
def test_the_start_up_log_says_which_shards(
    tmp_path: Path, environ: dict[str, str], said: str
) -> None:
    settings = load_settings({"DISCORD_TOKEN": "t", **environ}, env_file=tmp_path / "none")
    assert shards_described(settings) == said


def test_a_database_another_program_holds_locked_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Another program in a write transaction on the file (a ``sqlite3`` shell left in BEGIN,
    a script): the bot waits out SQLite's busy timeout, then says the file is locked and by
    what kind of program — it said "cannot open the database … Check DATABASE_PATH", a setting
    with nothing wrong in it."""
    database = tmp_path / "bot.sqlite3"
    holder = sqlite3.connect(database, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = WAL")
        holder.execute("CREATE TABLE notes (x INTEGER)")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO notes VALUES (1)")
        done = run_bot(tmp_path, database)
    finally:
        holder.close()
    lines = [line for line in done.stderr.strip().splitlines() if " WARNING " not in line]
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert str(database) in lines[0] and "locked by another program" in lines[0], lines[0]
    assert "Check DATABASE_PATH" not in lines[0]
    assert "Traceback" not in done.stderr


def test_the_start_up_log_says_which_env_file(tmp_path: Path) -> None:
    """The working folder's .env is read before the project's: the log says which one (or
    none), so settings read from another program's .env (python -m bot started from its
    folder) are seen."""
    (tmp_path / ".env").write_text("LOG_LEVEL=INFO\n")
    done = run_bot(tmp_path, tmp_path / "bot.sqlite3")
    assert done.returncode == 1, done.stderr  # Discord unreachable: the start got that far
    assert f"INFO bot: settings: the environment over {tmp_path / '.env'}\n" in done.stderr


def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs (root only), too small for the bot's migrations."""
    yield from mounted_tmpfs(tmp_path / "tiny", "64k")


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    yield from full_disk(tmp_path)


def test_a_full_disk_at_start_is_one_line_and_exit_2(tmp_path: Path, tiny_disk: Path) -> None:
    """The disk fills up while the migrations run: the line read "cannot open the database at
    … (None). Check DATABASE_PATH" — the storage fault's SQLite code was lost on the way."""
    database = tiny_disk / "bot.sqlite3"
    done = run_bot(tmp_path, database)
    lines = [line for line in done.stderr.strip().splitlines() if " WARNING " not in line]
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert str(database) in lines[0] and "is full" in lines[0], lines[0]


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("SQLITE_FULL", "is full"),
        ("SQLITE_READONLY", "is read-only"),
        ("SQLITE_BUSY", "is locked by another program"),
        ("SQLITE_CORRUPT", "is corrupted"),
    ],
)
def test_a_storage_fault_at_start_is_named_by_its_sqlite_code(reason: str, words: str) -> None:
    """A fault reported as StorageUnavailable without the sqlite3 error chained (a group commit
    that failed) is named by the SQLite code it was mapped from, never "(None)"."""
    fault = StorageUnavailable("The bot's storage is full; nothing was changed.", reason)
    line = database_problem(Path("/srv/bot.sqlite3"), fault)
    assert words in line and "None" not in line, line


def test_a_data_folder_hidden_by_a_volume_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """A host volume mounted over the project's data/ folder to keep the database hides the
    rules tables and help texts shipped there: python -m bot died in a traceback from an import
    (FileNotFoundError: …/data/uttas/tables.json). Run on a copy of the project whose data/ is
    empty, as under such a volume."""
    app = tmp_path / "app"
    for package in ("bot", "cogs"):
        shutil.copytree(ROOT / package, app / package, ignore=shutil.ignore_patterns("__pycache__"))
    (app / "data").mkdir()
    env = clean_env(
        {
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(app),
            "DISCORD_TOKEN": "startup-test-token",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(app / "data") in lines[0] and "DATABASE_PATH" in lines[0], lines[0]
    assert not list((app / "data").iterdir())  # nothing started: no database made there


def test_a_database_a_newer_bot_upgraded_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """A rollback: the database is at a migration this version does not have (a newer bot
    applied it). The bot went on as if at head — its commands then met what that bot stored
    (fights by rules it does not know, columns it does not fill) one at a time. It now says
    what happened and what to do, and changes nothing."""
    import asyncio

    from bot.store.db import Database, bundled_migrations

    async def at_head(path: Path) -> None:
        db = await Database.open(path)
        await db.migrate()
        await db.close()

    database = tmp_path / "bot.sqlite3"
    asyncio.run(at_head(database))
    newest = max(m.version for m in bundled_migrations())
    with sqlite3.connect(database) as conn:  # the newer bot's migration
        conn.execute("CREATE TABLE later (x INTEGER)")
        conn.execute(f"PRAGMA user_version = {newest + 1}")
        tables = conn.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall()
    conn.close()
    line = assert_one_line_naming(run_bot(tmp_path, database), database)
    assert "was upgraded by a newer version of the bot" in line, line
    assert f"schema is at migration {newest + 1}" in line and f"up to {newest})" in line, line
    assert "Run the newer version of the bot, or restore a backup" in line, line
    with sqlite3.connect(database) as conn:  # nothing applied
        assert conn.execute("PRAGMA user_version").fetchone() == (newest + 1,)
        assert conn.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall() == tables
    conn.close()
