"""QA attack (round 19, b): a change the bot committed must reach the channel even when the
interaction that made it can no longer be answered. Discord gives an interaction 3 s for its
first answer; a slow command (a loaded host, a long fight replayed) finds the token dead
(error 10062, "Unknown interaction"). The turn has then ended in the database, but the result
— and the next turn holder's ping — was only ever sent as that answer: nobody is told, and a
play-by-chat fight waits on a player who never learns it is their turn."""

from __future__ import annotations

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    button,
    current_name,
    pass_turns_until,
    set_up_fight,
    slash,
    thug_attacks_willow,
)
from tests.e2e.conftest import Table
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness

UNKNOWN_INTERACTION = {"status": 404, "code": 10062, "message": "Unknown interaction"}


def _dead_token(h: DiscordHarness) -> None:
    """The next interaction's answers are all refused as Discord refuses a dead token: the
    first answer, and the bot's error reply after it."""
    h.fail_next("POST", r"^/interactions/\d+/[^/]+/callback", times=2, **UNKNOWN_INTERACTION)


async def test_a_turn_ended_by_a_command_whose_answer_is_refused_is_announced_in_the_channel(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    await pass_turns_until(bot, h, table, "Thug 1")
    before = len(h.messages_in(h.channel))
    _dead_token(h)
    await slash(h, table.moderator, "endturn")
    await h.wait_for(lambda: len(h.requests_to("POST", r"^/interactions/")) >= 2)

    def willow_pinged() -> bool:
        return any(
            "it is **Willow**'s turn" in m.content and f"<@{table.player.id}>" in m.content
            for m in h.messages_in(h.channel)[before:]
        )

    await h.wait_for(willow_pinged, timeout=5)
    assert await current_name(bot, h) == "Willow"
    new = h.messages_in(h.channel)[before:]
    [ping] = [m for m in new if "it is **Willow**'s turn" in m.content]
    assert "Thug 1" in ping.text()  # the result itself, not just the ping
    assert any(c.startswith("tb:") for c in ping.custom_ids())  # Willow acts from the ping
    h.pop_violations()  # the refused interaction itself stays unanswered, as on Discord


async def test_a_reaction_button_whose_answer_is_refused_still_settles_the_prompt_in_the_channel(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The click is stored; the prompt becomes the result (its buttons gone, so nobody clicks a
    settled decision) and the next turn holder is pinged in the channel."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    prompt = await thug_attacks_willow(bot, h, table)
    before = len(h.messages_in(h.channel))
    _dead_token(h)
    await h.click(table.player, prompt, button(prompt, "Evade")["custom_id"])
    await h.wait_for(lambda: "settled with a button" in h.message(prompt).content, timeout=5)
    assert h.message(prompt).components == []
    assert "Willow reacts: Evade" in h.message(prompt).text()
    now = await current_name(bot, h)
    assert now != "Thug 1"

    def pings() -> list[StoredMessage]:
        new = h.messages_in(h.channel)[before:]
        return [m for m in new if f"it is **{now}**'s turn" in m.content]

    await h.wait_for(pings, timeout=5)
    assert len(pings()) == 1
    h.pop_violations()


async def test_an_end_confirmed_with_a_dead_token_still_takes_the_buttons_off(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """The encounter has ended in the database: the waiting reaction prompt says so and loses
    its buttons, and the summary is posted in the channel."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    prompt = await thug_attacks_willow(bot, h, table)
    end = await slash(h, table.moderator, "encounter end")
    await end.response()
    _dead_token(h)
    await h.click(table.moderator, end.message, button(end.message, "Confirm")["custom_id"])
    await h.wait_for(lambda: h.message(prompt).components == [], timeout=5)
    assert "The encounter ended before this" in h.message(prompt).content
    await h.wait_for(
        lambda: any("Encounter ended" in m.text() for m in h.messages_in(h.channel)), timeout=5
    )
    h.pop_violations()
