"""QA7: attacks on several open decisions (the Volley test ruleset) that held — two prompts
clicked at once, a click racing the expiry, undo and redo, a restart with a prompt never
noted, pause and resume, the end of the encounter, hidden NPCs."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from tests.clock import ManualClock
from tests.e2e.combat_helpers import (
    button,
    current_name,
    end_encounter,
    ok,
    pass_turns_until,
    press,
    refused,
    set_up_fight,
    slash,
)
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.test_decisions_several import _both_prompted, live_prompts, volley
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness
from tests.rulesets.volley import playing_volleys

WILLOW = "Thug 1 attacks Willow with Cudgel"
GENERAL = "Thug 1 attacks General Bearington with Cudgel"


@pytest.fixture
def volleys() -> Iterator[None]:
    with playing_volleys():
        yield


def no_buttons(h: DiscordHarness, *prompts: StoredMessage) -> bool:
    return all(h.message(p).components == [] for p in prompts)


async def test_both_prompts_clicked_at_once_settle_each_and_pass_the_turn_once(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    clicks = await asyncio.gather(
        h.click(player, willow, button(willow, "Take it")["custom_id"]),
        h.click(player, general, button(general, "Take it")["custom_id"]),
    )
    await asyncio.gather(*(c.response() for c in clicks))
    assert [c.ephemeral for c in clicks] == [False, False]
    await h.wait_for(lambda: no_buttons(h, willow, general))
    assert h.message(willow).content == f"{WILLOW} — settled with a button."
    assert h.message(general).content == f"{GENERAL} — settled with a button."
    assert await current_name(bot, h) == "Thug 2"
    await h.wait_for(lambda: "**Thug 2**'s turn" in h.last_message(h.channel).content)
    turns = [m for m in h.messages_in(h.channel) if "it is **Thug 2**'s turn" in m.content]
    assert len(turns) == 1


async def test_a_click_racing_the_expiry_applies_once_and_leaves_no_buttons(
    volleys: None,
    clocked_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    clock: ManualClock,
) -> None:
    bot, h = clocked_bot, discord_harness
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    window = (await bot.services.encounters.live(h.channel.id)).state.settings.reaction_window_s
    clock.advance(window)
    take = button(willow, "Take it")["custom_id"]
    click, expired = await asyncio.gather(h.click(table.player, willow, take), bot.expire_due())
    await click.response()
    await h.wait_for(lambda: no_buttons(h, willow, general))
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == [] and live.row.decisions == ()
    assert await current_name(bot, h) == "Thug 2"
    if click.ephemeral:  # the expiry came first: both lapsed
        assert "no longer pending" in click.response_data["content"]
        assert [r.label for r in expired] == [WILLOW]
    else:  # the click came first: only the General's lapsed
        assert h.message(willow).content == f"{WILLOW} — settled with a button."
    assert "ran out" in h.message(general).content
    log = [e.command for e in await bot.services.encounters.log(live.id)]
    assert log.count("react") + log.count("expire") == (1 if click.ephemeral else 2)


async def test_undo_and_redo_of_a_volley_retire_and_bring_back_both_prompts(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    await ok(await slash(h, gm, "gm undo"))
    await h.wait_for(lambda: no_buttons(h, willow, general))
    assert h.message(willow).content == f"{WILLOW} — settled with `/gm undo`."
    assert h.message(general).content == f"{GENERAL} — settled with `/gm undo`."
    assert live_prompts(h) == []
    await ok(await slash(h, gm, "gm redo"))
    willow2, general2 = await _both_prompted(bot, h)
    assert {willow2.id, general2.id}.isdisjoint({willow.id, general.id})
    assert "**Willow** with **Cudgel**" in willow2.content
    assert "**General Bearington** with **Cudgel**" in general2.content
    await press(h, player, willow2, "Take it")
    await press(h, player, general2, "Take it")
    await h.wait_for(lambda: no_buttons(h, willow2, general2))
    assert await current_name(bot, h) == "Thug 2"


@pytest.mark.parametrize("lost", [1, 2])
async def test_a_restart_finds_the_one_prompt_of_two_never_noted(
    volleys: None, discord_patched: DiscordHarness, table: Table, tmp_path: Path, lost: int
) -> None:
    """The first run posts both prompts but stops before noting one of them (as a SIGKILL
    there would); after the restart that message is found and noted (not posted again), and
    both prompts' buttons work."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        real = first.services.encounters.set_prompt_message
        dropped = asyncio.Event()

        async def drop_one(
            encounter_id: int,
            version: int,
            message_id: int,
            asked: list[int],
            ref: int = 1,
            *,
            real: Any = real,
            dropped: asyncio.Event = dropped,
        ) -> str:
            if ref == lost:
                dropped.set()
                return "recorded"
            return await real(encounter_id, version, message_id, asked, ref)

        first.services.encounters.set_prompt_message = drop_one  # type: ignore[method-assign]
        await set_up_fight(h, table)
        await pass_turns_until(first, h, table, "Thug 1")
        await ok(await slash(h, table.moderator, "act", action="volley", detail="Cudgel"))
        await asyncio.wait_for(dropped.wait(), 5)
        await h.wait_for(lambda: len(live_prompts(h)) == 2)
        posted = live_prompts(h)
        live = await first.services.encounters.live(h.channel.id)
        assert live.row.open_decision(lost).prompt_message_id is None  # type: ignore[union-attr]
    async for second in _running_bot(h, database, None):
        prompts = await _both_prompted(second, h)
        assert [p.id for p in prompts] == [p.id for p in posted]
        assert len(live_prompts(h)) == 2  # nothing posted twice
        for prompt in prompts:
            await press(h, table.player, prompt, "Take it")
        await h.wait_for(lambda prompts=prompts: no_buttons(h, *prompts))
        assert await current_name(second, h) == "Thug 2"


