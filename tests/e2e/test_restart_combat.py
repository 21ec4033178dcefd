"""Pending reactions across a SIGKILL: the old button still works after the restart, a second
click is refused, and a reaction window that ran out while the bot was down is applied (with no
reaction) as soon as it is back."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from tests.e2e.combat_helpers import answered, button, ok, press, slash
from tests.e2e.conftest import BotProcess, Table
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


async def _whose_turn(h: DiscordHarness, table: Table) -> str:
    status = await slash(h, table.moderator, "encounter status")
    await status.response()
    text = status.message.text()
    return text.split("Turn: **", 1)[1].split("**", 1)[0]


async def lagging_click(
    h: DiscordHarness, member: Member, message: StoredMessage, custom_id: str
) -> InteractionRecord:
    """``member`` clicks ``custom_id`` on ``message`` as a lagging client still showing the
    message's first components would (the buttons the bot has since taken away); the answered
    interaction."""
    latest = h.message(message)
    latest.payload["components"] = latest.versions[0]["components"]
    again = await h.click(member, latest, custom_id)
    await again.response()
    return again


async def _prompt_stored(process: BotProcess, message_id: int) -> None:
    """Wait until the bot has noted which message shows the decision (it does so right after
    replying; a crash before that only leaves the old buttons visible, still refused)."""
    database = process.env["DATABASE_PATH"]
    for _ in range(100):
        with sqlite3.connect(database) as conn:
            row = conn.execute(
                "SELECT prompt_message_id FROM decisions WHERE status = 'open'"
            ).fetchone()
        if row and row[0] == message_id:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the prompt's message id was never stored")


async def _thug_attacks_willow(
    h: DiscordHarness, table: Table, window: int | None
) -> StoredMessage:
    gm, player = table.moderator, table.player
    await ok(await slash(h, gm, "encounter start", name="Restart"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=1))
    await answered(await slash(h, player, "character import", example="willow"))
    await ok(await slash(h, player, "encounter join", character="Willow"))
    if window is not None:
        await ok(await slash(h, gm, "gm settings", reaction_window=str(window)))
    await ok(await slash(h, gm, "encounter begin"))
    if await _whose_turn(h, table) == "Willow":
        await ok(await slash(h, player, "endturn"))
    assert await _whose_turn(h, table) == "Thug 1"
    return (await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))).message


async def test_old_reaction_button_works_after_sigkill(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h = discord_harness
    await bot_process.start()
    prompt = await _thug_attacks_willow(h, table, window=None)
    evade = button(prompt, "Evade")["custom_id"]

    bot_process.kill()
    await bot_process.start()

    click = await press(h, table.player, prompt, "Evade")
    assert click.response_type == 7
    assert "Willow reacts: Evade" in h.message(prompt).text()
    assert h.message(prompt).components == []
    again = await lagging_click(h, table.player, prompt, evade)
    assert again.ephemeral and "no longer pending" in again.response_data["content"]


async def test_reaction_window_that_ran_out_while_down_expires_after_restart(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    """End-to-end smoke test through ``python -m bot`` and the host's real clock (it waits out
    a 5 s window). The expiry logic itself — deadlines by the injected clock, races, pauses,
    what the channel shows, the restart — is tested in-process in
    tests/e2e/test_reaction_expiry.py and tests/services/test_expiry.py."""
    h = discord_harness
    await bot_process.start()
    prompt = await _thug_attacks_willow(h, table, window=5)
    assert "Decide by <t:" in prompt.content
    started = time.monotonic()
    await _prompt_stored(bot_process, prompt.id)
    bot_process.kill()
    await asyncio.sleep(max(0.0, 5.5 - (time.monotonic() - started)))
    await bot_process.start()

    def expired() -> bool:
        return any("Reaction window over" in m.text() for m in h.messages_in(h.channel))

    await h.wait_for(expired, timeout=30)
    [notice] = [m for m in h.messages_in(h.channel) if "Reaction window over" in m.text()]
    assert "Willow does not react." in notice.text()
    assert "resolved with no reaction" in notice.text()
    await h.wait_for(lambda: h.message(prompt).components == [], timeout=15)
    # The fight goes on: Thug 1's turn ended — it is Willow's, or (if the hit Stunned her and
    # she spent her turn recovering) Thug 1's again in round 2. Nothing waits any more.
    status = await slash(h, table.moderator, "encounter status")
    await status.response()
    text = status.message.text()
    assert "Waiting on" not in text
    assert "Turn: **Willow**" in text or ("Round 2" in text and "Turn: **Thug 1**" in text), text
