"""UTTAS "Healing" through Discord (issue 11): Willow's Heal power on General Bearington during
the fight (it used to be accepted and change nothing), her First Aid with `/act`, and healing
after the fight is over — before the GM closes the encounter, which keeps the Health in the
characters' campaign records."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    end_encounter,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


async def health_of(bot: CombatBot, h: DiscordHarness, name: str) -> int:
    live = await bot.services.encounters.live(h.channel.id)
    return int(next(c for c in live.state.combatants if c.name == name).health)


async def test_willow_heals_the_general_in_the_fight_and_after_it(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="General Bearington", health="-6"))
    assert await health_of(bot, h, "General Bearington") == 24
    await pass_turns_until(bot, h, table, "Willow")
    healed = await ok(await slash(h, player, "power", name="Heal", target="General Bearington"))
    after = await health_of(bot, h, "General Bearington")
    assert 24 < after <= 30
    assert f"General Bearington regains {after - 24} Health" in str(healed.message.embeds)
    # Nobody is hurt enough to heal now: refused with the reason, nothing spent.
    if after == 30:
        await pass_turns_until(bot, h, table, "Willow")
        text = await refused(
            await slash(h, player, "power", name="Heal", target="General Bearington")
        )
        assert "no Health damage" in text

    # The fight ends (the thugs drop); healing goes on without turns until the encounter closes.
    await ok(await slash(h, gm, "gm hp", combatant="Willow", health="-5"))
    for thug in ("Thug 1", "Thug 2", "Thug 3"):
        await ok(await slash(h, gm, "gm hp", combatant=thug, health="0"))
    assert (await bot.services.encounters.live(h.channel.id)).state.phase == "finished"
    before = await health_of(bot, h, "Willow")
    aid = await ok(await slash(h, player, "act", action="first-aid", target="Willow", as_="Willow"))
    assert "First Aid" in str(aid.message.embeds)
    assert await health_of(bot, h, "Willow") >= before
    text = await refused(await slash(h, player, "act", action="breather", as_="Willow"))
    assert "fight" in text.casefold()
    await end_encounter(h, table)


async def test_the_gm_burns_willow_with_a_hazard(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm damage` (issue 11, hazards: the chase's burning bush): the hazard's d6s go through
    Willow's Armor and Defense like a hit; a player may not use it."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    text = await refused(await slash(h, player, "gm damage", target="Willow", dice=2))
    assert "Only the GM" in text or "GM" in text
    burned = await ok(
        await slash(h, gm, "gm damage", target="Willow", dice=2, type="heat", source="fire")
    )
    shown = str(burned.message.embeds)
    # The line starts a sentence too (the GM typed "fire"): "Fire hurts Willow: fire (heat)…"
    assert "Fire hurts Willow: fire (heat)" in shown and "Armor" in shown, shown
    assert "fire hurts" not in shown, shown
    # the title starts a sentence: "Fire hurts Willow", not "fire hurts Willow"
    assert burned.message.embeds[0]["title"] == "Fire hurts Willow", burned.message.embeds
    live = await bot.services.encounters.live(h.channel.id)
    willow = next(c for c in live.state.combatants if c.name == "Willow")
    assert willow.health == 16 - int(shown.split(" Health and ")[0].rsplit(" ", 1)[-1])


async def test_a_check_before_the_fight_begins(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/check` outside a fight (issue 11): Willow searches the woods before anyone attacks;
    a turn command is still refused until the fight begins."""
    h, player = discord_harness, table.player
    await set_up_fight(h, table, begin=False)
    checked = await ok(
        await slash(h, player, "check", skill="Perception", difficulty=5, as_="Willow")
    )
    assert "Perception" in str(checked.message.embeds)
    text = await refused(await slash(h, player, "act", action="breather", as_="Willow"))
    assert "has not begun" in text


async def test_thug_1_breaks_out_of_willows_entangle_in_two_attempts(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Bindings (issue 11; the chase: "breaks down half of it"): `/act action:break-free` is an
    action that breaks one of an Entangle's two parts; the second attempt frees the thug."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm condition", combatant="Thug 1", action="add", name="Entangled"))
    live = await bot.services.encounters.live(h.channel.id)
    thug = next(c for c in live.state.combatants if c.name == "Thug 1")
    assert thug.has("Entangled")
    await pass_turns_until(bot, h, table, "Thug 1")
    broke = await ok(await slash(h, gm, "act", action="break-free"))
    assert "Thug 1 is now Entangled" in str(broke.message.embeds)  # half of it is left
    await pass_turns_until(bot, h, table, "Thug 1")
    broke = await ok(await slash(h, gm, "act", action="break-free"))
    assert "no longer Entangled" in str(broke.message.embeds)
    live = await bot.services.encounters.live(h.channel.id)
    assert not next(c for c in live.state.combatants if c.name == "Thug 1").has("Entangled")
    text = await refused(await slash(h, gm, "act", action="break-free", as_="Thug 2"))
    assert "bound by nothing" in text or "turn" in text
