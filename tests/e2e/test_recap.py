"""``/encounter recap [since]`` (issue 17, "Catch-up digest") through Discord: ephemeral, from
the log, since the member's last action (or a moment they name); turns taken, attacks on their
combatants, conditions gained, whose turn it is and what waits on them — rendered for their
audience, so a player never learns an NPC's hidden numbers."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

from bot.client import CombatBot
from bot.services.actor import Actor
from bot.services.recap import gather
from bot.ui.recap import DESCRIPTION_MAX, recap_embed
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.harness.models import Member
from tests.harness.server import DiscordHarness


async def recap_of(h: DiscordHarness, member: Member, **options: Any) -> str:
    """The member's recap (insisting it is ephemeral): its title and description."""
    record = await slash(h, member, "encounter recap", **options)
    await record.response()
    assert record.ephemeral, record.response_data
    [embed] = record.response_data["embeds"]
    return f"{embed['title']}\n{embed['description']}"


async def test_a_player_recap_since_their_last_action_keeps_npc_numbers_hidden(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, gm, player = clocked_bot, discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "endturn"))  # Willow's
    await ok(await slash(h, player, "endturn"))  # General Bearington's: the last action
    await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    await ok(await slash(h, gm, "gm resolve"))
    await ok(await slash(h, gm, "endturn"))
    text = await recap_of(h, player)
    assert text.startswith("Recap of Firewood\nSince your last action (<t:")
    # Thug 1's attack took its turn (UTTAS: one action a turn); the GM ended Thug 2's.
    assert "**Turns taken (2)**\nRound 1: Thug 1, Thug 2\n" in text
    assert "**Thug 1** → **Willow** with Cudgel" in text
    # The channel showed the player the Thug's Accuracy bonus as hidden; so does the recap.
    assert "+ Thug 1's Accuracy bonus (hidden) vs Willow's Dodge" in text
    assert "Accuracy bonus =" not in text
    assert "**Now**\nRound 1: it is **Thug 3**'s turn.\nNothing waits on you." in text
    # The GM, asked since an hour ago, sees every turn since then (and no attack on the NPCs).
    gm_text = await recap_of(h, gm, since="1h")
    assert "**Turns taken (4)**\nRound 1: Willow, General Bearington, Thug 1, Thug 2\n" in gm_text
    assert "**Attacks on your combatants**\nNone." in gm_text
    assert "Waiting on you: **Thug 3**'s turn." in gm_text


async def test_the_recap_says_what_waits_on_you(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, player = clocked_bot, discord_harness, table.player
    await set_up_fight(h, table)
    text = await recap_of(h, player)
    assert "Since your last action (<t:" in text  # joining General Bearington
    assert "**Turns taken**\nNone." in text
    assert "⏳ Waiting on you: **Willow**'s turn." in text
    assert "Since the encounter started." in await recap_of(h, table.bystander)
    await thug_attacks_willow(bot, h, table)
    text = await recap_of(h, player)
    assert "⏳ Waiting on you: **Thug 1** attacks **Willow** with **Cudgel** (decide <t:" in text
    assert "Attacks on your combatants**\nNone." in text  # not resolved yet


async def test_the_recap_says_when_the_turn_deadline_passes(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """A player catching up on a fight with turn deadlines learns when the running turn's
    deadline passes (before, the recap said whose turn it was, never until when); while a
    reaction waits the turn's clock stands still, and the recap says so."""
    bot, h, player, gm = clocked_bot, discord_harness, table.player, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm settings", turn_deadline="12h"))
    clock.advance(5 * 3600)
    due = int((clock() + timedelta(hours=7)).timestamp())
    text = await recap_of(h, player)
    assert f"it is **Willow**'s turn (deadline <t:{due}:R>)." in text, text
    await thug_attacks_willow(bot, h, table)
    text = await recap_of(h, player)
    assert "it is **Thug 1**'s turn (its deadline waits for the decision)." in text, text
    assert "Nothing waits" not in text


async def test_recap_refusals(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    assert "no encounter" in (await refused(await slash(h, player, "encounter recap"))).lower()
    await set_up_fight(h, table)
    assert "is not a duration" in await refused(
        await slash(h, player, "encounter recap", since="soon")
    )
    assert "has not come yet" in await refused(
        await slash(h, player, "encounter recap", since="2099-01-01")
    )
    assert "between 1 minute" in await refused(
        await slash(h, player, "encounter recap", since="31d")
    )


async def test_a_long_recap_keeps_the_newest_lines_within_discord_limits(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Two hundred copies of the fight's log: every section stays within its share, keeps its
    newest lines and says how many earlier ones it left out."""
    bot, h, gm, player = clocked_bot, discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    await ok(await slash(h, gm, "gm resolve"))
    found = await gather(bot.services.encounters, h.channel.id, Actor(player.id), "1h")
    assert found.records
    long = dataclasses.replace(found, records=found.records * 200)
    embed = recap_embed(long)
    assert embed.description is not None
    assert len(embed.description) <= DESCRIPTION_MAX and len(embed) <= 6000
    assert "earlier\n" in embed.description
    assert embed.description.count("**Thug 1** → **Willow** with Cudgel") >= 3
    assert "**Now**\nRound 1: it is **Thug 2**'s turn." in embed.description
