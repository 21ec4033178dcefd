"""Wording defects in what players read, found by issue 24's new-user run
(``tests/e2e/test_newuser24.py`` shows how it played): each test states what a player should
see, through Discord."""

from __future__ import annotations

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import hound_pass, ok, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_reaction_expiry import WINDOW, standing_said, window_over
from tests.e2e.test_standing_reactions_systems import set_rule
from tests.e2e.test_utopia_assist import newest_with
from tests.e2e.uune_steps import Docks
from tests.harness.server import DiscordHarness


async def test_uune_a_turn_lost_to_stunned_is_said_before_the_level_it_takes(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """The GM stunned Tobin; when Mira ended her turn the channel read "Tobin Ash is no longer
    Stunned (a turn lost to it)." and then "Tobin Ash spends the turn stunned." — the level
    was said lost before the turn it was lost to. Uune 7 says them in the order they happen
    (the core's ``after_turn_taken_up``; versions 1 to 6 replay as they were)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False, witch=False)
    await u.run(u.gm, "encounter begin")
    await u.run(u.gm, "gm condition", combatant="Tobin Ash", action="add", name="Stunned")
    said = (await u.run(table.player, "endturn")).message.text()
    spends = said.find("Tobin Ash spends the turn stunned.")
    lost = said.find("Tobin Ash is no longer Stunned (a turn lost to it).")
    assert 0 <= spends < lost, said


async def test_utopia_a_standing_block_is_said_once_on_the_retired_prompt(
    scripted_clocked_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    dice: DiceBox,
    clock: ManualClock,
) -> None:
    """Vesna's player set "block if I can afford it, else take it"; the hound's bite waited on
    her and its window ran out. The retired prompt said "standing reaction" three times: its
    title line ("… — standing reaction: Vesna — Block, set by @…"), the result's line
    ("Standing reaction set by @… for **Vesna**: Block (“…”)") and the footer ("Standing
    reaction: Vesna — Block (“…”)."); the window's notice twice. Each says it once now, in
    the result's line, which names who set it, the choice and the rule."""
    bot, h, gm = scripted_clocked_bot, discord_harness, table.moderator
    await hound_pass(h, table, begin=False)
    dice.load([3, 3, 3] * 3)  # Speed tests all 9: the hound (Speed 6) first
    await ok(await slash(h, gm, "encounter begin"))
    rule = "block if I can afford it, else take it"
    await set_rule(h, table.player, "Vesna", rule)
    dice.load([8])  # the bite
    await ok(await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite"))
    prompt = await newest_with(h, "Block")
    dice.load([2])  # Vesna's Block: 1d4
    clock.advance(WINDOW)
    [result] = await bot.expire_due()
    assert dice.empty and [(u.name, u.label) for u in result.standing] == [("Vesna", "Block")]
    line = f"Standing reaction set by <@{table.player.id}> for **Vesna**: Block (“{rule}”)"
    retired = h.message(prompt)
    assert retired.components == []
    assert retired.content == (
        "Stone hound 1 hits Vesna with Crushing bite — answered as the window ran out."
    ), retired.content
    [notice] = window_over(h)
    for message in (retired, notice):
        [embed] = message.embeds
        assert embed["description"].startswith(line + "\nVesna spends 1 IA to block."), embed
        assert standing_said(message) == 1, (message.content, embed)
