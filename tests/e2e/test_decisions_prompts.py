"""The PromptKeeper's retries: what is kept across restarts, and how often a refused channel is
tried again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    run_out_windows,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.e2e.test_prompt_keeper import SEND, _pinged, _revive_wren_setup
from tests.harness.server import DiscordHarness


def _refused_prompt_posts(h: DiscordHarness) -> int:
    return sum(
        1
        for r in h.requests_to("POST", rf"/channels/{h.channel.id}/messages$")
        if r.status == 403 and "rx" in str(r.json.get("components") or "")
    )


async def test_a_channel_that_keeps_refusing_the_prompt_is_tried_less_and_less_often(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The bot may not post where hit 2 of a flurry waits: the keeper tries to post its prompt
    again and again. Its back-off should double after each refusal (up to 15 min in play) so a
    lost channel does not cost a refused request every 30 s forever; it never grows: after
    every refusal the wait is back at its first value."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Claws", hits=3))
    keeper = bot.prompts
    keeper.grace = 0.05  # 10 s in play
    keeper.refused_posts.first = 0.05  # 30 s in play
    keeper.refused_posts.most = 60.0
    h.deny_bot(h.channel, SEND)
    await run_out_windows(bot)  # hit 1 expires; hit 2 opens with no prompt
    # the expiry's own post (hit 2's buttons) is refused first, then four recoveries
    await h.wait_for(lambda: _refused_prompt_posts(h) >= 5, timeout=20)
    await asyncio.sleep(0)
    _, wait = keeper.refused_posts.waits[h.channel.id]
    assert wait >= 0.4, f"after 4 refusals the channel waits {wait}s, as after the first"


async def test_a_ping_refused_before_a_restart_is_sent_after_it(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """Wren is back on her feet while the bot may not post (Send Messages denied): her player
    must be pinged about the waiting attack. The bot restarts, and may post again: nothing
    else happens in the channel, and the ping never comes — Wren's player never learns she
    has a choice before the window runs out. The decision's row says she was not told
    (``asked``), so the bot could know."""
    h, gm, other = discord_patched, table.moderator, table.other_player
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        await _revive_wren_setup(h, table)
        await thug_attacks_willow(first, h, table)
        pid = await prompt_recorded(first, h)
        h.deny_bot(h.channel, SEND)
        await ok(await slash(h, gm, "gm hp", combatant="Wren", stamina="20"))
        await h.wait_for(lambda: "**Wren** may take the hit" in h.message(pid).content)  # noqa: B023
        await h.wait_for(lambda: h.channel.id in first.prompts.refused_channels)  # noqa: B023
        assert not _pinged(h, other.id)
    h.deny_bot(h.channel, 0)
    async for _second in _running_bot(h, database, None):
        await h.wait_for(lambda: _pinged(h, other.id), timeout=10)
