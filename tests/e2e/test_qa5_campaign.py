"""QA5: campaign records attacked through Discord — undo/redo that bring a character back,
sheets and members deleted while their character fights, what /campaign shows and refuses."""

from __future__ import annotations

from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash
from tests.e2e.combat_helpers import end_encounter as ended
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def end_encounter(h: DiscordHarness, table: Table) -> None:
    """The server GM ends the channel's encounter (Confirm), which the channel sees."""
    click = await ended(h, table)
    assert not click.ephemeral, click.response_data


async def records(bot: CombatBot) -> list[dict[str, Any]]:
    """Every stored campaign record row."""
    async with bot.db.read() as conn:
        rows = await conn.fetch_all("SELECT * FROM campaign_records")
    return [dict(r) for r in rows]


async def fighting_in(bot: CombatBot, name: str) -> list[int]:
    """Channels of live encounters with a combatant called ``name``."""
    async with bot.db.read() as conn:
        rows = await conn.fetch_all("SELECT channel_id FROM encounters WHERE status = 'live'")
    out = []
    for row in rows:
        live = await bot.services.encounters.live(row["channel_id"])
        if any(c.name == name for c in live.state.combatants):
            out.append(row["channel_id"])
    return out


async def test_undo_of_a_remove_cannot_bring_back_a_character_fighting_elsewhere(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm remove", combatant="Willow"))
    other = h.add_channel(h.guild, "elsewhere")
    await ok(await h.slash(gm, other, "encounter start", {"name": "Elsewhere"}))
    await ok(await h.slash(player, other, "encounter join", {"character": "Willow"}))
    undo = await h.slash(gm, h.channel, "gm undo")
    await undo.response()
    # A character fights in one encounter at a time: the undo is refused (or leaves her out).
    assert len(await fighting_in(bot, "Willow")) == 1, "Willow now fights in two encounters"


async def test_redo_of_a_join_cannot_bring_back_a_character_fighting_elsewhere(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, gm, "gm undo"))  # undoes General Bearington's join
    await ok(await slash(h, gm, "gm undo"))  # undoes Willow's join: her record is written
    other = h.add_channel(h.guild, "elsewhere")
    await ok(await h.slash(gm, other, "encounter start", {"name": "Elsewhere"}))
    await ok(await h.slash(player, other, "encounter join", {"character": "Willow"}))
    redo = await h.slash(gm, h.channel, "gm redo")
    await redo.response()
    assert len(await fighting_in(bot, "Willow")) == 1, "Willow now fights in two encounters"


async def test_undo_of_a_remove_does_not_throw_away_healing_done_since(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-5"))
    await ok(await slash(h, gm, "gm remove", combatant="Willow"))  # record: Health 11
    healed = await ok(
        await h.slash(
            gm, h.channel, "campaign heal", {"weeks": 3, "member": player, "character": "Willow"}
        )
    )
    assert "now 14" in healed.message.text()
    undo = await h.slash(gm, h.channel, "gm undo")  # Willow back in the fight, as removed
    await undo.response()
    await end_encounter(h, table)
    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    # The three weeks of healing the server GM gave her were not lost (or the undo refused).
    assert "Health 14/16" in shown.response_data["content"], shown.response_data["content"]


async def test_a_character_deleted_mid_fight_gets_no_record_when_the_fight_ends(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    prompt = await h.slash(player, h.channel, "character delete", {"name": "Willow"})
    await prompt.response()
    confirm = prompt.message.component(label="Confirm: delete it")["custom_id"]
    click = await h.click(player, prompt.message, confirm)
    await click.response()
    assert not click.ephemeral or "deleted" in str(click.response_data), click.response_data
    assert await records(bot) == []
    await end_encounter(h, table)
    # "Deleting a sheet deletes its record": no record for a sheet that no longer exists.
    left = [r for r in await records(bot) if r["character_id"] not in await sheet_ids(bot)]
    assert left == [], left


async def test_a_member_deleted_mid_fight_gets_no_record_back_when_the_fight_ends(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    answer = await slash(h, player, "me delete")
    await answer.response()
    if answer.deferred:
        await answer.followup(0)
    prompt = answer.followups[0] if answer.deferred else answer.message
    confirm = next(
        c["custom_id"]
        for row in prompt.components
        for c in row["components"]
        if c.get("label", "").startswith("Confirm")
    )
    done = await h.click(player, h.message(prompt), confirm)
    await done.response()
    assert "no longer keeps you" in h.message(prompt).content
    await end_encounter(h, table)
    # /me delete erased "everything the bot keeps about you": ending the fight must not write
    # the member's characters' records back (nothing can ever export or erase them again).
    assert await records(bot) == []


async def sheet_ids(bot: CombatBot) -> set[int]:
    async with bot.db.read() as conn:
        rows = await conn.fetch_all("SELECT id FROM sheets")
    return {r["id"] for r in rows}


async def test_campaign_show_counts_breathers_by_the_servers_tables(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    changed = await slash(h, gm, "tables set", entry="characteristic_dice.divisor", value="1")
    await changed.response()
    assert "is now" in changed.response_data["content"]
    await set_up_fight(h, table, begin=False)  # a new encounter: it plays by the change
    live = await bot.services.encounters.live(h.channel.id)
    uses = live.state.find("Willow").breather_uses
    assert uses == 10  # Body 10, one die per point
    await end_encounter(h, table)
    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    text = shown.response_data["content"]
    # The record holds 10 breathers and the server's rules give 10: "10 of 10", not "of 2".
    assert f"Breathers left: {uses} of {uses}" in text, text


async def test_records_are_member_data_and_only_server_gms_change_them(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, encounter_gm = discord_harness, table.player, table.gm
    # An encounter's GM who is not a server GM runs the fight but not the campaign.
    await ok(await slash(h, encounter_gm, "encounter start", name="Small"))
    for example in ("willow", "general-bearington"):
        await answered(await slash(h, player, "character import", example=example))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    await ok(await slash(h, encounter_gm, "gm hp", combatant="Willow", health="-5"))
    await ok(await slash(h, encounter_gm, "gm remove", combatant="Willow"))
    who = {"member": player, "character": "Willow"}
    for command, options in (
        ("campaign rest", {"kind": "long"}),
        ("campaign heal", {"weeks": 1, **who}),
        ("campaign end-of", {"period": "day"}),
        ("campaign reset", who),
        ("campaign show", {"member": player}),
    ):
        text = await refused(await h.slash(encounter_gm, h.channel, command, options))
        assert "Only server GMs" in text, (command, text)
    exported = await answered(await slash(h, player, "me export"))
    document = exported.followups[0].attachments[0].json()
    assert [r["record"]["health"] for r in document["campaign_records"]] == [11]
    answer = await answered(await slash(h, player, "me delete"))
    prompt = answer.followups[0] if answer.deferred else answer.message
    confirm = next(
        c["custom_id"]
        for row in prompt.components
        for c in row["components"]
        if c.get("label", "").startswith("Confirm")
    )
    await (await h.click(player, h.message(prompt), confirm)).response()
    assert await records(bot) == []
