"""Effects through Discord: ``/gm condition lasts:`` puts a condition on for a time the turn
cycle counts, and ``/gm time end-of`` ends a scene, day, quest or arc with its effects."""

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


async def test_a_condition_that_lasts_until_its_owners_next_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    given = await ok(
        await slash(
            h,
            gm,
            "gm condition",
            combatant="Thug 1",
            action="add",
            name="Prone",
            lasts="start_of_next_turn",
        )
    )
    assert "until the start of Thug 1's next turn" in given.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Thug 1").has("Prone")
    said = []
    for _ in range(6):
        if await current_name(bot, h) == "Thug 1":
            break
        said.append((await ok(await slash(h, gm, "endturn"))).message.text())
    assert any("Thug 1 is no longer Prone (its time ran out)" in text for text in said), said
    live = await bot.services.encounters.live(h.channel.id)
    assert not live.state.find("Thug 1").has("Prone")


async def test_rounds_and_the_end_of_a_scene(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    text = await refused(
        await slash(
            h, gm, "gm condition", combatant="Willow", action="add", name="Prone", lasts="rounds"
        )
    )
    assert "rounds:" in text
    given = await ok(
        await slash(
            h, gm, "gm condition", combatant="Willow", action="add", name="Entangled", rounds=2
        )
    )
    assert "for 2 more rounds" in given.message.text()
    scene = await ok(
        await slash(
            h, gm, "gm condition", combatant="Thug 2", action="add", name="Prone", lasts="scene"
        )
    )
    assert "Thug 2 is now Prone (by the Game Master, until the scene ends)" in scene.message.text()
    await ok(await slash(h, gm, "gm condition", combatant="Thug 3", action="add", name="Prone"))
    text = await refused(await slash(h, table.player, "gm time end-of", period="scene"))
    assert "Only the GM can" in text
    ended = await ok(await slash(h, gm, "gm time end-of", period="scene"))
    shown = ended.message.text()
    assert "Thug 2 is no longer Prone (the scene ended)" in shown
    assert "Willow is no longer Entangled (the scene ended)" in shown  # rounds are in the scene
    live = await bot.services.encounters.live(h.channel.id)
    assert not live.state.find("Willow").has("Entangled")
    assert not live.state.find("Thug 2").has("Prone")
    assert live.state.find("Thug 3").has("Prone")  # until removed: a rule or the GM ends it
    undone = await ok(await slash(h, gm, "gm undo"))
    assert "Undid" in undone.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Thug 2").has("Prone")
