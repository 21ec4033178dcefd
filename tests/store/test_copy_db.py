"""``python -m bot copy-db`` (bot/store/copy.py) against a real PostgreSQL: a SQLite database
with fights, logs, decisions, timers and settings arrives row for row (64-bit ids, non-ASCII
text, fractions, NULLs), verified per table; new rows get new ids afterwards; a non-empty target
is refused; an interrupted copy re-run finishes; the command prints one line per table and never
the password."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest

from bot.store import default_actions, guild_settings, meta, standing, turn_pings, turn_timers
from bot.store.copy import CopyRefused, copy_database
from bot.store.db import Database, bundled_migrations
from bot.store.decisions import ts
from bot.store.pg import PgDatabase
from bot.store.process_lock import DatabaseLock
from bot.store.turn_pings import TurnPing
from tests.store.test_encounter_side_stores import GUILD, NOW, PLAYER, add_encounter, state
from tests.tmpfs import mounted_tmpfs

ROOT = Path(__file__).resolve().parents[2]


async def filled_sqlite(path: Path) -> dict[str, int]:
    """A migrated SQLite database with rows in the encounter store and the settings tables;
    the row count of each table."""
    db = await Database.open(path)
    try:
        await db.migrate()
        async with db.transaction() as conn:
            first = await add_encounter(conn, 2**56, name="Brücke ⚔")
            second = await add_encounter(conn, 2**56 + 1, status="archived")
            for version, snapshot in ((1, '{"v": 1}'), (2, None), (3, None)):
                await conn.execute(
                    "INSERT INTO encounter_log (encounter_id, version, actor_id, command, options,"
                    " result, state, created_at) VALUES (?, ?, ?, 'act', '{}', '{}', ?, ?)",
                    (first, version, PLAYER, snapshot, ts(NOW)),
                )
            await turn_timers.follow(conn, first, state(deadline_s=0), state(deadline_s=60), 2, NOW)
            await turn_timers.pause(conn, first, NOW + timedelta(seconds=12.25))  # 47.75 s left
            await turn_pings.put(conn, TurnPing(2**58, first, 2**56, 1))
            await standing.put(conn, first, "a", PLAYER, "dodge", [{"choice": "dodge"}], NOW)
            await default_actions.put(conn, second, "b", "defend")
            await guild_settings.set_gm_role(conn, GUILD, 2**62 + 1, NOW)
            await meta.put(conn, "names_checked", "yes")
        async with db.read() as conn:
            tables = await conn.fetch_all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            counts = {}
            for table in tables:
                row = await conn.fetch_one(f'SELECT count(*) FROM "{table["name"]}"')
                assert row is not None
                counts[table["name"]] = int(row[0])
        return counts
    finally:
        await db.close()


async def copy(path: Path, url: str, lines: list[str] | None = None) -> list[str]:
    said: list[str] = [] if lines is None else lines
    pg = await PgDatabase.open(url)
    try:
        await copy_database(path, pg, said.append)
    finally:
        await pg.close()
    return said


async def test_every_table_arrives_verified_and_new_rows_get_new_ids(
    tmp_path: Path, pg_url: str
) -> None:
    counts = await filled_sqlite(tmp_path / "bot.sqlite3")
    lines = await copy(tmp_path / "bot.sqlite3", pg_url)
    assert (
        lines[0] == f"encounters: {counts['encounters']} rows copied, count and checksum verified"
    )
    assert sorted(lines) == sorted(
        f"{table}: {n} rows copied, count and checksum verified" for table, n in counts.items()
    )
    conn = await asyncpg.connect(pg_url)
    try:
        for table, n in counts.items():
            assert await conn.fetchval(f'SELECT count(*) FROM "{table}"') == n, table
        assert await conn.fetchval("SELECT name FROM encounters ORDER BY id LIMIT 1") == (
            "Brücke ⚔"
        )
        assert await conn.fetchval("SELECT remaining_s FROM decisions") == 47.75
        assert [r["state"] for r in await conn.fetch("SELECT state FROM encounter_log")] == [
            '{"v": 1}',
            None,
            None,
        ]
        assert await conn.fetchval("SELECT gm_role_id FROM guild_settings") == 2**62 + 1
        assert await conn.fetchval("SELECT to_regclass('copy_db_progress')") is None
    finally:
        await conn.close()
    pg = await PgDatabase.open(pg_url)
    try:
        async with pg.transaction() as conn2:
            fresh = await add_encounter(conn2, 7)
        assert fresh == counts["encounters"] + 1  # the identity moved past the copied ids
    finally:
        await pg.close()


async def test_a_database_with_rows_is_refused_and_left_alone(tmp_path: Path, pg_url: str) -> None:
    await filled_sqlite(tmp_path / "bot.sqlite3")
    pg = await PgDatabase.open(pg_url)
    try:
        await pg.migrate()
        async with pg.transaction() as conn:
            await meta.put(conn, "already", "here")
        with pytest.raises(CopyRefused, match=r"not empty \(table bot_meta has 1 rows\)"):
            await copy_database(tmp_path / "bot.sqlite3", pg, lambda _: None)
        async with pg.read() as conn:
            row = await conn.fetch_one("SELECT count(*) FROM encounters")
            assert row is not None and row[0] == 0
            row = await conn.fetch_one("SELECT to_regclass('copy_db_progress') IS NULL")
            assert row is not None and row[0]  # nothing of the copy left in it
    finally:
        await pg.close()


async def test_a_finished_copy_is_not_repeated(tmp_path: Path, pg_url: str) -> None:
    await filled_sqlite(tmp_path / "bot.sqlite3")
    await copy(tmp_path / "bot.sqlite3", pg_url)
    with pytest.raises(CopyRefused, match="not empty"):
        await copy(tmp_path / "bot.sqlite3", pg_url)


async def test_two_copies_at_once_are_one_copy_and_one_refusal(tmp_path: Path, pg_url: str) -> None:
    await filled_sqlite(tmp_path / "bot.sqlite3")
    outcomes = await asyncio.gather(
        copy(tmp_path / "bot.sqlite3", pg_url),
        copy(tmp_path / "bot.sqlite3", pg_url),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, CopyRefused)]
    assert len(refused) == 1, outcomes
    assert str(refused[0]) in (
        "Another copy-db is writing to this PostgreSQL database.",
        "The PostgreSQL database is not empty (table bot_meta has 1 rows) and holds no "
        "interrupted copy: copy-db only fills an empty database.",
    )


class Interrupted(Exception):
    pass


async def test_an_interrupted_copy_re_run_finishes(tmp_path: Path, pg_url: str) -> None:
    counts = await filled_sqlite(tmp_path / "bot.sqlite3")
    seen: list[str] = []

    def stop_after_three(line: str) -> None:
        seen.append(line)
        if len(seen) == 3:
            raise Interrupted

    pg = await PgDatabase.open(pg_url)
    try:
        with pytest.raises(Interrupted):
            await copy_database(tmp_path / "bot.sqlite3", pg, stop_after_three)
    finally:
        await pg.close()
    lines = await copy(tmp_path / "bot.sqlite3", pg_url)
    assert [line.replace("already copied", "copied") for line in lines[:3]] == seen
    assert all("already copied" in line for line in lines[:3])
    assert all("already" not in line for line in lines[3:])
    assert len(lines) == len(counts)


async def test_a_changed_source_after_an_interruption_is_refused(
    tmp_path: Path, pg_url: str
) -> None:
    await filled_sqlite(tmp_path / "bot.sqlite3")

    def stop(line: str) -> None:
        raise Interrupted

    pg = await PgDatabase.open(pg_url)
    try:
        with pytest.raises(Interrupted):
            await copy_database(tmp_path / "bot.sqlite3", pg, stop)  # encounters done
    finally:
        await pg.close()
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        async with db.transaction() as conn:
            await add_encounter(conn, 99)
    finally:
        await db.close()
    with pytest.raises(CopyRefused, match="encounters: the rows copied earlier no longer match"):
        await copy(tmp_path / "bot.sqlite3", pg_url)


async def test_a_source_at_another_migration_is_refused(tmp_path: Path, pg_url: str) -> None:
    db = await Database.open(tmp_path / "old.sqlite3")
    try:
        await db.migrate(bundled_migrations()[:20])
    finally:
        await db.close()
    latest = len(bundled_migrations())  # numbered 1, 2, … with no gap
    with pytest.raises(CopyRefused, match=f"is at migration 20, PostgreSQL's schema at {latest}"):
        await copy(tmp_path / "old.sqlite3", pg_url)
    with pytest.raises(CopyRefused, match="There is no SQLite database"):
        await copy(tmp_path / "missing.sqlite3", pg_url)


async def test_a_source_a_newer_bot_upgraded_is_refused_as_such(
    tmp_path: Path, pg_url: str
) -> None:
    """A SQLite file past this version's migrations was told to "start the bot once on SQLite
    (it migrates the file)" — which this bot refuses to do (a rollback, README "Going back to an
    older version"): copy-db now says a newer bot upgraded it and to copy with that version."""
    await filled_sqlite(tmp_path / "bot.sqlite3")
    latest = len(bundled_migrations())
    with sqlite3.connect(tmp_path / "bot.sqlite3") as conn:
        conn.execute(f"PRAGMA user_version = {latest + 1}")
    with pytest.raises(CopyRefused) as refused:
        await copy(tmp_path / "bot.sqlite3", pg_url)
    message = str(refused.value)
    assert (
        f"was upgraded by a newer version of the bot (its schema is at migration {latest + 1};"
        in message
    )
    assert "start the bot once" not in message


