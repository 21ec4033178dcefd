"""``/odds`` through Discord (issue 18): the exact chance to hit per reaction and the damage,
ephemeral; a hidden NPC's odds only to the GM unless ``show_odds`` allows them; clear refusals
for an unknown target, an attack not on the sheet, no encounter, and a system whose odds are
planned."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, set_up_cast, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def test_odds_in_uttas_respect_hidden_numbers(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    none = await refused(await slash(h, player, "odds", target="Thug 1", with_="Claws"))
    assert "There is no encounter in this channel" in none
    await set_up_fight(h, table, thugs=1)

    hidden = await refused(
        await slash(h, player, "odds", target="Thug 1", with_="Claws", as_="General Bearington")
    )
    assert "numbers are hidden" in hidden and "show_odds" in hidden and "%" not in hidden

    seen = await refused(
        await slash(h, gm, "odds", target="Willow", with_="Claws", as_="General Bearington")
    )
    lines = seen.splitlines()
    assert lines[0].startswith("General Bearington's Claws against Willow")
    assert any(line.startswith("no reaction: ") and "% to hit" in line for line in lines)
    assert any(line.startswith("Evade: ") for line in lines)
    assert "Health: median" in seen and "Stamina: median" in seen and "90 %" in seen

    await ok(await slash(h, gm, "gm settings", show_odds=True))
    allowed = await refused(
        await slash(h, player, "odds", target="Thug 1", with_="Claws", as_="General Bearington")
    )
    assert "% to hit" in allowed and "against Thug 1" in allowed

    nobody = await refused(
        await slash(h, player, "odds", target="Nobody", with_="Claws", as_="General Bearington")
    )
    assert "Nobody" in nobody
    no_axe = await refused(
        await slash(h, player, "odds", target="Thug 1", with_="Axe", as_="General Bearington")
    )
    assert "no attack called 'Axe'" in no_axe


async def test_odds_in_untitled_opposed_with_the_shield(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    pcs, npc = {"Wren": "wren", "Brask": "brask"}, ("bandit-crossbowman", "Bandit crossbowman")
    await set_up_cast(h, table, "untitled", name="Reed ford", pcs=pcs, npc=npc, begin=False)

    seen = await refused(await slash(h, player, "odds", target="Brask", with_="Longbow"))
    lines = seen.splitlines()
    assert lines[0] == "Wren's Longbow against Brask"
    assert lines[1].startswith("Combat Defense alone: ")
    assert "a tie goes to the defender" in lines[1]
    assert lines[2].startswith("Raise the shield: ") and "% to hit" in lines[2]
    assert "Health: median" in seen

    hidden = await refused(
        await slash(h, player, "odds", target="Bandit crossbowman 1", with_="Longbow")
    )
    assert "numbers are hidden" in hidden and "%" not in hidden
    gm_sees = await refused(
        await slash(
            h, gm, "odds", target="Wren", with_="Heavy crossbow", as_="Bandit crossbowman 1"
        )
    )
    assert gm_sees.startswith("Bandit crossbowman 1's Heavy crossbow against Wren")


async def test_odds_in_utopia_with_favor_and_defenses(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    pcs, npc = {"Vesna": "vesna"}, ("bandit-archer", "Bandit archer")
    await set_up_cast(h, table, "utopia", name="Reed ford", pcs=pcs, npc=npc, begin=False)

    hidden = await refused(
        await slash(h, player, "odds", target="Bandit archer 1", with_="Longbow", range=10.0)
    )
    assert "numbers are hidden" in hidden and "%" not in hidden
    await ok(await slash(h, gm, "gm settings", show_odds=True))
    seen = await refused(
        await slash(h, player, "odds", target="Bandit archer 1", with_="Longbow", range=10.0)
    )
    lines = seen.splitlines()
    assert lines[0] == "Vesna's Longbow against Bandit archer 1 at 10 m"
    assert "favor: within close range" in lines[1]
    assert [line.split(":")[0] for line in lines[2:5]] == ["no defense", "Block", "Dodge"]
    assert "% damage gets through" in lines[2] and "to hit" not in seen
    no_range = await refused(
        await slash(h, player, "odds", target="Bandit archer 1", with_="Longbow")
    )
    assert "needs the distance" in no_range
