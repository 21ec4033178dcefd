"""pytest plugin: fixtures for the Discord-compatible test server.

Enable with ``pytest_plugins = ["tests.harness.plugin"]`` in ``tests/conftest.py``.

Fixtures
--------
``discord_api_spec``
    Session-scoped: loads Discord's OpenAPI description once; if it cannot be used, every test
    that needs the harness fails at once with one line naming the file and the problem.
``discord_harness``
    A started :class:`~tests.harness.server.DiscordHarness` with one guild
    (``harness.guild``) and one text channel (``harness.channel``). At teardown it stops the
    server and **fails the test if any Discord API violation was recorded**, unless the test is
    marked ``@pytest.mark.discord_violations_allowed`` or consumed them with
    ``harness.pop_violations()``. An exception inside the harness itself
    (``harness.harness_errors``) always fails the test.
``discord_patched``
    ``discord_harness`` with this process's discord.py pointed at it (``Route.BASE`` and
    ``DiscordWebSocket.DEFAULT_GATEWAY``), restored afterwards — for in-process bots.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from . import schema
from .server import DiscordHarness

ALLOW_MARK = "discord_violations_allowed"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{ALLOW_MARK}: do not fail the test when the Discord harness recorded API violations",
    )


@pytest.fixture(scope="session")
def discord_api_spec() -> None:
    """Load Discord's OpenAPI description once per session; if it cannot be used, every test
    that needs the harness fails at once with one line saying why (instead of each request
    failing inside the server)."""
    problem = schema.spec_problem()
    if problem is not None:
        pytest.fail(
            f"{problem}. The harness validates every request against it: restore "
            f"tests/harness/discord-api/openapi.json or point {schema.SPEC_ENV} at a copy.",
            pytrace=False,
        )
    schema.get_schema()


@pytest_asyncio.fixture
async def discord_harness(
    request: pytest.FixtureRequest, discord_api_spec: None
) -> AsyncIterator[DiscordHarness]:
    harness = DiscordHarness()
    await harness.start()
    harness.guild = harness.add_guild("Test Guild")
    harness.channel = harness.add_channel(harness.guild, "combat")
    try:
        yield harness
        harness.check_unanswered()
    finally:
        await harness.stop()
    if harness.harness_errors:
        text = "\n".join(f"- {e}" for e in harness.harness_errors)
        pytest.fail(f"the Discord harness itself failed:\n{text}", pytrace=False)
    if harness.violations and not (
        harness.allow_violations or request.node.get_closest_marker(ALLOW_MARK)
    ):
        text = "\n".join(f"- {v}" for v in harness.violations)
        pytest.fail(
            f"{len(harness.violations)} Discord API violation(s) recorded by the harness:\n{text}",
            pytrace=False,
        )


@pytest.fixture
def discord_patched(discord_harness: DiscordHarness) -> DiscordHarness:
    with discord_harness.patch_discord():
        yield discord_harness  # type: ignore[misc]
