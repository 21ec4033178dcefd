"""The bot as the README runs it (``python -m bot``): killed with SIGKILL and started again, it
keeps the channel's encounter and the buttons it posted before the kill still work. Command sync
happens only when the definitions changed."""

from __future__ import annotations

from tests.e2e.conftest import BotProcess, Table
from tests.harness.server import DiscordHarness


async def test_sigkill_restart_keeps_encounter_and_buttons(
    discord_harness: DiscordHarness, bot_process: BotProcess, table: Table
) -> None:
    h = discord_harness
    await bot_process.start()
    assert len(h.requests_to("PUT", r"^/applications/\d+/commands$")) == 1

    started = await h.slash(table.gm, h.channel, "encounter start", name="Crash test")
    await started.response()
    assert "Crash test" in started.message.text()

    prompt = await h.slash(table.gm, h.channel, "encounter end")
    await prompt.response()
    confirm_id = prompt.message.component(label="Confirm: end it")["custom_id"]

    bot_process.kill()
    await bot_process.start()
    # Definitions unchanged: the restarted bot does not sync again.
    assert len(h.requests_to("PUT", r"^/applications/\d+/commands$")) == 1

    status = await h.slash(table.gm, h.channel, "encounter status")
    await status.response()
    assert status.ephemeral
    assert "Crash test" in status.message.text()
    assert "version 1" in status.message.text()

    confirm = await h.click(table.gm, prompt.message, confirm_id)
    await confirm.response()
    await confirm.followup(0)
    assert "has ended" in h.message(prompt.message).content
    assert "Encounter ended: Crash test" in confirm.followups[0].text()

    gone = await h.slash(table.gm, h.channel, "encounter status")
    await gone.response()
    assert "no encounter in this channel" in gone.response_data["content"]


async def test_dev_guild_sync_goes_to_that_guild_only(
    discord_harness: DiscordHarness, tmp_path: object, table: Table
) -> None:
    h = discord_harness
    process = BotProcess(h, tmp_path, {"DEV_GUILD_ID": str(h.guild.id)})  # type: ignore[arg-type]
    try:
        await process.start()
        assert h.requests_to("PUT", rf"^/applications/\d+/guilds/{h.guild.id}/commands$")
        assert not h.requests_to("PUT", r"^/applications/\d+/commands$")
        names = {c["name"] for c in h.registered_commands(h.guild)}
        assert "encounter" in names
        record = await h.slash(table.gm, h.channel, "encounter start")
        await record.response()
        assert not record.ephemeral
    finally:
        process.stop()


async def test_changed_definitions_are_synced_again(
    discord_harness: DiscordHarness, bot_process: BotProcess
) -> None:
    import sqlite3

    h = discord_harness
    await bot_process.start()
    bot_process.stop()
    database = sqlite3.connect(bot_process.env["DATABASE_PATH"])
    with database:
        changed = database.execute(
            "UPDATE bot_meta SET value = 'an older definition' WHERE key LIKE 'command_sync:%'"
        ).rowcount
    database.close()
    assert changed == 1
    await bot_process.start()
    assert len(h.requests_to("PUT", r"^/applications/\d+/commands$")) == 2
