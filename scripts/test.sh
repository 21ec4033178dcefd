#!/usr/bin/env bash
# Installs the bot with its test tools into .venv (again only when pyproject.toml changed) and
# runs lint, types and the whole test suite, one pytest worker per core (PYTEST_WORKERS=0: one
# process). Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=.venv/.installed-test
if [ ! -x .venv/bin/python ] || [ ! -f "$marker" ] || [ pyproject.toml -nt "$marker" ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  touch "$marker"
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports
.venv/bin/pytest -n "${PYTEST_WORKERS:-auto}" "$@"
