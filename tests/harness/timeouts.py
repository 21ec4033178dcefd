"""pytest plugin: a per-test timeout that really ends a stuck ``async def`` test.

Enabled for the suite by ``tests/conftest.py`` (``pytest_plugins``). Two layers:

* **asyncio-aware (inner):** every coroutine test runs under ``asyncio.timeout`` —
  :data:`ASYNC_TEST_TIMEOUT` seconds, or ``@pytest.mark.async_timeout(seconds)``. On expiry the
  test's own task is cancelled where it waits, so its ``async with`` / ``finally`` blocks run,
  then its fixtures' teardown (the bot is closed, the harness stopped), and the next test starts
  normally. The failure names the limit; the traceback shows where the test was waiting.
* **pytest-timeout (outer backstop):** ``timeout`` in ``pyproject.toml``. Its ``signal`` method
  raises inside whatever the event loop is running at that moment; when that is another task
  (the bot's, the harness server's) only that task dies and the test waits forever — measured
  with pytest-asyncio 1.5 — so for async tests it is only the backstop (e.g. for a fixture that
  hangs), and the limit for plain tests (subprocess tests).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Coroutine, Generator
from typing import Any

import pytest

ASYNC_TEST_TIMEOUT = 30.0  # seconds; e2e tests take ~1 s, the slowest restart test ~10 s
MARK = "async_timeout"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARK}(seconds): cancel this async test after `seconds` (default {ASYNC_TEST_TIMEOUT:g})",
    )


def limit_for(item: pytest.Item) -> float:
    """The asyncio timeout (seconds) for ``item``: its ``async_timeout`` mark, else the default."""
    mark = item.get_closest_marker(MARK)
    return float(mark.args[0]) if mark is not None and mark.args else ASYNC_TEST_TIMEOUT


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """Run a coroutine test under ``asyncio.timeout`` (pytest-asyncio then runs the wrapper)."""
    if not isinstance(item, pytest.Function) or not inspect.iscoroutinefunction(item.obj):
        return (yield)
    original = item.obj
    item.obj = _deadline(original, limit_for(item), item.nodeid)
    try:
        return (yield)
    finally:
        item.obj = original


def _deadline(
    test: Callable[..., Coroutine[Any, Any, Any]], limit: float, nodeid: str
) -> Callable[..., Coroutine[Any, Any, Any]]:
    """``test`` cancelled after ``limit`` seconds, failing with a message naming the limit."""

    @functools.wraps(test)
    async def run(*args: Any, **kwargs: Any) -> Any:
        timeout = asyncio.timeout(limit)
        try:
            async with timeout:
                return await test(*args, **kwargs)
        except TimeoutError:
            if not timeout.expired():
                raise  # the test's own TimeoutError (e.g. harness.wait_for) keeps its message
            pytest.fail(
                f"{nodeid} did not finish within {limit:g} s: cancelled by the asyncio test "
                f"timeout where it was waiting (see the traceback above). If it is meant to "
                f"be slow, mark it @pytest.mark.{MARK}(seconds).",
            )

    return run
