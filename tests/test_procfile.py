"""The Procfile's process types are runnable settings: the unsharded ``worker``, and shard groups
that together run every shard exactly once, each with its own database, exactly one of them
syncing slash commands — and the README shows the same lines."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")


def process_types() -> dict[str, tuple[dict[str, str], list[str]]]:
    """``{name: (environment set on the line, the command)}`` for each Procfile line."""
    types: dict[str, tuple[dict[str, str], list[str]]] = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if not line.strip():
            continue
        name, _, command = line.partition(":")
        words = shlex.split(command)
        env: dict[str, str] = {}
        while words and ASSIGNMENT.match(words[0]):  # VAR=value before the command
            variable, _, value = words.pop(0).partition("=")
            env[variable] = value
        types[name.strip()] = (env, words)
    return types


def settings_of(env: dict[str, str], tmp_path: Path) -> Settings:
    return load_settings({"DISCORD_TOKEN": "t", **env}, env_file=tmp_path / "none")


def test_worker_is_one_unsharded_process(tmp_path: Path) -> None:
    env, command = process_types()["worker"]
    assert command == ["python", "-m", "bot"]
    settings = settings_of(env, tmp_path)
    assert settings.shard_count is None and settings.syncs_commands


def test_shard_groups_cover_every_shard_once(tmp_path: Path) -> None:
    groups = {
        name: settings_of(env, tmp_path)
        for name, (env, command) in process_types().items()
        if "SHARD_COUNT" in env and command == ["python", "-m", "bot"]
    }
    assert len(groups) >= 2
    counts = {settings.shard_count for settings in groups.values()}
    assert len(counts) == 1
    (count,) = counts
    assert count is not None
    shards = [shard for settings in groups.values() for shard in settings.shard_ids or ()]
    assert sorted(shards) == list(range(count))
    assert sum(settings.syncs_commands for settings in groups.values()) == 1
    databases = {settings.database_path for settings in groups.values()}
    assert len(databases) == len(groups)


def test_readme_shows_the_procfile_shard_lines() -> None:
    readme = (ROOT / "README.md").read_text()
    for line in (ROOT / "Procfile").read_text().splitlines():
        if "SHARD_IDS" in line:
            assert line in readme


def test_a_host_finds_what_to_install() -> None:
    """The README sends Heroku users to the Procfile; Heroku's Python buildpack installs an app
    only from a requirements.txt (or Pipfile, poetry.lock, uv.lock) at its root — with
    pyproject.toml alone the build stopped before the Procfile was ever read. requirements.txt
    installs the project itself, so pyproject.toml stays the one list of pinned dependencies."""
    lines = (ROOT / "requirements.txt").read_text().splitlines()
    requirements = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert requirements == ["."]
    assert "requirements.txt" in (ROOT / "README.md").read_text()
