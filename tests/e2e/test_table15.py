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


# ---- 1. a removed helper's help goes; the roll goes on --------------------------------------


async def test_uune_removing_a_helper_drops_only_their_help(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Tobin helped Mira's lock-picking; before the GM approved, the GM removed Tobin. The
    whole roll was called off ("Mira Quell's roll for … is called off") and her action lost,
    though only a helper had gone. Now only his help goes, saying so; the prompt asks again
    and her roll goes on with her own dice."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(table.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    await u.run(table.other_player, "act", action="help", detail="Herbalist")
    removed = await u.run(gm, "gm remove", combatant="Tobin Ash")
    said = removed.message.text()
    assert "called off" not in said, said
    assert "Tobin Ash leaves the encounter and no longer helps Mira Quell's roll." in said, said
    [waiting] = (await scripted_bot.services.encounters.live(h.channel.id)).state.decisions
    assert waiting.helpers == ()  # type: ignore[union-attr]
    rolled = await u.press(gm, "GM: approve all", [5, 6])
    assert "[5] [6] = 2 hits vs 3 needed" in rolled.text(), rolled.text()
    assert "Tobin" not in rolled.text(), rolled.text()


async def test_uune_removing_the_roller_still_calls_the_roll_off(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Removing the roller (not a helper) calls the helped roll off, as before."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(table.player, "act", action="action", detail="pick the lock: Lockpicks", amount=3)
    await u.run(table.other_player, "act", action="help", detail="Herbalist")
    removed = await u.run(gm, "gm remove", combatant="Mira Quell")
    assert "Mira Quell's roll for" in removed.message.text(), removed.message.text()
    assert (await scripted_bot.services.encounters.live(h.channel.id)).state.decisions == []
