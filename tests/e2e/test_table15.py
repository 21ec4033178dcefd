"""Table 15: defects earlier QA rounds left open, each played through Discord (slash commands
and buttons against the real bot): a removed helper's help, the order of a removal's lines, an
attacker out of the fight before its attack resolves, and what an Incapacitated NPC allows.
Every die is scripted."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    current_name,
    hound_pass,
    ok,
    pass_turns_until,
    set_up_cast,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks
from tests.harness.server import DiscordHarness

# ---- 2. the removal is said before whose turn it is ------------------------------------------


async def _remove_the_current(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    """The GM removes the combatant whose turn it is: the channel reads that they leave, then
    whose turn it is now (before, the next turn was announced above the leaving)."""
    leaver = await current_name(bot, h)
    removed = await ok(await slash(h, table.moderator, "gm remove", combatant=leaver))
    # The embed (the ping above it, in the message's content, names the new turn's holder).
    text = "\n".join(e.get("description") or "" for e in removed.message.embeds)
    after = await current_name(bot, h)
    assert after != leaver
    left = text.index(f"{leaver} leaves the encounter")
    assert left < text.index(f"{after}'s turn"), text


async def test_uttas_removal_of_the_turn_holder_reads_leave_then_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    await set_up_fight(discord_harness, table)
    await _remove_the_current(bot, discord_harness, table)


async def test_utopia_removal_of_the_turn_holder_reads_leave_then_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await hound_pass(h, table)
    await pass_turns_until(bot, h, table, "Vesna")
    await _remove_the_current(bot, h, table)


async def test_untitled_removal_of_the_turn_holder_reads_leave_then_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_cast(
        h,
        table,
        "untitled",
        name="Burnt mill",
        pcs={"Wren": "wren", "Brask": "brask"},
        npc=("hill-giant", "Hill giant"),
        count=2,
    )
    await _remove_the_current(bot, h, table)


async def test_uune_removal_of_the_turn_holder_reads_leave_then_turn(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    u = Docks(scripted_bot, discord_harness, table, dice)
    await u.cast()
    await u.run(table.moderator, "encounter begin")
    await _remove_the_current(scripted_bot, discord_harness, table)
