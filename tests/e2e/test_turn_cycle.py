"""The turn cycle through Discord: two commands for one turn end it once, a GM tool that takes
the turn holder out passes the turn on, and a fight that ends by itself shows who won and
refuses turn commands until the GM closes it."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    current_name,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def order_names(bot: CombatBot, h: DiscordHarness) -> list[str]:
    live = await bot.services.encounters.live(h.channel.id)
    return [live.state.get(cid).name for cid in live.state.order]


async def test_endturn_and_gm_next_together_end_one_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow's player's `/endturn` and the GM's `/gm next`, sent together: Willow's turn ends
    once, the next in order gets their turn, and the later command is refused naming whose turn
    it is now — in every one of several trials."""
    h = discord_harness
    await set_up_fight(h, table, thugs=3)
    order = await order_names(bot, h)
    for _trial in range(4):
        await pass_turns_until(bot, h, table, "Willow")
        live = await bot.services.encounters.live(h.channel.id)
        version = live.version
        nxt = order[(order.index("Willow") + 1) % len(order)]
        first = await slash(h, table.player, "endturn")
        second = await slash(h, table.moderator, "gm next")
        await first.response()
        await second.response()
        answers = sorted([first, second], key=lambda r: r.ephemeral)
        assert not answers[0].ephemeral, answers[0].response_data
        text = answers[1].response_data.get("content", "")
        assert answers[1].ephemeral
        assert text == f"That turn already ended: it is now {nxt}'s.", text
        assert await current_name(bot, h) == nxt
        assert (await bot.services.encounters.live(h.channel.id)).version == version + 1


async def test_two_gm_next_at_once_move_one_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=2)
    order = await order_names(bot, h)
    before = await current_name(bot, h)
    one = await slash(h, table.moderator, "gm next")
    two = await slash(h, table.gm, "gm next")  # not a GM here: refused for that reason
    three = await slash(h, table.moderator, "gm next")
    for record in (one, two, three):
        await record.response()
    assert not one.ephemeral
    assert two.ephemeral and "Only the GM" in two.response_data["content"]
    assert three.ephemeral and "That turn already ended" in three.response_data["content"]
    assert await current_name(bot, h) == order[(order.index(before) + 1) % len(order)]


async def test_gm_killing_the_turn_holder_passes_the_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=3)
    await pass_turns_until(bot, h, table, "Thug 1")
    reply = await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="0"))
    assert await current_name(bot, h) != "Thug 1"
    assert "turn passes on" in h.message(reply.message).text()
    # Knocking out the turn holder does the same.
    holder = await current_name(bot, h)
    await ok(await slash(h, table.moderator, "gm hp", combatant=holder, stamina="0"))
    assert await current_name(bot, h) != holder


async def test_a_fight_that_ends_by_itself_stays_over_until_the_gm_closes_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    last = await ok(await slash(h, table.moderator, "gm hp", combatant="Thug 1", health="0"))
    assert "The fight is over" in h.message(last.message).text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.phase == "finished" and live.state.winner == "party"

    def tracker_text() -> str:
        trackers = [m for m in h.messages_in(h.channel) if "player view" in m.text()]
        return trackers[-1].text() if trackers else ""

    await h.wait_for(lambda: "**party** won" in tracker_text())
    assert "/encounter end" in tracker_text()
    status = await slash(h, table.player, "encounter status")
    await status.response()
    assert "**party** won" in str(status.response_data)
    over = "The fight is over (party won). The GM closes it with `/encounter end`."
    assert await refused(await slash(h, table.player, "attack", target="Thug 1", with_="Staff"))
    attack = await slash(h, table.player, "endturn")
    assert await refused(attack) == over
    begin = await slash(h, table.moderator, "encounter begin")
    text = await refused(begin)
    assert text.startswith(over)
    # Nobody was pinged by any of that.
    for record in (attack, begin):
        assert "<@" not in (record.response_data.get("content") or "").replace("/encounter end", "")
    assert (await bot.services.encounters.live(h.channel.id)).version == live.version
