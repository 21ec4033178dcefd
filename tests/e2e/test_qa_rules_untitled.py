"""QA round on Untitled through Discord (qa-rules): what the turn ping's buttons tell a
player to type must be a command the encounter's system takes."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import button, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_qa13_untitled import mill
from tests.e2e.test_turn_ping_buttons import vesnas_ping
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness


async def test_the_pings_attack_question_names_a_command_untitled_takes(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Wren's Attack… on her turn's ping asked "whom? (For another attack, or a range, use
    `/attack`.)" — but `/attack` is refused in Untitled ("not part of Untitled"): the player
    is sent to a command that cannot work. It must name `/act action:attack`."""
    h = discord_harness
    await mill(h, table, Table5(h, table, dice))
    [ping] = [m for m in h.messages_in(h.channel) if m.custom_ids()][-1:]
    opened = await h.click(table.player, ping, button(ping, "Attack…")["custom_id"])
    await opened.response()
    assert opened.ephemeral
    question = str(opened.response_data.get("content"))
    assert "`/act action:attack`" in question, question
    assert "`/attack`" not in question, question
    text = await refused(
        await slash(h, table.player, "attack", target="Hill giant 1", with_="Hunting knife")
    )
    assert "`/attack` is not part of Untitled" in text


async def test_the_pings_attack_question_names_a_command_utopia_takes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The same question in Utopia, whose attack is `/act action:attack` too."""
    h, player = discord_harness, table.player
    ping = await vesnas_ping(bot, h, table)
    opened = await h.click(player, ping, button(ping, "Attack…")["custom_id"])
    await opened.response()
    question = str(opened.response_data.get("content"))
    assert "`/act action:attack`" in question, question
    text = await refused(
        await slash(h, player, "attack", target="Bandit archer 1", with_="Longsword")
    )
    assert "`/attack` is not part of Utopia" in text, text
