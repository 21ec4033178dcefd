#!/usr/bin/env bash
# Opt-in coverage of the whole suite, the `python -m bot` subprocesses included (configured in
# pyproject.toml, [tool.coverage.*]); prints the report. Arguments go to pytest. Slower than
# ./scripts/test.sh, which CI runs without coverage.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=.venv/.installed-test
if [ ! -x .venv/bin/python ] || [ ! -f "$marker" ] || [ pyproject.toml -nt "$marker" ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[test]'
  touch "$marker"
fi
.venv/bin/coverage erase
status=0
.venv/bin/coverage run -m pytest "$@" || status=$?
processes=$(find . -maxdepth 1 -name '.coverage.*' | wc -l)
.venv/bin/coverage combine --quiet
.venv/bin/coverage report
echo "Processes measured: $processes (pytest and the python -m bot subprocesses it started)."
# With no arguments the whole suite ran, so a subprocess-only line must be covered.
mode=--strict
if [ $# -gt 0 ]; then mode=--report-only; fi
.venv/bin/python scripts/coverage_followed.py "$mode" || status=$?
exit "$status"
