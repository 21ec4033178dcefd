"""The GM's tools in a Utopia fight, through Discord: ``/gm vital`` sets SHP, DHP, Stamina and
the TA and IA left (the interrupt actions other aid costs are "up to GM discretion",
"Assist"), named as the text writes them, and an NPC's numbers stay the GM's."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_qa11_utopia import BANDIT, _utopia_fight
from tests.harness.server import DiscordHarness


async def test_the_gm_spends_an_interrupt_action_for_other_aid(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    await _utopia_fight(h, table, dice)
    gm = table.moderator
    record = await ok(await slash(h, gm, "gm vital", combatant="Vesna", vital="ia", amount="-1"))
    text = (await record.original_message()).text()
    assert "The GM adjusts Vesna's IA" in text and "1 IA" in text
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.find("Vesna").pools["interrupt"] == 1
    record = await ok(await slash(h, gm, "gm vital", combatant=BANDIT, vital="ta", amount="2"))
    public = (await record.original_message()).text()
    assert "The GM changes Bandit archer 1's vitals." in public and "2 TA" not in public
    vitals = await h.autocomplete(gm, h.channel, "gm vital", focused="vital", value="")
    assert {"ta", "ia"} <= {c["value"] for c in vitals}
    text = await refused(
        await slash(h, gm, "gm vital", combatant="Vesna", vital="mana", amount="1")
    )
    assert "shp, dhp, stamina, ta or ia" in text
