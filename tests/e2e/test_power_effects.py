"""Powers that are not attacks, through Discord (issue 11): a player's sage with Aid, Barrier,
Invisibility and Drain uses each with ``/power`` — and ``/attack`` for Drain, which adversely
affects its target and so needs an Accuracy roll (UTTAS "Accuracy Checks")."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import against_a_thug, ok, pass_turns_until, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

SAGE = {
    "name": "Sage",
    "agility": 14,
    "ego": 14,
    "speed": 6,
    "stamina": 60,
    "powers": [
        {"name": "Aid", "active_points": 20, "effect": "aid", "characteristic": "strength"},
        {"name": "Wall", "active_points": 20, "effect": "barrier"},
        {"name": "Vanish", "active_points": 20, "effect": "invisibility", "maintained": True},
        {
            "name": "Drain",
            "active_points": 20,
            "effect": "drain",
            "characteristic": "strength",
            "targets": "discipline",
        },
        {"name": "Warp", "active_points": 16, "targets": None, "movement_mode": "warp"},
    ],
}


async def test_a_sage_aids_bars_vanishes_and_drains(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await against_a_thug(h, table, SAGE)

    await pass_turns_until(bot, h, table, "Sage")
    aided = await ok(await slash(h, player, "power", name="Aid", target="Sage"))
    assert "Sage is now Aided Strength" in aided.message.text()
    assert "until the scene ends" in aided.message.text()

    await pass_turns_until(bot, h, table, "Sage")
    # A power that adversely affects someone is an attack; a movement power is a move.
    text = await refused(await slash(h, player, "power", name="Drain", target="Thug 1"))
    assert "Drain is an attack (it needs an Accuracy roll)" in text
    text = await refused(await slash(h, player, "power", name="Warp"))
    assert "Warp moves Sage: use `/move` with `mode:warp`" in text
    text = await refused(await slash(h, player, "power", name="Wall"))
    assert "Name whose way Wall bars" in text
    barred = await ok(await slash(h, player, "power", name="Wall", target="Thug 1"))
    assert "Thug 1 is now Barred 2" in barred.message.text()
    text = await refused(await slash(h, gm, "move", meters=2.0))
    assert "Thug 1 is Barred and cannot move" in text
    await ok(await slash(h, gm, "act", action="break-free"))

    await pass_turns_until(bot, h, table, "Sage")
    vanished = await ok(await slash(h, player, "power", name="Vanish"))
    assert "Sage is now Hidden" in vanished.message.text()
    text = await refused(await slash(h, gm, "attack", target="Sage", with_="Cudgel"))
    assert "Sage is hidden: find them first" in text
