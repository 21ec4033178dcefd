"""QA round 10: `/gm adjust` (Aid or Drain by hand) and how long it lasts; `stop:` on a readied
action that watches no movement."""

from __future__ import annotations

from pathlib import Path

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    end_encounter,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    version,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

README_TEXT = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


async def test_gm_adjust_lasts_for_the_encounter_as_the_readme_says(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """QA10 found the README promising that `/gm adjust` lasts "until the GM changes it back"
    while the next encounter started from the sheet; the README now says what the bot does:
    for the rest of the encounter, and a character's next encounter starts from its sheet."""
    readme = README_TEXT
    assert (
        "for the rest of the encounter" in readme and "until the GM changes it back" not in readme
    )
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    raised = await ok(
        await slash(h, gm, "gm adjust", combatant="Willow", characteristic="Body", change=4)
    )
    assert "Willow's Body is now 14 (+4)" in raised.message.text()
    await end_encounter(h, table)

    await ok(await slash(h, gm, "encounter start", name="Second fight"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    again = await ok(
        await slash(h, gm, "gm adjust", combatant="Willow", characteristic="Body", change=1)
    )
    assert "Willow's Body is now 11 (+1)" in again.message.text()


async def test_stop_on_a_readied_action_that_watches_no_movement_is_refused(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "ready", trigger="action", watch="Thug 1", action="spot him"))
    await pass_turns_until(bot, h, table, "Thug 1")
    await ok(await slash(h, gm, "move", meters=2.0, full=True))  # his action: the trigger
    before = await version(bot, h)
    text = await refused(
        await slash(h, player, "skill", name="Perception", readied=True, stop=True, as_="Willow")
    )
    assert "stop:" in text
    assert await version(bot, h) == before
