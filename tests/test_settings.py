"""Settings: typed, from the environment and .env, the token never shown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_DATABASE_PATH,
    ENV_VARS,
    SettingsError,
    database_path_setting,
    load_settings,
    redacted_url,
)
from tests.environ import clean_env

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_and_secret(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc.def.ghi"}, env_file=tmp_path / "none")
    assert settings.database_path == DEFAULT_DATABASE_PATH
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert "abc.def.ghi" not in repr(settings)
    assert "abc.def.ghi" not in str(settings)
    assert settings.discord_token.get_secret_value() == "abc.def.ghi"


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=debug\nDEV_GUILD_ID=123\n")
    settings = load_settings({"LOG_LEVEL": "warning"}, env_file=env)
    assert settings.discord_token.get_secret_value() == "from-file"
    assert settings.log_level == "WARNING"
    assert settings.dev_guild_id == 123


@pytest.mark.parametrize(
    ("environ", "variable"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "a b"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "-5"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": "not a url"}, "DISCORD_API_BASE"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "x", "SHARD_IDS": "0"}, "SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0-4"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0,,1"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "1,0-2"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "-1"}, "SHARD_IDS"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0-999999999"}, "SHARD_IDS"),
    ],
)
def test_bad_settings_name_the_variable(
    tmp_path: Path, environ: dict[str, str], variable: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, env_file=tmp_path / "none")
    assert caught.value.variable == variable
    assert variable in caught.value.one_line()
    assert ".env.example" in caught.value.one_line()


@pytest.mark.parametrize("variable", [v for v in ENV_VARS if v != "DISCORD_TOKEN"])
def test_a_blank_setting_takes_its_default(tmp_path: Path, variable: str) -> None:
    """``LOG_LEVEL=`` in ``.env`` (as .env.example's optional settings are left) means the
    default, for every setting alike: LOG_LEVEL, LOG_SNAPSHOT_EVERY and CHECK_REPLAY refused a
    blank value ("must be one of …", "unable to parse string as an integer") while DATABASE_PATH,
    DEV_GUILD_ID and the others took it as unset."""
    defaults = load_settings({"DISCORD_TOKEN": "t"}, env_file=tmp_path / "none")
    for blank in ("", "  "):
        env = tmp_path / ".env"
        env.write_text(f"DISCORD_TOKEN=t\n{variable}={blank}\n")
        assert load_settings({}, env_file=env) == defaults
        assert load_settings(
            {"DISCORD_TOKEN": "t", variable: blank}, env_file=tmp_path / "none"
        ) == (defaults)


@pytest.mark.parametrize(
    ("variable", "value", "words"),
    [
        ("DISCORD_API_BASE", "ftp://proxy.example/api/v10", "http:// or https://"),
        ("DISCORD_API_BASE", "wss://gateway.discord.gg/", "http:// or https://"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg/", "ws:// or wss://"),
        ("DISCORD_GATEWAY_URL", "ftp://gateway.example/", "ws:// or wss://"),
    ],
)
def test_an_endpoint_of_the_wrong_kind_is_named(
    tmp_path: Path, variable: str, value: str, words: str
) -> None:
    """DISCORD_API_BASE is a REST base (http/https) and DISCORD_GATEWAY_URL a websocket
    (ws/wss): any other scheme was accepted and failed only at login — "Cannot reach Discord"
    and exit 1, a network fault rather than the setting to fix."""
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_TOKEN": "t", variable: value}, env_file=tmp_path / "none")
    assert caught.value.variable == variable
    assert words in caught.value.one_line()


@pytest.mark.parametrize(
    ("environ", "count", "ids", "syncs"),
    [
        ({}, None, None, True),
        ({"SHARD_COUNT": "", "SHARD_IDS": " "}, None, None, True),
        ({"SHARD_COUNT": "4"}, 4, None, True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,1"}, 4, (0, 1), True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-3"}, 4, (2, 3), False),
        ({"SHARD_COUNT": "6", "SHARD_IDS": " 5, 1-2 "}, 6, (1, 2, 5), False),
        ({"SHARD_COUNT": "1", "SHARD_IDS": "0"}, 1, (0,), True),
    ],
)
def test_shard_settings(
    tmp_path: Path,
    environ: dict[str, str],
    count: int | None,
    ids: tuple[int, ...] | None,
    syncs: bool,
) -> None:
    """SHARD_COUNT / SHARD_IDS: lists and ranges of shards; unset is one unsharded process; only
    the process that runs shard 0 (or an unsharded one) syncs slash commands."""
    settings = load_settings({"DISCORD_TOKEN": "t", **environ}, env_file=tmp_path / "none")
    assert (settings.shard_count, settings.shard_ids) == (count, ids)
    assert settings.syncs_commands is syncs


PG = {"DATABASE_URL": "postgresql://bot:pw@db.example/bot"}


@pytest.mark.parametrize(
    ("environ", "shares"),
    [
        ({}, False),
        (PG, False),  # one unsharded process
        ({**PG, "SHARD_COUNT": "4"}, False),  # one process runs every shard
        ({**PG, "SHARD_COUNT": "2", "SHARD_IDS": "0-1"}, False),
        ({**PG, "SHARD_COUNT": "2", "SHARD_IDS": "1"}, True),
        ({**PG, "SHARD_COUNT": "4", "SHARD_IDS": "0,1"}, True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0,1"}, False),  # SQLite: a database of its own
    ],
)
def test_shares_database(tmp_path: Path, environ: dict[str, str], shares: bool) -> None:
    """Other processes of the bot share this one's database only on PostgreSQL, and only when
    this process runs some of the shards, not all."""
    settings = load_settings({"DISCORD_TOKEN": "t", **environ}, env_file=tmp_path / "none")
    assert settings.shares_database is shares


@pytest.mark.parametrize(
    ("environ", "runs"),
    [
        ({}, {0, 1, 2, 3}),  # unsharded: every server
        ({"SHARD_COUNT": "4"}, {0, 1, 2, 3}),  # every shard in one process
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,3"}, {1, 3}),
    ],
)
def test_runs_guild_is_the_shard_that_owns_it(
    tmp_path: Path, environ: dict[str, str], runs: set[int]
) -> None:
    """A process is sent the events of the servers its shards own, ``(id >> 22) % count``."""
    settings = load_settings({"DISCORD_TOKEN": "t", **environ}, env_file=tmp_path / "none")
    assert {shard for shard in range(4) if settings.runs_guild((shard + 8) << 22 | 12345)} == runs


def test_shard_above_count_says_which(tmp_path: Path) -> None:
    environ = {"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2,7"}
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, env_file=tmp_path / "none")
    line = caught.value.one_line()
    assert "SHARD_IDS" in line and "shard 7 is not below SHARD_COUNT=4" in line


@pytest.mark.parametrize(
    ("environ", "variable"),
    [
        ({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN"),
        (
            {"DISCORD_TOKEN": "secret-token-value", "SHARD_COUNT": "2", "SHARD_IDS": "1,2"},
            "SHARD_IDS",
        ),
        ({"DISCORD_TOKEN": "secret-token-value", "DEV_GUILD_ID": "nope"}, "DEV_GUILD_ID"),
    ],
)
def test_python_m_bot_exits_2_with_one_line(
    tmp_path: Path, environ: dict[str, str], variable: str
) -> None:
    env = {"PATH": "/usr/bin:/bin", **environ}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean_env({**env, "PYTHONPATH": str(ROOT)}),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert variable in lines[0]
    assert ".env.example" in lines[0]
    assert "Traceback" not in done.stderr
    assert "secret-token-value" not in done.stderr + done.stdout


# --- DATABASE_URL: PostgreSQL (issue 16) ------------------------------------------------------

SECRET = "s3cr3t-Pa55"


@pytest.mark.parametrize(
    "url",
    [
        f"mysql://bob:{SECRET}@db:3306/bot",
        f"sqlite:///{SECRET}.db",
        f"bob:{SECRET}@db/bot",
        f"postgresql://bob:{SECRET}@db:notaport/bot",
        f"postgresql://bob:{SECRET}@db:99999/bot",
        f"postgresql://bob:{SECRET}@/bot",
        f"postgresql://bob:{SECRET}@db:0/bot",
        f"postgresql://bob:{SECRET}@[::1/bot",
    ],
)
def test_a_malformed_database_url_is_named_and_its_password_never_shown(
    tmp_path: Path, url: str
) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": url}, env_file=tmp_path / "none")
    assert caught.value.variable == "DATABASE_URL"
    line = caught.value.one_line()
    assert "DATABASE_URL" in line and "postgresql://" in line
    assert SECRET not in line and SECRET not in repr(caught.value)
    assert "\n" not in line


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://bob:{SECRET}@db.example:5432/bot",
        f"postgres://bob:{SECRET}@db/bot",
        "postgresql://bob@/bot?host=/var/run/postgresql",
    ],
)
def test_a_postgres_url_is_kept_secret(tmp_path: Path, url: str) -> None:
    settings = load_settings(
        {"DISCORD_TOKEN": "t", "DATABASE_URL": url}, env_file=tmp_path / "none"
    )
    assert settings.database_url is not None
    assert settings.database_url.get_secret_value() == url
    assert SECRET not in repr(settings) and SECRET not in str(settings)
    assert SECRET not in redacted_url(url)


def test_a_blank_database_url_means_sqlite(tmp_path: Path) -> None:
    settings = load_settings(
        {"DISCORD_TOKEN": "t", "DATABASE_URL": "  "}, env_file=tmp_path / "none"
    )
    assert settings.database_url is None
    assert settings.database_path == DEFAULT_DATABASE_PATH


def test_redacted_url_hides_only_the_password() -> None:
    assert (
        redacted_url(f"postgresql://bob:{SECRET}@db:5432/bot?sslmode=require")
        == "postgresql://bob:***@db:5432/bot?sslmode=require"
    )
    assert redacted_url("postgresql://db/bot") == "postgresql://db/bot"


def test_copy_db_finds_database_path_like_the_bot(tmp_path: Path) -> None:
    """``python -m bot copy-db`` reads DATABASE_PATH as the bot does: the environment over
    ``.env``, blank or unset meaning data/bot.sqlite3 — and needs no DISCORD_TOKEN."""
    env_file = tmp_path / ".env"
    env_file.write_text("DATABASE_PATH=/srv/from-env-file.sqlite3\n")
    assert database_path_setting({}, env_file) == Path("/srv/from-env-file.sqlite3")
    assert database_path_setting({"DATABASE_PATH": "/srv/x.sqlite3"}, env_file) == Path(
        "/srv/x.sqlite3"
    )
    assert database_path_setting({"DATABASE_PATH": "  "}, env_file) == DEFAULT_DATABASE_PATH
    assert database_path_setting({}, tmp_path / "none") == DEFAULT_DATABASE_PATH


def python_m_bot(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot *args`` in ``tmp_path`` with a token, a database there and an
    unreachable Discord (a start gets as far as logging in: exit 1)."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=clean_env(
            {
                "PATH": "/usr/bin:/bin",
                "PYTHONPATH": str(ROOT),
                "DISCORD_TOKEN": "would-start",
                "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
                "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            }
        ),
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.parametrize(
    ("args", "status"),
    [(["--help"], 0), (["-h"], 0), (["copydb", "--to", "postgresql://x@h/db"], 2), (["run"], 2)],
)
def test_python_m_bot_with_arguments_it_does_not_take_starts_nothing(
    tmp_path: Path, args: list[str], status: int
) -> None:
    """``python -m bot --help`` (or a misspelt ``copydb``) started the bot — with the .env's
    token, connected to Discord and answering commands — ignoring the arguments. It now prints
    what it takes (``--help``: status 0) or names the unknown argument (status 2), and starts
    nothing."""
    done = python_m_bot(tmp_path, *args)
    assert done.returncode == status, done.stderr
    assert "copy-db" in done.stdout + done.stderr  # what it does take
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "bot.sqlite3").exists()  # no database opened: nothing started


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ("LOGLEVEL=DEBUG", "LOG_LEVEL"),
        ("SHARD_ID=1", "SHARD_IDS"),
        ("DATABASE_PATCH=/srv/bot.sqlite3", "DATABASE_PATH"),
        ("discord_token=abc", "DISCORD_TOKEN"),
        ("DATABSE_URL=postgresql://db/bot", "DATABASE_URL"),
        ("SHARDCOUNT=2", "SHARD_COUNT"),
        ("LOG_LEVL=DEBUG", "LOG_LEVEL"),
        ("DEV_GUILD=123", "DEV_GUILD_ID"),
        ("DISCORD_GATEWAY=wss://gw.example/", "DISCORD_GATEWAY_URL"),
    ],
)
def test_a_misspelt_setting_in_env_file_is_named(tmp_path: Path, line: str, meant: str) -> None:
    """A setting misspelt in .env was silently ignored: ``SHARD_ID=1`` ran every shard (both
    processes answering each server), ``LOGLEVEL=DEBUG`` logged at INFO. A name in .env the
    bot does not read but close to one it does stops it, naming both."""
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=t\n{line}\n")
    with pytest.raises(SettingsError) as caught:
        load_settings({}, env_file=env)
    written = line.partition("=")[0]
    assert caught.value.variable == written
    assert f"the closest is {meant}. " in caught.value.one_line()


# Another program's settings in a shared .env (the database container's, a second bot's):
# difflib's 0.8 similarity read each as a misspelling and stopped the bot at start.
NAMES_OF_THEIR_OWN = (
    "DATABASE_USER",
    "DATABASE_PORT",
    "DATABASE_PASS",
    "DATABASE_HOST",
    "DATABASE_SSL",
    "DATABASE_POOL",
    "DATABASE_DIR",
    "TEST_DATABASE_URL",
    "OLD_DATABASE_URL",
    "GUILD_ID",
    "DISCORD_API_KEY",
    "DOCKER_GATEWAY_URL",
    "DATA_PATH",
    "DATABASE_URL2",
    "DISCORD_TOKEN2",
)


@pytest.mark.parametrize("name", NAMES_OF_THEIR_OWN)
def test_a_name_with_a_word_of_its_own_is_not_a_misspelling(tmp_path: Path, name: str) -> None:
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=t\n{name}=x\n")
    assert load_settings({}, env_file=env).discord_token.get_secret_value() == "t"


def test_a_shared_env_file_starts_the_bot(tmp_path: Path) -> None:
    """Through ``python -m bot``: a .env shared with the database's own settings gets as far
    as Discord (unreachable here: exit 1), not a configuration error (exit 2)."""
    (tmp_path / ".env").write_text("".join(f"{name}=x\n" for name in NAMES_OF_THEIR_OWN))
    done = python_m_bot(tmp_path)
    assert "Configuration error" not in done.stderr, done.stderr
    assert done.returncode == 1, done.stderr
    assert "Cannot reach Discord" in done.stderr


def test_other_names_in_env_file_are_left_alone(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    # a setting's name with a suffix is a second value kept beside it, not a misspelling
    env.write_text(
        "DISCORD_TOKEN=t\nPGPASSWORD=x\nEDITOR=vim\nDATABASE_URL_RO=x\nDISCORD_TOKEN_DEV=y\n"
    )
    assert load_settings({}, env_file=env).discord_token.get_secret_value() == "t"


@pytest.mark.parametrize(
    "value",
    [f"postgresql://bob:{SECRET}@db/bot", f"postgres://bob:{SECRET}@db/bot", "sqlite:///x.db"],
)
def test_a_url_in_database_path_is_named(tmp_path: Path, value: str) -> None:
    """DATABASE_PATH given a URL (DATABASE_URL's value in the wrong setting): the bot made
    folders named after it — ``postgresql:/bob:<password>@db/`` — and ran on a new empty SQLite
    file there, the password in its path and in the log line naming the database."""
    with pytest.raises(SettingsError) as caught:
        load_settings({"DISCORD_TOKEN": "t", "DATABASE_PATH": value}, env_file=tmp_path / "none")
    assert caught.value.variable == "DATABASE_PATH"
    line = caught.value.one_line()
    assert "DATABASE_URL" in line and SECRET not in line


def test_the_example_env_keeps_the_database_in_the_project_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``.env`` made from ``.env.example`` (``scripts/run.sh`` copies it) said
    ``DATABASE_PATH=data/bot.sqlite3`` beside "Default: data/bot.sqlite3 in the project
    folder": a relative path, read from the working folder, so ``python -m bot`` started
    elsewhere (a service with another working folder, which still reads the project's
    ``.env``) made a new, empty database there. Left empty, the default — the project
    folder's — applies wherever the bot starts."""
    monkeypatch.chdir(tmp_path)
    settings = load_settings({"DISCORD_TOKEN": "t"}, env_file=ROOT / ".env.example")
    assert settings.database_path == DEFAULT_DATABASE_PATH
    assert database_path_setting({}, env_file=ROOT / ".env.example") == DEFAULT_DATABASE_PATH
