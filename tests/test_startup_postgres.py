"""Start-up with ``DATABASE_URL`` (PostgreSQL, issue 16): ``python -m bot`` prints exactly one
line and exits — 2 for a setting to fix (malformed URL, no such database), 1 for a server it
cannot reach (like an unreachable Discord) — and the URL's password appears in no output. A
reachable server is migrated (under the advisory lock), then the bot goes on to Discord on it
(here an unreachable one: the one line names Discord, not the database)."""

from __future__ import annotations

import asyncio
import logging
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest
from pydantic import SecretStr

from bot.store.shard_claims import COUNT_LOCKS, RETRY_S, SHARD_LOCKS, ShardClaim, ShardsTaken
from tests import test_startup as startup
from tests.environ import clean_env
from tests.pg.server import PgServer

SECRET = "pa55-W0rd-never-shown"


def run_bot(tmp_path: Path, url: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` with ``DATABASE_URL`` = ``url`` (:func:`tests.test_startup.run_bot`)."""
    return startup.run_bot(tmp_path, tmp_path / "unused.sqlite3", DATABASE_URL=url)


def one_line(done: subprocess.CompletedProcess[str], status: int, *words: str) -> str:
    """The one line printed (log lines at LOG_LEVEL INFO aside, e.g. a migration applied)."""
    assert done.returncode == status, (done.returncode, done.stderr)
    lines = [line for line in done.stderr.strip().splitlines() if " INFO " not in line]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert SECRET not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr + done.stdout
    return lines[0]


def with_password(url: str) -> str:
    """The test server's URL (``postgresql://postgres:@/db?host=…``) with a password in it
    (the test server trusts local logins, so any password is accepted)."""
    assert url.startswith("postgresql://postgres:@"), url
    return url.replace("postgres:@", f"postgres:{SECRET}@", 1)


def test_a_malformed_database_url_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run_bot(tmp_path, f"postgresql://bob:{SECRET}@db:port/bot")
    one_line(done, 2, "DATABASE_URL", "postgresql://")


def test_an_unreachable_server_is_one_line_and_exit_1(tmp_path: Path) -> None:
    # Port 9 (discard) on this host: nothing listens, the connection is refused at once.
    done = run_bot(tmp_path, f"postgresql://bob:{SECRET}@127.0.0.1:9/bot")
    line = one_line(done, 1, "Cannot reach the PostgreSQL server", "127.0.0.1:9")
    assert "bob:***@" in line


def test_a_missing_database_is_one_line_and_exit_2(tmp_path: Path, pg_server: PgServer) -> None:
    done = run_bot(tmp_path, with_password(pg_server.url("no_such_db")))
    one_line(done, 2, "DATABASE_URL", "refused", "no_such_db")


def test_a_reachable_server_is_migrated_then_the_bot_goes_on_to_discord(
    tmp_path: Path, pg_url: str
) -> None:
    done = run_bot(tmp_path, with_password(pg_url))
    one_line(done, 1, "Cannot reach Discord", "127.0.0.1:9")
    # The log names the database it runs on, without the password (tests/e2e/test_operator_log.py)
    assert "INFO bot: database: PostgreSQL postgresql://postgres:***@" in done.stderr

    async def version() -> int:
        conn = await asyncpg.connect(pg_url)
        try:
            return int(await conn.fetchval("SELECT version FROM schema_version"))
        finally:
            await conn.close()

    assert asyncio.run(version()) >= 19


# --- Shards on one PostgreSQL database: each run by exactly one process (README, "Sharding") ---


def claims_refusal(tmp_path: Path, url: str, **shards: str) -> subprocess.CompletedProcess[str]:
    return startup.run_bot(tmp_path, tmp_path / "unused.sqlite3", DATABASE_URL=url, **shards)


async def test_a_shard_another_process_runs_is_refused(tmp_path: Path, pg_url: str) -> None:
    """Two processes given the same SHARD_IDS (a shard type scaled to two dynos) both ran and
    both answered the shard's servers; the second is refused in one line, exit 2."""
    running = await ShardClaim.take(pg_url, 4, [0, 1])  # as a process with SHARD_IDS=0-1 holds
    try:
        done = claims_refusal(tmp_path, with_password(pg_url), SHARD_COUNT="4", SHARD_IDS="1-2")
        line = one_line(done, 2, "shard 1 of 4", "another process", "SHARD_IDS")
        assert "postgres:***@" in line
        # Shards no one runs are free: the process goes on to Discord (here an unreachable one).
        done = claims_refusal(tmp_path, with_password(pg_url), SHARD_COUNT="4", SHARD_IDS="2-3")
        one_line(done, 1, "Cannot reach Discord")
    finally:
        await running.release()
    unsharded = await ShardClaim.take(pg_url, 1, [0])  # two unsharded processes: both answer
    try:
        one_line(claims_refusal(tmp_path, with_password(pg_url)), 2, "another unsharded process")
    finally:
        await unsharded.release()
    done = claims_refusal(tmp_path, with_password(pg_url), SHARD_COUNT="4", SHARD_IDS="1-2")
    one_line(done, 1, "Cannot reach Discord")  # the other process stopped: shard 1 is free


class _Told(logging.Handler):
    """Sets ``event`` once a record says ``words``."""

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words, self.event = words, asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.words in record.getMessage():
            self.event.set()


async def test_a_shard_a_dead_session_holds_is_waited_for(pg_url: str) -> None:
    """A process gone with its host keeps its session — and its shards — until the server
    notices; a process restarted meanwhile (elsewhere: Heroku starts it on another dyno) was
    refused at once, and a platform's crash backoff could then keep the shard down for minutes.
    A holder that is not a live process on this host is waited for; once it lets go, the shard
    is claimed. A live process here is not waited for."""
    gone = await asyncpg.connect(
        pg_url, server_settings={"application_name": "tabletop bot pid 1 on gone-host, shards 1"}
    )
    try:
        assert await gone.fetchval("SELECT pg_try_advisory_lock($1::int, 1)", SHARD_LOCKS)
        told = _Told("held by another session")
        claims_log = logging.getLogger("bot.store.shard_claims")
        claims_log.addHandler(told)
        try:
            waiting = asyncio.create_task(ShardClaim.take(pg_url, 2, [1], wait_s=30))
            heard = asyncio.create_task(told.event.wait())
            # until the waiter met the held shard (or was refused at once)
            await asyncio.wait([waiting, heard], timeout=30, return_when=asyncio.FIRST_COMPLETED)
            heard.cancel()
        finally:
            claims_log.removeHandler(told)
        assert told.event.is_set() and not waiting.done(), "refused at once"
    finally:
        await gone.close()  # the dead session is dropped
    claim = await asyncio.wait_for(waiting, 30)
    try:
        with pytest.raises(ShardsTaken) as again:  # held by a live process here: at once
            await ShardClaim.take(pg_url, 2, [1], wait_s=30)
        assert again.value.held_here()
        keepalive = await claim._conn.fetchval(  # type: ignore[union-attr]
            "SELECT setting FROM pg_settings WHERE name = 'tcp_keepalives_idle'"
        )
        assert keepalive in ("10", "0"), keepalive  # 0: a Unix socket, which has none
    finally:
        await claim.release()


async def test_a_stop_while_waiting_for_a_shard_stops(tmp_path: Path, pg_url: str) -> None:
    """A platform stopping the process (SIGTERM: a deploy, a scale-down) while it waited for a
    dead session's shard: the bot logged 'stopping (SIGTERM)' and went on waiting — then, the
    shard let go, logged in to Discord and ran. The wait is given up: it stops, status 0,
    without going on to Discord."""
    gone = await asyncpg.connect(
        pg_url, server_settings={"application_name": "tabletop bot pid 1 on gone-host, shards 1"}
    )
    log = tmp_path / "bot.log"
    try:
        assert await gone.fetchval("SELECT pg_try_advisory_lock($1::int, 1)", SHARD_LOCKS)
        with log.open("wb") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=tmp_path,
                env=clean_env(
                    {
                        "PATH": "/usr/bin:/bin",
                        "PYTHONPATH": str(startup.ROOT),
                        "DISCORD_TOKEN": "startup-test-token",
                        "DATABASE_URL": pg_url,
                        "SHARD_COUNT": "2",
                        "SHARD_IDS": "1",
                        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
                    }
                ),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            for _ in range(300):  # until it waits for the shard
                if "waiting up to" in log.read_text():
                    break
                await asyncio.sleep(0.1)
            assert "waiting up to" in log.read_text(), log.read_text()
            process.send_signal(signal.SIGTERM)
            status = await asyncio.wait_for(process.wait(), 15)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    finally:
        await gone.close()
    said = log.read_text()
    assert status == 0, said
    assert "stopping (SIGTERM)" in said and "stopped; the database" in said, said
    assert "Discord" not in said and "Traceback" not in said, said


async def test_a_shard_count_a_dead_session_holds_is_waited_for(pg_url: str) -> None:
    """The same for a process's shard count: a host died running SHARD_COUNT=4, and the bot,
    redeployed at once with SHARD_COUNT=2, was refused at once ('another process runs with
    SHARD_COUNT=4') — the wait for a dead session's claim covered its shards only. The other
    count's holder is waited for as well, unless it is a live process here."""
    gone = await asyncpg.connect(
        pg_url, server_settings={"application_name": "tabletop bot pid 1 on gone-host, shards 0"}
    )
    try:
        await gone.execute("SELECT pg_advisory_lock_shared($1::int, 4)", COUNT_LOCKS)
        waiting = asyncio.create_task(ShardClaim.take(pg_url, 2, [0, 1], wait_s=30))
        await asyncio.wait([waiting], timeout=2 * RETRY_S)
        assert not waiting.done(), waiting.exception()
    finally:
        await gone.close()  # the dead session is dropped
    claim = await asyncio.wait_for(waiting, 30)
    await claim.release()


async def test_a_live_process_on_a_long_named_host_is_refused_at_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session's name is cut at PostgreSQL's 63 characters: on a host with a long name (a
    cloud VM's ip-10-0-1-23.eu-west-1.compute.internal, a pod's) the ', shards …' after the
    host was cut off, the name no longer read as a bot's, and a second process on the same
    host — a live one — was waited for 40 s as if its holder were a dead host's session."""
    host = "ip-10-0-1-23.eu-west-1.compute.internal"
    monkeypatch.setattr("socket.gethostname", lambda: host)
    claim = await ShardClaim.take(pg_url, 2, [1])
    try:
        with pytest.raises(ShardsTaken) as again:
            await asyncio.wait_for(ShardClaim.take(pg_url, 2, [1], wait_s=30), RETRY_S)
        assert again.value.held_here(), again.value.holders
        monkeypatch.setattr("socket.gethostname", lambda: host.replace("23", "24"))
        assert not again.value.held_here()  # another host of a name as long
    finally:
        await claim.release()


async def test_processes_that_split_the_servers_differently_are_refused(
    tmp_path: Path, pg_url: str
) -> None:
    """An unsharded process beside sharded ones (the Procfile's worker scaled up with its shard
    types), or two SHARD_COUNTs: each splits the servers its own way, so some were answered
    twice and others by nobody."""
    running = await ShardClaim.take(pg_url, 4, [0, 1])
    try:
        one_line(claims_refusal(tmp_path, with_password(pg_url)), 2, "SHARD_COUNT=4", "unsharded")
        done = claims_refusal(tmp_path, with_password(pg_url), SHARD_COUNT="2", SHARD_IDS="1")
        one_line(done, 2, "SHARD_COUNT=4", "SHARD_COUNT=2")
    finally:
        await running.release()


# --- A database the bot may not write: one line, exit 2 (as SQLite's read-only file) ---------


async def admin(url: str, *statements: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def test_a_read_only_database_is_one_line_and_exit_2(tmp_path: Path, pg_url: str) -> None:
    """A database set read-only (``default_transaction_read_only``, or a standby's URL given by
    mistake): the migrations failed with a traceback of asyncpg's ReadOnlySQLTransactionError."""
    name = urlsplit(pg_url).path.lstrip("/")
    await admin(pg_url, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    line = one_line(run_bot(tmp_path, with_password(pg_url)), 2, "DATABASE_URL", "read-only")
    assert "postgres:***@" in line


async def test_a_login_that_may_not_create_tables_is_one_line_and_exit_2(
    tmp_path: Path, pg_url: str
) -> None:
    """A login without the right to create tables in the database's schema (PostgreSQL 15 and
    later no longer grant CREATE on ``public`` to every user): a traceback of
    InsufficientPrivilegeError ("permission denied for schema public")."""
    await admin(
        pg_url,
        "CREATE ROLE plain LOGIN PASSWORD 'x'",
        "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
    )
    url = with_password(pg_url).replace("postgresql://postgres:", "postgresql://plain:", 1)
    line = one_line(run_bot(tmp_path, url), 2, "DATABASE_URL", "permission", "plain")
    assert "plain:***@" in line


def test_a_database_a_newer_bot_upgraded_is_one_line_and_exit_2(
    tmp_path: Path, pg_url: str
) -> None:
    """A rollback on PostgreSQL: the schema is at a migration this version does not have."""
    from bot.store.pg import bundled_pg_migrations

    newest = max(m.version for m in bundled_pg_migrations())

    async def set_version(version: int) -> None:
        conn = await asyncpg.connect(pg_url)
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"
            )
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version)
        finally:
            await conn.close()

    asyncio.run(set_version(newest + 1))
    done = run_bot(tmp_path, with_password(pg_url))
    line = one_line(done, 2, "was upgraded by a newer version of the bot", "PostgreSQL")
    assert f"schema is at migration {newest + 1}" in line, line


async def test_a_claim_over_the_connection_limit_is_one_line_and_exit_2(
    tmp_path: Path, pg_url: str
) -> None:
    """A login allowed one connection (a small managed plan's limit, shared by every process):
    the pool's connection migrated the database, and the shard claim's own connection was
    refused with a traceback of TooManyConnectionsError; one line now, naming what a process
    needs (README, "PostgreSQL connection budget")."""
    name = urlsplit(pg_url).path.lstrip("/")
    role = f"budget_{name}"
    await admin(
        pg_url,
        f"CREATE ROLE {role} LOGIN PASSWORD 'x' CONNECTION LIMIT 1",
        f'ALTER DATABASE "{name}" OWNER TO {role}',
        f"ALTER SCHEMA public OWNER TO {role}",
    )
    url = with_password(pg_url).replace("postgresql://postgres:", f"postgresql://{role}:", 1)
    line = one_line(run_bot(tmp_path, url), 2, "connection", "shard claim", "budget")
    assert f"{role}:***@" in line


@pytest.mark.parametrize("lost_at", ["the claim", "the schema read"])
def test_a_server_lost_before_the_shard_claim_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, pg_url: str, lost_at: str
) -> None:
    """The server went away after the migrations, before the claim of the shards (a restart of
    a managed database, a network cut): its ConnectionRefusedError was a traceback. Driven
    through the bot's start-up (``bot.__main__.run``) with the claim's connection refused as a
    stopped server refuses it, or the read just before it failing as a lost connection does."""
    from bot import __main__ as entry
    from bot.settings import Settings
    from bot.store import shard_claims
    from bot.store.pg import PgDatabase

    async def refused(*args: object, **kwargs: object) -> asyncpg.Connection:
        raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)")

    async def closed(self: PgDatabase) -> int:
        raise asyncpg.ConnectionDoesNotExistError(
            "connection was closed in the middle of operation"
        )

    settings = Settings(
        discord_token=SecretStr("startup-test-token"), database_url=SecretStr(with_password(pg_url))
    )
    with monkeypatch.context() as patched, pytest.raises(entry.StartupError) as refusal:
        if lost_at == "the claim":
            patched.setattr(shard_claims.asyncpg, "connect", refused)  # the claim's connect only
        else:  # the read of the schema version start-up logs, just before the claim
            patched.setattr(PgDatabase, "schema_version", closed)
        asyncio.run(entry.run(settings))
    assert refusal.value.status == 1
    text = str(refusal.value)
    assert "\n" not in text and SECRET not in text
    assert "PostgreSQL server" in text and "claim" in text, text
