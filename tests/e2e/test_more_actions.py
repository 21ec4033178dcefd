"""The rest of a turn's options through Discord: standing up, skills, non-attack powers,
escaping a grapple — each for the member's own combatant, refused otherwise."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, pass_turns_until, refused, set_up_fight, slash
from tests.e2e.conftest import DiceBox, Table
from tests.harness.server import DiscordHarness


async def test_stand_skill_power_escape(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h, bot = discord_harness, scripted_bot
    await set_up_fight(h, table, begin=False)
    dice.load([1] * 20)
    await ok(await slash(h, table.moderator, "encounter begin"))
    dice.faces.clear()
    await pass_turns_until(bot, h, table, "Willow")

    text = await refused(await slash(h, table.player, "stand"))
    assert "Willow is not Prone" in text
    await ok(
        await slash(
            h, table.moderator, "gm condition", combatant="Willow", action="add", name="Prone"
        )
    )
    stood = await ok(await slash(h, table.player, "stand"))
    assert "Willow spends half the Run speed" in stood.message.text()

    text = await refused(await slash(h, table.player, "escape"))
    assert "Willow is not held in a grapple" in text

    dice.load([6, 6])
    checked = await ok(await slash(h, table.player, "skill", name="Acrobatics", difficulty=12))
    assert "[6, 6]" in checked.message.text()
    assert dice.empty

    await pass_turns_until(bot, h, table, "Willow")
    text = await refused(await slash(h, table.player, "power", name="Blast", target="Thug 1"))
    assert "Blast is an attack: use Attack" in text
    text = await refused(await slash(h, table.bystander, "skill", name="Perception"))
    assert "You have no combatant in this encounter" in text
    # UTTAS "Healing": Heal restores Health (issue 11: it used to change nothing); an unhurt
    # target is refused with the reason.
    text = await refused(await slash(h, table.player, "power", name="Heal", target="Willow"))
    assert "no Health damage" in text
    await ok(await slash(h, table.moderator, "gm hp", combatant="Willow", health="-3"))
    dice.load([1] * 20)
    healed = await ok(await slash(h, table.player, "power", name="Heal", target="Willow"))
    dice.faces.clear()
    assert "Willow regains 2 Health from Willow's Heal" in healed.message.text()
