"""Settings Discord itself checks, through ``python -m bot`` against the harness.

DEV_GUILD_ID names a server the bot is not in (a typo, or the bot invited without the
``applications.commands`` scope): Discord refuses the command sync there (403, Missing Access).
``python -m bot`` stopped with "Discord … answered 403 (Missing Access) while the bot was
starting. Check DISCORD_API_BASE." and exit 1 — pointing at a setting that was right, as if
Discord were unreachable. It names DEV_GUILD_ID now, as a setting to fix (exit 2)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.conftest import BotProcess
from tests.harness.server import DiscordHarness

NOT_OURS = "123456789012345678"


async def test_a_dev_guild_the_bot_is_not_in_is_named(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    h = discord_harness
    process = BotProcess(h, tmp_path, {"DEV_GUILD_ID": NOT_OURS})
    try:
        process.spawn()
        await h.wait_for(lambda: process.proc is not None and process.proc.poll() is not None, 30)
    finally:
        process.stop()
    assert process.proc is not None
    out = process.output()
    assert process.proc.returncode == 2, out
    lines = [line for line in out.strip().splitlines() if " INFO " not in line]
    assert len(lines) == 1, out
    assert f"DEV_GUILD_ID={NOT_OURS}" in lines[0] and "applications.commands" in lines[0]
    assert "DISCORD_API_BASE" not in lines[0]
    assert "Traceback" not in out


async def test_a_token_discord_rejects_is_named(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    """README, "Settings": a token Discord rejects (401 at login) is one line naming
    DISCORD_TOKEN, exit 2, and the token appears nowhere."""
    h = discord_harness
    process = BotProcess(h, tmp_path, {"DISCORD_TOKEN": "not-the-bot-token.x.y"})
    try:
        process.spawn()
        await h.wait_for(lambda: process.proc is not None and process.proc.poll() is not None, 30)
    finally:
        process.stop()
    assert process.proc is not None
    out = process.output()
    assert process.proc.returncode == 2, out
    lines = [line for line in out.strip().splitlines() if " INFO " not in line]
    assert len(lines) == 1, out
    assert "Discord rejected DISCORD_TOKEN" in lines[0]
    assert "not-the-bot-token" not in out and "Traceback" not in out
