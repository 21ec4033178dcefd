"""``/odds`` in Uune through Discord (issue 18): the chance for a stated number of approved
resources (a count, names from the roller's sheet, or a line per count), a PC's Attack against
an NPC's Defensiveness and an NPC's attack answered by the PC's Defend; a hidden NPC's odds only
with ``show_odds``; ``resources:`` refused where a system counts none."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_uune_odds_for_stated_resources(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Dock nine", ruleset="uune"))
    await answered(await slash(h, player, "character import", example="mira"))
    await answered(await slash(h, player, "encounter join", character="Mira Quell"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Dock Thug"))

    hidden = await refused(await slash(h, player, "odds", target="Dock Thug 1", with_="Attack"))
    assert "numbers are hidden" in hidden and "%" not in hidden
    await ok(await slash(h, gm, "gm settings", show_odds=True))

    two = await refused(
        await slash(h, player, "odds", target="Dock Thug 1", with_="Attack", resources="2")
    )
    lines = two.splitlines()
    assert lines[0] == "Mira Quell's Attack against Dock Thug 1"
    assert "not counted: Help" in lines[1]
    assert lines[2] == ("2 resources: 3.7 % to hit — 3d6, hits on 5+, 3 needed (Defensiveness 3)")

    every = await refused(await slash(h, player, "odds", target="Dock Thug 1", with_="Attack"))
    counts = [line.split(":")[0] for line in every.splitlines()[2:]]
    assert counts == ["no resources", "1 resource", "2 resources", "3 resources", "4 resources"]
    assert every.splitlines()[2].startswith("no resources: 0 % to hit")

    named = await refused(
        await slash(
            h,
            player,
            "odds",
            target="Dock Thug 1",
            with_="Attack",
            resources="Quickblade, Lockpicks",
        )
    )
    assert named.splitlines()[2].startswith("Quickblade, Lockpicks: 3.7 % to hit — 3d6")
    unknown = await refused(
        await slash(h, player, "odds", target="Dock Thug 1", with_="Attack", resources="Rope")
    )
    assert "no resource called 'Rope'" in unknown and "Quickblade" in unknown

    defend = await refused(
        await slash(
            h, gm, "odds", target="Mira Quell", with_="Cudgel", as_="Dock Thug 1", resources="1"
        )
    )
    lines = defend.splitlines()
    assert lines[0] == "Dock Thug 1's Cudgel against Mira Quell (who Defends)"
    # 2d6 must make 3 hits to Defend: never, so the Cudgel always lands
    assert lines[2].startswith("Mira Quell's Defend with 1 resource: 100 % to hit")


async def test_resources_are_refused_where_a_system_counts_none(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    text = await refused(
        await slash(
            h, table.moderator, "odds", target="Willow", with_="Cudgel", as_="Thug 1", resources="2"
        )
    )
    assert "odds do not count resources" in text and "%" not in text
