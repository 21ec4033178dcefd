"""QA attack (round 21, b): ``/odds``, ``/rehearse``, ``/me`` and the campaign records,
attacked through Discord in each game system."""

from __future__ import annotations

import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, one_on_one, slash
from tests.e2e.conftest import Table
from tests.e2e.test_rehearse import rehearsal, stored
from tests.harness.server import DiscordHarness


async def test_a_fight_rehearsed_past_round_fifty_is_played_not_drawn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The 50-round cap counts the rounds a rehearsal plays from where the fight stands: a
    slow fight in its 51st round was rehearsed as 100 % draws with 50 expected rounds (the cap
    read the fight's own round number, so nothing was played), and one in round 45 only got
    six rounds before its fights were counted drawn."""
    h, gm = discord_harness, table.moderator
    await one_on_one(h, table, "uttas", name="Long night")
    first = await rehearsal(h, table, fights=40, seed=9)
    live = await bot.services.encounters.live(h.channel.id)
    while live.state.round < 51:  # Willow and the Thug trade nothing but ended turns
        await ok(await slash(h, gm, "endturn"))
        live = await bot.services.encounters.live(h.channel.id)
    before = await stored(bot, h)
    late = await rehearsal(h, table, fights=40, seed=9)
    assert late.startswith("**Rehearsal** of this fight from round 51: 40 fights"), late
    assert await stored(bot, h) == before

    def figures(text: str) -> list[str]:
        return re.findall(r"^- .*$|^Expected rounds: .*$", text, re.MULTILINE)

    # Nobody was hurt meanwhile: the same fight, the same seed, the same figures.
    assert figures(late) == figures(first), late
    assert "Draws (nobody left standing, or no side won within 50 rounds): 0 " in late, late
