"""With the real bot: a failure inside the harness fails the test at once, and the bot is not
left waiting on its request (the original symptom: a missing OpenAPI file made the harness
raise inside aiohttp, and every e2e test sat until the 120 s timeout)."""

from __future__ import annotations

import asyncio

import pytest

from bot.client import CombatBot
from tests.e2e.conftest import Table
from tests.harness import schema
from tests.harness.models import HarnessError
from tests.harness.server import DiscordHarness


@pytest.mark.discord_violations_allowed
async def test_a_harness_exception_fails_the_wait_now_and_answers_the_bot_500(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = discord_harness

    def spec_gone(method: str, path: str, body: object) -> list[str]:
        raise FileNotFoundError(2, "No such file or directory", "openapi.json")

    monkeypatch.setattr(schema, "validate", spec_gone)
    record = await h.slash(table.gm, h.channel, "encounter start", name="Ambush")
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(HarnessError, match="FileNotFoundError"):
        await record.response(timeout=60)
    assert loop.time() - started < 5
    callbacks = h.requests_to("POST", r"/interactions/\d+/[^/]+/callback")
    assert callbacks and all(r.status == 500 for r in callbacks)
    # Consumed on purpose, so the fixture does not fail this test for it.
    h.harness_errors.clear()
    h.pop_violations()
