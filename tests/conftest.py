"""Suite-wide test configuration: the Discord harness fixtures, the per-test asyncio timeout
(:mod:`tests.harness.timeouts`), the Hypothesis profile for CI, and — under coverage — the
check that every Python subprocess is measured (:mod:`tests.environ`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.environ import every_python_subprocess_measured

pytest_plugins = ["tests.harness.plugin", "tests.harness.timeouts"]

# The "ci" profile (loaded when CI is set, as it is for .ci/run) runs fewer examples and has no
# per-example deadline: a shared CI machine's pauses would otherwise fail tests as "too slow".
# A test's own @settings(...) still wins over the profile.
settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True, scope="session")
def _subprocesses_measured() -> Iterator[None]:
    """Under coverage (scripts/coverage.sh), every ``python`` subprocess must be measured too."""
    with every_python_subprocess_measured():
        yield
