"""QA7: several decisions open at once (the Volley test ruleset, ``tests/rulesets/volley.py``),
attacked through Discord as players and GMs would. Each test is a problem QA7 found (what a
user saw was wrong), fixed at its mechanism; the test asserts what they should see."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    answered,
    ok,
    pass_turns_until,
    press,
    run_out_windows,
    set_up_fight,
    slash,
    winded,
)
from tests.e2e.conftest import Table
from tests.e2e.test_decisions_several import _both_prompted, volley
from tests.e2e.test_member_data import click, delete_prompt
from tests.harness.server import DiscordHarness
from tests.rulesets.volley import playing_volleys

WILLOW = "Thug 1 attacks Willow with Cudgel"
GENERAL = "Thug 1 attacks General Bearington with Cudgel"


@pytest.fixture
def volleys() -> Iterator[None]:
    with playing_volleys():
        yield


async def test_dodge_with_two_attacks_waiting_names_who_dodged(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Thug 1's volley waits on Willow and on General Bearington (one player runs both). The
    player types `/dodge`: one of the two evades. The reply is titled with the other one
    ("Willow reacts: Evade" above "General Bearington reacts: Evade."), because the title is
    taken from the decision still waiting."""
    h = discord_harness
    await set_up_fight(h, table)
    await volley(bot, h, table)
    reply = await ok(await slash(h, table.player, "dodge"))
    live = await bot.services.encounters.live(h.channel.id)
    (still,) = live.state.decisions
    dodged = "General Bearington" if live.state.get(still.target).name == "Willow" else "Willow"
    embed = reply.message.embeds[0]
    assert f"{dodged} reacts: Evade." in embed["description"]
    assert embed["title"] == f"{dodged} reacts: Evade", embed["title"]


async def test_a_click_that_settles_two_decisions_titles_its_own_prompt(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow (Health 1) takes the hit for General Bearington on the General's prompt and dies,
    which also cancels the attack waiting on her. The prompt the player clicked — the General's —
    then reads "Thug 1 attacks Willow with Cudgel — settled with a button."; it should name its
    own attack."""
    h = discord_harness
    await set_up_fight(h, table)
    await ok(await slash(h, table.moderator, "gm hp", combatant="Willow", health="1"))
    willow, general = await volley(bot, h, table)
    await press(h, table.player, general, "Take the hit for General Bearington")
    await h.wait_for(lambda: h.message(willow).components == [])
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == []  # both settled by the one click
    clicked = h.message(general).content
    assert clicked.startswith(f"{GENERAL} — "), clicked


async def test_two_windows_running_out_together_title_each_prompt_with_its_attack(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Both of the volley's windows run out in one pass. The General's prompt says "Thug 1
    attacks General Bearington with Cudgel — the reaction window ran out" above an embed titled
    "Thug 1 attacks Willow with Cudgel". With one decision the embed is titled with its own
    attack (test_decision_prompts.py::test_an_expired_prompt_is_titled_with_its_attack…)."""
    h = discord_harness
    await set_up_fight(h, table)
    willow, general = await volley(bot, h, table)
    await run_out_windows(bot)
    await h.wait_for(
        lambda: h.message(willow).components == [] and h.message(general).components == [],
        timeout=10,
    )
    assert h.message(willow).embeds[0]["title"] == WILLOW
    assert h.message(general).content.startswith(f"{GENERAL} — the reaction window ran out")
    assert h.message(general).embeds[0]["title"] == GENERAL, h.message(general).embeds[0]


async def test_npcs_that_do_not_react_never_wait_whatever_their_number(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """NPCs do not react in this encounter (`npcs_react` off). Willow's volley hits 25 Thugs
    (one `/gm add-npc` batch): 20 attacks resolve and five prompts ask the GM to choose the
    reactions of Thugs 21 to 25; Willow's turn waits on them."""
    h = discord_harness
    await set_up_fight(h, table, thugs=25)
    await pass_turns_until(bot, h, table, "Willow")
    await ok(await slash(h, table.player, "act", action="volley", detail="Club"))
    live = await bot.services.encounters.live(h.channel.id)
    waiting = [live.state.get(d.target).name for d in live.state.decisions]
    assert waiting == [], waiting
    assert [
        m for m in h.messages_in(h.channel) if any(c.startswith("rx") for c in m.custom_ids())
    ] == []


async def _two_players_fight(h: DiscordHarness, table: Table) -> None:
    """Willow is the player's, General Bearington the other player's."""
    gm = table.moderator
    await ok(await slash(h, gm, "encounter start", name="Firewood"))
    await answered(await slash(h, gm, "npc import", example="thug"))
    await ok(await slash(h, gm, "gm add-npc", template="Thug", count=3))
    await answered(await slash(h, table.player, "character import", example="willow"))
    await answered(
        await slash(h, table.other_player, "character import", example="general-bearington")
    )
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    await ok(await slash(h, table.other_player, "encounter join", character="General Bearington"))
    await ok(await slash(h, gm, "encounter begin"))


async def _wait_notice(h: DiscordHarness) -> str:
    await h.wait_for(lambda: "no longer has a player" in h.last_message(h.channel).content)
    return h.last_message(h.channel).content


async def test_an_erased_member_asked_only_on_the_older_decision_is_readdressed(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow took a breather (she cannot take the hit for anyone), so Thug 1's volley asks
    Willow's player on the attack on Willow only, and the other player on the General's. Willow's
    player erases their data (`/me delete`). The prompt of the attack on Willow still mentions
    and asks the erased member, and the GM — who runs Willow now — is not told."""
    h, player, gm = discord_harness, table.player, table.moderator
    await _two_players_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    await winded(h, table, "Willow")  # a breather at full Stamina is refused
    await ok(await slash(h, player, "breather"))
    await pass_turns_until(bot, h, table, "Thug 1")
    await ok(await slash(h, gm, "act", action="volley", detail="Cudgel"))
    willow, general = await _both_prompted(bot, h)
    assert f"<@{player.id}>" in willow.content and f"<@{player.id}>" not in general.content

    erase = await delete_prompt(h, player)
    await click(h, player, erase, "Confirm")
    notice = await _wait_notice(h)
    asked = h.message(willow).content
    assert f"<@{player.id}>" not in asked and asked.startswith(f"<@{gm.id}>"), asked
    assert f"<@{gm.id}>, the attack on **Willow** now waits for your decision" in notice, notice


async def test_the_erasure_notice_names_the_decision_the_gm_now_makes(
    volleys: None, bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Thug 1's volley waits on Willow (the player's) and on General Bearington (the other
    player's); Willow may take the hit for the General. Willow's player erases their data. The
    GM now chooses Willow's own reaction, but the notice says only "the attack on **General
    Bearington** now waits for your decision"."""
    h, player, gm = discord_harness, table.player, table.moderator
    await _two_players_fight(h, table)
    await volley(bot, h, table)
    erase = await delete_prompt(h, player)
    await click(h, player, erase, "Confirm")
    notice = await _wait_notice(h)
    assert f"<@{gm.id}>" in notice
    assert "the attack on **Willow**" in notice, notice
