"""Campaign records through Discord (issue 10, decision A): what a fight leaves on a character
follows it into the next fight; between fights server GMs rest, heal and reset characters with
``/campaign``; a character fights in one encounter at a time."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import end_encounter, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def willow(bot: CombatBot, h: DiscordHarness) -> tuple[int, int]:
    live = await bot.services.encounters.live(h.channel.id)
    c = live.state.find("Willow")
    return c.health, c.stamina


async def test_wounds_follow_the_character_and_heal_between_fights(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-5", stamina="-12"))
    assert await willow(bot, h) == (11, 28)
    await end_encounter(h, table)

    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    assert shown.ephemeral
    assert "Health 11/16 · Stamina 28/40" in shown.response_data["content"]
    text = await refused(
        await h.slash(table.other_player, h.channel, "campaign show", {"member": player})
    )
    assert "Only server GMs" in text

    # The next fight starts where the last one left Willow.
    await set_up_fight(h, table, begin=False)
    assert await willow(bot, h) == (11, 28)
    # While she fights, her record waits for that fight: nobody else has one to rest.
    text = await refused(await slash(h, gm, "campaign rest", kind="long"))
    assert "Willow: fighting in" in text
    other = h.add_channel(h.guild, "elsewhere")
    await ok(await h.slash(gm, other, "encounter start", {"name": "Elsewhere"}))
    clash = await h.slash(player, other, "encounter join", {"character": "Willow"})
    await clash.response()
    assert clash.ephemeral and "already fighting in" in clash.response_data["content"]
    await ok(await slash(h, gm, "gm remove", combatant="Willow"))  # leaving writes it back
    await end_encounter(h, table)

    text = await refused(await slash(h, player, "campaign rest", kind="long"))
    assert "Only server GMs" in text
    rested = await ok(await slash(h, gm, "campaign rest", kind="long"))
    assert "Willow recovers 12 Stamina" in rested.message.text()
    again = await ok(await slash(h, gm, "campaign rest", kind="long"))
    assert "less than 24 hours ago: no benefit" in again.message.text()  # campaign time
    healed = await ok(
        await h.slash(
            gm, h.channel, "campaign heal", {"weeks": 3, "member": player, "character": "Willow"}
        )
    )
    assert "Willow heals 3 Health; now 14." in healed.message.text()
    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    assert "Health 14/16 · Stamina 40/40" in shown.response_data["content"]


async def test_a_dead_character_stays_dead_until_a_gm_resets_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm condition", combatant="Willow", action="add", name="Dead"))
    await end_encounter(h, table)
    await ok(await slash(h, gm, "encounter start", name="Later"))
    text = await refused(await slash(h, player, "encounter join", character="Willow"))
    assert "Willow is dead in this campaign" in text and "/campaign reset" in text
    who = {"member": player, "character": "Willow"}
    text = await refused(await h.slash(player, h.channel, "campaign reset", who))
    assert "Only server GMs" in text
    reset = await ok(await h.slash(gm, h.channel, "campaign reset", who))
    assert "starts afresh" in reset.message.text()
    await ok(await slash(h, player, "encounter join", character="Willow"))
    assert await willow(bot, h) == (16, 40)


async def test_with_no_records_each_command_suggests_only_options_it_has(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """No character has a record yet: `/campaign rest` suggests naming one (it has `member:`
    and `character:`); `/campaign end-of`, which has neither, does not point at them."""
    h, gm = discord_harness, table.moderator
    await ok(await slash(h, gm, "encounter start", name="Nothing yet"))
    rest = await refused(await slash(h, gm, "campaign rest", kind="short"))
    assert "No character of this server has a campaign record yet" in rest
    assert "`member:` and `character:`" in rest
    ending = await refused(await slash(h, gm, "campaign end-of", period="day"))
    assert "No character of this server has a campaign record yet" in ending
    assert "member:" not in ending and "character:" not in ending, ending
