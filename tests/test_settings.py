"""Settings: typed, from the environment and .env, the token never shown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE_PATH, SettingsError, load_settings
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


@pytest.mark.parametrize(
    ("environ", "variable"),
    [
        ({"DISCORD_TOKEN": ""}, "DISCORD_TOKEN"),
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
