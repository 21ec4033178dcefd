"""``python -m bot``: the composition root.

settings → database (migrated) → services → bot. A missing or malformed setting, or a database
that cannot be opened (unopenable, read-only, not a database or corrupted, disk full) or that a
newer version of the bot migrated, prints one line naming it and exits with status 2.

With ``DATABASE_URL`` set (PostgreSQL), start-up connects and applies the PostgreSQL migrations
(:mod:`bot.store.pg`), then runs the bot on it exactly as on SQLite. An unreachable server is
one line and status 1 (like an unreachable Discord); a server that refuses the login or has no
such database, status 2. The URL's password never appears in any line.

``python -m bot copy-db --to postgresql://… [--from PATH]`` copies the SQLite database at
``PATH`` (default: ``DATABASE_PATH``) into an empty PostgreSQL database and verifies each table
(:mod:`bot.store.copy`): one line per table, status 0; a refusal is one line and status 2, an
unreachable server status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import signal
import sqlite3
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import asyncpg
import discord
import yarl

from bot import heap, preflight  # noqa: F401 - preflight checks data/ before the bot imports
from bot.client import SHUTDOWN_GRACE, CombatBot, GatewayUnreachable, bot_class
from bot.engine import DiceRoller
from bot.errors import StorageUnavailable
from bot.reconnect_log import quiet_reconnects, reason
from bot.services.away import AwayService
from bot.services.campaign import CampaignService
from bot.services.combat import CombatService
from bot.services.container import Services
from bot.services.encounters import Encounter, EncounterService, utc_now
from bot.services.member_data import MemberDataService
from bot.services.member_settings import MemberSettingsService
from bot.services.moderation import ModerationService
from bot.services.notices import NoticeService
from bot.services.rehearsal import RehearsalService
from bot.services.reminders import Reminders
from bot.services.server_admin import ServerAdminService
from bot.services.sheets import SheetService
from bot.services.tables import TableService
from bot.settings import (
    Settings,
    SettingsError,
    check_postgres_url,
    database_path_setting,
    default_env_file,
    load_settings,
    redacted_url,
    refuse_url_as_path,
)
from bot.store.base import Store
from bot.store.copy import CopyRefused, copy_database
from bot.store.db import Database, SchemaAhead
from bot.store.pg import POOL_SIZE, PgDatabase
from bot.store.process_lock import DatabaseInUse, DatabaseLock
from bot.store.server_clock import ServerClock
from bot.store.shard_claims import ShardClaim, ShardsTaken
from bot.sync import DevGuildRefused

log = logging.getLogger("bot")


def point_at_endpoints(settings: Settings) -> None:
    """Aim discord.py at ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` when they are set
    (process-global class attributes of discord.py)."""
    if settings.discord_api_base is not None:
        discord.http.Route.BASE = str(settings.discord_api_base).rstrip("/")
    if settings.discord_gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
            str(settings.discord_gateway_url)
        )


async def build(
    settings: Settings,
    *,
    guild_ready_timeout: float = 2.0,
    seeds: Callable[[], int] | None = None,
    rollers: Callable[[Encounter], DiceRoller] | None = None,
    expiry_interval: float | None = 1.0,
    clock: Callable[[], datetime] | None = None,
) -> CombatBot:
    """Open and migrate the database and construct the bot (not yet connected).
    ``guild_ready_timeout`` (seconds) is how long discord.py waits for servers before ready;
    ``seeds`` gives each new encounter's dice seed and ``rollers`` may replace the dice
    altogether (tests script them); ``expiry_interval`` is how often (seconds) expired
    reaction windows are looked for (``None``: never by itself, see
    :meth:`CombatBot.expire_due`); ``clock`` (``() -> aware datetime``, UTC) is every
    service's clock — reaction deadlines, and what is due — by default the host's, or on
    PostgreSQL (other processes share the database) the database server's
    (:class:`bot.store.server_clock.ServerClock`: the processes compare times each other
    wrote). The bot is sharded (:class:`bot.client.ShardedCombatBot`) when ``SHARD_COUNT``
    is set."""
    db: Store
    if settings.database_url is not None:
        db = await open_postgres(settings.database_url.get_secret_value())
    else:
        db = await Database.open(settings.database_path)
    try:
        await db.migrate()
        server_clock: ServerClock | None = None
        if clock is None and isinstance(db, PgDatabase):
            server_clock = ServerClock(db.server_time)
            await server_clock.sync()
        now = clock or server_clock or utc_now
        encounters = EncounterService(
            db,
            clock=now,
            seeds=seeds,
            rollers=rollers,
            snapshot_every=settings.log_snapshot_every,
            check_replay=settings.check_replay,
        )
        await encounters.freeze_rules()  # before any command: encounters started before 0013
        combat = CombatService(encounters, clock=now)
        member_settings = MemberSettingsService(db, clock=now)
        services = Services(
            encounters=encounters,
            sheets=SheetService(db, clock=now),
            combat=combat,
            moderation=ModerationService(db, encounters, combat, clock=now),
            tables=TableService(db, clock=now),
            server_admin=ServerAdminService(db, encounters, clock=now),
            member_data=MemberDataService(db, encounters, clock=now),
            notices=NoticeService(db, clock=now),
            campaign=CampaignService(db, clock=now),
            member_settings=member_settings,
            reminders=Reminders(encounters, member_settings, clock=now),
            away=AwayService(db, clock=now),
            rehearsal=RehearsalService(encounters),
        )
        bot = bot_class(settings)(
            settings=settings,
            db=db,
            services=services,
            guild_ready_timeout=guild_ready_timeout,
            expiry_interval=expiry_interval,
        )
        bot.server_clock = server_clock
        return bot
    except BaseException:
        # An open connection's worker thread would keep the process alive: close it first.
        with contextlib.suppress(Exception):
            await db.close()
        raise


LOGIN_TIMEOUT = 60.0  # seconds to log in, run setup (migrations done) and sync commands


class StartupError(Exception):
    """The bot could not start; ``str()`` is the one line to print, ``status`` the exit code."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def database_problem(path: Path, error: BaseException) -> str:
    """The one line printed when the database at ``path`` cannot be opened, configured or
    migrated: names the file, what is wrong and what to do."""
    cause, primary = _sqlite_fault(error)
    if primary in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        return (
            f"Configuration error: the database file {path} is not a SQLite database or is "
            f"corrupted ({cause}). Restore it from a backup, or point DATABASE_PATH at another "
            "file (see .env.example)."
        )
    if primary == sqlite3.SQLITE_READONLY or (
        isinstance(cause, OSError) and cause.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
    ):
        return (
            f"Configuration error: the database file {path} is read-only ({cause}). Make the "
            "file and its folder writable for the bot, or point DATABASE_PATH at another file "
            "(see .env.example)."
        )
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return (
            f"Configuration error: the database file {path} is locked by another program "
            f"({cause}): one is writing to it and did not let go within SQLite's busy timeout "
            "(a sqlite3 shell left in a transaction, a script). Close it, then start the bot "
            "again."
        )
    if primary == sqlite3.SQLITE_FULL:
        return (
            f"Configuration error: the disk holding the database file {path} is full. Free "
            "some space, or point DATABASE_PATH at another disk (see .env.example)."
        )
    return (
        f"Configuration error: cannot open the database at {path} ({cause}). "
        "Check DATABASE_PATH (see .env.example)."
    )


def _sqlite_fault(error: BaseException) -> tuple[object, int | None]:
    """What to quote of ``error`` and its primary SQLite result code (``None``: not SQLite's).
    A :class:`StorageUnavailable` quotes the sqlite3 error chained to it, or — a failed group
    commit chains none — is read by the SQLite code it was mapped from (its ``reason``)."""
    cause: object = error
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(error, StorageUnavailable):
        cause = error.__cause__ or f"{error.reason}: {error}"
        code = getattr(error.__cause__, "sqlite_errorcode", None)
        if code is None:
            code = getattr(sqlite3, error.reason, None)
    return cause, code & 0xFF if isinstance(code, int) else None


def database_named(settings: Settings) -> str:
    """The database the bot runs on, as a line names it: the SQLite file (an absolute path: a
    relative DATABASE_PATH is read from the working folder), or the PostgreSQL URL without
    its password."""
    if settings.database_url is not None:
        return redacted_url(settings.database_url.get_secret_value())
    return str(settings.database_path.absolute())


def settings_source() -> str:
    """Where the settings were read: ``the environment over /srv/bot/.env``, or ``the
    environment (no .env file)``."""
    env_file = default_env_file()
    if env_file.is_file():
        return f"the environment over {env_file}"
    return "the environment (no .env file)"


def database_described(settings: Settings) -> str:
    """``SQLite /srv/bot/data/bot.sqlite3`` or ``PostgreSQL postgresql://bot:***@db/bot``."""
    kind = "SQLite" if settings.database_url is None else "PostgreSQL"
    return f"{kind} {database_named(settings)}"


def shards_described(settings: Settings) -> str:
    """Which shards this process runs, in SHARD_IDS's notation: ``unsharded …``, ``0-1 of 2
    (this process runs every shard)``, ``2-3 of 4 (other processes run the others)``."""
    if settings.shard_count is None:
        return "unsharded (one gateway connection serves every server)"
    ids = settings.shard_ids or tuple(range(settings.shard_count))
    runs: list[list[int]] = []
    for shard in ids:
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    listed = ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)
    every = set(ids) == set(range(settings.shard_count))
    whose = "this process runs every shard" if every else "other processes run the others"
    return f"{listed} of {settings.shard_count} ({whose})"


def newer_database(where: str, error: SchemaAhead) -> str:
    """The one line printed when ``where`` (the database) was upgraded by a newer version of
    the bot (a rollback): what happened and what to do. The bot does not start on it."""
    return (
        f"Configuration error: {where} was upgraded by a newer version of the bot (its schema "
        f"is at migration {error.current}; this version knows migrations up to "
        f"{error.newest}), so this version cannot use it. Run the newer version of the bot, or "
        "restore a backup of the database taken before that version upgraded it."
    )


def _scrubbed(text: str, url: str) -> str:
    """``text`` without the password of ``url`` (a server's message may quote the URL)."""
    with contextlib.suppress(ValueError):
        password = urlsplit(url).password
        if password:
            text = text.replace(password, "***")
    return text


async def open_postgres(url: str) -> PgDatabase:
    """Connect to the PostgreSQL server at ``url`` and apply its migrations.

    Raises :class:`StartupError`: status 1 when the server cannot be reached (refused, unknown
    host, no answer within the connect timeout), status 2 when it refuses the login or the
    database does not exist (a setting to fix). Neither line contains the password."""
    where = redacted_url(url)
    try:
        db = await PgDatabase.open(url)
    except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as error:
        reason = _scrubbed(f"{type(error).__name__}: {error}", url)
        raise StartupError(
            f"Cannot reach the PostgreSQL server at {where} ({reason}). Check that it is "
            "running and DATABASE_URL's host and port.",
            1,
        ) from None
    except asyncpg.PostgresError as error:
        reason = _scrubbed(f"{type(error).__name__}: {error}", url)
        raise StartupError(
            f"Configuration error: the PostgreSQL server at {where} refused the connection "
            f"({reason}). Check DATABASE_URL's user, password and database name (see "
            ".env.example).",
            2,
        ) from None
    try:
        await db.migrate()
    except SchemaAhead as error:
        with contextlib.suppress(Exception):
            await db.close()
        raise StartupError(
            newer_database(f"the PostgreSQL database at {where}", error), 2
        ) from None
    except BaseException as error:
        with contextlib.suppress(Exception):
            await db.close()
        refusal = migration_refused(where, error, url)
        if refusal is not None:
            raise StartupError(refusal, 2) from None
        raise
    return db


def migration_refused(where: str, error: BaseException, url: str) -> str | None:
    """The one line printed when the PostgreSQL database at ``where`` refuses the bot's
    migrations — it is read-only, the login may not create tables, the server is out of
    space — or ``None`` for another error."""
    reason = _scrubbed(f"{type(error).__name__}: {error}", url)
    if isinstance(error, asyncpg.ReadOnlySQLTransactionError):
        return (
            f"Configuration error: the PostgreSQL database at {where} is read-only ({reason}); "
            "the bot writes to it. Point DATABASE_URL at the primary server, not a standby, or "
            "turn default_transaction_read_only off (see .env.example)."
        )
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return (
            f"Configuration error: DATABASE_URL's login may not create the bot's tables at "
            f"{where} ({reason}). Make it the database's owner, or grant it CREATE on the schema "
            "(README, 'PostgreSQL')."
        )
    if isinstance(error, StorageUnavailable):
        return (
            f"Configuration error: the PostgreSQL database at {where} could not be migrated "
            f"({reason}). Check the server, then start the bot again."
        )
    return None


def hold_database(settings: Settings) -> DatabaseLock | None:
    """This process's lock on its SQLite database (:mod:`bot.store.process_lock`; ``None`` on
    PostgreSQL, which processes share). Raises :class:`StartupError` (status 2) when another
    process holds it or the lock file cannot be made."""
    if settings.database_url is not None:
        return None
    try:
        return DatabaseLock.take(settings.database_path)
    except DatabaseInUse as error:
        raise StartupError(database_in_use(error), 2) from None
    except OSError as error:
        raise StartupError(database_problem(settings.database_path, error), 2) from None


def database_in_use(error: DatabaseInUse) -> str:
    """The one line printed when another process runs on this process's SQLite database."""
    return (
        f"Configuration error: the database {error.path} is in use by another bot process "
        f"({error.holder or 'its lock file names none'}). One process per SQLite file: stop "
        "that one first, or give this process its own DATABASE_PATH (README, 'Sharding')."
    )


async def run(settings: Settings) -> None:
    """Run the bot until the process is told to stop; release the database on the way out.

    On SQLite the database is this process's alone while it runs (:func:`hold_database`); see
    :func:`serve` for the rest."""
    lock = hold_database(settings)
    try:
        await serve(settings)
    finally:
        if lock is not None:
            lock.release()


async def opened(settings: Settings) -> CombatBot:
    """:func:`build`, each way the database can fail turned into a :class:`StartupError`."""
    try:
        return await build(settings)
    except SchemaAhead as error:  # SQLite's (open_postgres turns PostgreSQL's into a line)
        where = f"the database file {settings.database_path}"
        raise StartupError(newer_database(where, error), 2) from None
    except StorageUnavailable as error:
        raise database_failed(settings, error) from None
    except (OSError, sqlite3.Error) as error:
        raise StartupError(database_problem(settings.database_path, error), 2) from None


def database_failed(settings: Settings, error: StorageUnavailable) -> StartupError:
    """The one line (and status) when the database failed while the bot was starting."""
    if settings.database_url is None:
        return StartupError(database_problem(settings.database_path, error), 2)
    return StartupError(
        f"The PostgreSQL database at {database_named(settings)} failed while the bot was "
        f"starting ({error.reason}: {error}).",
        1,
    )


async def log_in(bot: CombatBot, settings: Settings) -> None:
    """Log in (which runs the bot's setup: cogs, command sync), each way it can fail but a
    rejected token (``discord.LoginFailure``, re-raised) turned into a :class:`StartupError`."""
    where = str(settings.discord_api_base or discord.http.Route.BASE)
    try:
        await asyncio.wait_for(bot.login(settings.discord_token.get_secret_value()), LOGIN_TIMEOUT)
    except TimeoutError:
        raise StartupError(
            f"Discord did not answer within {LOGIN_TIMEOUT:g} s at {where}. Check your "
            "network, DISCORD_API_BASE and DISCORD_GATEWAY_URL.",
            1,
        ) from None
    except (aiohttp.ClientError, OSError) as error:
        raise StartupError(
            f"Cannot reach Discord at {where} ({type(error).__name__}: {error}). Check "
            "your network, DISCORD_API_BASE and DISCORD_GATEWAY_URL.",
            1,
        ) from None
    except discord.LoginFailure:
        raise
    except DevGuildRefused as error:
        raise StartupError(dev_guild_refused(error), 2) from None
    except discord.HTTPException as error:
        raise StartupError(
            f"Discord at {where} answered {error.status} ({error.text or 'no details'})"
            " while the bot was starting. Check DISCORD_API_BASE.",
            1,
        ) from None


async def serve(settings: Settings) -> None:
    """Run the bot until the process is told to stop; close the database on the way out.

    Raises :class:`StartupError` when the database cannot be opened or Discord cannot be
    reached (or does not answer within ``LOGIN_TIMEOUT``), and ``discord.LoginFailure`` when it
    rejects the token. With ``DATABASE_URL`` set the store is PostgreSQL (connected to and
    migrated first; an unreachable or refusing server is a :class:`StartupError` naming it)."""
    bot = await opened(settings)
    log.info("settings: %s", settings_source())
    try:
        migration = await bot.db.schema_version()
    except StorageUnavailable as error:  # lost since build() migrated it
        await bot.db.close()
        raise database_failed(settings, error) from None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        await bot.db.close()
        if settings.database_url is None:
            raise
        raise claim_failed(settings.database_url.get_secret_value(), error) from None
    log.info("database: %s, at migration %04d", database_described(settings), migration)
    log.info("shards: %s", shards_described(settings))
    heap.settle()  # what start-up built lives as long as the process (bot/heap.py)
    loop = asyncio.get_running_loop()
    # The claim may wait up to 40 s for a dead session's shards: a stop meanwhile ends the wait
    # (it went on waiting, then logged in to Discord after the stop).
    claiming = asyncio.ensure_future(claim_shards(settings))
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop, bot, signal.Signals(signum).name, claiming)
    claim: ShardClaim | None = None
    try:
        try:
            claim = await claiming
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # serve itself is cancelled
        if STOPPING:  # told to stop before its shards were claimed
            return
        async with bot:
            await log_in(bot, settings)
            try:
                await bot.connect()
            except GatewayUnreachable as error:
                raise StartupError(gateway_unreachable(error), 1) from None
    finally:
        if claim is not None:
            await claim.release()
        await bot.db.close()
        log.info("stopped; the database %s is closed", database_named(settings))


def gateway_unreachable(error: GatewayUnreachable) -> str:
    """The one line printed when the first connection to Discord's gateway fails (after the
    login: Discord's API answered)."""
    where = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    return (
        f"Cannot reach Discord's gateway at {where} ({reason(error.error)}). Check your network "
        "and DISCORD_GATEWAY_URL (leave it empty for Discord's own)."
    )


def dev_guild_refused(error: DevGuildRefused) -> str:
    """The one line printed when Discord refuses the command sync to DEV_GUILD_ID."""
    return (
        "Configuration error: Discord refused to sync the slash commands to "
        f"DEV_GUILD_ID={error.guild_id} ({error.status} {error.text or 'no details'}): the bot "
        "is not in that server, or was invited without the applications.commands scope. Check "
        "the server id, invite the bot there (README, 'Creating the Discord application'), or "
        "leave DEV_GUILD_ID empty to sync globally."
    )


async def claim_shards(settings: Settings) -> ShardClaim | None:
    """On PostgreSQL, claim this process's shards for as long as it runs
    (:mod:`bot.store.shard_claims`; an unsharded process runs shard 0 of 1): raises
    :class:`StartupError` (status 2) when another process on the database runs one of them or
    splits the servers with another SHARD_COUNT. ``None`` on SQLite."""
    if settings.database_url is None:
        return None
    count = settings.shard_count or 1
    shards = settings.shard_ids if settings.shard_ids is not None else tuple(range(count))
    url = settings.database_url.get_secret_value()
    try:
        return await ShardClaim.take(url, count, shards)
    except ShardsTaken as error:
        raise StartupError(shards_taken(settings, error), 2) from None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise claim_failed(url, error) from None


def claim_failed(url: str, error: BaseException) -> StartupError:
    """The one line (and status) when the shard claim's own connection fails after the
    migrations ran: the server refused it for its connection limit (status 2: a setting to
    fix, the README's connection budget), or the server was lost meanwhile (status 1, like
    one that cannot be reached at all)."""
    where, reason = redacted_url(url), _scrubbed(f"{type(error).__name__}: {error}", url)
    if isinstance(error, asyncpg.TooManyConnectionsError):
        return StartupError(
            f"Configuration error: the PostgreSQL server at {where} refused the shard claim's "
            f"connection ({reason}): each process of the bot needs up to {POOL_SIZE} pooled "
            "connections and one for its claim. Raise the server's or the login's connection "
            "limit, or run fewer processes (README, 'PostgreSQL connection budget').",
            2,
        )
    return StartupError(
        f"The PostgreSQL server at {where} was lost after the migrations, before this "
        f"process could claim its shards ({reason}). Check that it is running, then start the "
        "bot again.",
        1,
    )


def shards_taken(settings: Settings, error: ShardsTaken) -> str:
    """The one line printed when another process on the database claims this one's shards."""
    where = database_named(settings)

    def as_set(count: int) -> str:
        return "unsharded" if count == 1 else f"SHARD_COUNT={count}"

    if error.counts:
        others = " and ".join(as_set(count) for count in error.counts)
        return (
            f"Configuration error: another process on the PostgreSQL database {where} runs "
            f"{others}, this one {as_set(settings.shard_count or 1)}: they would split the "
            "servers differently. Give every process the same SHARD_COUNT, or stop the others "
            "(README, 'Sharding')."
        )
    count = settings.shard_count or 1
    if settings.shard_count is None:
        return (
            f"Configuration error: another unsharded process of the bot already runs on the "
            f"PostgreSQL database {where}: both would answer every command. Stop the other one "
            "(README, 'Sharding')."
        )
    listed = ", ".join(map(str, error.shards))
    return (
        f"Configuration error: shard {listed} of {count} is already run by another process "
        f"on the PostgreSQL database {where}: each shard must be run by exactly one process. "
        "Check this process's SHARD_IDS, or stop the other one (README, 'Sharding')."
    )


STOPPING: set[asyncio.Future[None]] = set()  # the stops under way (a task needs a reference)


def stop(
    bot: CombatBot, signal_name: str, claiming: asyncio.Future[ShardClaim | None] | None = None
) -> None:
    """Stop the bot on ``SIGTERM`` / ``SIGINT``, saying so (:meth:`CombatBot.close` lets the
    work in flight finish first); a claim of the shards still waiting (``claiming``) is given
    up."""
    log.info(
        "stopping (%s): the commands, clicks and expiry pass in flight get up to %g s",
        signal_name,
        SHUTDOWN_GRACE,
    )
    if claiming is not None and not claiming.done():
        claiming.cancel()
    STOPPING.add(asyncio.ensure_future(bot.close()))


async def copy_db(path: Path, url: str) -> int:
    """Copy the SQLite database at ``path`` into the PostgreSQL database at ``url`` (printing
    one line per table); the exit status. Raises :class:`StartupError` when the server cannot
    be reached or refuses the login."""
    pg = await open_postgres(url)
    try:
        outcomes = await copy_database(path, pg, print)
    except CopyRefused as error:
        print(f"copy-db: {error}", file=sys.stderr)
        return 2
    finally:
        await pg.close()
    rows = sum(o.rows for o in outcomes)
    print(f"Copied {path} into {redacted_url(url)}: {len(outcomes)} tables, {rows} rows.")
    return 0


def copy_db_main(argv: list[str]) -> int:
    """``python -m bot copy-db --to URL [--from PATH]`` (see the module docstring)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot copy-db",
        description="Copy a SQLite database into an empty PostgreSQL database and verify it.",
    )
    parser.add_argument("--to", required=True, help="postgresql://user:password@host/dbname")
    parser.add_argument(
        "--from",
        dest="source",
        help="the SQLite file (default: DATABASE_PATH from the environment or .env, else "
        "data/bot.sqlite3)",
    )
    args = parser.parse_args(argv)
    try:
        check_postgres_url(args.to, setting=False)
    except ValueError as error:
        print(f"copy-db: --to {error}", file=sys.stderr)
        return 2
    try:  # a URL is refused by name, before it is read as a path (its password in the path)
        if args.source is None:
            args.source = database_path_setting()
        else:
            refuse_url_as_path(args.source)
            args.source = Path(args.source)
    except SettingsError as error:
        print(f"copy-db: {error.one_line()}", file=sys.stderr)
        return 2
    except ValueError:
        print(
            "copy-db: --from is a URL, not a file path: it names the SQLite file to copy; the "
            "PostgreSQL database goes in --to.",
            file=sys.stderr,
        )
        return 2
    try:  # the bot's own lock (hold_database), held while the copy reads the file
        lock = DatabaseLock.take(args.source) if args.source.is_file() else None
    except DatabaseInUse as error:
        print(
            f"copy-db: the database {args.source} is in use by a running bot ({error.holder}): "
            "stop the bot before copying.",
            file=sys.stderr,
        )
        return 2
    except OSError as error:  # a read-only copy (a backup's disk, a snapshot): no lock file
        what = (
            "on a read-only disk SQLite cannot read it either. Copy the file (with its -wal, if "
            "any) to a writable folder and copy-db from there"
            if error.errno == errno.EROFS
            else "run copy-db as the user the bot runs as (who may write its folder)"
        )
        print(
            f"copy-db: cannot lock {args.source} ({error.strerror}), as the bot locks it: {what}.",
            file=sys.stderr,
        )
        return 2
    try:
        return asyncio.run(copy_db(args.source, args.to))
    except StartupError as error:
        print(str(error), file=sys.stderr)
        return error.status
    finally:
        if lock is not None:
            lock.release()


USAGE = """usage: python -m bot              run the bot (settings: the environment and .env)
       python -m bot copy-db --to postgresql://… [--from PATH]
                                  copy the SQLite database into an empty PostgreSQL one"""


def main() -> int:
    if sys.argv[1:2] == ["copy-db"]:
        return copy_db_main(sys.argv[2:])
    if sys.argv[1:] in (["--help"], ["-h"]):
        print(USAGE)
        return 0
    if sys.argv[1:]:  # never start the bot on arguments it does not take
        print(f"python -m bot: unknown argument {sys.argv[1]!r}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error.one_line(), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    quiet_reconnects()
    point_at_endpoints(settings)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print(
            "Configuration error: Discord rejected DISCORD_TOKEN. "
            "Copy the bot token from the Developer Portal into .env (see .env.example).",
            file=sys.stderr,
        )
        return 2
    except StartupError as error:
        print(str(error), file=sys.stderr)
        return error.status
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
