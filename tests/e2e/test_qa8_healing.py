"""QA8: UTTAS healing through Discord (issue 11, "Healing"): daily limits, the GM's day,
wrong users, hidden NPC numbers, removed combatants, undo and redo, the campaign record."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    end_encounter,
    ok,
    refused,
    set_up_fight,
    slash,
    version,
)
from tests.e2e.conftest import DiceBox, Table
from tests.harness.server import DiscordHarness


async def vitals(bot: CombatBot, h: DiscordHarness, name: str) -> tuple[int, int]:
    live = await bot.services.encounters.live(h.channel.id)
    c = next(c for c in live.state.combatants if c.name == name)
    return int(c.health), int(c.stamina)


async def heal(h: DiscordHarness, table: Table, target: str) -> str:
    record = await ok(
        await slash(h, table.player, "power", name="Heal", target=target, as_="Willow")
    )
    return str(record.message.embeds)


async def bear_healed_to_the_limit(
    bot: CombatBot, h: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Before the fight begins: the General drops to 10/30; two Heals (12, then 3 of 12: the
    day's limit is half his 30) bring him to 25."""
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm hp", combatant="General Bearington", health="-20"))
    dice.load([6, 6])
    assert "regains 12 Health" in await heal(h, table, "General Bearington")
    dice.load([6, 6])
    assert "regains 3 Health" in await heal(h, table, "General Bearington")
    assert (await vitals(bot, h, "General Bearington"))[0] == 25


async def test_a_heal_past_the_days_limit_is_refused_and_costs_nothing(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    bot, h = scripted_bot, discord_harness
    await bear_healed_to_the_limit(bot, h, table, dice)
    stamina = (await vitals(bot, h, "Willow"))[1]
    before = await version(bot, h)
    dice.load([6, 6])
    record = await slash(
        h, table.player, "power", name="Heal", target="General Bearington", as_="Willow"
    )
    text = await refused(record)
    assert "limit" in text
    assert (await vitals(bot, h, "Willow"))[1] == stamina
    assert await version(bot, h) == before
    dice.faces.clear()


async def test_the_end_of_the_day_lifts_the_days_healing_limit(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    bot, h = scripted_bot, discord_harness
    await bear_healed_to_the_limit(bot, h, table, dice)
    await ok(await slash(h, table.moderator, "gm time end-of", period="day"))
    dice.load([3, 3])
    assert "regains 5 Health" in await heal(h, table, "General Bearington")
    assert (await vitals(bot, h, "General Bearington"))[0] == 30


async def test_undo_and_redo_of_a_heal_restore_health_and_the_days_tally(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    bot, h = scripted_bot, discord_harness
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm hp", combatant="General Bearington", health="-20"))
    dice.load([6, 6])
    assert "regains 12 Health" in await heal(h, table, "General Bearington")
    stamina = (await vitals(bot, h, "Willow"))[1]
    await ok(await slash(h, table.moderator, "gm undo"))
    assert await vitals(bot, h, "General Bearington") == (10, 60)
    assert (await vitals(bot, h, "Willow"))[1] == stamina + 4
    await ok(await slash(h, table.moderator, "gm redo"))
    assert (await vitals(bot, h, "General Bearington"))[0] == 22
    await ok(await slash(h, table.moderator, "gm undo"))
    # The undone heal no longer counts against the day: 15 may be regained again.
    dice.load([6, 6])
    assert "regains 12 Health" in await heal(h, table, "General Bearington")


async def test_only_willows_player_heals_with_willow(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm hp", combatant="General Bearington", health="-6"))
    before = await version(bot, h)
    for member in (table.bystander, table.other_player):
        await refused(
            await slash(h, member, "power", name="Heal", target="General Bearington", as_="Willow")
        )
        await refused(
            await slash(
                h, member, "act", action="first-aid", target="General Bearington", as_="Willow"
            )
        )
    assert await version(bot, h) == before
    assert (await vitals(bot, h, "General Bearington"))[0] == 24


async def test_healing_a_hidden_npc_shows_no_numbers(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="-5"))
    seen = await heal(h, table, "Thug 1")
    health = (await vitals(bot, h, "Thug 1"))[0]
    assert health > 9
    assert f"{health}/14" not in seen and "regains" not in seen, seen
    for message in h.messages_in(h.channel):
        assert f"{health}/14" not in message.text()


async def test_a_removed_combatant_cannot_be_healed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="-5"))
    await ok(await slash(h, table.moderator, "gm remove", combatant="Thug 1"))
    before = await version(bot, h)
    await refused(await slash(h, table.player, "power", name="Heal", target="Thug 1", as_="Willow"))
    await refused(
        await slash(h, table.player, "act", action="first-aid", target="Thug 1", as_="Willow")
    )
    assert await version(bot, h) == before


async def test_the_campaign_record_keeps_the_healed_health(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm hp", combatant="General Bearington", health="-20"))
    dice.load([6, 6])
    assert "regains 12 Health" in await heal(h, table, "General Bearington")
    await end_encounter(h, table)
    shown = await slash(h, table.player, "campaign show", character="General Bearington")
    await shown.response()
    text = str(shown.response_data)
    assert "22/30" in text, text
