"""``/act`` and ``/check`` (issue 10, decision D): the encounter's ruleset declares its actions
as data — autocompleted with their costs — and builds the command; what its system does not
have, or an option an action needs, is refused with a specific message and nothing changes."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    version,
    winded,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def willow(bot: CombatBot, h: DiscordHarness):  # type: ignore[no-untyped-def]
    return (await bot.services.encounters.live(h.channel.id)).state.find("Willow")


async def test_act_takes_the_rulesets_actions(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    listed = await h.autocomplete(player, h.channel, "act", focused="action", value="")
    names = [c["name"] for c in listed]
    assert "Take a Breather — 1 action; ends the turn" in names
    assert "Enter a Stance — free at the start of your turn, then 1 action" in names
    assert [
        c["name"]
        for c in await h.autocomplete(player, h.channel, "act", focused="action", value="spri")
    ] == ["Sprint — 1 action + Stamina; ends the turn; Dexterity halved until your next turn"]

    done = await ok(await slash(h, player, "act", action="stance", detail="Steady"))
    assert "Steady" in done.message.text()
    assert (await willow(bot, h)).stance == "Steady"

    before = await version(bot, h)
    for options, words in (
        ({"action": "fly"}, "UTTAS has no action `fly`. Its actions: stance, move"),
        ({"action": "stance"}, "**Enter a Stance** needs `detail:` — the stance."),
        ({"action": "breather", "target": "Thug 1"}, "**Take a Breather** takes no `target:`."),
        ({"action": "sprint"}, "needs `amount:` — the meters to move."),
        ({"action": "move", "amount": 3, "detail": "hop"}, "Move how? `detail:` is one of run"),
        ({"action": "skill", "detail": "Tracking", "amount": 2.5}, "A difficulty is a whole"),
    ):
        text = await refused(await h.slash(player, h.channel, "act", options))
        assert words in text, (options, text)
    assert await version(bot, h) == before  # nothing was applied

    await winded(h, table, "Willow")  # a breather at full Stamina is refused
    breather = await ok(await slash(h, player, "act", action="breather"))
    assert "takes a breather" in breather.message.text()
    assert (await willow(bot, h)).breathing


async def test_check_rolls_a_skill_of_the_sheet(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    skills = await h.autocomplete(player, h.channel, "check", focused="skill", value="tr")
    assert [c["value"] for c in skills] == ["Tracking"]
    checked = await ok(await slash(h, player, "check", skill="Tracking", difficulty=12))
    assert "Tracking" in checked.message.text()
    text = await refused(await slash(h, player, "check", skill="Juggling"))
    assert "Juggling" in text
