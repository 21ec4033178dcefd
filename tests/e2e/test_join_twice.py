"""``/encounter join`` of a character already in the fight: the member's own is "already in
this fight" (before, the bot told them to import a copy under another name, which would make
a second Willow); another member's character of the same name still gets how to bring theirs
under another name. Nothing is written either way. Played through Discord."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_joining_twice_says_it_is_already_in_the_fight(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, other = discord_harness, table.player, table.other_player
    await ok(await slash(h, table.moderator, "encounter start", name="Ford"))
    await answered(await slash(h, player, "character import", example="willow"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    before = (await bot.services.encounters.live(h.channel.id)).version
    again = await refused(await slash(h, player, "encounter join", character="Willow"))
    assert "**Willow** is already in this fight: yours." in again, again
    assert "another name" not in again, again
    await answered(await slash(h, other, "character import", example="willow"))
    clash = await refused(await slash(h, other, "encounter join", character="Willow"))
    assert "under another name" in clash and "already in this fight" not in clash, clash
    assert (await bot.services.encounters.live(h.channel.id)).version == before
