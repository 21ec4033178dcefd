"""QA5: effects, periods, the campaign clock and the tracker, attacked through Discord."""

from __future__ import annotations

from bot.client import CombatBot
from bot.engine.uttas.ruleset import UttasRuleset
from tests.e2e.combat_helpers import ok, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.e2e.test_qa5_campaign import end_encounter
from tests.harness.server import DiscordHarness


def tracker_footers(h: DiscordHarness) -> list[str]:
    return [
        (embed.get("footer") or {}).get("text", "")
        for message in h.messages_in(h.channel)
        for embed in message.embeds
        if "Round" in (embed.get("title") or "")
    ]


async def test_the_fight_tracker_names_the_rules_version(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await h.wait_for(lambda: bool(tracker_footers(h)))
    footers = tracker_footers(h)
    assert footers, "no tracker was posted"
    # docs/architecture.md: 'The tracker shows the version ("UTTAS · rules v3")'.
    assert f"rules v{UttasRuleset.rules_version}" in footers[-1], footers[-1]


async def test_a_new_day_brings_a_new_long_rest(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await end_encounter(h, table)
    first = await ok(await slash(h, gm, "campaign rest", kind="long"))
    assert "no benefit" not in first.message.text()
    ended = await ok(await slash(h, gm, "campaign end-of", period="day"))
    assert "The day ends" in ended.message.text()
    again = await ok(await slash(h, gm, "campaign rest", kind="long"))
    # The GM ended the day: the next day's long rest is not "less than 24 hours ago".
    assert "less than 24 hours ago" not in again.message.text(), again.message.text()
