"""The twelfth session's fixes (fix22): the end of a day in a Utopia or Uune fight moves the
fight's clock as the system's text reads a day (Utopia rules version 7, Uune 6, and Untitled 5,
made by the untitled5 task), as UTTAS's version 5 does."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import end_encounter, ok, one_on_one, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

DAY, HOUR = 86_400, 3_600


@pytest.mark.parametrize(
    ("system", "first", "second", "campaign"),
    [
        # Utopia's text has no day of its own: the next begins at 00:00.
        ("utopia", DAY, 2 * DAY, "day 4, 00:00"),
        # Nor has Untitled's (rounds of six seconds; from its rules version 5).
        ("untitled", DAY, 2 * DAY, "day 4, 00:00"),
        # Uune's "Day" lasts "until the following dawn" (06:00): from day 1, 00:00 that is the
        # same date's dawn, then the next date's.
        ("uune", 6 * HOUR, DAY + 6 * HOUR, "day 3, 06:00"),
    ],
)
async def test_the_end_of_a_day_in_a_fight_moves_its_clock_to_the_next_days_start(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    system: str,
    first: int,
    second: int,
    campaign: str,
) -> None:
    """`/gm time end-of period:day` in a Utopia or Uune fight ended the day's effects but left
        the fight's clock on the old day (only UTTAS's version 5 moved it), so the campaign clock
        the fight left behind, and the next fight's, were the old day's. Out of a fight, `/campaign
    end-of` begins the next day when the system's does too (Uune's at dawn)."""
    h, gm = discord_harness, table.moderator
    await one_on_one(h, table, system, name="Night watch")
    await ok(await slash(h, gm, "gm time end-of", period="day"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.game_time_s == first, live.state.game_time_s
    await ok(await slash(h, gm, "gm time end-of", period="quest"))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.game_time_s == second, live.state.game_time_s
    await end_encounter(h, table)
    # The next fight starts from the campaign clock the fight left behind.
    await ok(await slash(h, gm, "encounter start", name="Morning", ruleset=system))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.game_time_s == second, live.state.game_time_s
    await end_encounter(h, table)
    ended = (await ok(await slash(h, gm, "campaign end-of", period="day"))).message.text()
    assert f"campaign time: {campaign}" in ended, ended
