"""Several decisions open at once, through Discord (issue 10, "Decisions, generalised"). A test
variant of UTTAS (``tests/rulesets/volley.py``) plugs in through the registry with one action
that attacks every enemy at once, so one decision per target opens in one command: each gets a
prompt of its own, is answered or runs out on its own, and the turn waits for all of them —
with no change to the core, the services, the store or the cogs. A button posted before
decisions had numbers still works."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot.client import CombatBot
from bot.errors import Conflict
from bot.services.actor import Actor
from tests.e2e.combat_helpers import (
    current_name,
    ok,
    pass_turns_until,
    press,
    run_out_windows,
    set_up_fight,
    slash,
    thug_attacks_willow,
    tracker_reading,
)
from tests.e2e.conftest import Table
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness
from tests.rulesets.volley import playing_volleys


def GM_OF(table: Table) -> Actor:
    return Actor(user_id=table.moderator.id, manages_channel=True)


@pytest.fixture
def volleys() -> Iterator[None]:
    with playing_volleys():
        yield


def live_prompts(h: DiscordHarness) -> list[StoredMessage]:
    return [m for m in h.messages_in(h.channel) if any(c.startswith("rx:") for c in m.custom_ids())]


async def _both_prompted(bot: CombatBot, h: DiscordHarness) -> list[StoredMessage]:
    async def noted() -> bool:
        live = await bot.services.encounters.live(h.channel.id)
        return len(live.row.decisions) == 2 and all(
            d.prompt_message_id is not None for d in live.row.decisions
        )

    for _ in range(500):
        if await noted():
            break
        await asyncio.sleep(0.01)
    live = await bot.services.encounters.live(h.channel.id)
    assert [d.ref for d in live.row.decisions] == [1, 2], live.row.decisions
    return [h.message(d.prompt_message_id or 0) for d in live.row.decisions]


async def volley(bot: CombatBot, h: DiscordHarness, table: Table) -> list[StoredMessage]:
    await pass_turns_until(bot, h, table, "Thug 1")
    await ok(await slash(h, table.moderator, "act", action="volley", detail="Cudgel"))
    return await _both_prompted(bot, h)


async def test_a_volley_asks_each_target_in_a_prompt_of_its_own(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    assert "**Thug 1** attacks **Willow** with **Cudgel**" in willow.content
    assert "**Thug 1** attacks **General Bearington** with **Cudgel**" in general.content
    assert f"<@{player.id}>" in willow.content and f"<@{player.id}>" in general.content
    # Each prompt's buttons name its own decision.
    assert {c.split(":")[2] for c in willow.custom_ids()} != {
        c.split(":")[2] for c in general.custom_ids()
    }
    # The turn waits for both.
    refused = await slash(h, table.moderator, "endturn")
    await refused.response()
    assert refused.ephemeral and "Waiting for" in refused.response_data["content"]

    # Willow answers hers: only her prompt is settled; the General's still waits.
    click = await press(h, player, willow, "Take it")
    await click.response()
    await h.wait_for(lambda: h.message(willow).components == [])
    assert h.message(general).components != []
    live = await bot.services.encounters.live(h.channel.id)
    assert [d.ref for d in live.row.decisions] == [2]
    assert await current_name(bot, h) == "Thug 1"
    await tracker_reading(h, "Waiting on **General Bearington**'s reaction")

    # The General's answer settles the last one: Thug 1's turn passes on.
    click = await press(h, player, general, "Take it")
    await click.response()
    await h.wait_for(lambda: h.message(general).components == [])
    assert await current_name(bot, h) != "Thug 1"
    assert live_prompts(h) == []


async def test_each_decision_runs_out_on_its_own_and_a_stale_button_is_refused(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    opened = (await bot.services.encounters.live(h.channel.id)).row.decisions
    await ok_click(h, player, willow, "Take it")
    await run_out_windows(bot)  # the General's window ends: the loop lapses it
    await h.wait_for(lambda: h.message(general).components == [], timeout=10)
    assert "ran out" in h.message(general).content
    live = await bot.services.encounters.live(h.channel.id)
    assert live.row.decisions == () and live.state.decisions == []
    assert await current_name(bot, h) != "Thug 1"
    # A button of either decision, pressed late (a second client's stale copy), changes nothing.
    version = live.version
    for d in opened:
        with pytest.raises(Conflict, match="no longer pending"):
            await bot.services.combat.decide(live.id, d.opened_version, GM_OF(table), "none", d.ref)
    assert (await bot.services.encounters.live(h.channel.id)).version == version


async def ok_click(h: DiscordHarness, member: object, message: StoredMessage, label: str) -> None:
    click = await press(h, member, message, label)  # type: ignore[arg-type]
    await click.response()
    await h.wait_for(lambda: h.message(message).components == [])


async def test_undo_brings_both_decisions_back_with_new_prompts(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, player, gm = discord_harness, table.player, table.moderator
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    await ok_click(h, player, willow, "Take it")
    await ok(await slash(h, gm, "gm undo"))
    # Willow's decision is open again (a new row and prompt); the General's never closed.
    for _ in range(500):
        live = await bot.services.encounters.live(h.channel.id)
        if len(live.row.decisions) == 2 and all(d.prompt_message_id for d in live.row.decisions):
            break
        await asyncio.sleep(0.01)
    assert [d.ref for d in live.row.decisions] == [1, 2]
    assert live.row.open_decision(2).prompt_message_id == general.id  # type: ignore[union-attr]
    again = h.message(live.row.open_decision(1).prompt_message_id or 0)  # type: ignore[union-attr]
    assert again.id != willow.id and again.components != []
    await ok_click(h, player, again, "Take it")
    await ok_click(h, player, general, "Take it")
    assert await current_name(bot, h) != "Thug 1"


async def test_a_button_posted_before_decisions_had_numbers_still_answers(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """A prompt the previous version posted names its decision by version alone
    (``rx:<encounter>:<version>:<choice>``); after the upgrade its buttons still work."""
    h, player = discord_harness, table.player
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    stored = h.message(prompt)
    for row in stored.components:
        for component in row.get("components", []):
            enc, key, code = component["custom_id"].split(":", 3)[1:]
            component["custom_id"] = f"rx:{enc}:{key.split('.')[0]}:{code}"
    legacy = next(c for c in stored.custom_ids() if c.endswith(":none"))
    assert legacy.count(".") == 0
    click = await h.click(player, stored, legacy)
    await click.response()
    assert not click.ephemeral, click.response_data
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == [] and "does not react" in str(h.message(prompt).embeds)


async def test_gm_resolve_settles_every_waiting_decision(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """`/gm resolve` with two decisions waiting settles both as if nobody chose (QA7: it used to
    settle the newest only, and the GM could not reach the older one); the turn passes on."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    resolved = await ok(await slash(h, gm, "gm resolve"))
    assert resolved.message.embeds[0]["title"] == "The GM resolves the waiting decisions"
    text = str(resolved.message.embeds)
    assert "Willow does not react." in text and "General Bearington does not react." in text
    for prompt in (willow, general):
        await h.wait_for(lambda p=prompt: h.message(p).components == [])
        assert "settled with `/gm resolve`" in h.message(prompt).content
    assert await current_name(bot, h) != "Thug 1"
    again = await slash(h, gm, "gm resolve")
    await again.response()
    assert again.ephemeral and "waiting" in again.response_data["content"]
