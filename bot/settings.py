"""Typed settings, read once at start-up from the environment and an optional ``.env`` file.

Every variable is listed, with a comment, in ``.env.example``. The process environment wins over
``.env``. The Discord token is a :class:`pydantic.SecretStr`: its ``repr`` and ``str`` are masked,
so it never reaches a log line or an error message.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit, urlunsplit

from dotenv import dotenv_values
from pydantic import (
    AnyUrl,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_PATH = PROJECT_ROOT / "data" / "bot.sqlite3"

ENV_VARS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "LOG_SNAPSHOT_EVERY",
    "CHECK_REPLAY",
    "SHARD_COUNT",
    "SHARD_IDS",
)

Snowflake = Annotated[int, Field(gt=0, lt=2**63)]
MAX_SHARDS = 100_000
ShardCount = Annotated[int, Field(ge=1, le=MAX_SHARDS)]

SHARD_IDS_SHAPE = re.compile(r"^\d+(-\d+)?$")


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0,1"`` → ``(0, 1)``; ``"0-3"`` → ``(0, 1, 2, 3)``; ``"0-1, 4"`` → ``(0, 1, 4)``.

    Raises ``ValueError`` (its message is shown after the variable's name) for anything else: an
    empty item, a descending range, a shard listed twice."""
    ids: list[int] = []
    for item in text.split(","):
        item = item.strip()
        if not SHARD_IDS_SHAPE.match(item):
            raise ValueError(
                f"{item!r} is not a shard number or range; write shard numbers like 0,1 or 0-3"
            )
        first, _, last = item.partition("-")
        low, high = int(first), int(last or first)
        if high < low:
            raise ValueError(f"the range {item} runs backwards; write it as {high}-{low}")
        if high >= MAX_SHARDS:
            raise ValueError(f"shard {high} is not below {MAX_SHARDS}")
        ids.extend(range(low, high + 1))
    repeated = sorted({shard for shard in ids if ids.count(shard) > 1})
    if repeated:
        raise ValueError(f"shard {repeated[0]} is listed twice")
    return tuple(sorted(ids))


