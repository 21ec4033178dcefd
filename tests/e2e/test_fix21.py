"""Defects left open after round 20, each driven through the real bot (slash command or button
→ service → SQLite → what the channel and the member see)."""

from __future__ import annotations

from typing import Any

import discord

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    answered,
    button,
    coordinated_thugs,
    ok,
    pass_turns_until,
    refused,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.e2e.test_reaction_expiry import WINDOW
from tests.harness.models import Member, Role
from tests.harness.server import DiscordHarness


async def test_the_turn_pings_attack_strikes_together_with_a_readied_coordinated_attack(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`together:` (UTTAS's coordinated attacks) was on `/attack` only: the turn ping's
    "Attack…" offered Willow alone, so the Thug whose partner readied a coordinated Cudgel on
    her could strike only without it from the ping. The ping's target list now offers
    "Willow, together with Thug 1" (as `/attack together:` does), and picking it strikes
    together; Willow alone stays offered."""
    h, gm = discord_harness, table.moderator
    first, second = await coordinated_thugs(bot, h, table)
    [ping] = [m for m in h.messages_in(h.channel) if f"**{second}**'s turn" in m.content][-1:]
    asked = await h.click(gm, ping, button(ping, "Attack…")["custom_id"])
    await asked.response()
    [select] = [c for c in asked.message.all_components() if c.get("type") == 3]
    labels = [o["label"] for o in select["options"]]
    assert f"Willow, together with {first}" in labels and "Willow" in labels, labels
    together = next(o["value"] for o in select["options"] if "together" in o["label"])
    attacked = await h.select(gm, asked.message, select["custom_id"], [together])
    await attacked.response()
    assert not attacked.ephemeral, attacked.response_data
    assert "attacks Willow" in attacked.message.text(), attacked.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    (waiting,) = live.state.decisions
    assert live.state.get(waiting.attacker).name == second
    assert [live.state.get(a).name for a in waiting.joint] == [first], waiting.joint
    assert live.state.get(next(iter(waiting.joint))).readied is None


async def test_act_attack_in_uttas_points_to_attack_together(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS's `/act` has no attack (attacks are `/attack`): `/act action:attack` is refused,
    and the refusal names `/attack` with its `together:` for a coordinated attack, so a
    member whose ally readied one knows where it is made."""
    h, gm = discord_harness, table.moderator
    _, second = await coordinated_thugs(bot, h, table)
    text = await refused(await slash(h, gm, "act", action="attack", target="Willow", as_=second))
    assert "`/attack`" in text and "`together:`" in text, text
    live = await bot.services.encounters.live(h.channel.id)
    assert not live.state.decisions


# ---- a standing reaction set by a GM by role or by Manage Channels applies ---------------------

PLAIN = discord.Permissions(send_messages=True, view_channel=True)


async def _gm_sets_willows_standing_reaction(
    bot: CombatBot, h: DiscordHarness, table: Table, setter: Member
) -> str:
    """The named GM (Gemma) runs the fight; ``setter`` — a GM some way — sets Willow's
    standing reaction "evade". Returns the reply."""
    gm = table.gm
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, table.moderator, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=3))
    await answered(await slash(h, table.player, "character import", example="willow"))
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    await ok(await slash(h, gm, "encounter begin"))
    record = await answered(
        await slash(h, setter, "me reactions", combatant="Willow", rule="evade")
    )
    assert record.ephemeral, record.response_data
    return str(record.response_data["content"])


async def role_gm_sets_willows_standing_reaction(
    bot: CombatBot, h: DiscordHarness, table: Table
) -> tuple[Member, Role, Member]:
    """An admin makes "GMs" the server's GM role; its holder (not the seat's GM) sets Willow's
    standing reaction, told it applies while that role is the fight's GM role. Returns
    ``(admin, the role, its holder)``."""
    admin = h.add_member(h.guild, "Admin", permissions=discord.Permissions(manage_guild=True))
    gms = h.add_role(h.guild, "GMs")
    role_gm = h.add_member(h.guild, "Role GM", permissions=PLAIN, roles=[gms])
    await ok(await h.slash(admin, h.channel, "gm seat role", {"role": gms}))
    reply = await _gm_sets_willows_standing_reaction(bot, h, table, role_gm)
    assert f"It applies while <@&{gms.id}> is this fight's GM role." in reply, reply
    return admin, gms, role_gm


async def _the_window_runs_out_for_willow(
    bot: CombatBot, h: DiscordHarness, table: Table, clock: ManualClock
) -> Any:
    await thug_attacks_willow(bot, h, table)
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    return result


async def test_a_standing_reaction_set_by_the_named_gm_applies(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """The GM named by the encounter's seat sets Willow's standing reaction: it applies while
    they hold the seat (the way the others below are measured against)."""
    bot, h = clocked_bot, discord_harness
    reply = await _gm_sets_willows_standing_reaction(bot, h, table, table.gm)
    assert "It applies while you hold this fight's GM seat." in reply, reply
    result = await _the_window_runs_out_for_willow(bot, h, table, clock)
    assert [(use.label, use.set_by) for use in result.standing] == [("Evade", table.gm.id)]


async def test_a_standing_reaction_set_by_a_gm_by_manage_channels_applies(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """A moderator with Manage Channels — a GM of every fight in the channel, though not the
    seat's — set Willow's standing reaction; it was refused nothing, said "It does not apply
    while <@Gemma> holds the GM seat", and her window lapsed with no reaction (fix20a made a
    standing reaction apply only while its setter acts for the combatant, and counted only the
    seat's GM). It now applies as the named GM's does, and says so."""
    bot, h, moderator = clocked_bot, discord_harness, table.moderator
    reply = await _gm_sets_willows_standing_reaction(bot, h, table, moderator)
    assert "It applies while you may manage this channel" in reply, reply
    listed = await answered(await slash(h, moderator, "me reactions", combatant="Willow"))
    assert "does not apply" not in str(listed.response_data["content"]), listed.response_data
    result = await _the_window_runs_out_for_willow(bot, h, table, clock)
    assert [(use.label, use.set_by) for use in result.standing] == [("Evade", moderator.id)]


async def test_a_standing_reaction_set_by_a_gm_by_role_applies_while_the_role_is_the_gms(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table, clock: ManualClock
) -> None:
    """A holder of the server's GM role set Willow's standing reaction and it never applied
    (only the seat's GM counted). It applies now — and, as the named GM's ends when the seat
    is handed on, it ends when the server's GM role is changed."""
    bot, h = clocked_bot, discord_harness
    admin, _gms, role_gm = await role_gm_sets_willows_standing_reaction(bot, h, table)
    result = await _the_window_runs_out_for_willow(bot, h, table, clock)
    assert [(use.label, use.set_by) for use in result.standing] == [("Evade", role_gm.id)]
    # The GM role changes: the role GM no longer acts for Willow, and the list says so.
    await ok(await h.slash(admin, h.channel, "gm seat role", {"role": h.add_role(h.guild, "New")}))
    listed = await answered(await slash(h, table.gm, "me reactions", combatant="Willow"))
    assert "— does not apply now" in str(listed.response_data["content"]), listed.response_data
    await pass_turns_until(bot, h, table, "Thug 2")
    await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    clock.advance(WINDOW)
    [lapsed] = await bot.expire_due()
    assert lapsed.standing == (), lapsed.standing
