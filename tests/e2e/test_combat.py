"""Combat through slash commands and reaction buttons: who may press what, exactly-once
decisions, and every refusal — each ephemeral and leaving the encounter untouched."""

from __future__ import annotations

import asyncio

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    button,
    current_name,
    ok,
    press,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
    version,
)
from tests.e2e.conftest import Table
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness


async def test_player_reacts_with_a_button(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    assert f"<@{table.player.id}>" in prompt.content
    labels = [c["label"] for row in prompt.components for c in row["components"]]
    assert labels[:4] == [
        "Take it (no reaction)",
        "Evade (1 action)",
        "Block (1 action)",
        "Move (1 action)",
    ]
    assert "Take the hit for Willow (1 action)" in labels  # the bear could intercept
    # While the attack waits, the turn does not advance.
    text = await refused(await slash(h, table.moderator, "endturn"))
    assert "waiting" in text.lower() or "react" in text.lower()

    before = await version(bot, h)
    click = await press(h, table.player, prompt, "Evade")
    seen = h.message(prompt).text()
    assert "Willow reacts: Evade" in seen
    assert "🎲" in seen and " vs Willow's Dodge " in seen
    assert h.message(prompt).components == []
    assert click.response_type == 7  # the prompt became the result
    assert await version(bot, h) == before + 1


async def test_wrong_member_click_is_refused_and_changes_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    before = await version(bot, h)
    for member in (table.bystander, table.other_player):
        click = await h.click(member, prompt, button(prompt, "Evade")["custom_id"])
        await click.response()
        assert click.ephemeral
        assert "Only **Willow**'s controller or the GM" in click.response_data["content"]
    intercept = await h.click(table.bystander, prompt, button(prompt, "Take the hit")["custom_id"])
    await intercept.response()
    assert intercept.ephemeral
    assert await version(bot, h) == before
    assert h.message(prompt).components  # still waiting


async def test_two_members_clicking_at_once_apply_exactly_one_choice(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    before = await version(bot, h)
    evade, block = button(prompt, "Evade")["custom_id"], button(prompt, "Block")["custom_id"]
    clicks = await asyncio.gather(
        h.click(table.player, prompt, evade),
        h.click(table.moderator, prompt, block),
        h.click(table.player, prompt, evade),
    )
    await asyncio.gather(*(c.response() for c in clicks))
    applied = [c for c in clicks if not c.ephemeral]
    stale = [c for c in clicks if c.ephemeral]
    assert len(applied) == 1
    assert len(stale) == 2
    assert all("no longer pending" in c.response_data["content"] for c in stale)
    assert await version(bot, h) == before + 1
    log = await bot.services.encounters.log((await bot.services.encounters.live(h.channel.id)).id)
    assert [e.command for e in log].count("react") == 1


async def test_stale_click_after_the_turn_moved_on(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    old = h.message(prompt)
    stale_id = button(old, "Block")["custom_id"]
    await press(h, table.player, prompt, "Take it")
    assert await current_name(bot, h) != "Thug 1"  # the turn moved on
    before = await version(bot, h)
    click = await h.click(table.player, _with_components(h, prompt, old), stale_id)
    await click.response()
    assert click.ephemeral
    assert "no longer pending" in click.response_data["content"]
    assert await version(bot, h) == before


def _with_components(h: DiscordHarness, prompt: StoredMessage, old: StoredMessage) -> StoredMessage:
    """A member whose client still shows the old buttons (Discord clients lag): put the old
    components back on the stored message so the click carries them."""
    latest = h.message(prompt)
    latest.payload["components"] = old.versions[0].get("components", [])
    return latest


async def test_dodge_and_block_commands_answer_the_waiting_attack(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    text = await refused(await slash(h, table.player, "dodge"))
    assert "No attack is waiting" in text
    prompt = await thug_attacks_willow(bot, h, table)
    text = await refused(await slash(h, table.bystander, "block"))
    assert "not yours" in text
    record = await ok(await slash(h, table.player, "block"))
    assert "Willow reacts: Block" in record.message.text()
    await h.wait_for(lambda: h.message(prompt).components == [])  # the old buttons go
