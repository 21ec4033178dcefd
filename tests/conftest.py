"""Suite-wide test configuration: the Discord harness fixtures, the per-test asyncio timeout
(:mod:`tests.harness.timeouts`), the Hypothesis profile for CI, and — under coverage — the
check that every Python subprocess is measured (:mod:`tests.environ`) — and ``--parsed-states``,
which runs every command of the services on its row's freshly parsed (compact) state."""

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


@pytest.fixture(autouse=True, scope="session")
def _built_models_checked() -> Iterator[None]:
    """Every model the engine builds without validation (:func:`bot.engine.core.built.built`)
    is validated too and compared: a value validation would change fails the test."""
    from bot.engine.core import built

    built.CHECKED = True
    yield
    built.CHECKED = False


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--parsed-states",
        action="store_true",
        help=(
            "EncounterService keeps no parsed state and no live row: every command reads its "
            "row and runs on the state Ruleset.load_state parses (compact, as after a restart), "
            "never on one the engine built (issue 15). Tests of the caches themselves fail."
        ),
    )


@pytest.fixture(autouse=True)
def _parsed_states(request: pytest.FixtureRequest) -> Iterator[None]:
    """Under ``--parsed-states``: the services' state cache and kept live row off (in this
    process; a bot run as ``python -m bot`` keeps its own)."""
    if not request.config.getoption("--parsed-states"):
        yield
        return
    if request.node.get_closest_marker("state_cache"):
        pytest.skip("tests the state cache, which --parsed-states turns off")
    from bot.services.encounters import EncounterService

    def keep_row(self: EncounterService, channel_id: int, *_args: object) -> None:
        self._live_rows.pop(channel_id, None)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(EncounterService, "_remember", lambda self, row, state: None)
        patch.setattr(EncounterService, "_keep_row", keep_row)
        yield
