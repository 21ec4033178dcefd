"""Rough edges a new GM met on 2026-12-06: the campaign clock after `/campaign end-of`, an
Untitled sheet as `/character show` reads it, the two kinds of `/gm add-npc` answering alike."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    end_encounter,
    ok,
    set_up_cast,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.e2e.test_characters import answer
from tests.harness.server import DiscordHarness


async def test_the_end_of_a_day_begins_the_next_on_the_campaign_clock(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/campaign end-of period:day` said "A new day begins" while its own header still read
    "campaign time: day 1, 08:00" — the clock stood where the long rest left it, in every
    system. The next day now begins at its start (day 2, 00:00), whichever systems the
    server's characters play; a quest or an arc ends the day with it."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await end_encounter(h, table)
    await set_up_cast(
        h,
        table,
        "utopia",
        name="Bridge",
        pcs={"Vesna": "vesna"},
        npc=("stone-hound", "Stone hound"),
    )
    await end_encounter(h, table)
    rested = (await ok(await slash(h, gm, "campaign rest", kind="long"))).message.text()
    assert "campaign time: day 1, 08:" in rested, rested
    ended = (await ok(await slash(h, gm, "campaign end-of", period="day"))).message.text()
    assert "A new day begins" in ended, ended
    assert "campaign time: day 2, 00:00" in ended, ended
    again = (await ok(await slash(h, gm, "campaign rest", kind="long"))).message.text()
    assert "Willow" in again and "no benefit" not in again, again
    assert "campaign time: day 2, 08:00" in again, again
    quest = (await ok(await slash(h, gm, "campaign end-of", period="quest"))).message.text()
    assert "campaign time: day 3, 00:00" in quest, quest
    # The next fight starts from the campaign clock: day 3.
    await ok(await slash(h, gm, "encounter start", name="Dawn raid"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.game_time_s == 2 * 86_400, live.state.game_time_s


async def test_both_kinds_of_add_npc_answer_alike(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A one-off `/gm add-npc name:` answered "The GM adds Ruffian" over the join's events and
    no card, a template's "Added **Thug 2**." with the encounter's card: the same command, two
    shapes. Both now read "Added **…**." (with each one's place in a running fight's order)
    over the card."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, thugs=1)
    one_off = (await ok(await slash(h, gm, "gm add-npc", name="Ruffian", stamina=12))).message
    from_template = (await ok(await slash(h, gm, "gm add-npc", template="Thug"))).message
    for message, name in ((one_off, "Ruffian"), (from_template, "Thug 2")):
        assert message.content.startswith(f"Added **{name}**.\n{name} takes place "), message
        [card] = message.embeds
        assert card["title"] == "Firewood", card
        assert name in str(card["fields"]), card


async def test_an_untitled_sheet_shows_its_armor_shield_and_weapons_in_full(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Brask's player read "Health 30", "Speed 7.5 m", three skills and "Arming sword: Swords,
    Sword and board": not his Mail hauberk, not his Oak heater shield, no dice at all — while
    Utopia and Uune sheets show the whole sheet. An Untitled sheet now shows every number and
    the dice it rolls; another player sees its weapons, shield and armor by name only."""
    h, third = discord_harness, table.other_player
    await answered(await slash(h, third, "character import", example="brask"))
    _, text, _ = await answer(await slash(h, third, "character show", name="Brask"))
    assert "Armor: Mail hauberk (medium), Medium armor 6: mitigates 2d6" in text, text
    assert "Shield: Oak heater shield, Heater shield 4 (Novice: 2d6) added to the" in text, text
    assert "Combat Defense: 5 (Journeyman: 2d8 + 5)" in text, text
    assert "Parry: 4 (Novice: 2d6 + 4)" in text, text
    assert (
        "Arming sword: to hit Swords 6 (Journeyman: 2d8 + 6), damage Sword and board 5 "
        "(Journeyman: 2d8 + 5); reach 1 m"
    ) in text, text
    assert "Health 30" in text and "Speed 7.5 m per move action" in text, text
    seen = await h.slash(table.player, h.channel, "character show", name="Brask", member=third)
    _, text, _ = await answer(seen)
    assert "Weapons: Arming sword" in text and "Shield: Oak heater shield" in text, text
    assert "Armor: Mail hauberk" in text, text
    assert "2d" not in text and "Health" not in text and "Swords" not in text, text

    await answered(await slash(h, table.player, "character import", example="wren"))
    _, text, _ = await answer(await slash(h, table.player, "character show", name="Wren"))
    assert (
        "Longbow: to hit Bows 7 (Journeyman: 2d8 + 7), damage Archery 4 (Novice: 2d6 + 4); "
        "range 150 m, reload: a move action, 2 hands, starts put away"
    ) in text, text
    assert "Shield: none" in text and "Armor: Boiled leathers (light), Light armor 2" in text


async def test_the_end_of_a_day_in_a_fight_begins_the_next_on_the_fights_clock(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm time end-of period:day` in a fight said "A new day begins" but left the fight's
    clock on the old day (only `/campaign end-of` moved the campaign clock), so the campaign
    clock the fight left behind was still the old day's. From UTTAS rules version 5 the
    fight's clock moves to the next day's start, and the campaign clock follows it."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, gm, "gm time rest", kind="short"))  # day 1, 01:00
    await ok(await slash(h, gm, "encounter begin"))
    day = (await ok(await slash(h, gm, "gm time end-of", period="day"))).message.text()
    assert "A new day begins" in day, day
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.game_time_s == 86_400, live.state.game_time_s
    await end_encounter(h, table)
    rested = (await ok(await slash(h, gm, "campaign rest", kind="long"))).message.text()
    assert "campaign time: day 2, 08:00" in rested, rested
