"""QA round 10: `/gm adjust` (Aid or Drain by hand) and how long it lasts."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import end_encounter, ok, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


@pytest.mark.xfail(
    strict=True,
    reason="QA10: README says /gm adjust holds 'until the GM changes it back', but the change "
    "is not in the campaign record: after /encounter end Willow joins her next fight with her "
    "natural Body, silently (a further +1 reads 'now 11 (+1)', not 'now 15 (+5)')",
)
async def test_gm_adjust_lasts_until_the_gm_changes_it_back(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    raised = await ok(
        await slash(h, gm, "gm adjust", combatant="Willow", characteristic="Body", change=4)
    )
    assert "Willow's body is now 14 (+4)" in raised.message.text()
    await end_encounter(h, table)

    await ok(await slash(h, gm, "encounter start", name="Second fight"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    again = await ok(
        await slash(h, gm, "gm adjust", combatant="Willow", characteristic="Body", change=1)
    )
    assert "Willow's body is now 15 (+5)" in again.message.text()
