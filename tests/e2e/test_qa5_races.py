"""QA5: double clicks and races on the new paths — the same character joined in two channels
at once, two campaign rests at once, a remove racing the end of the encounter; and the log
file's format, undo across positions."""

from __future__ import annotations

import asyncio

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.e2e.test_qa5_campaign import end_encounter, fighting_in, records
from tests.harness.server import DiscordHarness


async def test_one_character_joined_in_two_channels_at_once_fights_in_one(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    other = h.add_channel(h.guild, "elsewhere")
    await ok(await h.slash(gm, h.channel, "encounter start", {"name": "Here"}))
    await ok(await h.slash(gm, other, "encounter start", {"name": "There"}))
    await answered(await slash(h, player, "character import", example="willow"))
    joins = await asyncio.gather(
        h.slash(player, h.channel, "encounter join", {"character": "Willow"}),
        h.slash(player, other, "encounter join", {"character": "Willow"}),
    )
    for join in joins:
        await join.response()
    assert sorted(j.ephemeral for j in joins) == [False, True]
    assert len(await fighting_in(bot, "Willow")) == 1


async def test_two_long_rests_at_once_give_one_benefit(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", stamina="-12"))
    await end_encounter(h, table)
    rests = await asyncio.gather(
        slash(h, gm, "campaign rest", kind="long"),
        slash(h, table.moderator, "campaign rest", kind="long"),
    )
    texts = [(await ok(r)).message.text() for r in rests]
    assert sum("Willow recovers 12 Stamina" in t for t in texts) == 1, texts


async def test_remove_racing_the_end_writes_the_record_once_and_right(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-5"))
    prompt = await h.slash(gm, h.channel, "encounter end")
    await prompt.response()
    confirm = prompt.message.component(label="Confirm: end it")["custom_id"]
    remove, click = await asyncio.gather(
        slash(h, gm, "gm remove", combatant="Willow"), h.click(gm, prompt.message, confirm)
    )
    await remove.response()
    await click.response()
    rows = [r for r in await records(bot) if '"health":11' in r["record"]]
    assert len(rows) == 1
    shown = await h.slash(player, h.channel, "campaign show", {"character": "Willow"})
    await shown.response()
    assert "Health 11/16" in shown.response_data["content"]


async def test_the_log_file_says_its_format_and_undo_restores_positions(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm place engage", a="Willow", b="Thug 1"))
    await ok(await slash(h, gm, "gm place distance", a="Willow", b="Thug 2", meters=7))
    before = (await bot.services.encounters.live(h.channel.id)).state.positions
    await ok(await slash(h, gm, "gm place apart", combatant="Willow"))
    await ok(await slash(h, gm, "gm undo"))
    assert (await bot.services.encounters.live(h.channel.id)).state.positions == before
    record = await slash(h, gm, "gm log")
    await record.response()
    message = record.message
    name = next(
        a["filename"] for a in message.payload["attachments"] if a["filename"].endswith(".json")
    )
    assert message.attachment(name).json()["format"] == "combat-log/1"
    text = await refused(await slash(h, table.player, "gm log"))
    assert "GM" in text
