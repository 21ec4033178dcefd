"""QA7: plain UTTAS decisions after decisions were generalised (numbered decisions, UTTAS's
words in ``bot/engine/uttas/decision_words.py``). A flurry, a surrender's complete-or-stop and
taking the hit still work through Discord; two wordings of the complete-or-stop choice were
wrong before the change (the old prompt and tracker said the same) and are fixed: the prompt
says its window makes the attacker stop, the tracker waits on the attacker's choice."""

from __future__ import annotations

import pytest

from bot.client import CombatBot
from bot.errors import Conflict
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.e2e.test_decisions_several import GM_OF
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness


async def _complete_or_stop(bot: CombatBot, h: DiscordHarness, table: Table) -> StoredMessage:
    """Willow, alone in the party, surrenders to Thug 1: Thug 1's complete-or-stop waits."""
    await set_up_fight(h, table)
    await ok(await slash(h, table.moderator, "gm remove", combatant="General Bearington"))
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    await press(h, table.player, h.message(prompt), "Surrender")
    await h.wait_for(lambda: h.message(prompt).components == [])
    choice = await prompt_recorded(bot, h)  # the newest decision's: the choice
    assert choice != prompt.id
    return h.message(choice)


async def test_the_complete_or_stop_prompt_says_its_window_makes_the_attacker_stop(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The prompt reads "Willow surrendered: complete the attack with Cudgel or stop? Decide by
    …; after that it resolves with no reaction." — but when its window runs out the attacker
    stops and accepts the surrender (which the retired prompt then says)."""
    h = discord_harness
    choice = await _complete_or_stop(bot, h, table)
    deadline = choice.content.split("Decide by", 1)[1]
    assert "no reaction" not in deadline, choice.content
    assert "stops" in deadline, choice.content


async def test_the_tracker_waits_on_the_attacker_while_it_chooses_to_complete_or_stop(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """While Thug 1 chooses whether to complete its attack on the surrendered Willow, the
    tracker says "Waiting on **Willow**'s reaction": Willow has nothing left to choose."""
    h = discord_harness
    await _complete_or_stop(bot, h, table)

    def now_field() -> str:
        """The tracker's "Now" field as it stands (waits for the edit that follows the
        surrender: "Waiting on" alone was true before it, which raced)."""
        live_tracker = [m for m in h.messages_in(h.channel) if m.embeds and "Now" in str(m.embeds)]
        fields = live_tracker[-1].embeds[0]["fields"] if live_tracker else []
        return next((f["value"] for f in fields if f["name"] == "Now"), "")

    await h.wait_for(lambda: "Waiting on **Thug 1**" in now_field())
    assert "Willow**'s reaction" not in now_field(), now_field()


async def test_a_flurry_surrender_and_completion_each_get_their_own_prompt(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """General Bearington's two-hit flurry on Thug 1 (the GM chooses its reactions): hit 1 is
    taken, hit 2 comes as a new decision with a new prompt (hit 1's buttons are refused), Thug 1
    surrenders to hit 2 and the General's player completes the attack: each prompt is retired
    with its own attack's title and the turn passes."""
    h, gm, player = discord_harness, table.moderator, table.player
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, player, "attack", target="Thug 1", with_="Claws", hits=2))
    hit1 = h.message(await prompt_recorded(bot, h))
    await press(h, gm, hit1, "Take it")
    live = await bot.services.encounters.live(h.channel.id)
    assert [d.ref for d in live.row.decisions] == [2]
    hit2 = h.message(await prompt_recorded(bot, h))
    assert hit2.id != hit1.id
    # hit 1's buttons, pressed late (a second client's stale copy), change nothing.
    opened = hit1.versions[0]["components"][0]["components"][0]["custom_id"]
    enc, key = opened.split(":")[1:3]
    version = live.version
    with pytest.raises(Conflict, match="no longer pending"):
        await bot.services.combat.decide(
            int(enc), int(key.split(".")[0]), GM_OF(table), "none@c3", int(key.split(".")[1])
        )
    assert (await bot.services.encounters.live(h.channel.id)).version == version
    await press(h, gm, hit2, "Surrender")
    live = await bot.services.encounters.live(h.channel.id)
    assert [d.ref for d in live.row.decisions] == [3]
    choice = h.message(await prompt_recorded(bot, h))
    assert [c.get("label") for r in choice.components for c in r["components"]] == [
        "Complete the attack",
        "Stop and end the turn",
    ]
    await press(h, player, choice, "Complete")
    for prompt in (hit1, hit2, choice):
        retired = h.message(prompt)
        assert retired.components == []
        assert retired.content.startswith("General Bearington attacks Thug 1 with Claws — ")
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == [] and live.state.current is not None
    assert live.state.current.name != "General Bearington"


async def test_taking_the_hit_settles_the_attack_under_its_own_title(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Thug 1 attacks Willow; General Bearington takes the hit for her (one action): the
    prompt is retired with the attack's title, the General is hit, and Thug 1's turn passes."""
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    await press(h, table.player, prompt, "Take the hit for Willow")
    retired = h.message(prompt)
    assert retired.components == []
    assert retired.content == "Thug 1 attacks Willow with Cudgel — settled with a button."
    assert "General Bearington throws themselves in front of Willow!" in retired.text()
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.decisions == [] and live.state.current is not None
    assert live.state.current.name == "Thug 2"
