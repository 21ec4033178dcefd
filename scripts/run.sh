#!/usr/bin/env bash
# Installs the bot into .venv (again only when pyproject.toml changed) and runs it.
# Settings come from the environment or .env.
set -euo pipefail
cd "$(dirname "$0")/.."
# The test install (scripts/test.sh, .installed-test) includes everything the bot needs too.
fresh() { [ -f "$1" ] && [ ! pyproject.toml -nt "$1" ]; }
if [ ! -x .venv/bin/python ] || ! { fresh .venv/.installed || fresh .venv/.installed-test; }; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e .
  touch .venv/.installed
fi
if [ ! -f .env ] && [ -z "${DISCORD_TOKEN:-}" ]; then
  # .env will hold the bot token: readable by its owner only.
  (umask 077 && cp .env.example .env)
  echo "Created .env from .env.example: put your bot token in DISCORD_TOKEN, then run this again." >&2
  exit 2
fi
exec .venv/bin/python -m bot
