"""Utopia's off-turn attack through Discord ("Interchanging Actions": "If you possess a weapon,
that uses 1TA to attack, you are allowed to use your 2IA to attack on OTHER creature's turn! Be
careful, though: if you spend your IA on an attack, you cannot defend, until it's the next
creature's turn"): on the Stone hound's turn Vesna stabs it with her Knife paid with 2 IA and
reads the warning; the hound's bite then finds her with no defense buttons, and the channel is
told why."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_utopia_assist import ia_of, utopia_fight
from tests.harness.server import DiscordHarness


async def test_an_attack_paid_with_ia_warns_and_leaves_no_defense_buttons(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, gm = discord_harness, table.moderator
    await utopia_fight(h, table, dice)  # the hound's turn
    text = await refused(await slash(h, table.player, "act", action="assist", target="Brannoc"))
    assert "Assist on a Block or Dodge is a button" in text
    dice.load([4])  # Knife 1d4 [4] + Dexterity 3 = 7, − the hound's 3 = 4
    stab = await ok(
        await slash(h, table.player, "act", action="attack", target="Stone hound 1", detail="Knife")
    )
    shown = str(stab.response_data)
    assert "Vesna spends 2 IA to attack Stone hound 1 with Knife" in shown, shown
    assert "they cannot defend until the next creature's turn" in shown, shown
    assert await ia_of(scripted_bot, h, "Vesna") == 0
    dice.load([5])  # the bite: 1d10 [5] + 2 = 7, − Vesna's 2 = 5
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    assert bite.message.components == [], "no defense buttons for Vesna"
    shown = str(bite.response_data)
    assert (
        "Vesna cannot defend (they attacked with interrupt actions: they cannot defend until the "
        "next creature's turn): takes 5 of 5 from Crushing bite" in shown
    ), shown
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == []
