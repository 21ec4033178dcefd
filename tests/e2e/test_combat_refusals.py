"""Every combat refusal is ephemeral, specific, and leaves the encounter exactly as it was."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    current_name,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
    version,
)
from tests.e2e.conftest import DiceBox, Table
from tests.harness.server import DiscordHarness


async def test_no_encounter_and_not_begun(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    for command, options in (
        ("attack", {"target": "Thug 1", "with_": "Club"}),
        ("endturn", {}),
        ("dodge", {}),
        ("stance", {"name": "Steady"}),
    ):
        text = await refused(await slash(h, table.player, command, **options))
        assert "no encounter in this channel" in text
    await set_up_fight(h, table, begin=False)
    before = await version(bot, h)
    text = await refused(await slash(h, table.player, "attack", target="Thug 1", with_="Club"))
    assert "has not begun" in text and "/encounter begin" in text
    text = await refused(await slash(h, table.player, "encounter begin"))
    assert "Only the GM can begin the fight" in text
    assert await version(bot, h) == before


async def test_turn_refusals(bot: CombatBot, discord_harness: DiscordHarness, table: Table) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Thug 1")
    before = await version(bot, h)

    # Not your turn: says whose it is.
    text = await refused(await slash(h, table.player, "attack", target="Thug 1", with_="Club"))
    assert "It is **Thug 1**'s turn, not yours" in text
    text = await refused(
        await slash(h, table.player, "attack", target="Thug 1", with_="Club", as_="Willow")
    )
    assert "It is Thug 1's turn, not Willow's" in text

    # A combatant you do not control.
    text = await refused(
        await slash(h, table.player, "attack", target="Willow", with_="Cudgel", as_="Thug 1")
    )
    assert "You do not control **Thug 1**" in text
    text = await refused(await slash(h, table.bystander, "endturn"))
    assert "You have no combatant in this encounter" in text

    # Unknown target, with the closest names suggested; never a prefix match.
    text = await refused(await slash(h, table.moderator, "attack", target="Wilow", with_="Cudgel"))
    assert "no combatant called **Wilow**" in text and "Did you mean **Willow**" in text
    text = await refused(await slash(h, table.moderator, "attack", target="Thug", with_="Cudgel"))
    assert "no combatant called **Thug**" in text and "**Thug 1**" in text

    # Unknown attack; target out of reach.
    text = await refused(await slash(h, table.moderator, "attack", target="Willow", with_="Laser"))
    assert "Thug 1 has no attack called 'Laser'" in text and "Cudgel" in text
    text = await refused(
        await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel", range=30.0)
    )
    assert "reaches 2 m; the target is 30 m away" in text
    text = await refused(
        await slash(
            h, table.moderator, "attack", target="Willow", with_="Throwing Axe", range=200.0
        )
    )
    assert "out of range: 200 m is" in text and "fails automatically" in text

    # Too many hits for the weapon; a stance the combatant does not know.
    text = await refused(
        await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel", hits=5)
    )
    assert "can hit at most 1 time." in text
    text = await refused(await slash(h, table.moderator, "stance", name="Dragon"))
    assert "Dragon" in text
    assert await version(bot, h) == before


async def test_no_actions_left_and_cannot_react(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Willow evades six thugs in a row: her Speed pool (6) is empty, she is Staggered, the
    seventh attack offers her no reactions, /dodge says why, and her next turn is skipped."""
    h = discord_harness
    bot = scripted_bot
    await set_up_fight(h, table, thugs=7, begin=False)
    dice.load([1] * 40)
    await ok(await slash(h, table.moderator, "encounter begin"))
    dice.faces.clear()
    for n in range(1, 8):
        await pass_turns_until(bot, h, table, f"Thug {n}")
        prompt = (
            await ok(await slash(h, table.moderator, "attack", target="Willow", with_="Cudgel"))
        ).message
        if n <= 6:
            dice.load([1, 1, 1, 1, 1])  # a miss each time (with or without Advantage dice)
            await press(h, table.player, prompt, "Evade")
            dice.faces.clear()
            continue
        labels = [c["label"] for row in prompt.components for c in row["components"]]
        assert "Evade (1 action)" not in labels and "Take it (no reaction)" in labels
        before = await version(bot, h)
        text = await refused(await slash(h, table.player, "dodge"))
        assert "Willow has no actions left this round (Staggered)" in text
        assert await version(bot, h) == before
        dice.load([1, 1, 1, 1])
        result = await press(h, table.player, prompt, "Take it")
        assert "Advantage for Thug 7: Willow is Staggered" in h.message(prompt).text()
        assert result is not None
    # Willow spent everything: her next turn is announced as skipped.
    await pass_turns_until(bot, h, table, "General Bearington")
    assert await current_name(bot, h) == "General Bearington"
    messages = "\n".join(m.text() for m in h.messages_in(h.channel))
    assert "Willow spent every action last round and does not act this turn" in messages
