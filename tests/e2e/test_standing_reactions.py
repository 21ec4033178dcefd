"""Standing reactions through Discord (issue 17, "Standing reactions"): ``/me reactions``
sets what a player's combatant does when its reaction window would run out unanswered; the
expiry pass applies it instead of the lapse, once — across passes and restarts — and the
channel says it was a standing choice. Listing, clearing and refusals are ephemeral."""

from __future__ import annotations

import json
from pathlib import Path

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import answered, refused, set_up_fight, slash
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.test_member_data import click, delete_prompt, export_of, stored_anywhere
from tests.e2e.test_reaction_expiry import (
    TITLE,
    WINDOW,
    assert_expired_once,
    commands,
    standing_said,
    waiting_for_willow,
    window_over,
)
from tests.harness.server import DiscordHarness

EVADE_RULE = "Evade if I can afford it, else take it"


async def set_rule(h: DiscordHarness, table: Table, rule: str, combatant: str = "Willow") -> str:
    """Willow's player sets a standing reaction; returns the (ephemeral) reply."""
    record = await answered(
        await slash(h, table.player, "me reactions", combatant=combatant, rule=rule)
    )
    assert record.ephemeral, record.response_data
    return str(record.response_data["content"])


async def test_a_standing_evade_is_taken_when_the_window_runs_out_and_says_so(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table)
    reply = await set_rule(h, table, EVADE_RULE)
    assert "Standing reaction for **Willow**" in reply and "“Evade if I can afford it" in reply
    prompt, waiting = await waiting_for_willow(bot, h, table, set_up=False)

    clock.advance(WINDOW - 1)
    assert await bot.expire_due() == []
    clock.advance(1)
    [result] = await bot.expire_due()
    assert [(use.name, use.label) for use in result.standing] == [("Willow", "Evade")]
    [notice] = window_over(h)
    assert "Willow reacts: Evade" in notice.text(), notice.text()
    said = f"Standing reaction set by <@{table.player.id}> for **Willow**: Evade (“{EVADE_RULE}”)"
    assert said in notice.text() and standing_said(notice) == 1, notice.text()
    retired = h.message(prompt)
    assert retired.components == []
    assert retired.content == f"{TITLE} — answered as the window ran out."
    assert said in retired.text() and standing_said(retired) == 1, retired.text()
    log = await bot.services.encounters.log(waiting.id)
    [entry] = [e for e in log if e.command == "expire"]
    [react] = [c for c in json.loads(entry.result)["commands"] if c["kind"] == "react"]
    willow = next(c for c in waiting.state.combatants if c.name == "Willow")
    assert (react["actor"], react["choice"]) == (willow.id, "evade"), react  # replays exactly

    clock.advance(WINDOW)  # a second pass finds nothing to do
    assert await bot.expire_due() == []
    assert len(window_over(h)) == 1
    assert (await commands(bot, waiting)).count("expire") == 1


async def test_a_step_only_against_melee_applies_to_a_cudgel_and_a_ranged_one_does_not(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The Thug's Cudgel is a melee weapon (UTTAS): "block against ranged" is skipped and the
    next step ("block against melee") is taken."""
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table)
    await set_rule(h, table, "evade against ranged, block against melee")
    await waiting_for_willow(bot, h, table, set_up=False)
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    assert [use.label for use in result.standing] == ["Block"]
    assert "Willow reacts: Block" in window_over(h)[0].text()


async def test_a_rule_that_fits_nothing_lets_the_window_lapse_as_usual(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table)
    await set_rule(h, table, "block against ranged")
    prompt, _ = await waiting_for_willow(bot, h, table, set_up=False)
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    assert result.standing == ()
    assert_expired_once(h, prompt)  # "Willow does not react.", the usual footer


async def test_listing_and_clearing_standing_reactions(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table)
    offered = await h.autocomplete(table.player, h.channel, "me reactions", "combatant", "")
    assert [c["name"] for c in offered] == ["General Bearington", "Willow"]
    offered = await h.autocomplete(table.moderator, h.channel, "me reactions", "combatant", "Th")
    assert [c["name"] for c in offered][:1] == ["Thug 1"]  # the GM may set one for anyone
    listed = await refused(await slash(h, table.player, "me reactions"))
    assert "**Willow**: none" in listed and "**General Bearington**: none" in listed
    assert "`evade`" in listed and "`take it`" in listed and "`melee`" in listed
    await set_rule(h, table, "block")
    listed = await refused(await slash(h, table.player, "me reactions"))
    assert "**Willow**: “block”" in listed and "**General Bearington**: none" in listed

    cleared = await set_rule(h, table, "off")
    assert "**Willow** has no standing reaction now" in cleared
    prompt, _ = await waiting_for_willow(bot, h, table, set_up=False)
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    assert result.standing == ()
    assert_expired_once(h, prompt)


async def test_refusals_are_specific_and_store_nothing(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table)
    player = table.player
    text = await refused(await slash(h, player, "me reactions", combatant="Willow", rule="fly"))
    assert "`fly` is not a standing choice here" in text and "`evade`" in text
    text = await refused(
        await slash(h, player, "me reactions", combatant="Willow", rule="block against dragons")
    )
    assert "`dragons` is not a condition" in text and "`melee`" in text
    text = await refused(await slash(h, player, "me reactions", rule="block"))
    assert "Name the combatant" in text and "**Willow**" in text
    text = await refused(await slash(h, player, "me reactions", combatant="Thug 1", rule="block"))
    assert "You do not control **Thug 1**" in text
    text = await refused(
        await slash(h, table.bystander, "me reactions", combatant="Willow", rule="block")
    )
    assert "You do not control **Willow**" in text
    encounter = await bot.services.encounters.live(h.channel.id)
    assert await bot.services.combat.standing.of_encounter(encounter.id) == {}


async def test_a_standing_reaction_applies_once_after_a_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The window runs out while the bot is down; back, the loop applies Willow's standing
    Evade exactly once."""
    h, clock = discord_patched, ManualClock()
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=None):
        await set_up_fight(h, table)
        await set_rule(h, table, EVADE_RULE)
        prompt, waiting = await waiting_for_willow(bot, h, table, set_up=False)
    clock.advance(WINDOW + 60)
    async for bot in _running_bot(h, database, None, clock=clock, expiry_interval=0.05):
        await h.wait_for(lambda: h.message(prompt).components == [])
        await h.wait_for(lambda: len(window_over(h)) == 1)
        assert h.message(prompt).content == f"{TITLE} — answered as the window ran out."
        assert "Willow reacts: Evade" in window_over(h)[0].text()
        assert (await commands(bot, waiting)).count("expire") == 1
        assert await bot.expire_due() == []
    assert len(window_over(h)) == 1


async def test_me_export_lists_standing_reactions_and_me_delete_erases_them(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h = clocked_bot, discord_harness
    player = table.player
    await set_up_fight(h, table)
    await set_rule(h, table, EVADE_RULE)
    document = await export_of(h, player)
    [entry] = document["standing_reactions"]
    assert entry["rule"] == EVADE_RULE and entry["encounter"] == "Firewood"
    assert "standing_reactions.member_id" in await stored_anywhere(bot, str(player.id))

    prompt = await delete_prompt(h, player)
    assert "standing reactions you set" in prompt.content
    await click(h, player, prompt, "Confirm")
    assert "standing_reactions.member_id" not in await stored_anywhere(bot, str(player.id))
    encounter = await bot.services.encounters.live(h.channel.id)
    assert await bot.services.combat.standing.of_encounter(encounter.id) == {}
    assert (await export_of(h, player))["standing_reactions"] == []
