"""Autocomplete always answers: an expected refusal (no encounter here, no such sheet) gives an
empty list quietly; a bug gives an empty list too and is logged once with the guild, channel
and user ids — never swallowed silently, never Discord's "Loading options failed"."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


def bot_errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name.startswith(("bot", "cogs")) and r.levelno >= logging.ERROR
    ]


async def test_expected_refusals_answer_an_empty_list_without_logging(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    h = discord_harness
    with caplog.at_level(logging.INFO):
        # No encounter in the channel (NotFound): combat and GM autocompletes offer nothing.
        for member, command, option in (
            (table.player, "attack", "target"),
            (table.gm, "gm hp", "combatant"),
        ):
            assert await h.autocomplete(member, h.channel, command, focused=option, value="") == []
        assert (
            await h.autocomplete(
                table.player, h.channel, "encounter join", focused="character", value=""
            )
            == []
        )
        # A sheet that does not exist (NotFound): no fields.
        fields = await h.autocomplete(
            table.player, h.channel, "character edit", focused="field", value="", name="Nobody"
        )
        assert fields == []
    assert h.interactions[-1].responded
    assert bot_errors(caplog) == []


async def test_a_bug_in_an_autocomplete_answers_empty_and_is_logged_with_ids(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = discord_harness
    await answered(await slash(h, table.player, "character import", example="willow"))
    await ok(await slash(h, table.gm, "encounter start", name="Ford"))

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the lookup")

    cases = [
        (bot.services.sheets, "name_choices", table.player, "character show", "name"),
        (bot.services.encounters, "live", table.player, "attack", "target"),
        (bot.services.encounters, "live", table.gm, "gm hp", "combatant"),
    ]
    for service, method, member, command, option in cases:
        with monkeypatch.context() as patch, caplog.at_level(logging.INFO):
            patch.setattr(service, method, broken)
            caplog.clear()
            choices = await h.autocomplete(member, h.channel, command, focused=option, value="")
        record = h.interactions[-1]
        assert choices == [] and record.responded, command
        errors = bot_errors(caplog)
        assert len(errors) == 1, (command, errors)
        message = errors[0].getMessage()
        assert f"guild={h.guild.id} channel={h.channel.id} user={member.id}" in message
        assert errors[0].exc_info is not None and "a bug in the lookup" in str(
            errors[0].exc_info[1]
        )
    # With the bug gone, the same autocomplete offers the sheet again.
    choices = await h.autocomplete(
        table.player, h.channel, "character show", focused="name", value=""
    )
    assert [c["value"] for c in choices] == ["Willow"]
