"""Suite-wide test configuration: the Discord harness fixtures, the per-test asyncio timeout
(:mod:`tests.harness.timeouts`), the Hypothesis profile for CI, and — under coverage — the
check that every Python subprocess is measured (:mod:`tests.environ`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.environ import every_python_subprocess_measured

pytest_plugins = ["tests.harness.plugin", "tests.harness.timeouts", "tests.pg.server"]

# No profile has a per-example deadline: that would be a timed unit test, and a busy machine's
# pauses would fail (and Hypothesis then replay) an example as "too slow". The "ci" profile
# (loaded when CI is set, as it is for .ci/run) also runs fewer examples; "dev" is the rest.
# A test's own @settings(...) still wins over the profile.
settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True, scope="session")
def _subprocesses_measured() -> Iterator[None]:
    """Under coverage (scripts/coverage.sh), every ``python`` subprocess must be measured too."""
    with every_python_subprocess_measured():
        yield
