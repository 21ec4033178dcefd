"""A Uune conflict through slash commands (issue 14): ``/encounter start ruleset:uune`` starts
it now Uune is registered, the shipped example sheets import (``/character import example:``,
``/npc import example:``), two PCs and two NPCs join, and the conflict begins with every PC
before the NPCs (Uune SRD, "Conflict")."""

from __future__ import annotations

from bot.client import CombatBot
from bot.engine.uune.ruleset import UuneRuleset
from tests.e2e.combat_helpers import answered, button, press, refused, slash
from tests.e2e.conftest import DiceBox, Table
from tests.e2e.test_worked_example import Table5
from tests.harness.server import DiscordHarness


def labels(message: object) -> list[str]:
    rows = getattr(message, "components", [])
    return [c.get("label", "") for row in rows for c in row.get("components", [])]


async def test_a_uune_conflict_starts_through_discord(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player, other = table.moderator, table.player, table.other_player

    started = await t.gm("encounter start", name="Dock nine", ruleset="uune")
    assert "started an encounter" in started.text()
    await answered(await slash(h, player, "character import", example="mira"))
    await answered(await slash(h, other, "character import", example="tobin"))
    await t.player("encounter join", character="Mira Quell")
    await answered(await slash(h, other, "encounter join", character="Tobin Ash"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await answered(await slash(h, gm, "npc import", example="river-witch"))
    await t.gm("gm add-npc", template="Dock Thug")
    await t.gm("gm add-npc", template="River Witch")
    begun = await t.gm("encounter begin")
    assert "it is **Mira Quell**'s turn (round 1): take one action with `/act`" in begun.text()
    status = await slash(h, player, "encounter status")
    await status.response()
    embed = status.response_data["embeds"][0]
    assert embed["footer"]["text"].startswith(
        f"Uune · rules v{UuneRuleset.rules_version} · 4 combatants"
    )
    rows = embed["description"].split("\n")
    assert rows[0].startswith("▶ **Mira Quell** · Vitality 100/100 · Wounds 0/0/0 · Stress 0/0/0")
    assert rows[1].startswith("**Tobin Ash** · Vitality 100/100")
    # The NPCs' statblocks joined (NPC templates of their own model); their numbers stay hidden.
    assert rows[2:] == ["**Dock Thug 1** · Unhurt · NPC", "**River Witch 1** · Stressed · NPC"]


async def test_a_uune_statblock_is_refused_as_a_character_and_a_sheet_as_an_npc(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Each kind validates with its own model: a statblock is no character sheet, nor the
    reverse, and nothing is stored."""
    h = discord_harness
    text = await refused(await slash(h, table.player, "character import", example="dock-thug"))
    assert "That sheet was not imported" in text and "`social` is not a known field" in text
    text = await refused(await slash(h, table.moderator, "npc import", example="mira"))
    assert "That sheet was not imported" in text


async def test_only_the_gm_answers_an_approval(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    t = Table5(h, table, dice)
    gm, player, other = table.moderator, table.player, table.other_player
    await t.gm("encounter start", name="Dock nine", ruleset="uune")
    await answered(await slash(h, player, "character import", example="mira"))
    await answered(await slash(h, other, "character import", example="tobin"))
    await t.player("encounter join", character="Mira Quell")
    await answered(await slash(h, other, "encounter join", character="Tobin Ash"))
    await answered(await slash(h, gm, "npc import", example="dock-thug"))
    await t.gm("gm add-npc", template="Dock Thug")
    await t.gm("encounter begin")
    prompt = await t.player(
        "act", action="attack", target="Dock Thug 1", detail="Twin short blades, Street fencing"
    )
    await h.wait_for(lambda: h.message(prompt).components != [])
    assert "GM: (difficulty 3: Medium) approve or refuse Mira Quell's resources" in prompt.text()
    approve = button(h.message(prompt), "GM: approve Twin short blades")["custom_id"]
    # Another player: the approval is the GM's call, whoever's roll it is.
    text = await refused(await h.click(other, h.message(prompt), approve))
    assert "Only the GM can choose “GM: approve Twin short blades”; it waits on the GM" in text
    # Mira's own player: her roll, but the approval is the GM's call (Uune SRD, "Actions").
    text = await refused(await h.click(player, h.message(prompt), approve))
    assert "Only the GM can choose “GM: approve Twin short blades”; it waits on the GM" in text
    assert "GM: approve Twin short blades" in labels(h.message(prompt))  # nothing changed
    # The GM's press is taken: this prompt is answered (the next approval step follows it).
    await press(h, gm, prompt, "GM: approve Twin short blades")
    assert "GM: approve Twin short blades" not in labels(h.message(prompt))
