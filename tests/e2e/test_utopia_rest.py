"""Utopia rests through Discord: ``/gm time rest kind:short`` restores SHP and Stamina (not
DHP, as the game's Foundry system rests), and the long rest the text does not have is refused
ephemerally, naming why."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, end_encounter, ok, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_a_short_rest_between_fights_and_no_long_rest(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Camp", ruleset="utopia"))
    await answered(await slash(h, player, "character import", example="vesna"))
    await ok(await slash(h, player, "encounter join", character="Vesna"))
    for vital, amount in (("shp", "-5"), ("dhp", "-3"), ("stamina", "-4")):
        await ok(await slash(h, gm, "gm vital", combatant="Vesna", vital=vital, amount=amount))

    rested = await ok(await slash(h, gm, "gm time rest", kind="short"))
    text = rested.message.text() if rested.message else ""
    assert "Vesna takes a short rest: SHP 22/22, DHP 11/14, Stamina 18/18." in text
    before = (await bot.services.encounters.live(h.channel.id)).version
    long = await refused(await slash(h, gm, "gm time rest", kind="long"))
    assert "Utopia has no long rest" in long and "Use a short rest" in long
    assert (await bot.services.encounters.live(h.channel.id)).version == before


async def test_a_campaign_long_rest_rests_uttas_characters_and_names_utopias_left_out(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """One ruleset's refusal (Utopia has no long rest) leaves its characters out instead of
    refusing the rest for the whole server."""
    h, gm, player = discord_harness, table.moderator, table.player
    for ruleset, example, name in (("utopia", "vesna", "Vesna"), ("uttas", "willow", "Willow")):
        await ok(await slash(h, gm, "encounter start", name="Road", ruleset=ruleset))
        await answered(await slash(h, player, "character import", example=example))
        await ok(await slash(h, player, "encounter join", character=name))
        await ok(await slash(h, gm, "gm remove", combatant=name))  # leaving writes its record
        await end_encounter(h, table)
    rested = await ok(await slash(h, gm, "campaign rest", kind="long"))
    text = rested.message.text() if rested.message else ""
    assert "Willow" in text and "Utopia characters: Utopia has no long rest" in text
    short = await ok(await slash(h, gm, "campaign rest", kind="short"))
    assert "Vesna takes a short rest" in (short.message.text() if short.message else "")
