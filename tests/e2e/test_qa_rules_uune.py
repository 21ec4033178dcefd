"""QA round on Untitled and Uune through Discord (qa-rules): what a sheet accepts, a command
must accept too. Every die is scripted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, button, refused, slash
from tests.e2e.conftest import BotProcess, DiceBox, Table
from tests.e2e.test_restart_combat import _prompt_stored, lagging_click
from tests.e2e.uune_steps import Docks, prompt_with
from tests.harness.server import DiscordHarness

SHEETS = Path(__file__).resolve().parents[2] / "data" / "sheets"


async def _fight(
    u: Docks,
    h: DiscordHarness,
    table: Table,
    *,
    mira: dict[str, Any] | None = None,
    thug: dict[str, Any] | None = None,
) -> None:
    """Mira Quell (``table.player``) against one Dock Thug at dock nine, begun; ``mira`` and
    ``thug``: the sheet and statblock imported instead of the examples."""
    if mira is None:
        await u.reply(table.player, "character import", example="mira")
    else:
        mira_file = h.make_attachment("mira.json", json.dumps(mira).encode())
        await answered(await h.slash(table.player, h.channel, "character import", file=mira_file))
    if thug is None:
        await u.reply(table.moderator, "npc import", example="dock-thug")
    else:
        thug_file = h.make_attachment("thug.json", json.dumps(thug).encode())
        await answered(await h.slash(table.moderator, h.channel, "npc import", file=thug_file))
    await u.run(table.moderator, "encounter start", name="Dock nine", ruleset="uune")
    await u.run(table.player, "encounter join", character="Mira Quell")
    await u.run(table.moderator, "gm add-npc", template="Dock Thug")
    await u.run(table.moderator, "encounter begin")


async def test_a_resource_with_a_name_as_long_as_a_sheet_allows_can_be_proposed(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """A sheet's experience or item name may be 80 characters (a combatant's name, a button's
    label); proposing it for an Attack was refused with "`resources.0`: it needs at most 60
    characters", so the resource could never be used."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    long = "Apprenticed to the harbour master's night watch for a decade and a half at least"
    assert len(long) == 80
    sheet = json.loads((SHEETS / "uune" / "mira.json").read_text())
    sheet["experiences"][1]["name"] = long
    await _fight(u, h, table, mira=sheet)
    asked = await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail=long)
    assert f"proposing {long}." in asked.message.text()
    rolled = await u.press(table.moderator, "GM: approve all", [5, 6])
    assert f"{long} 1d6 [5] [6] = 2 hits vs 3 needed" in rolled.text()