async def test_pause_holds_both_windows_and_resume_restarts_each(
    volleys: None,
    clocked_bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    clock: ManualClock,
) -> None:
    bot, h, gm = clocked_bot, discord_harness, table.moderator
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    window = (await bot.services.encounters.live(h.channel.id)).state.settings.reaction_window_s
    await ok(await slash(h, gm, "gm pause"))
    await h.wait_for(lambda: all("paused" in h.message(p).content for p in (willow, general)))
    clock.advance(window * 3)
    assert await bot.expire_due() == []
    await ok(await slash(h, gm, "gm resume"))
    live = await bot.services.encounters.live(h.channel.id)
    assert [d.deadline for d in live.row.decisions] == [clock.now + timedelta(seconds=window)] * 2
    await h.wait_for(lambda: all("Decide by" in h.message(p).content for p in (willow, general)))
    clock.advance(window - 1)
    assert await bot.expire_due() == []
    clock.advance(1)
    (expired,) = await bot.expire_due()
    assert expired.encounter.state.decisions == []
    await h.wait_for(lambda: no_buttons(h, willow, general))
    assert all("ran out" in h.message(p).content for p in (willow, general))


async def test_ending_the_encounter_retires_both_prompts(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    await end_encounter(h, table)
    await h.wait_for(lambda: no_buttons(h, willow, general))
    for prompt in (willow, general):
        assert h.message(prompt).content == "The encounter ended before this attack was decided."


async def test_hidden_npcs_each_decision_keeps_its_own_gm_chooser(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """NPCs react and their numbers are hidden; Willow's volley waits on Thug 1 and Thug 2.
    Each prompt has "GM: choose" buttons only (which reactions a Thug can afford is its
    secret). A player is refused the chooser; the GM answers Thug 1's privately and Thug 2's
    prompt keeps its chooser."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table, thugs=2, begin=False)
    await ok(await slash(h, gm, "gm settings", npcs_react=True, hide_npc_numbers=True))
    await ok(await slash(h, gm, "encounter begin"))
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, player, "act", action="volley", detail="Club"))
    thug1, thug2 = await _both_prompted(bot, h)
    for prompt in (thug1, thug2):
        assert all(c.startswith("rxg:") for c in prompt.custom_ids()), prompt.custom_ids()
    chooser = button(thug2, "GM: choose Thug 2")["custom_id"]
    assert "Only the GM" in await refused(await h.click(player, thug2, chooser))
    await press(h, gm, thug1, "Take it")
    await h.wait_for(lambda: no_buttons(h, thug1))
    assert h.message(thug1).content.startswith("Willow attacks Thug 1 with Club — ")
    assert "Health" not in h.message(thug1).text()  # the public result hides its numbers
    assert chooser in h.message(thug2).custom_ids()
    await press(h, gm, thug2, "Take it")
    await h.wait_for(lambda: no_buttons(h, thug2))
    assert await current_name(bot, h) == "General Bearington"
