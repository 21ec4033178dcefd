"""QA attack (round 19, b): a change the bot committed must reach the channel even when the
interaction that made it can no longer be answered. Discord gives an interaction 3 s for its
first answer; a slow command (a loaded host, a long fight replayed) finds the token dead
(error 10062, "Unknown interaction"). The turn has then ended in the database, but the result
— and the next turn holder's ping — was only ever sent as that answer: nobody is told, and a
play-by-chat fight waits on a player who never learns it is their turn."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.client import CombatBot
from bot.ui.tracker import tracker_embed
from tests.e2e.combat_helpers import (
    button,
    current_name,
    ok,
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


# The class: every command or button that changes the fight, answered on a dead token ---------


async def _channel_is_current(bot: CombatBot, h: DiscordHarness) -> list[str]:
    """What the channel shows that the stored fight contradicts: buttons of a settled decision
    or of a turn that is over, a waiting decision with no buttons (or not saying it is paused),
    a tracker behind the fight."""
    wrong: list[str] = []
    encounter = await bot.services.encounters.live(h.channel.id)
    state = encounter.state
    live = {f"{d.pending_version}.{d.ref}" for d in bot.services.combat.decisions(encounter)}
    for m in h.messages_in(h.channel):
        for cid in m.custom_ids():
            kind, enc, key, *_ = [*cid.split(":"), ""]
            if kind in ("rx", "rxg") and (int(enc) != encounter.id or key not in live):
                wrong.append(f"settled decision's button {cid} on {m.content[:60]!r}")
            turn_over = state.phase != "active" or str(state.turn_seq) != key
            if kind in ("tb", "tba") and (int(enc) != encounter.id or turn_over):
                wrong.append(f"finished turn's button {cid} on {m.content[:60]!r}")
    for decision in bot.services.combat.decisions(encounter):
        if decision.prompt_message_id is None:
            wrong.append("a waiting decision has no prompt")
            continue
        prompt = h.message(decision.prompt_message_id)
        if not prompt.custom_ids():
            wrong.append("a waiting decision's prompt has no buttons")
        if encounter.row.paused and "paused" not in prompt.content:
            wrong.append("a paused fight's prompt does not say so")
    tracker = encounter.row.tracker_message_id
    if tracker is not None:
        [shown] = h.message(tracker).embeds
        now = tracker_embed(encounter).to_dict()
        if (shown.get("title"), shown.get("description")) != (now["title"], now["description"]):
            wrong.append(f"the tracker is behind: {shown.get('description', '')[:120]!r}")
    return wrong


async def _on_thugs_turn(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    await pass_turns_until(bot, h, table, "Thug 1")


async def _willow_asked(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    await thug_attacks_willow(bot, h, table)


async def _paused_while_asked(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    await thug_attacks_willow(bot, h, table)
    await ok(await slash(h, table.moderator, "gm pause"))


async def _undone(bot: CombatBot, h: DiscordHarness, table: Table) -> None:
    await thug_attacks_willow(bot, h, table)
    await ok(await slash(h, table.moderator, "gm undo"))


async def _slash(h: DiscordHarness, table: Table, command: str, **options: object) -> None:
    member = table.player if options.pop("player", False) else table.moderator
    await slash(h, member, command, **options)


async def _click(h: DiscordHarness, table: Table, label: str) -> None:
    message = next(
        m
        for m in reversed(h.messages_in(h.channel))
        if any(
            c.get("label", "").startswith(label) for row in m.components for c in row["components"]
        )
    )
    member = table.player if label in ("Evade", "Block") else table.moderator
    await h.click(member, message, button(message, label)["custom_id"])


STEPS = {
    "/endturn": (_on_thugs_turn, lambda h, t: _slash(h, t, "endturn")),
    "/gm next": (_on_thugs_turn, lambda h, t: _slash(h, t, "gm next")),
    "/gm skip": (_on_thugs_turn, lambda h, t: _slash(h, t, "gm skip", combatant="Willow")),
    "/attack": (
        _on_thugs_turn,
        lambda h, t: _slash(h, t, "attack", target="Willow", with_="Cudgel"),
    ),
    "/dodge": (_willow_asked, lambda h, t: _slash(h, t, "dodge", player=True)),
    "/gm resolve": (_willow_asked, lambda h, t: _slash(h, t, "gm resolve")),
    "/gm undo": (_willow_asked, lambda h, t: _slash(h, t, "gm undo")),
    "/gm redo": (_undone, lambda h, t: _slash(h, t, "gm redo")),
    "/gm pause": (_willow_asked, lambda h, t: _slash(h, t, "gm pause")),
    "/gm resume": (_paused_while_asked, lambda h, t: _slash(h, t, "gm resume")),
    "/gm hp": (_willow_asked, lambda h, t: _slash(h, t, "gm hp", combatant="Willow", stamina="1")),
    "/gm remove": (_willow_asked, lambda h, t: _slash(h, t, "gm remove", combatant="Thug 1")),
    "/gm add-npc": (_on_thugs_turn, lambda h, t: _slash(h, t, "gm add-npc", template="Thug")),
    "/gm settings turn_deadline": (
        _on_thugs_turn,
        lambda h, t: _slash(h, t, "gm settings", turn_deadline="1h"),
    ),
    "/gm condition": (
        _on_thugs_turn,
        lambda h, t: _slash(h, t, "gm condition", combatant="Thug 1", action="add", name="Stunned"),
    ),
    "End turn button": (_on_thugs_turn, lambda h, t: _click(h, t, "End turn")),
    "Evade button": (_willow_asked, lambda h, t: _click(h, t, "Evade")),
}


@pytest.mark.parametrize("step", list(STEPS))
async def test_a_change_answered_on_a_dead_token_leaves_the_channel_current(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    step: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Whatever the change, the channel ends up showing the stored fight: no live-looking
    buttons of a settled decision or a finished turn, every waiting decision asked with its
    buttons (saying when the fight is paused), the tracker current; and nothing fails on the
    way (no error logged: a dead token is no bug)."""
    caplog.set_level(logging.ERROR)
    h = discord_harness
    await set_up_fight(h, table, thugs=2)
    before, act = STEPS[step]
    await before(bot, h, table)
    version = (await bot.services.encounters.live(h.channel.id)).row.version
    _dead_token(h)
    await act(h, table)

    async def settled() -> bool:
        changed = (await bot.services.encounters.live(h.channel.id)).row.version != version
        return changed and not await _channel_is_current(bot, h)

    for _ in range(50):
        if await settled():
            break
        await asyncio.sleep(0.1)
    assert (await bot.services.encounters.live(h.channel.id)).row.version != version, "no change"
    assert await _channel_is_current(bot, h) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    h.pop_violations()


async def test_a_server_end_confirmed_on_a_dead_token_still_ends_the_fight_in_its_channel(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """``/server end``'s Confirm, from another channel: the fight's waiting prompt loses its
    buttons and its summary is posted there, though the click itself got no answer."""
    h = discord_harness
    await set_up_fight(h, table, thugs=1)
    prompt = await thug_attacks_willow(bot, h, table)
    office = h.add_channel(h.guild, "office")
    ask = await h.slash(table.moderator, office, "server end", {"channel": h.channel})
    await ask.response()
    confirm = next(c for c in ask.message.custom_ids() if c.startswith("srv:endp:yes:"))
    _dead_token(h)
    await h.click(table.moderator, ask.message, confirm)
    await h.wait_for(lambda: h.message(prompt).components == [], timeout=5)
    assert "The encounter ended before this" in h.message(prompt).content
    await h.wait_for(
        lambda: any("Encounter ended" in m.text() for m in h.messages_in(h.channel)), timeout=5
    )
    h.pop_violations()