def run_copy_db(*args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    return subprocess.run(
        [sys.executable, "-m", "bot", "copy-db", *args],
        cwd=ROOT,
        env={**env, **settings},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_the_command_prints_a_line_per_table_and_hides_the_password(
    tmp_path: Path, pg_url: str
) -> None:
    counts = await filled_sqlite(tmp_path / "bot.sqlite3")
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE ROLE copier LOGIN SUPERUSER PASSWORD 's3cret-pw'")
    finally:
        await conn.close()
    parts = pg_url.split("://", 1)[1].split("@", 1)
    url = f"postgresql://copier:s3cret-pw@{parts[1]}"
    done = run_copy_db("--to", url, "--from", str(tmp_path / "bot.sqlite3"))
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == len(counts) + 1
    assert out[-1].startswith(f"Copied {tmp_path / 'bot.sqlite3'} into postgresql://copier:***@")
    assert "s3cret-pw" not in done.stdout + done.stderr
    again = run_copy_db("--to", url, "--from", str(tmp_path / "bot.sqlite3"))
    assert again.returncode == 2
    assert again.stderr.startswith("copy-db: The PostgreSQL database is not empty")
    assert "s3cret-pw" not in again.stdout + again.stderr
    bad = run_copy_db("--to", "mysql://x@h/db", "--from", str(tmp_path / "bot.sqlite3"))
    assert bad.returncode == 2 and bad.stderr.startswith("copy-db: --to has 'mysql://'")
    # --to is required and names the PostgreSQL database: no "leave it unset" (DATABASE_URL's)
    assert "DATABASE_PATH" not in bad.stderr and "unset" not in bad.stderr, bad.stderr


async def test_a_target_from_a_newer_bot_is_one_line(tmp_path: Path, pg_url: str) -> None:
    """copy-db migrates its target first: one a newer bot migrated is refused in one line
    (exit 2), as the bot itself refuses it (tests/test_startup.py), not a traceback."""
    await filled_sqlite(tmp_path / "bot.sqlite3")
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
        await conn.execute("INSERT INTO schema_version (version) VALUES (9999)")
    finally:
        await conn.close()
    done = run_copy_db("--to", pg_url, "--from", str(tmp_path / "bot.sqlite3"))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "was upgraded by a newer version of the bot (its schema is at migration 9999" in line


@pytest.mark.parametrize("where", ["DATABASE_PATH", "--from"])
async def test_a_url_as_the_sqlite_file_is_refused_by_name(pg_url: str, where: str) -> None:
    """The bot refuses DATABASE_PATH given a URL (tests/test_settings.py), but copy-db read it
    as a path — ``There is no SQLite database at postgresql:/bob:s3cret@db/bot.`` printed the
    password, and named no setting; ``--from`` likewise. Both are refused by name now."""
    url = "postgresql://bob:s3cret@db/bot"
    if where == "--from":
        done = run_copy_db("--to", pg_url, "--from", url)
    else:
        done = run_copy_db("--to", pg_url, DATABASE_PATH=url)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert where in line and "is a URL, not a file path" in line, line
    assert "s3cret" not in done.stdout + done.stderr
    assert not (ROOT / "postgresql:").exists()


@pytest.fixture
def read_only_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs (root only) the test fills, then remounts read-only (``remount()``)."""
    yield from mounted_tmpfs(tmp_path / "backup", "8m")


def remount_read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


async def test_a_read_only_copy_is_one_line(read_only_disk: Path, pg_url: str) -> None:
    """The database to copy on a read-only disk (a backup's, a snapshot mounted read-only):
    copy-db stopped with a traceback from making its lock file ('Read-only file system:
    bot.sqlite3.lock'). SQLite cannot read a WAL database there either: one line says what to
    do (exit 2); the same file copied to a writable folder is copied."""
    source = read_only_disk / "bot.sqlite3"
    counts = await filled_sqlite(source)
    remount_read_only(read_only_disk)
    done = run_copy_db("--to", pg_url, "--from", str(source))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"copy-db: cannot lock {source} (Read-only file system)"), line
    assert "to a writable folder" in line, line
    writable = read_only_disk.parent / "bot.sqlite3"
    shutil.copyfile(source, writable)
    done = run_copy_db("--to", pg_url, "--from", str(writable))
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(counts) + 1


async def test_a_database_a_running_bot_holds_is_refused(tmp_path: Path, pg_url: str) -> None:
    """The README says to stop the bot before copying: copy-db read a database the bot was
    writing to and copied whatever it found. It takes the bot's lock on the file
    (bot/store/process_lock.py) and, while a bot holds it, refuses in one line naming it."""
    source = tmp_path / "bot.sqlite3"
    await filled_sqlite(source)
    held = DatabaseLock.take(source)  # as python -m bot holds it while it runs
    try:
        done = run_copy_db("--to", pg_url, "--from", str(source))
    finally:
        held.release()
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"copy-db: the database {source} is in use by a running bot (pid ")
    assert "stop the bot" in line
    conn = await asyncpg.connect(pg_url)
    try:  # the target was not even touched
        assert await conn.fetchval("SELECT to_regclass('encounters') IS NULL") is True
    finally:
        await conn.close()
    again = run_copy_db("--to", pg_url, "--from", str(source))  # the bot stopped
    assert again.returncode == 0, again.stderr
