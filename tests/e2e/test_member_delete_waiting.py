"""``/me delete`` while an attack waits on the member's decision (QA of issue 9 §9): once their
combatants are the GM's, the waiting prompt asks the GM — not the erased member — and its
buttons are the GM's to press; the GM is pinged once, by the fight's notice."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import button, refused, set_up_fight, slash, thug_attacks_willow
from tests.e2e.conftest import Table
from tests.e2e.test_decision_prompts import prompt_recorded
from tests.e2e.test_member_data import click, delete_prompt, stored_anywhere
from tests.harness.server import DiscordHarness


async def test_a_waiting_prompt_asks_the_gm_after_the_erasure(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    player, gm = table.player, table.moderator
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    asked = h.message(prompt).content
    assert f"<@{player.id}>" in asked and "reacts with a button" in asked
    buttons_before = h.message(prompt).custom_ids()

    erase = await delete_prompt(h, player)
    await click(h, player, erase, "Confirm")
    await h.wait_for(lambda: f"<@{player.id}>" not in h.message(prompt).content)
    readdressed = h.message(prompt)
    assert readdressed.content.startswith(
        f"<@{gm.id}> **Thug 1** attacks **Willow** with **Cudgel**: **Willow** reacts with a button"
    ), readdressed.content
    # The same decision: its buttons (and the embed with the attack) stay as they were.
    assert readdressed.custom_ids() == buttons_before
    assert readdressed.embeds == prompt.embeds
    # The GM is told, and pinged, by the notice in the channel.
    await h.wait_for(lambda: "no longer" in h.last_message(h.channel).content)
    notice = h.last_message(h.channel)
    assert notice.content == (
        "**Willow**, **General Bearington** no longer have a player in this fight: the GM runs "
        f"them from now on.\n<@{gm.id}>, the attack on **Willow** now waits for your decision: "
        "use the buttons on its prompt."
    )
    (sent,) = [
        r.json
        for r in h.requests_to("POST", rf"/channels/{h.channel.id}/messages$")
        if "no longer" in (r.json.get("content") or "")
    ]
    assert [str(u) for u in sent["allowed_mentions"]["users"]] == [str(gm.id)]

    # The buttons are the GM's now; the erased member's click is refused.
    take = button(readdressed, "Take it")["custom_id"]
    assert await refused(await h.click(player, readdressed, take))
    settle = await h.click(gm, h.message(prompt), take)
    await settle.response()
    assert not settle.ephemeral, settle.response_data
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.pending is None
    assert "no combatant" in await refused(await slash(h, player, "endturn"))
    # The decision's row no longer lists the erased member among those it asked.
    assert "decisions.asked" not in await stored_anywhere(bot, str(player.id))
