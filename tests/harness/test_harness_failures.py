"""A failure inside the harness fails its test at once instead of stalling the suite.

* A Discord OpenAPI description that cannot be loaded fails every harness test immediately,
  with one line naming the file (checked once per session), and leaves other tests alone.
* An exception while the harness serves a request is answered with a 500 (so the bot does not
  wait on it), recorded in ``harness.harness_errors`` and raised by the next ``wait_for``.
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import aiohttp
import pytest

from tests.harness import schema
from tests.harness.models import HarnessError
from tests.harness.server import DiscordHarness

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]

INNER_CONFTEST = 'pytest_plugins = ["tests.harness.plugin", "tests.harness.timeouts"]\n'
INNER_INI = (
    "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\ntimeout = 60\n"
)


def test_vendored_spec_is_the_default_and_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(schema.SPEC_ENV, raising=False)
    path = schema.spec_path()
    assert path == ROOT / "tests" / "harness" / "discord-api" / "openapi.json"
    spec = schema.load_spec(str(path))
    assert spec["info"]["version"] == "10"
    assert "/interactions/{interaction_id}/{interaction_token}/callback" in spec["paths"]
    assert (path.parent / "LICENSE").read_text().startswith("MIT License")
    assert "info.version" in (path.parent / "README.md").read_text()


def test_no_absolute_or_shared_spec_path_in_the_harness() -> None:
    source = (ROOT / "tests" / "harness" / "schema.py").read_text()
    assert "/work/" not in source
    assert '"shared"' not in source


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "cannot read Discord's OpenAPI description"),
        ("{not json", "is not valid JSON"),
        ('{"openapi": "3.1.0"}', "is not an OpenAPI description"),
    ],
)
def test_an_unusable_spec_fails_harness_tests_at_once_with_one_line(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    content: str | None,
    problem: str,
) -> None:
    spec = pytester.path / "openapi.json"
    if content is not None:
        spec.write_text(content)
    monkeypatch.setenv(schema.SPEC_ENV, str(spec))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(INNER_CONFTEST)
    pytester.makeini(INNER_INI)
    pytester.makepyfile(
        test_inner="""
        import pytest

        @pytest.mark.parametrize("n", range(5))
        async def test_uses_the_harness(discord_harness, n):
            await discord_harness.wait_for(lambda: False, timeout=30)

        def test_without_the_harness():
            pass
        """
    )
    started = time.monotonic()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=120)
    elapsed = time.monotonic() - started
    result.assert_outcomes(passed=1, errors=5)
    text = result.stdout.str()
    assert text.count(problem) >= 5, text
    assert str(spec) in text and schema.SPEC_ENV in text
    assert "Traceback" not in text
    assert elapsed < 20, elapsed  # not 5 x 30 s of waiting


async def test_an_exception_while_serving_answers_500_and_fails_the_next_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(method: str, path: str, body: object) -> list[str]:
        raise FileNotFoundError(2, "No such file or directory", "openapi.json")

    async with DiscordHarness() as h:
        guild = h.add_guild()
        channel = h.add_channel(guild, "combat")
        monkeypatch.setattr(schema, "validate", broken)
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{h.api_base}/channels/{channel.id}/messages",
                json={"content": "hello"},
                headers={"Authorization": f"Bot {h.token}"},
            ) as response,
        ):
            assert response.status == 500
            assert response.content_type == "application/json"
        assert len(h.harness_errors) == 1
        assert re.search(r"POST /channels/\d+/messages: FileNotFoundError", h.harness_errors[0])
        assert h.requests[-1].status == 500
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(HarnessError, match="FileNotFoundError"):
            await h.wait_for(lambda: False, timeout=30)
        assert loop.time() - started < 1


def test_the_fixture_fails_a_test_whose_harness_failed_even_if_violations_are_allowed(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeconftest(INNER_CONFTEST)
    pytester.makeini(INNER_INI)
    pytester.makepyfile(
        test_inner="""
        import aiohttp
        import pytest

        from tests.harness import schema

        @pytest.mark.discord_violations_allowed
        async def test_swallows_the_error(discord_harness, monkeypatch):
            h = discord_harness
            def broken(*args):
                raise RuntimeError("harness bug")
            monkeypatch.setattr(schema, "validate", broken)
            async with aiohttp.ClientSession() as s:
                url = f"{h.api_base}/channels/{h.channel.id}/messages"
                auth = {"Authorization": f"Bot {h.token}"}
                async with s.post(url, json={"content": "x"}, headers=auth) as r:
                    assert r.status == 500
            h.pop_violations()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=120)
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        ["*the Discord harness itself failed*", "*RuntimeError: harness bug*"]
    )
