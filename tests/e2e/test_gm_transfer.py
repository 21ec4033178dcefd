"""``/gm seat transfer`` hands the GM seat only to someone who may hold it (QA of issue 9 §8): never
to a bot account or to the GM themselves, and only within the server's start policy and its cap
on live encounters per member — the same rules as ``/encounter start``, checked in the same
transaction as the hand-over."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, button, ok, refused
from tests.e2e.conftest import Table
from tests.e2e.test_gm import gm_fight
from tests.harness.models import Channel, InteractionRecord, Member
from tests.harness.server import DiscordHarness

PLAIN = discord.Permissions(send_messages=True, view_channel=True)


def scenes(h: DiscordHarness, count: int) -> list[Channel]:
    return [h.add_channel(h.guild, f"scene-{n}") for n in range(1, count + 1)]


async def transfer(
    h: DiscordHarness, gm: Member, to: Member, channel: Channel | None = None
) -> InteractionRecord:
    record = await h.slash(gm, channel or h.channel, "gm seat transfer", {"member": to})
    await record.response()
    return record


async def gm_of(bot: CombatBot, channel: Channel) -> int:
    return (await bot.services.encounters.live(channel.id)).row.gm_id


async def transfers_logged(bot: CombatBot, channel: Channel) -> list[Any]:
    live = await bot.services.encounters.live(channel.id)
    return [e for e in await bot.services.encounters.log(live.id) if e.command == "transfer"]


def another_bot(h: DiscordHarness, name: str = "DiceBot") -> Member:
    member = h.add_member(h.guild, name, permissions=PLAIN)
    member.user.bot = True
    return member


async def test_a_bot_or_the_gm_themselves_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    public_before = len(h.messages_in(h.channel))
    itself = h.bot_member(h.guild)
    for robot in (itself, another_bot(h)):
        text = await refused(await transfer(h, table.gm, robot))
        assert text == (
            f"<@{robot.id}> is a bot: only a person can run an encounter. Name a member of the "
            "table."
        )
    text = await refused(await transfer(h, table.gm, table.gm))
    assert text == "You already run this encounter: name the member who should take it over."
    assert await gm_of(bot, h.channel) == table.gm.id
    assert await transfers_logged(bot, h.channel) == []
    assert len(h.messages_in(h.channel)) == public_before  # nobody saw a hand-over
    # A member of the table can still take it.
    await ok(await transfer(h, table.gm, table.player))
    assert await gm_of(bot, h.channel) == table.player.id


async def test_the_recipient_must_have_a_place_under_the_cap(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    theirs = scenes(h, 3)
    for scene in theirs:
        await ok(await h.slash(table.bystander, scene, "encounter start", name="Theirs"))
    text = await refused(await transfer(h, table.gm, table.bystander))
    listed = ", ".join(f"<#{s.id}>" for s in theirs)
    assert text == (
        f"<@{table.bystander.id}> already runs 3 live encounters ({listed}), the most one member "
        "may run on this server (3; set with `/server settings`). They can end one with "
        "`/encounter end` first, or hand this one to someone else."
    )
    assert await gm_of(bot, h.channel) == table.gm.id
    assert await transfers_logged(bot, h.channel) == []
    # Once they end one, there is a place for this one.
    prompt = await answered(await h.slash(table.bystander, theirs[0], "encounter end"))
    confirm = button(prompt.message, "Confirm")["custom_id"]
    await (await h.click(table.bystander, prompt.message, confirm)).response()
    await ok(await transfer(h, table.gm, table.bystander))
    assert await gm_of(bot, h.channel) == table.bystander.id


async def test_server_gms_are_not_capped(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await gm_fight(h, table, begin=False)
    for scene in scenes(h, 3):
        await ok(await h.slash(table.moderator, scene, "encounter start", name="Mine"))
    await ok(await transfer(h, table.gm, table.moderator))  # Manage Channels: a server GM
    assert await gm_of(bot, h.channel) == table.moderator.id
    # So is a holder of the server's GM role.
    admin = h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))
    gms = h.add_role(h.guild, "GMs")
    role_gm = h.add_member(h.guild, "Role GM", permissions=PLAIN, roles=[gms])
    await ok(await h.slash(admin, h.channel, "gm seat role", role=gms))
    for scene in scenes(h, 6)[3:]:
        await ok(await h.slash(role_gm, scene, "encounter start", name="Role GM's"))
    await ok(await transfer(h, table.moderator, role_gm))
    assert await gm_of(bot, h.channel) == role_gm.id


async def test_a_gms_only_server_hands_encounters_to_gms_and_starters_only(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    admin = h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))
    starters = h.add_role(h.guild, "Storytellers")
    teller = h.add_member(h.guild, "Teller", permissions=PLAIN, roles=[starters])
    saved = await h.slash(
        admin, h.channel, "server settings", {"who_can_start": "gms", "starter_role": starters}
    )
    await saved.response()
    await ok(await h.slash(table.moderator, h.channel, "encounter start", name="Held"))
    text = await refused(await transfer(h, table.moderator, table.bystander))
    assert text == (
        f"<@{table.bystander.id}> cannot take over this encounter: on this server only server "
        "GMs (Manage Server, Manage Channels or the server's GM role) and members with "
        f"<@&{starters.id}> may run encounters. Hand it to one of them, or give them that role "
        "first."
    )
    assert await gm_of(bot, h.channel) == table.moderator.id
    await ok(await transfer(h, table.moderator, teller))
    assert await gm_of(bot, h.channel) == teller.id


async def test_two_quick_transfers_cannot_both_pass_the_cap(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    admin = h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))
    saved = await h.slash(admin, h.channel, "server settings", {"max_encounters": 1})
    await saved.response()
    first, second = scenes(h, 2)
    for scene in (first, second):
        await ok(await h.slash(table.moderator, scene, "encounter start", name=scene.name))
    records = await asyncio.gather(
        h.slash(table.moderator, first, "gm seat transfer", {"member": table.bystander}),
        h.slash(table.moderator, second, "gm seat transfer", {"member": table.bystander}),
    )
    for record in records:
        await record.response()
    assert sorted(r.ephemeral for r in records) == [False, True]
    held = [await gm_of(bot, scene) for scene in (first, second)]
    assert sorted(held) == sorted([table.bystander.id, table.moderator.id])
