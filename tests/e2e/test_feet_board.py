"""A board in feet through Discord (issue 11, Missing 8; UTTAS "Range Modifiers": "If the game
board is operating in feet instead of meters, the side of one square is assumed to be 5 feet"):
a server's GM sets ``range.board`` to ``feet``; in encounters started afterwards every distance
typed (``/gm place distance``, ``/move``, ``/sprint``, ``/attack range:``, ``/act amount:``) is in
feet, and every distance shown (the replies, reach refusals, the positions in the status) too —
one 5-ft square being the rules' 2 m."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, pass_turns_until, refused, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness, InteractionRecord


async def test_on_a_feet_board_distances_are_typed_and_shown_in_feet(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    text = await refused(await slash(h, gm, "tables set", entry="range.board", value="yards"))
    assert "range.board" in text
    done = await slash(h, gm, "tables set", entry="range.board", value="feet")
    await done.response()
    assert done.ephemeral and "is now" in done.response_data["content"]
    await set_up_fight(h, table)
    live = await bot.services.encounters.live(h.channel.id)
    assert live.rules.scale.unit == "ft"

    placed = await ok(await slash(h, gm, "gm place distance", a="Willow", b="Thug 1", meters=30))
    assert "Willow and Thug 1 are 30 ft apart." in placed.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert (
        live.state.positions.distance(live.state.find("Willow").id, live.state.find("Thug 1").id)
        == 12
    )
    status = await h.slash(player, h.channel, "encounter status")
    await status.response()
    assert "Thug 1 ↔ Willow: 30 ft" in str(status.response_data)

    await pass_turns_until(bot, h, table, "Willow")
    far = await refused(await slash(h, player, "attack", target="Thug 1", with_="Club"))
    assert "Willow's Club reaches 5 ft; the target is 30 ft away. Move closer first." in far
    far = await refused(await slash(h, player, "attack", target="Thug 1", with_="Club", range=10))
    assert "reaches 5 ft; the target is 10 ft away" in far
    too_far = await refused(await slash(h, player, "move", meters=20))  # 8 m of a 6 m half move
    assert "(15 ft); that would be 20 ft" in too_far
    moved = await ok(await slash(h, player, "act", action="move", amount=15, target="Thug 1"))
    text = moved.message.text()
    assert "Willow moves 15 ft (run, free)." in text and "now 15 ft from Thug 1" in text


async def test_on_a_feet_board_a_sprint_is_typed_and_shown_in_feet(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await (await slash(h, gm, "tables set", entry="range.board", value="feet")).response()
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    over = await refused(await slash(h, player, "sprint", meters=70))  # Run 12 m: 24 m = 60 ft
    assert "Willow can sprint 1 to 60 ft by run." in over
    sprint = await ok(await slash(h, player, "sprint", meters=50))
    assert "sprints 50 ft" in sprint.message.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.find("Willow").has("Sprinting")


def _field(record: InteractionRecord, name: str) -> str:
    embeds = record.response_data.get("embeds") or []
    for field in embeds[0]["fields"]:
        if field["name"].startswith(name):
            return str(field["value"])
    raise AssertionError(f"no {name} field in {embeds}")


async def test_on_a_feet_board_a_sheet_shows_its_distances_in_feet(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/character show``, and what an import and an edit show, read the sheet through the
    server's tables: on a feet board its movement and weapon ranges are in feet, as the fight
    shows them (they were in the rules' meters whatever the board)."""
    h, gm, player = discord_harness, table.moderator, table.player
    imported = await slash(h, player, "character import", example="willow")
    await imported.response()
    assert "Run 12 m" in _field(imported, "Movement")
    await (await slash(h, gm, "tables set", entry="range.board", value="feet")).response()
    shown = await slash(h, player, "character show", name="Willow")
    await shown.response()
    assert shown.ephemeral
    assert "Run 30 ft" in _field(shown, "Movement")
    assert "range 5 ft" in _field(shown, "Weapons")
    seen = await h.slash(gm, h.channel, "character show", {"name": "Willow", "member": player})
    await seen.response()
    assert "Run 30 ft" in _field(seen, "Movement")
    edited = await slash(
        h, player, "character edit", name="Willow", field="movement.run", value="14"
    )
    await edited.response()
    assert "Run 35 ft" in _field(edited, "Movement")
    again = await slash(h, player, "character import", example="willow", replace=True)
    await again.response()
    assert "Run 30 ft" in _field(again, "Movement")
