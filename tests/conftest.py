"""Suite-wide test configuration: the Discord harness fixtures, the per-test asyncio timeout
(:mod:`tests.harness.timeouts`) and the Hypothesis profile for CI."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
