"""The per-test timeout (tests/harness/timeouts.py) ends a stuck async test and the run goes on.

Each test runs an inner pytest session in a subprocess (``pytester``) with this repository's
timeout plugin, pytest-asyncio in auto mode and pytest-timeout as the outer backstop, and reads
its outcome.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
OUTER = 60  # pytest-timeout backstop for the inner run (seconds): must never be what ends it

INNER_TESTS = """
import asyncio
import time

import pytest
import pytest_asyncio

EVENTS = []


@pytest_asyncio.fixture
async def resource():
    EVENTS.append("setup")
    yield
    EVENTS.append("teardown")


@pytest.mark.async_timeout(0.5)
async def test_hangs_forever(resource):
    try:
        await asyncio.Event().wait()
    finally:
        EVENTS.append("test finally")


@pytest.mark.async_timeout(0.5)
async def test_hangs_while_another_task_is_busy(resource):
    # The case pytest-timeout's signal cannot end: the loop spends its time in another task,
    # so the signal's exception lands there and the test itself keeps waiting.
    async def busy():
        while True:
            time.sleep(0.02)
            await asyncio.sleep(0)

    task = asyncio.create_task(busy())
    try:
        await asyncio.Event().wait()
    finally:
        task.cancel()


async def test_raises_its_own_timeout_error():
    async with asyncio.timeout(0.01):
        await asyncio.sleep(1)


async def test_after_them_still_runs(resource):
    await asyncio.sleep(0)
    assert EVENTS[:4] == ["setup", "test finally", "teardown", "setup"], EVENTS
"""


def _run_inner(pytester: pytest.Pytester) -> tuple[pytest.RunResult, float]:
    pytester.makepyfile(test_inner=INNER_TESTS)
    pytester.makeini(
        "[pytest]\n"
        "asyncio_mode = auto\n"
        "asyncio_default_fixture_loop_scope = function\n"
        f"timeout = {OUTER}\n"
    )
    started = time.monotonic()
    result = pytester.runpytest_subprocess(
        "-p", "tests.harness.timeouts", "-v", "-p", "no:cacheprovider", timeout=OUTER * 2
    )
    return result, time.monotonic() - started


def test_a_hanging_async_test_fails_within_its_timeout_and_the_next_test_runs(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    result, elapsed = _run_inner(pytester)
    result.assert_outcomes(passed=1, failed=3)
    text = result.stdout.str()
    outcomes = dict(re.findall(r"^test_inner\.py::(\w+) (PASSED|FAILED)", text, re.MULTILINE))
    assert outcomes == {
        "test_hangs_forever": "FAILED",
        "test_hangs_while_another_task_is_busy": "FAILED",
        "test_raises_its_own_timeout_error": "FAILED",
        "test_after_them_still_runs": "PASSED",
    }, text
    for name in ("test_hangs_forever", "test_hangs_while_another_task_is_busy"):
        assert f"{name} did not finish within 0.5 s" in text, text
    # The test's own TimeoutError is reported as itself, not as the suite's timeout.
    assert "test_raises_its_own_timeout_error did not finish" not in text
    assert "Timeout (>" not in text  # pytest-timeout's backstop never had to fire
    # Subprocess start-up and pytest collection included; the outer backstop is 60 s.
    assert elapsed < OUTER / 2, elapsed
