"""Table 15: defects earlier QA rounds left open, each played through Discord (slash commands
and buttons against the real bot): a removed helper's help, the order of a removal's lines, an
attacker out of the fight before its attack resolves, and what an Incapacitated NPC allows.
Every die is scripted."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    current_name,
    hound_pass,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.uune_steps import Docks, labels, prompt_with
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
    gm = table.moderator
    await u.tobin_helps_mira()
    removed = await u.run(gm, "gm remove", combatant="Tobin Ash")
    said = removed.message.text()
    assert "called off" not in said, said
    assert "Tobin Ash no longer helps Mira Quell's roll." in said, said
    assert said.count("Tobin Ash leaves the encounter") == 1, said
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
    gm = table.moderator
    await u.tobin_helps_mira()
    removed = await u.run(gm, "gm remove", combatant="Mira Quell")
    assert "Mira Quell's roll for" in removed.message.text(), removed.message.text()
    assert (await scripted_bot.services.encounters.live(h.channel.id)).state.decisions == []


# ---- 3. an attacker out of the fight before its attack resolves: the attack is called off ----


async def _waiting(bot: CombatBot, h: DiscordHarness) -> list[object]:
    return list((await bot.services.encounters.live(h.channel.id)).state.decisions)


async def _closed(h: DiscordHarness, prompt_id: int) -> None:
    """The target's prompt loses its buttons (edited to what happened)."""
    await h.wait_for(lambda: not labels(h.message(_Id(prompt_id))))


class _Id:
    def __init__(self, id: int) -> None:
        self.id = id


async def test_uune_an_npc_attack_whose_attacker_the_gm_incapacitates_is_called_off(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The thug's Cudgel waited on Mira's Defend when the GM set the thug's vitality to 0
    (Incapacitated: "cannot take actions"): Mira could still roll her Defend, and a failed one
    wounded her — a blow from an attacker already out of the fight. The attack is called off,
    the channel told, and her prompt closed."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    gm = table.moderator
    await u.thug_swings_at_mira()
    prompt = await prompt_with(h, "Roll now")
    knocked = await u.run(gm, "gm vital", combatant="Dock Thug 1", vital="vitality", amount="0")
    said = knocked.message.text()
    assert (
        "Dock Thug 1's attack on Mira Quell with Cudgel is called off: Dock Thug 1 is Incapacitated"
        in said
    ), said
    assert await _waiting(scripted_bot, h) == []
    assert "River Witch 1's turn" in said, said
    await _closed(h, prompt.id)


async def test_utopia_an_attack_whose_attacker_the_gm_puts_down_is_called_off(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The hound's bite waited on Vesna's defense when the GM set the hound's DHP to 0 (Down):
    Vesna's "Take it" then took the bite's damage from a creature already out of the fight.
    The attack is called off, the channel told, and her prompt closed."""
    h = discord_harness
    await hound_pass(h, table)
    await ok(await slash(h, table.moderator, "gm add-npc", template="Stone hound"))
    await pass_turns_until(bot, h, table, "Stone hound 1")
    bite = await ok(
        await slash(
            h, table.moderator, "act", action="attack", target="Vesna", detail="Crushing bite"
        )
    )
    down = await ok(
        await slash(
            h, table.moderator, "gm vital", combatant="Stone hound 1", vital="dhp", amount="0"
        )
    )
    said = down.message.text()
    assert (
        "Stone hound 1's attack on Vesna with Crushing bite is called off: Stone hound 1 is Down"
        in said
    ), said
    assert await _waiting(bot, h) == []
    await _closed(h, bite.message.id)


async def test_untitled_an_attack_whose_attacker_the_gm_puts_down_is_cancelled(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Untitled already cancels it (rules version 2): the same guard, the prompt closed."""
    h = discord_harness
    pcs = {"Wren": "wren", "Brask": "brask"}
    await set_up_cast(
        h, table, "untitled", name="Hill", pcs=pcs, npc=("hill-giant", "Hill giant"), count=2
    )
    await pass_turns_until(bot, h, table, "Hill giant 1")
    swing = await ok(await slash(h, table.moderator, "act", action="attack", target="Brask"))
    down = await ok(
        await slash(
            h, table.moderator, "gm vital", combatant="Hill giant 1", vital="health", amount="0"
        )
    )
    said = down.message.text()
    assert "Hill giant 1's attack with Tree-trunk club is cancelled: Hill giant 1 is Down" in said
    assert await _waiting(bot, h) == []
    await _closed(h, swing.message.id)


async def test_uttas_an_attack_whose_attacker_the_gm_knocks_out_is_cancelled(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """UTTAS already cancels it: the same guard, the prompt closed."""
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Thug 1")
    swing = await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
    down = await ok(
        await slash(
            h, table.moderator, "gm vital", combatant="Thug 1", vital="health", amount="-100"
        )
    )
    said = down.message.text()
    assert "Thug 1's Cudgel is cancelled: Thug 1 is" in said, said
    assert await _waiting(bot, h) == []
    await _closed(h, swing.message.id)


async def test_a_removed_npc_attacker_s_attack_is_called_off_and_its_prompt_closed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Removing the attacker (every system cancels it): the target's prompt closes too."""
    h = discord_harness
    await hound_pass(h, table)
    await pass_turns_until(bot, h, table, "Stone hound 1")
    await ok(await slash(h, table.moderator, "gm add-npc", template="Stone hound"))
    bite = await ok(
        await slash(
            h, table.moderator, "act", action="attack", target="Vesna", detail="Crushing bite"
        )
    )
    removed = await ok(await slash(h, table.moderator, "gm remove", combatant="Stone hound 1"))
    assert "Crushing bite is cancelled" in removed.message.text(), removed.message.text()
    assert await _waiting(bot, h) == []
    await _closed(h, bite.message.id)


# ---- 4. Uune: Insight on an Incapacitated NPC --------------------------------------------------


async def test_uune_insight_on_an_incapacitated_npc_is_refused(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The GM set the thug's vitality to 0 (Incapacitated: "cannot take actions"); Mira's
    `/act action:insight target:Dock Thug 1` still opened a roll to read the emotions it
    showed "in response to something" — from an NPC taking no part in any interaction. It is
    refused, ephemerally, saying why, and nothing changes (her action is not spent)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    gm = table.moderator
    await u.run(gm, "encounter begin")
    await u.run(gm, "gm vital", combatant="Dock Thug 1", vital="vitality", amount="0")
    before = (await scripted_bot.services.encounters.live(h.channel.id)).state_json
    text = await refused(
        await slash(h, table.player, "act", action="insight", target="Dock Thug 1")
    )
    assert "Dock Thug 1 is Incapacitated" in text and "Insight" in text, text
    assert (await scripted_bot.services.encounters.live(h.channel.id)).state_json == before
    # An NPC still in the conflict may be read.
    dice.load([1])
    read = await u.run(table.player, "act", action="insight", target="River Witch 1")
    assert "Mira Quell watches River Witch 1" in read.message.text(), read.message.text()