class Settings(BaseModel):
    """The bot's configuration.

    Fields (environment variable in capitals):

    - ``discord_token`` (DISCORD_TOKEN, required): the bot token; secret.
    - ``database_path`` (DATABASE_PATH): the SQLite file; default ``data/bot.sqlite3``; its parent
      folder is created on first run.
    - ``database_url`` (DATABASE_URL): a ``postgresql://user:password@host:port/dbname`` URL
      (``postgres://`` too; ``?host=/path`` for a Unix socket) to keep the data in PostgreSQL
      through asyncpg; unset or blank: SQLite at ``database_path``. Secret (it may hold a
      password): masked like the token; use :func:`redacted_url` to name it in a message.
    - ``dev_guild_id`` (DEV_GUILD_ID): when set, slash commands are synced to that server only.
    - ``log_level`` (LOG_LEVEL): DEBUG, INFO, WARNING, ERROR or CRITICAL; default INFO.
    - ``discord_api_base`` / ``discord_gateway_url`` (DISCORD_API_BASE / DISCORD_GATEWAY_URL):
      override Discord's REST base (``http(s)://…/api/v10``) and gateway URL (``ws(s)://``);
      unset in production, used by the test harness and REST proxies.

    A blank value is an unset one (:func:`load_settings`): the default applies.
    - ``log_snapshot_every`` (LOG_SNAPSHOT_EVERY): the encounter log keeps a full state snapshot
      every this many versions (1-10000, default 50); other states are replayed from it
      (:mod:`bot.services.replay`).
    - ``check_replay`` (CHECK_REPLAY): replay every change at once and refuse one that does not
      give the state committed (tests; costs an engine run per command); default false.
    - ``shard_count`` (SHARD_COUNT): the total number of shards (gateway connections) the bot
      runs across all its processes; unset: one unsharded connection, as before.
    - ``shard_ids`` (SHARD_IDS, e.g. ``0,1`` or ``0-3``): the shards this process runs, each
      below ``shard_count`` (needs SHARD_COUNT); unset with SHARD_COUNT set: all of them.
      Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``. Only the
      process that runs shard 0 (or an unsharded one) syncs slash commands
      (:attr:`syncs_commands`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    discord_token: SecretStr = Field(min_length=1)
    database_path: Path = DEFAULT_DATABASE_PATH
    database_url: SecretStr | None = None
    dev_guild_id: Snowflake | None = None
    log_level: str = "INFO"
    discord_api_base: AnyUrl | None = None
    discord_gateway_url: AnyUrl | None = None
    log_snapshot_every: int = Field(default=50, ge=1, le=10_000)
    check_replay: bool = False
    shard_count: ShardCount | None = None
    shard_ids: tuple[Annotated[int, Field(ge=0)], ...] | None = None

    @field_validator("discord_token")
    @classmethod
    def _token_has_no_spaces(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value()
        if token != token.strip() or " " in token:
            raise ValueError("must not contain spaces")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> str:
        level = str(value).strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator(
        "discord_api_base", "discord_gateway_url", "dev_guild_id", "shard_count", mode="before"
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("discord_api_base")
    @classmethod
    def _rest_scheme(cls, value: AnyUrl | None) -> AnyUrl | None:
        return _scheme_in(
            value, ("http", "https"), "a REST base such as https://discord.com/api/v10"
        )

    @field_validator("discord_gateway_url")
    @classmethod
    def _gateway_scheme(cls, value: AnyUrl | None) -> AnyUrl | None:
        return _scheme_in(value, ("ws", "wss"), "a websocket URL such as wss://gateway.discord.gg/")

    @field_validator("database_path", mode="before")
    @classmethod
    def _blank_is_default(cls, value: object) -> object:
        return DEFAULT_DATABASE_PATH if isinstance(value, str) and not value.strip() else value

    @field_validator("database_path", mode="before")
    @classmethod
    def _a_path_not_a_url(cls, value: object) -> object:
        if isinstance(value, str):
            refuse_url_as_path(value)
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _blank_url_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            check_postgres_url(value.get_secret_value())
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return parse_shard_ids(value) if value.strip() else None
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_below_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None:
            return None
        if "shard_count" not in info.data:
            return value  # SHARD_COUNT itself is malformed: that error is reported
        count = info.data["shard_count"]
        if count is None:
            raise ValueError(
                "needs SHARD_COUNT too, the total number of shards across all processes"
            )
        if not value:
            raise ValueError("lists no shard")
        too_high = [shard for shard in value if shard >= count]
        if too_high:
            raise ValueError(
                f"shard {too_high[0]} is not below SHARD_COUNT={count}: shards are numbered "
                f"0 to {count - 1}"
            )
        return value

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs slash commands: it runs unsharded, or runs shard 0 —
        exactly one process of a sharded bot does (command definitions are per application,
        and creating them is rate limited per day)."""
        return self.shard_ids is None or 0 in self.shard_ids

    def runs_guild(self, guild_id: int) -> bool:
        """Whether Discord sends this process the events of server ``guild_id``: it runs
        unsharded, or runs the shard that owns the server (``(guild_id >> 22) % shard_count``).
        Only then does the list of servers the gateway gives this process say anything of it."""
        if self.shard_count is None:
            return True
        shards = range(self.shard_count) if self.shard_ids is None else self.shard_ids
        return (guild_id >> 22) % self.shard_count in shards

    @property
    def shares_database(self) -> bool:
        """Whether other processes of the bot run on this process's database: it is a
        PostgreSQL database (``database_url``) and this process runs some of the shards, not
        all (every shard is run by exactly one process; on SQLite each process has a database
        of its own — README "Sharding")."""
        if self.database_url is None or self.shard_ids is None or self.shard_count is None:
            return False
        return set(self.shard_ids) != set(range(self.shard_count))

    @property
    def log_level_number(self) -> int:
        """The ``logging`` module's number for :attr:`log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]


def _scheme_in(value: AnyUrl | None, schemes: tuple[str, ...], what: str) -> AnyUrl | None:
    """``value`` when its scheme is one of ``schemes``; else ``ValueError`` saying it must be
    ``what`` (a REST base is not a websocket, and neither is an ``ftp://`` URL)."""
    if value is not None and value.scheme not in schemes:
        allowed = " or ".join(f"{scheme}://" for scheme in schemes)
        raise ValueError(f"must be {allowed}: {what}, not {value.scheme}://")
    return value


POSTGRES_SCHEMES = ("postgresql", "postgres")
_URL_SHAPE = "postgresql://user:password@host:5432/dbname"


def check_postgres_url(url: str, *, setting: bool = True) -> None:
    """Raise ``ValueError`` unless ``url`` is a PostgreSQL URL asyncpg can use: scheme
    ``postgresql``/``postgres``, a host (in the authority or as ``?host=``), a numeric port when
    one is given. The message never contains the URL (it may hold a password); for the
    ``DATABASE_URL`` ``setting`` it adds that leaving it unset means SQLite (not for
    ``copy-db --to``, which needs a PostgreSQL URL)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port  # raises ValueError for a non-numeric or out-of-range port
        hostname = parts.hostname
    except ValueError:
        raise ValueError(
            f"is not a URL asyncpg can read (a bad port or brackets?); write {_URL_SHAPE}"
        ) from None
    if parts.scheme not in POSTGRES_SCHEMES:
        shown = f"'{parts.scheme}://'" if parts.scheme else "no scheme"
        unset = "; leave it unset to use SQLite at DATABASE_PATH" if setting else ""
        raise ValueError(f"has {shown}; only PostgreSQL is supported here ({_URL_SHAPE}){unset}")
    if not hostname and "host=" not in parts.query:
        raise ValueError(f"names no host; write {_URL_SHAPE}")
    if port == 0:
        raise ValueError(f"has port 0; write {_URL_SHAPE}")


def redacted_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (and its query kept), for log lines and
    error messages; a URL that cannot be parsed becomes ``'DATABASE_URL'``."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        host = parts.netloc.rpartition("@")[2]
    except ValueError:
        return "DATABASE_URL"
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def refuse_url_as_path(value: str) -> None:
    """Raise ``ValueError`` (its message follows the setting's name) for a URL given where the
    SQLite file's path goes: DATABASE_URL's value in DATABASE_PATH would make folders named
    after it (``postgresql:/bob:<password>@db/``), the password in the path."""
    if "://" in value:
        raise ValueError(
            "is a URL, not a file path: it names the SQLite file (e.g. data/bot.sqlite3); "
            "for PostgreSQL set DATABASE_URL instead"
        )


class SettingsError(Exception):
    """A setting is missing or malformed; ``variable`` names it, ``reason`` says why."""

    def __init__(self, variable: str, reason: str) -> None:
        super().__init__(f"{variable}: {reason}")
        self.variable = variable
        self.reason = reason

    def one_line(self) -> str:
        """The single line ``python -m bot`` prints before exiting with status 2."""
        return (
            f"Configuration error: {self.variable} {self.reason}. "
            "Set it in the environment or in .env (see .env.example)."
        )


def default_env_file() -> Path:
    """The ``.env`` the settings are read from: the working folder's, else the project's (it
    may not exist)."""
    return Path(".env").absolute() if Path(".env").is_file() else PROJECT_ROOT / ".env"


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = None
) -> Settings:
    """Build :class:`Settings` from ``.env`` (if present) overlaid by ``environ``.

    ``environ`` defaults to ``os.environ`` and ``env_file`` to ``.env`` in the working directory
    (or, when there is none, in the project folder).
    Raises :class:`SettingsError` naming the first bad variable — or a name in ``.env`` that
    looks like a misspelt setting; the message never contains the value of ``DISCORD_TOKEN`` or
    ``DATABASE_URL``.
    """
    environ = os.environ if environ is None else environ
    if env_file is None:
        env_file = default_env_file()
    merged: dict[str, str] = {}
    if env_file.is_file():
        from_file = {k: v for k, v in dotenv_values(env_file).items() if v is not None}
        _refuse_misspelt(from_file)
        merged.update(from_file)
    merged.update({k: v for k, v in environ.items() if k in ENV_VARS})
    # A blank value is an unset one, for every setting: ``LOG_LEVEL=`` takes the default.
    raw = {name.lower(): merged[name] for name in ENV_VARS if merged.get(name, "").strip()}
    if "discord_token" not in raw:
        raise SettingsError(
            "DISCORD_TOKEN",
            "is required but not set (the bot token from Discord's Developer Portal: see the "
            "README, 'Creating the Discord application')",
        )
    try:
        return Settings.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors(include_url=False, include_input=False)[0]
        variable = str(error["loc"][0]).upper() if error["loc"] else "settings"
        raise SettingsError(variable, _reason(error["msg"])) from None


def _refuse_misspelt(from_file: Mapping[str, str]) -> None:
    """Raise :class:`SettingsError` for a name in ``.env`` the bot does not read but that is
    a misspelling of one it does (``LOGLEVEL``, ``SHARD_ID``, ``discord_token``): it would be
    ignored without a word. Other names (another program's, in a shared file) are left alone:
    see :func:`_misspelling_of` for where the line between the two is drawn."""
    for name in from_file:
        meant = _misspelling_of(name)
        if meant is not None:
            raise SettingsError(
                name, f"(in .env) is not a setting the bot reads; the closest is {meant}"
            )


def _misspelling_of(name: str) -> str | None:
    """The setting ``name`` misspells, or None when it is a setting or a name of its own.

    A misspelling is the setting with its words run together or split differently
    (``LOGLEVEL``), in another case (``discord_token``), or with a slip in its words — each
    word alike the setting's (:func:`_alike`): ``SHARD_ID``, ``DATABASE_PATCH``,
    ``DATABSE_URL`` — or with the last of three words left out (``DEV_GUILD``,
    ``DISCORD_GATEWAY``). A name with a word of its own is another
    value, not a misspelling, however alike the letters look: ``DATABASE_USER``,
    ``DATABASE_PORT``, ``DATABASE_PASS``, ``GUILD_ID``, ``TEST_DATABASE_URL``; so is a
    setting's name with a suffix (``DATABASE_URL_RO``, ``DISCORD_TOKEN2``: a second value kept
    beside the setting). (difflib's similarity at 0.8 refused each of these and stopped a
    deployment that shared its .env with the database's own settings.)"""
    upper = name.upper()
    if name in ENV_VARS or any(
        upper.startswith(setting) and (upper[len(setting) :] or "_")[0] in "_0123456789"
        for setting in ENV_VARS
        if upper != setting
    ):
        return None
    words = [w for w in re.split(r"[_\-\s]+", upper) if w]
    for setting in ENV_VARS:
        wanted = setting.split("_")
        if "".join(words) == "".join(wanted):
            return setting
        if len(wanted) > 2 and words == wanted[:-1]:  # its last word left out: DEV_GUILD
            return setting
        if len(words) == len(wanted) and all(
            _alike(got, meant) for got, meant in zip(words, wanted, strict=True)
        ):
            return setting
    return None


SLIP_RATIO = 0.75
"""How alike two words must be to be one word with a typing slip (``difflib``'s ratio: ``ID``
and ``IDS`` 0.8, ``DATABSE`` and ``DATABASE`` 0.93, ``PATCH`` and ``PATH`` 0.89; ``USER`` and
``URL`` 0.57, ``PORT`` and ``PATH`` 0.5 are other words)."""


def _alike(got: str, meant: str) -> bool:
    """Whether the word ``got`` is ``meant`` with a typing slip (:data:`SLIP_RATIO`)."""
    return difflib.SequenceMatcher(None, got, meant).ratio() >= SLIP_RATIO


def database_path_setting(
    environ: Mapping[str, str] | None = None, env_file: Path | None = None
) -> Path:
    """``DATABASE_PATH`` as :func:`load_settings` finds it (the environment over ``.env``;
    blank or unset: ``data/bot.sqlite3``), without needing the other settings (for ``python -m
    bot copy-db``). Raises :class:`SettingsError` for a URL, as :func:`load_settings` does."""
    environ = os.environ if environ is None else environ
    if env_file is None:
        env_file = default_env_file()
    value = environ.get("DATABASE_PATH")
    if value is None and env_file.is_file():
        value = dotenv_values(env_file).get("DATABASE_PATH")
    if not (value and value.strip()):
        return DEFAULT_DATABASE_PATH
    try:
        refuse_url_as_path(value)
    except ValueError as error:
        raise SettingsError("DATABASE_PATH", str(error)) from None
    return Path(value.strip())


def _reason(message: str) -> str:
    message = message.removeprefix("Value error, ")
    return f"is invalid ({message})"
