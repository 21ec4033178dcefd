"""/encounter start | status | end through the harness, as members see it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.client import CombatBot
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

EPHEMERAL = 64


def embed_text(data: dict) -> str:
    parts: list[str] = [data.get("content") or ""]
    for embed in data.get("embeds", []):
        parts += [embed.get("title", ""), embed.get("description", "")]
        for field in embed.get("fields", []):
            parts += [field["name"], field["value"]]
        parts.append(embed.get("footer", {}).get("text", ""))
    return "\n".join(parts)


async def test_start_status_end(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    started = await h.slash(table.gm, h.channel, "encounter start", name="Ambush at the ford")
    await started.response()
    assert not started.ephemeral
    text = embed_text(started.response_data)
    assert "Ambush at the ford" in text
    assert "UTTAS" in text
    assert "Gathering combatants" in text
    assert "None yet." in text

    status = await h.slash(table.bystander, h.channel, "encounter status")
    await status.response()
    assert status.ephemeral
    assert "Ambush at the ford" in embed_text(status.response_data)

    # A bystander may not end it; nothing changes.
    refused = await h.slash(table.bystander, h.channel, "encounter end")
    await refused.response()
    assert refused.ephemeral
    assert "Only the GM can end the encounter" in refused.response_data["content"]
    assert (await bot.services.encounters.live(h.channel.id)).row.status == "live"

    # The GM is asked to confirm; Cancel keeps it running.
    prompt = await h.slash(table.gm, h.channel, "encounter end")
    await prompt.response()
    assert prompt.ephemeral
    message = prompt.message
    assert len(message.custom_ids()) == 2
    cancel = await h.click(table.gm, message, message.component(label="Cancel")["custom_id"])
    await cancel.response()
    assert "keeps running" in h.message(message).content
    assert (await bot.services.encounters.live(h.channel.id)).row.status == "live"

    prompt = await h.slash(table.gm, h.channel, "encounter end")
    await prompt.response()
    confirm_id = prompt.message.component(label="Confirm: end it")["custom_id"]
    confirm = await h.click(table.gm, prompt.message, confirm_id)
    await confirm.response()
    await confirm.followup(0)
    assert "has ended" in h.message(prompt.message).content
    assert h.message(prompt.message).components == []
    summary = confirm.followups[0]
    assert not summary.ephemeral
    assert "Encounter ended: Ambush at the ford" in summary.text()

    # A second click on the old button changes nothing and says why.
    again = (
        await h.click(table.gm, prompt.message, confirm_id)
        if h.message(prompt.message).components
        else None
    )
    assert again is None  # the buttons were removed with the edit

    gone = await h.slash(table.gm, h.channel, "encounter status")
    await gone.response()
    assert gone.ephemeral
    assert "no encounter in this channel" in gone.response_data["content"]

    # The channel is free again for a new encounter.
    fresh = await h.slash(table.player, h.channel, "encounter start")
    await fresh.response()
    assert not fresh.ephemeral


async def test_refusals_are_ephemeral_and_change_nothing(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    for command in ("encounter status", "encounter end"):
        record = await h.slash(table.gm, h.channel, command)
        await record.response()
        assert record.ephemeral
        assert "no encounter in this channel" in record.response_data["content"]

    first = await h.slash(table.gm, h.channel, "encounter start", name="First")
    await first.response()
    second = await h.slash(table.player, h.channel, "encounter start", name="Second")
    await second.response()
    assert second.ephemeral
    assert "**First** is already running" in second.response_data["content"]
    live = await bot.services.encounters.live(h.channel.id)
    assert live.row.name == "First"
    assert live.version == 1


async def test_moderator_can_end_someone_elses_encounter(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await (await h.slash(table.gm, h.channel, "encounter start")).response()
    prompt = await h.slash(table.moderator, h.channel, "encounter end")
    await prompt.response()
    confirm = await h.click(
        table.moderator,
        prompt.message,
        prompt.message.component(label="Confirm: end it")["custom_id"],
    )
    await confirm.response()
    await confirm.followup(0)
    assert "Encounter ended" in confirm.followups[0].text()


async def test_gm_who_lost_the_seat_cannot_confirm(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Permission is checked again at click time, not only when the prompt was shown."""
    h = discord_harness
    await (await h.slash(table.moderator, h.channel, "encounter start")).response()
    prompt = await h.slash(table.moderator, h.channel, "encounter end")
    await prompt.response()
    confirm_id = prompt.message.component(label="Confirm: end it")["custom_id"]
    click = await h.click(table.bystander, prompt.message, confirm_id)
    await click.response()
    assert click.ephemeral
    assert "Only the GM can end the encounter" in click.response_data["content"]
    assert (await bot.services.encounters.live(h.channel.id)).row.status == "live"


async def test_simultaneous_starts_make_one_encounter(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    records = await asyncio.gather(
        *(
            h.slash(member, h.channel, "encounter start", name=f"By {member.name}")
            for member in (table.gm, table.player, table.other_player, table.moderator)
        )
    )
    await asyncio.gather(*(r.response() for r in records))
    public = [r for r in records if not r.ephemeral]
    refused = [r for r in records if r.ephemeral]
    assert len(public) == 1
    assert len(refused) == 3
    assert all("already running" in r.response_data["content"] for r in refused)


async def test_unexpected_error_is_logged_with_ids_and_answered(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = discord_harness

    async def broken(channel_id: int) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(bot.services.encounters, "live", broken)
    with caplog.at_level(logging.ERROR):
        record = await h.slash(table.player, h.channel, "encounter status")
        await record.response()
    assert record.ephemeral
    assert "Something went wrong on our side" in record.response_data["content"]
    assert "disk on fire" not in record.response_data["content"]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert f"guild={h.guild.id}" in logged
    assert f"channel={h.channel.id}" in logged
    assert f"user={table.player.id}" in logged
    assert "command=encounter status" in logged
    assert any("disk on fire" in str(r.exc_info) for r in caplog.records if r.exc_info)
