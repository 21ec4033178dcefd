"""QA attack (round 26) on Utopia's, Untitled's and Uune's decisions and commands: what a
member typed or pressed, what the channel then read. Each test says what a user saw."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, set_up_cast, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_an_untitled_attack_typed_without_a_weapon_swings_the_one_in_hand(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Wren begins with her Hunting knife drawn and her Longbow put away. Her player typed
    `/act action:attack target:Hill giant 1` and read "Wren's Longbow is put away: draw it
    first (a move action)": a weapon not named was the sheet's first, drawn or not — the turn
    ping's Attack… button had been taught to swing a weapon in hand (2e3b4af), the command it
    stands for had not. The attack with no weapon named now swings the first weapon in hand,
    as the button does (and as README says)."""
    h = discord_harness
    await set_up_cast(
        h,
        table,
        "untitled",
        name="Burnt mill",
        pcs={"Wren": "wren"},
        npc=("hill-giant", "Hill giant"),
    )
    swung = await ok(await slash(h, table.player, "act", action="attack", target="Hill giant 1"))
    assert "Hunting knife" in swung.message.text(), swung.message.text()
