"""Turns and decisions are dated by Discord's clock even when the host's clock is stepped while
the bot runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import bot.__main__ as bot_main
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.server import DiscordHarness


async def test_a_host_clock_stepped_forward_refuses_no_command_of_the_new_turn(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's clock is stepped 5 s forward while the bot runs (NTP, a VM resumed): the
    new turn holder's `/endturn`, sent at once, is accepted — Discord's clock is followed by
    the monotonic time since interactions arrived, never by the host's wall clock."""
    h, gm = discord_patched, table.moderator
    step = {"by": timedelta(0)}
    monkeypatch.setattr(bot_main, "utc_now", lambda: datetime.now(UTC) + step["by"])
    async for bot in _running_bot(h, tmp_path / "bot.sqlite3", None):
        await set_up_fight(h, table)
        await pass_turns_until(bot, h, table, "Thug 1")
        step["by"] = timedelta(seconds=5)  # the host's clock is corrected forward
        await ok(await slash(h, gm, "endturn"))  # Thug 1's turn ends; the next one begins
        live = await bot.services.encounters.live(h.channel.id)
        assert live.state.current is not None
        holder = live.state.current
        who = table.player if holder.controller_id == table.player.id else gm
        reply = await slash(h, who, "endturn")
        await reply.response()
        assert not reply.ephemeral, (holder.name, reply.response_data)


async def test_a_host_clock_stepped_forward_refuses_no_reaction_button(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same step forward, then Thug 1 attacks Willow: the decision is dated 5 s ahead of
    Discord, so Willow's player clicking Dodge on the prompt right away is refused as "meant
    for something else". She should get her dodge."""
    h = discord_patched
    step = {"by": timedelta(0)}
    monkeypatch.setattr(bot_main, "utc_now", lambda: datetime.now(UTC) + step["by"])
    async for bot in _running_bot(h, tmp_path / "bot.sqlite3", None):
        await set_up_fight(h, table)
        await pass_turns_until(bot, h, table, "Thug 1")
        step["by"] = timedelta(seconds=5)
        prompt = await thug_attacks_willow(bot, h, table)
        await prompt_recorded(bot, h)
        await press(h, table.player, prompt, "Evade")
        live = await bot.services.encounters.live(h.channel.id)
        assert live.state.pending is None
