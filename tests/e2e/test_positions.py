"""Positions through Discord (issue 10, decision E): the GM declares distances and melee with
``/gm place``; the encounter's status shows them; players may not place anyone."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_the_gm_places_combatants_and_everyone_sees_where(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    placed = await ok(await slash(h, gm, "gm place distance", a="Willow", b="Thug 2", meters=12))
    assert "Willow and Thug 2 are 12 m apart." in placed.message.text()
    await ok(await slash(h, gm, "gm place engage", a="Willow", b="Thug 1"))
    text = await refused(await slash(h, table.player, "gm place engage", a="Willow", b="Thug 3"))
    assert "Only the GM can" in text
    status = await h.slash(table.player, h.channel, "encounter status")
    await status.response()
    shown = str(status.response_data)
    assert "Thug 1 ⚔ Willow" in shown and "Thug 2 ↔ Willow: 12 m" in shown
    names = await h.autocomplete(gm, h.channel, "gm place apart", focused="combatant", value="Wi")
    assert [c["value"] for c in names] == ["Willow"]
    await ok(await slash(h, gm, "gm place apart", combatant="Willow"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.positions.engaged == ()
    text = await refused(await slash(h, gm, "gm place engage", a="Willow", b="Willow"))
    assert "Name two different combatants." in text