async def test_an_npc_attack_with_a_name_as_long_as_a_statblock_allows_can_be_made(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """A statblock's attack may be named with 80 characters; the NPC's attack with it was
    refused (the pending Defend kept at most 60)."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    long = "A rusted anchor chain swung in a wide arc across the whole of the narrow jetty!!"
    assert len(long) == 80
    statblock = json.loads((SHEETS / "uune" / "dock-thug.json").read_text())
    statblock["attacks"][0]["name"] = long
    await _fight(u, h, table, thug=statblock)
    await u.run(table.player, "endturn")
    attack = await u.run(
        table.moderator, "act", action="npc-attack", target="Mira Quell", detail=long
    )
    assert f"Dock Thug 1 attacks Mira Quell with {long}: Mira Quell defends." in (
        attack.message.text()
    )
    await u.run(table.player, "act", action="propose", detail="Street fencing")
    rolled = await u.press(table.moderator, "GM: approve all", [5, 6])
    assert "[5] [6] = 2 hits vs 3 needed: failure" in rolled.text()
    kept = await u.press(table.player, "Keep the roll")
    assert f"Dock Thug 1's {long} gives Mira Quell a light wound" in kept.text()


async def test_a_gm_button_pressed_by_another_player_says_it_waits_on_the_gm(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Tobin's player pressing "GM: approve all" on Mira's roll was told "Only **Mira
    Quell**'s controller or the GM can choose this." — but Mira's player is refused that
    button too: it waits on the GM alone, and the refusal must say so, to anyone."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    prompt = await prompt_with(h, "GM: approve all")
    approve = button(prompt, "GM: approve all")["custom_id"]
    for member in (table.player, table.other_player, table.bystander):
        text = await refused(await h.click(member, prompt, approve))
        assert text.startswith("Only the GM can choose “GM: approve all"), (member.name, text)
    assert dice.empty and button(h.message(prompt), "GM: approve all")


async def test_a_uune_approval_button_works_after_a_sigkill_and_only_once(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    """Mira's Attack waits on the GM's approval; the bot is killed and started again: the old
    "GM: approve all" button rolls once, a lagging client's second click is refused, and
    Mira's roll then waits on her spend choice as usual."""
    h = discord_harness
    await bot_process.start()
    u = Docks(None, h, table, DiceBox())  # type: ignore[arg-type]  # real dice, no bot object
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    prompt = await prompt_with(h, "GM: approve all")
    approve = button(prompt, "GM: approve all")["custom_id"]
    await _prompt_stored(bot_process, prompt.id)

    bot_process.kill()
    await bot_process.start()

    click = await h.click(table.moderator, prompt, approve)
    await click.response()
    assert not click.ephemeral, click.response_data
    assert "hits vs 3 needed" in h.message(prompt).text() or "hit vs 3 needed" in (
        h.message(prompt).text()
    )
    assert h.message(prompt).components == []
    again = await lagging_click(h, table.moderator, prompt, approve)
    assert again.ephemeral and "no longer" in again.response_data["content"]
    kept = await u.press(table.player, "Keep the roll")
    assert "Mira Quell's attack" in kept.text(), kept.text()


async def test_a_command_refused_while_a_defend_waits_names_whom_it_waits_on(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """While Mira's Defend waits on her (propose resources or roll now), a turn command was
    refused with "Waiting for the GM's approval of Mira Quell's roll first." — but the GM has
    nothing to approve yet: it waits on Mira's Defend."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.thug_swings_at_mira()
    text = await refused(
        await slash(
            h, table.moderator, "act", action="npc-attack", target="Tobin Ash", detail="Cudgel"
        )
    )
    assert text.startswith("Waiting for Mira Quell's Defend first. Its roller proposes"), text
    text = await refused(await slash(h, table.moderator, "endturn"))
    assert text.startswith("Waiting for Mira Quell's Defend first."), text
    assert "`/gm resolve` settles it: the Defend is rolled with what is approved." in text
    # Once she has proposed, it is the GM's approval it waits on.
    await u.run(table.player, "act", action="propose", detail="Street fencing")
    text = await refused(await slash(h, table.moderator, "endturn"))
    assert text.startswith("Waiting for the GM's approval of Mira Quell's roll first."), text


async def test_a_roller_who_spends_their_last_vitality_does_not_leave_the_fight_waiting(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    """Mira, at 5 vitality, rerolls a die for 5: she is Incapacitated ("zero vitality … cannot
    take actions") — yet her roll waited again for her to "Keep the roll" with no button she
    could press, and every command was refused "Waiting for Mira Quell to keep their roll
    first." until the window ran out. Her roll now stands as it is at once."""
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast(wren=False)
    await u.run(table.moderator, "encounter begin")
    await u.run(table.moderator, "gm vital", combatant="Mira Quell", vital="vitality", amount="5")
    await u.run(table.player, "act", action="attack", target="Dock Thug 1", detail="Street fencing")
    await u.press(table.moderator, "GM: approve", [5, 2])
    rerolled = await u.press(table.player, "Reroll die 2", [6])
    assert "Mira Quell is now Incapacitated" in rerolled.text()
    assert u.said("Mira Quell's attack gives Dock Thug 1 a light wound.")
    assert u.said("Round 1: Tobin Ash's turn")
