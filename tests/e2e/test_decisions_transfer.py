"""A decision the GM must make while the GM seat is handed on (/gm seat transfer)."""

from __future__ import annotations

import asyncio

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    ok,
    pass_turns_until,
    refused,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def _prompt(bot: CombatBot, h: DiscordHarness) -> int:
    for _ in range(300):
        live = await bot.services.encounters.live(h.channel.id)
        if live.row.prompt_message_id:
            return live.row.prompt_message_id
        await asyncio.sleep(0.01)
    raise AssertionError("no prompt recorded")


async def test_the_new_gm_is_asked_and_pinged_and_the_old_one_may_not_choose(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, heir, player = discord_harness, table.gm, table.other_player, table.player
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=1))
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await answered(await slash(h, player, "character import", example="general-bearington"))
    await ok(await slash(h, player, "encounter join", character="General Bearington"))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "General Bearington")  # the moderator ends turns
    await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws"))
    pid = await _prompt(bot, h)
    assert f"<@{gm.id}>" in h.message(pid).content
    await ok(await h.slash(gm, h.channel, "gm seat transfer", {"member": heir}))
    # The prompt now asks the new GM, who is pinged; the old GM no longer decides.
    await h.wait_for(lambda: f"<@{heir.id}>" in h.message(pid).content)
    assert f"<@{gm.id}>" not in h.message(pid).content
    await h.wait_for(
        lambda: any(
            "you now have a choice" in m.content and f"<@{heir.id}>" in m.content
            for m in h.messages_in(h.channel)
        )
    )
    chooser = next(c for c in h.message(pid).custom_ids() if c.startswith("rxg:"))
    await refused(await h.click(gm, h.message(pid), chooser))
    opened = await h.click(heir, h.message(pid), chooser)
    await opened.response()
    assert opened.ephemeral and opened.message.custom_ids(), opened.response_data
