"""What `/back` and `/encounter recap` say waits on a member (play26, defect 2): they named a
waiting decision by its title — the name of its post, written from one decider's side — so
Vesna's player, back from `/away` while the Stone hound's bite waited on her assisted Block,
read "Waiting on you: Assist Vesna's Block against Crushing bite", as if she were to assist
herself. Both now say what the decision asks of the members it waits on
(:attr:`~bot.services.decisions.Decision.asks`: the words a newly asked member's ping says),
in the system's terms: she rolls the Block when ready; Brannoc may Assist."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, press, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_utopia_assist import newest_with, utopia_fight
from tests.harness.server import DiscordHarness

ASKS = (
    "**Vesna** will block: **Brannoc** may Assist (+1d4 per IA), **Vesna** rolls when ready "
    "(decide <t:"
)


async def test_back_and_recap_say_what_an_assisted_block_asks_of_its_defender(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await utopia_fight(h, table, dice)
    await ok(await slash(h, player, "away"))
    dice.load([8])
    bite = await ok(
        await slash(h, gm, "act", action="attack", target="Vesna", detail="Crushing bite")
    )
    await press(h, gm, bite.message, "Block (1 IA)")  # the GM stands in for Vesna's player
    await newest_with(h, "Roll the Block now")
    away = await answered(await slash(h, player, "encounter recap"))
    text = away.response_data["embeds"][0]["description"]
    assert "⏳ Waiting on the GM for you: **Vesna** will block: **Brannoc** may Assist" in text
    back = await ok(await slash(h, player, "back"))
    said = str(back.response_data.get("content"))
    assert f"⏳ Waiting on you in <#{h.channel.id}>: {ASKS}" in said, said
    assert "Assist Vesna's Block" not in said, said
    recap = await answered(await slash(h, player, "encounter recap"))
    text = recap.response_data["embeds"][0]["description"]
    assert f"⏳ Waiting on you: {ASKS}" in text, text
