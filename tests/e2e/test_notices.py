"""Member notices through the real bot: a database from before migration 0008 with names that
collide once normalised is migrated at start; the owner of a renamed sheet is told on their
next command, once, as an ephemeral followup after the command's own answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.__main__ import build
from bot.client import CombatBot
from bot.store import notices as notices_repo
from tests.e2e.combat_helpers import slash
from tests.e2e.conftest import Table, bot_settings
from tests.harness.server import DiscordHarness
from tests.store.legacy_names import Legacy, build_legacy_database


class Takes:
    """Every answer the bot's NoticeService.take gave, per member (the hook's only read)."""

    def __init__(self, bot: CombatBot) -> None:
        self.calls: list[tuple[int, list[str]]] = []
        service = bot.services.notices
        original = service.take

        async def take(guild_id: int, user_id: int) -> list[str]:
            texts = await original(guild_id, user_id)
            self.calls.append((user_id, texts))
            return texts

        service.take = take  # type: ignore[method-assign]

    def of(self, user_id: int) -> list[list[str]]:
        return [texts for who, texts in self.calls if who == user_id]


async def kept_again(bot: CombatBot, guild_id: int, user_id: int, count: int) -> None:
    """Wait until ``count`` notices of the member are pending again (the bot puts back what it
    could not send right after the failed send)."""
    for _ in range(250):
        async with bot.db.read() as conn:
            if await notices_repo.pending_count(conn, guild_id, user_id) == count:
                return
        await asyncio.sleep(0.02)
    raise AssertionError("the notices that could not be sent were not kept")


@pytest_asyncio.fixture
async def legacy_bot(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> AsyncIterator[CombatBot]:
    """The bot started on a database last used before migration 0008."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    legacy = Legacy(
        guild_id=h.guild.id,
        other_guild_id=h.guild.id + 1,
        player=table.player.id,
        other_player=table.other_player.id,
        gm=table.gm.id,
        channel_id=h.channel.id,
    )
    await build_legacy_database(database, legacy)
    client = await build(bot_settings(h, database), guild_ready_timeout=0.05)
    try:
        async with h.run_client(client):
            yield client
    finally:
        await client.db.close()


async def test_a_renamed_owner_is_told_once_on_their_next_command(
    legacy_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    takes = Takes(legacy_bot)
    first = await slash(h, player, "character list")
    await first.response()
    assert first.ephemeral and "Willow 3" in first.message.text()  # the command's own answer
    notice = await first.followup(0)
    assert notice.ephemeral
    lines = notice.content.split("\n")
    assert len(lines) == 3
    assert "one of them is now called **Willow 3**" in lines[0]
    assert "one of them is now called **Willow 4**" in lines[1]
    assert "is now called **Unnamed**" in lines[2]

    second = await slash(h, player, "character list")
    await second.response()
    await h.wait_for(lambda: len(takes.of(player.id)) == 2)
    assert takes.of(player.id)[1] == []
    assert second.followups == []

    # Any command will do (here one open to everyone); the GM had nothing renamed.
    other = await slash(h, table.other_player, "roll", dice="1d20")
    await other.response()
    told = await other.followup(0)
    assert told.ephemeral
    assert "**Thug 2**" in told.content and "In the encounter **Ambush**" in told.content
    gm = await slash(h, table.gm, "roll", dice="1d20")
    await gm.response()
    await h.wait_for(lambda: len(takes.of(table.gm.id)) == 1)
    assert takes.of(table.gm.id) == [[]] and gm.followups == []


async def test_a_refused_command_delivers_nothing_yet(
    legacy_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    takes = Takes(legacy_bot)
    refused = await slash(h, player, "roll", dice="1d0")
    await refused.response()
    assert refused.ephemeral and "no sides" in refused.response_data["content"]
    later = await slash(h, player, "roll", dice="1d6 after")
    await later.response()
    notice = await later.followup(0)
    assert notice.content.count("\n") == 2
    assert [texts for texts in takes.of(player.id) if texts] == [takes.of(player.id)[0]]


async def test_a_notice_that_could_not_be_sent_comes_with_the_next_command(
    legacy_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    takes = Takes(legacy_bot)
    h.fail_next("POST", r"^/webhooks/", status=400, code=50035, message="refused for the test")
    first = await slash(h, player, "roll", dice="1d6")
    await first.response()
    assert not first.ephemeral  # the command itself was answered as usual
    await h.wait_for(lambda: takes.of(player.id) and h.requests_to("POST", r"^/webhooks/"))
    h.pop_violations()  # the refused followup is the fault injected, not the bot's
    await kept_again(legacy_bot, h.guild.id, player.id, 3)
    second = await slash(h, player, "roll", dice="1d6")
    await second.response()
    notice = await second.followup(0)
    assert notice.ephemeral and notice.content.count("\n") == 2
    assert "**Willow 3**" in notice.content
