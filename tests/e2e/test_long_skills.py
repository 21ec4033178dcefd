"""A skill that takes several turns through Discord (issue 11, Missing 8; UTTAS "Perform a
skill": "If the Skill requires more than one turn, they begin initiating the skill and complete
it after the allotted amount of time has passed"): ``/check`` begins it, the next turn is spent
on it and it completes with its roll; ``/act action:stop-skill`` gives it up; reacting
interrupts it."""

from __future__ import annotations

import json

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, ok, pass_turns_until, press, refused, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

THIEF = {
    "name": "Thief",
    "agility": 14,
    "speed": 4,
    "health": 20,
    "stamina": 30,
    "skills": {"Lockpicking": 3, "Tracking": 2},
    "skill_turns": {"Lockpicking": 2},
}


async def _fight(h: DiscordHarness, table: Table) -> None:
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Vault"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=1))
    sheet = h.make_attachment("thief.json", json.dumps(THIEF).encode())
    await answered(await h.slash(player, h.channel, "character import", {"file": sheet}))
    await ok(await slash(h, player, "encounter join", character="Thief"))
    await ok(await slash(h, gm, "encounter begin"))


async def test_a_two_turn_skill_begins_then_completes_on_the_next_turn(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await _fight(h, table)
    await pass_turns_until(bot, h, table, "Thief")

    begun = await ok(await slash(h, player, "check", skill="Lockpicking", difficulty=5))
    assert "Thief begins Lockpicking: it takes 2 turns" in begun.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Thief").skill_in_progress.skill == "Lockpicking"
    assert live.state.current.name == "Thug 1"

    passed = await ok(await slash(h, gm, "endturn"))  # Thug 1's turn ends; Thief's is spent
    text = passed.message.text()
    assert "Thief spends the turn completing Lockpicking" in text
    assert "Thief completes Lockpicking" in text and "vs 5" in text
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Thief").skill_in_progress is None
    assert live.state.current.name == "Thug 1"


async def test_stopping_and_acting_otherwise_interrupt_the_skill(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await _fight(h, table)
    await pass_turns_until(bot, h, table, "Thief")
    await ok(await slash(h, player, "act", action="skill", detail="Lockpicking"))
    stopped = await ok(await slash(h, player, "act", action="stop-skill"))
    assert "interrupted after 1 of 2 turns (Thief stopped)" in stopped.message.text()
    text = await refused(await slash(h, player, "act", action="stop-skill"))
    assert "Thief is performing no skill." in text

    await ok(await slash(h, gm, "endturn"))  # Thief's own turn again
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.current.name == "Thief"
    await ok(await slash(h, player, "check", skill="Lockpicking"))
    attack = await ok(await slash(h, gm, "attack", target="Thief", with_="Cudgel"))
    await press(h, player, attack.message, "Evade")
    seen = h.message(attack.message).text()
    assert "Thief reacts: Evade" in seen
    assert "Thief's Lockpicking is interrupted after 1 of 2 turns (Thief acted otherwise" in seen
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Thief").skill_in_progress is None
