"""UTTAS "Perform a readied action" through every shortcut (issue 11, "every rule the engine
has must be usable from a slash command"): a readied action may be any of "the above options"
("Ready an Action"), so `/move`, `/skill` and `/power` resolve it with `readied:True` as
`/attack` does, and `stop:True` makes an interruption of a mover's movement end it."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, pass_turns_until, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_a_readied_move_interrupts_a_thug_and_stops_him(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    readied = await ok(
        await slash(h, player, "ready", trigger="movement", watch="Thug 1", action="cut him off")
    )
    assert "Willow readies an action when Thug 1 moves" in readied.message.text()
    await pass_turns_until(bot, h, table, "Thug 1")
    await ok(await slash(h, gm, "move", meters=3.0))
    text = await refused(await slash(h, player, "move", meters=2.0, stop=True, as_="Willow"))
    assert "`stop:` is for a readied action" in text
    cut = await ok(
        await slash(h, player, "move", meters=4.0, readied=True, stop=True, as_="Willow")
    )
    assert "Willow's readied action triggers!" in cut.message.text()
    assert "Thug 1's movement is stopped and ends." in cut.message.text()
    text = await refused(await slash(h, gm, "move", meters=2.0))
    assert "Thug 1's movement was stopped this turn" in text


async def test_a_readied_skill_waits_for_the_enemys_action(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "ready", trigger="action", watch="Thug 1", action="spot him"))
    await pass_turns_until(bot, h, table, "Thug 1")
    text = await refused(
        await slash(h, player, "skill", name="Perception", readied=True, as_="Willow")
    )
    assert "Willow waits for Thug 1 to complete an action" in text
    await ok(await slash(h, gm, "move", meters=2.0, full=True))  # his action
    spotted = await ok(
        await slash(h, player, "skill", name="Perception", readied=True, as_="Willow")
    )
    assert "Willow's readied action triggers!" in spotted.message.text()
    assert "Willow's Perception" in spotted.message.text()
