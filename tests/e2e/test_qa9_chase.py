"""QA9: chase scenes through Discord (issue 11, "Chase scenes"): the GM removing a member of a
running chase."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def willow_chases_an_arsonist(h: DiscordHarness, table: Table) -> None:
    """Willow (player) chases Arsonist 1 (the moderator's NPC), 12 m apart; Arsonist 2 stays
    out of the chase, so removing either member leaves a fight."""
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Wildfire"))
    await answered(await slash(h, player, "character import", example="willow"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    await answered(await slash(h, gm, "npc import", example="arsonist"))
    await ok(await slash(h, gm, "gm add-npc", template="Arsonist", count=2))
    await ok(await slash(h, gm, "encounter begin"))
    await ok(await slash(h, gm, "gm chase start", quarry="Arsonist 1", pursuer="Willow", gap=12.0))


async def test_the_gm_removes_the_quarry_of_a_running_chase(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await willow_chases_an_arsonist(h, table)
    removed = await answered(await slash(h, table.moderator, "gm remove", combatant="Arsonist 1"))
    assert not removed.ephemeral, removed.response_data
    text = removed.message.text()
    assert "Arsonist 1 leaves the encounter" in text
    assert "chase ends" in text  # nobody is left to chase
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.chase is None  # type: ignore[attr-defined]
    assert "Arsonist 1" not in [c.name for c in live.state.combatants]


async def test_the_gm_removes_the_only_pursuer_of_a_running_chase(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await willow_chases_an_arsonist(h, table)
    removed = await answered(await slash(h, table.moderator, "gm remove", combatant="Willow"))
    assert not removed.ephemeral, removed.response_data
    assert "Willow leaves the encounter" in removed.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert "Willow" not in [c.name for c in live.state.combatants]
    assert live.state.chase is None  # type: ignore[attr-defined]
