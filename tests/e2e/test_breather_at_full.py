"""A breather at full Stamina (play26, defect 4): UTTAS "Take a Breather" spends the turn's
action and one of the character's breathers (Body dice per short rest) to "recover some
Stamina" — rolled at the next turn's start, never above the maximum. Willow, unhurt, took one
from `/breather` and lost her turn and a breather for nothing. Every way a member takes one
(`/breather`, `/act action:breather`, the turn ping's button) is now refused at full Stamina,
saying why, with nothing spent; with Stamina to recover it goes through."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    button,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    version,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

FULL = (
    "Willow's Stamina is full ({n}/{n}): a breather would spend the turn's action and one of "
    "their breathers to recover nothing."
)


async def test_a_breather_at_full_stamina_is_refused_every_way_and_spends_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, gm = discord_harness, table.player, table.moderator
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    willow = live.state.find("Willow")
    full = FULL.format(n=willow.sheet.stamina)
    before = await version(bot, h)
    assert await refused(await slash(h, player, "breather")) == full
    assert await refused(await slash(h, player, "act", action="breather")) == full
    [ping] = [m for m in h.messages_in(h.channel) if m.custom_ids()][-1:]
    pressed = await h.click(player, ping, button(ping, "Take a Breather")["custom_id"])
    assert await refused(pressed) == full
    assert await version(bot, h) == before  # nothing spent, the turn still Willow's

    await ok(await slash(h, gm, "gm vital", combatant="Willow", vital="Stamina", amount="-5"))
    took = await ok(await slash(h, player, "breather"))
    assert "Willow takes a breather" in took.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Willow").breathing
