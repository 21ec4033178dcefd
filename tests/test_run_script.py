"""``scripts/run.sh``, the README's quick start, as a new operator meets it: without a ``.env``
and without DISCORD_TOKEN it makes ``.env`` from ``.env.example``, says to put the token there,
and stops (exit 2); with one it runs ``python -m bot``. The ``.env`` it makes will hold the bot
token ("Keep it secret", .env.example): it is readable by its owner only — it was made with the
umask's mode, readable by every user of the machine. Run in a copy of the project whose
``.venv`` is a stand-in, so no install runs."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def project(tmp_path: Path) -> Path:
    """The files run.sh reads, and a ``.venv`` whose python just reports how it was run."""
    copy = tmp_path / "project"
    (copy / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "run.sh", copy / "scripts" / "run.sh")
    shutil.copy(ROOT / ".env.example", copy / ".env.example")
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    python = copy / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "python $*"\n')
    python.chmod(0o755)
    (copy / ".venv" / ".installed").touch()  # newer than pyproject.toml: no install
    return copy


def run(copy: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(copy / "scripts" / "run.sh")],
        cwd=copy,
        env={"PATH": os.environ["PATH"], **env},
        capture_output=True,
        text=True,
        timeout=30,
        umask=0o022,
    )


def test_the_first_run_makes_a_private_env_file_and_stops(tmp_path: Path) -> None:
    copy = project(tmp_path)
    done = run(copy)
    assert done.returncode == 2, done.stderr
    assert "put your bot token in DISCORD_TOKEN" in done.stderr
    env = copy / ".env"
    assert env.read_text() == (copy / ".env.example").read_text()
    assert stat.S_IMODE(env.stat().st_mode) == 0o600
    again = run(copy)  # the .env is there now: the bot runs (it names the missing token)
    assert again.returncode == 0 and again.stdout.strip() == "python -m bot", again.stderr


def test_a_token_in_the_environment_needs_no_env_file(tmp_path: Path) -> None:
    copy = project(tmp_path)
    done = run(copy, DISCORD_TOKEN="from-the-host")
    assert done.returncode == 0 and done.stdout.strip() == "python -m bot", done.stderr
    assert not (copy / ".env").exists()
