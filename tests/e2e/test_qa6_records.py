"""QA6: campaign records under undo/redo, /gm vital, positions, the end of a day and a
condition's new duration, attacked through Discord."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.e2e.test_qa5_campaign import end_encounter, records
from tests.harness.server import DiscordHarness, HarnessError


async def test_undo_of_a_remove_does_not_throw_away_a_campaign_reset_done_since(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm vital", combatant="Willow", vital="health", amount="-5"))
    await ok(await slash(h, gm, "gm remove", combatant="Willow"))  # her record: Health 11
    reset = await h.slash(
        gm, h.channel, "campaign reset", {"member": player, "character": "Willow"}
    )
    await ok(reset)  # "starts afresh: Health 16/16"
    assert await records(bot) == []
    undo = await h.slash(gm, h.channel, "gm undo")
    await answered(undo)
    # The record changed since she left (it was reset): bringing her back with Health 11 would
    # undo the reset (and the fight's end writes Health 11 back). Refuse, like after healing.
    assert undo.ephemeral, undo.response_data
    assert "changed since they left" in (undo.response_data.get("content") or "")
    live = await bot.services.encounters.live(h.channel.id)
    assert "Willow" not in [c.name for c in live.state.combatants]


async def test_a_one_off_npc_comes_back_by_undo_and_redo_and_leaves_no_record(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm add-npc", name="Ogre", health=30))
    await ok(await slash(h, gm, "gm remove", combatant="Ogre"))
    undo = await ok(await slash(h, gm, "gm undo"))
    assert "~~Ogre leaves the encounter.~~" in undo.message.text()
    await ok(await slash(h, gm, "gm redo"))
    await ok(await slash(h, gm, "gm undo"))
    live = await bot.services.encounters.live(h.channel.id)
    assert "Ogre" in [c.name for c in live.state.combatants]
    await end_encounter(h, table)
    assert len(await records(bot)) == 2  # Willow and General Bearington only


async def test_gm_vital_names_the_vital_as_its_game_system_does(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    shout = await ok(
        await slash(h, gm, "gm vital", combatant="Willow", vital="STAMINA", amount="-2")
    )
    assert "Stamina 38/40" in shout.message.text()
    embed = shout.message.embeds[0]
    assert embed["title"] == "The GM adjusts Willow's Stamina", embed["title"]


async def test_gm_vital_refuses_wrong_users_unknown_vitals_and_bad_amounts(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    before = (await bot.services.encounters.live(h.channel.id)).version
    for who in (player, table.bystander):
        text = await refused(
            await slash(h, who, "gm vital", combatant="Willow", vital="Health", amount="-1")
        )
        assert text.startswith("Only the GM can use `/gm vital`"), text
    cases = {
        "mana": ("3", "UTTAS has no vital called 'mana': health or stamina."),
        "Health": ("abc", "`abc` is not a dice expression"),
    }
    for vital, (amount, start) in cases.items():
        text = await refused(
            await slash(h, gm, "gm vital", combatant="Willow", vital=vital, amount=amount)
        )
        assert text.startswith(start), text
    for amount, words in (
        (" ", "Give a dice expression"),
        ("1.5", "whole numbers"),
        ("-99999999", "±100000"),
        ("1000d1000", "at most 100 dice"),
    ):
        text = await refused(
            await slash(h, gm, "gm vital", combatant="Willow", vital="Health", amount=amount)
        )
        assert words in text, text
    assert (await bot.services.encounters.live(h.channel.id)).version == before
    upper = await ok(
        await slash(h, gm, "gm vital", combatant="Willow", vital="Health", amount="-3")
    )
    assert "Health 13/16" in upper.message.text()
    for who in (player, table.bystander):
        shown = await h.autocomplete(
            who, h.channel, "gm vital", focused="vital", value="", combatant="Willow", amount="1"
        )
        assert shown == []
    shown = await h.autocomplete(
        gm, h.channel, "gm vital", focused="vital", value="STA", combatant="Willow", amount="1"
    )
    assert [c["value"] for c in shown] == ["stamina"]


async def test_a_dead_combatant_leaves_melee(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm place engage", a="Willow", b="Thug 1"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.positions.engaged, live.state.positions
    killed = await ok(
        await slash(h, gm, "gm vital", combatant="Thug 1", vital="health", amount="-100")
    )
    assert "Thug 1 is now Dead" in killed.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert not live.state.positions.engaged, live.state.positions


async def test_the_end_of_a_day_starts_the_next_days_rests_in_a_fight(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table, begin=False)
    for _ in range(2):
        await ok(await slash(h, gm, "gm time rest", kind="short"))
    third = await ok(await slash(h, gm, "gm time rest", kind="short"))
    assert "already took 2 short rests today" in third.message.text()
    scene = await ok(await slash(h, gm, "gm time end-of", period="scene"))
    assert "rests count afresh" not in scene.message.text()
    day = await ok(await slash(h, gm, "gm time end-of", period="day"))
    assert "A new day begins: rests count afresh." in day.message.text()
    short = await ok(await slash(h, gm, "gm time rest", kind="short"))
    assert "Willow recovers" in short.message.text()
    long = await ok(await slash(h, gm, "gm time rest", kind="long"))
    assert "Willow recovers" in long.message.text()
    with pytest.raises(HarnessError):
        await slash(h, gm, "campaign end-of", period="scene")


async def test_a_condition_given_again_changes_its_duration_in_place(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)

    async def give(**lasts: object) -> str:
        record = await ok(
            await slash(
                h, gm, "gm condition", combatant="Willow", action="add", name="Prone", **lasts
            )
        )
        return record.message.text()

    async def refusal(**lasts: object) -> str:
        """The same again (rules version 7): refused, nothing recorded."""
        return await refused(
            await slash(
                h, gm, "gm condition", combatant="Willow", action="add", name="Prone", **lasts
            )
        )

    assert "for 3 more rounds" in await give(lasts="rounds", rounds=3)
    assert "Willow is already Prone, for 3 more rounds: nothing to change." in await refusal(
        lasts="rounds", rounds=3
    )
    assert "for 5 more rounds" in await give(lasts="rounds", rounds=5)
    assert "until the scene ends" in await give(lasts="scene")
    assert "Willow is already Prone, until the scene ends: nothing to change." in await refusal(
        lasts="scene"
    )
    live = await bot.services.encounters.live(h.channel.id)
    prone = [e for e in live.state.find("Willow").conditions if "prone" in str(e).lower()]
    assert len(prone) <= 1, prone
