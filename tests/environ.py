"""Environments for the Python subprocesses tests start (``python -m bot``), and the check that
each of them is measured when the suite runs under coverage (``scripts/coverage.sh``).

Coverage follows a subprocess through one environment variable (``COVERAGE_PROCESS_CONFIG``,
set by ``[tool.coverage.run] patch = ["subprocess"]``; or ``COVERAGE_PROCESS_START``). A test
that hands its subprocess a clean environment — so the developer's own ``.env`` settings or
token cannot leak in — drops it, and that process's lines silently go unmeasured: build such an
environment with :func:`clean_env`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

COVERAGE_VARIABLES = ("COVERAGE_PROCESS_CONFIG", "COVERAGE_PROCESS_START")


def measuring() -> dict[str, str]:
    """The variables with which a Python subprocess measures itself: empty unless the suite
    runs under coverage."""
    return {name: os.environ[name] for name in COVERAGE_VARIABLES if name in os.environ}


def clean_env(values: Mapping[str, str]) -> dict[str, str]:
    """An environment holding only ``values`` — plus, under coverage, :func:`measuring`."""
    return {**measuring(), **values}


def _runs_python(args: Any) -> bool:
    program = args if isinstance(args, (str, bytes, os.PathLike)) else None
    if program is None and isinstance(args, Sequence) and args:
        program = args[0]
    if program is None:
        return False
    name = Path(os.fsdecode(program)).name
    return name.startswith("python") or os.fsdecode(program) == sys.executable


@contextmanager
def every_python_subprocess_measured() -> Iterator[None]:
    """Under coverage, make starting a Python subprocess with an environment that cannot
    measure it (one without :data:`COVERAGE_VARIABLES`) fail at once, naming the fix. Does
    nothing when the suite does not run under coverage."""
    if not measuring():
        yield
        return
    original = subprocess.Popen.__init__

    def checked(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
        env = options.get("env")
        if env is not None and _runs_python(args) and not any(v in env for v in measuring()):
            raise AssertionError(
                f"{args!r} starts Python with an environment coverage cannot follow: build "
                "it with tests.environ.clean_env(...) or from os.environ"
            )
        original(self, args, *rest, **options)

    subprocess.Popen.__init__ = checked  # type: ignore[method-assign]
    try:
        yield
    finally:
        subprocess.Popen.__init__ = original  # type: ignore[method-assign]
