"""``/gm adjust``: the GM's Aid or Drain by hand (UTTAS "Take a Breather": "If character's Body
is increased or decreased using the Aid or Drain powers, the changes to Body only affect the
amount of Stamina the character recovers") — reachable from Discord (issue 11)."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_the_gm_raises_and_lowers_a_characteristic(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    raised = await ok(
        await slash(h, gm, "gm adjust", combatant="Willow", characteristic="Body", change=4)
    )
    assert "Willow's Body is now 14 (+4)" in raised.message.text()
    lowered = await ok(
        await slash(h, gm, "gm adjust", combatant="Thug 1", characteristic="strength", change=-3)
    )
    assert "Thug 1's Strength changes." in lowered.message.text()  # an NPC's numbers are hidden
    assert "now 7" not in lowered.message.text()
    text = await refused(
        await slash(h, gm, "gm adjust", combatant="Willow", characteristic="Luck", change=1)
    )
    assert "UTTAS has no characteristic 'Luck'" in text and "Agility, Body" in text
    text = await refused(
        await slash(h, player, "gm adjust", combatant="Willow", characteristic="Body", change=9)
    )
    assert "Only the GM" in text
    live = await bot.services.encounters.live(h.channel.id)
    willow = next(c for c in live.state.combatants if c.name == "Willow")
    assert willow.characteristic_mods == {"body": 4}


async def test_the_gm_ends_the_fight_and_healing_still_works_after_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/gm end-fight``: the GM stops the fight (a parley, the foes flee) without archiving the
    encounter, so checks and healing after the fight still run before ``/encounter end``."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    text = await refused(await slash(h, player, "gm end-fight"))
    assert "Only the GM" in text
    ended = await ok(await slash(h, gm, "gm end-fight"))
    assert "The fight is over: the Game Master ended it." in ended.message.text()
    text = await refused(await slash(h, gm, "gm end-fight"))
    assert "No fight is running." in text
    status = await slash(h, player, "encounter status")
    await answered(status)
    shown = str(status.response_data)
    assert "The Game Master ended it." in shown and "no side is left standing" not in shown
    checked = await ok(await slash(h, player, "check", skill="Acrobatics", as_="Willow"))
    assert "Willow's Acrobatics" in checked.message.text()
