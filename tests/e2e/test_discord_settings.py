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


async def one_line_and_exit_2(
    h: DiscordHarness, tmp_path: Path, env: dict[str, str]
) -> tuple[str, str]:
    """Run ``python -m bot`` with ``env`` until it exits; insist on status 2 and one line
    besides INFO lines. Returns (all the output, that line)."""
    process = BotProcess(h, tmp_path, env)
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
    return out, lines[0]


async def test_a_dev_guild_the_bot_is_not_in_is_named(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    out, line = await one_line_and_exit_2(discord_harness, tmp_path, {"DEV_GUILD_ID": NOT_OURS})
    assert f"DEV_GUILD_ID={NOT_OURS}" in line and "applications.commands" in line
    assert "DISCORD_API_BASE" not in line
    assert "Traceback" not in out


async def test_a_token_discord_rejects_is_named(
    discord_harness: DiscordHarness, tmp_path: Path
) -> None:
    """README, "Settings": a token Discord rejects (401 at login) is one line naming
    DISCORD_TOKEN, exit 2, and the token appears nowhere."""
    out, line = await one_line_and_exit_2(
        discord_harness, tmp_path, {"DISCORD_TOKEN": "not-the-bot-token.x.y"}
    )
    assert "Discord rejected DISCORD_TOKEN" in line
    assert "not-the-bot-token" not in out and "Traceback" not in out
