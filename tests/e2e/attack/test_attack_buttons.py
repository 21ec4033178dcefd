"""QA attack on the new buttons (Uune approvals and spends, the turn ping's Attack… select, a
delegate's reaction button) pressed twice at once, by the wrong member, or too late: one press
wins, the other gets a specific refusal, nothing is applied twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client import CombatBot
from bot.ui.replies import UNEXPECTED
from tests.e2e.combat_helpers import (
    answered,
    button,
    end_encounter,
    ok,
    pass_turns_until,
    refused,
    set_up_fight,
    slash,
    thug_attacks_willow,
    winded,
)
from tests.e2e.conftest import DiceBox, Table, _running_bot
from tests.e2e.uune_steps import Docks, prompt_with
from tests.harness.models import InteractionRecord, Member, StoredMessage
from tests.harness.server import DiscordHarness


async def both(
    h: DiscordHarness, first: Member, second: Member, message: StoredMessage, custom_id: str
) -> list[InteractionRecord]:
    clicks = await asyncio.gather(
        h.click(first, message, custom_id), h.click(second, message, custom_id)
    )
    await asyncio.gather(*(c.response() for c in clicks))
    return list(clicks)


def one_wins(clicks: list[InteractionRecord]) -> None:
    texts = [str(c.response_data.get("content") or "") for c in clicks]
    assert UNEXPECTED not in texts, texts
    refusals = [c for c in clicks if c.ephemeral]
    assert len(refusals) == 1, [c.response_data for c in clicks]


async def test_two_presses_of_the_gms_approval_at_once_roll_once(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast()
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="action", detail="climb: Lockpicks")
    await u.press(table.moderator, "GM: difficulty 2 (Easy)")
    prompt = await prompt_with(h, "GM: approve all")
    dice.load([5, 6])
    one_wins(
        await both(
            h,
            table.moderator,
            table.moderator,
            prompt,
            button(prompt, "GM: approve all")["custom_id"],
        )
    )
    assert dice.empty  # one roll: a second would have found no faces loaded


async def test_two_presses_of_keep_the_roll_at_once_settle_once(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    await u.cast()
    await u.run(table.moderator, "encounter begin")
    await u.run(table.player, "act", action="action", detail="climb: Lockpicks")
    await u.press(table.moderator, "GM: difficulty 2 (Easy)")
    await u.press(table.moderator, "GM: approve all", [5, 2])
    spend = await prompt_with(h, "Keep the roll")
    one_wins(
        await both(
            h, table.player, table.moderator, spend, button(spend, "Keep the roll")["custom_id"]
        )
    )
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.name != "Mira Quell"
    assert len([m for m in h.messages_in(h.channel) if "climb fails" in m.text()]) <= 1


async def test_the_attack_select_twice_at_once_attacks_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    pings = [m for m in h.messages_in(h.channel) if "it is **Willow**'s turn" in m.content]
    asked = await h.click(table.player, pings[-1], button(pings[-1], "Attack…")["custom_id"])
    await asked.response()
    question = asked.message
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    target = select["options"][0]["value"]
    clicks = await asyncio.gather(
        h.select(table.player, question, select["custom_id"], [target]),
        h.select(table.player, question, select["custom_id"], [target]),
    )
    await asyncio.gather(*(c.response() for c in clicks))
    texts = [str(c.response_data.get("content") or "") for c in clicks]
    assert UNEXPECTED not in texts, texts
    live = await bot.services.encounters.live(h.channel.id)
    attacks = [m for m in h.messages_in(h.channel) if "Willow attacks" in m.text()]
    assert len(attacks) == 1, [m.text() for m in attacks]
    assert live.state.current is not None


async def test_a_delegate_presses_the_reaction_button_after_the_player_is_back(
    clocked_bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    bot, h, player, delegate = clocked_bot, discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    await ok(await slash(h, player, "away", delegate=delegate))
    prompt = await thug_attacks_willow(bot, h, table)
    await h.wait_for(lambda: f"<@{delegate.id}>" in h.message(prompt).content)
    await ok(await slash(h, player, "back"))
    labels = [c.get("label", "") for row in h.message(prompt).components for c in row["components"]]
    text = await refused(
        await h.click(delegate, prompt, button(h.message(prompt), labels[-1])["custom_id"])
    )
    assert text and text != UNEXPECTED, text
    assert h.message(prompt).components, "the prompt stays open for Willow's player"


async def test_away_until_absurd_durations(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    for until in (
        "999999d",
        "-5d",
        "0d",
        "0m",
        "1s",
        "99999999999999999999999999999m",
        "9999-12-31",
    ):
        text = await refused(await slash(h, table.player, "away", until=until))
        assert text and text != UNEXPECTED, f"{until}: {text}"
    assert "not marked away" in await refused(await slash(h, table.player, "back"))


async def test_a_uune_approval_after_a_restart_and_a_stale_keep_after_the_end(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, dice: DiceBox
) -> None:
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, database, dice, expiry_interval=None):
        u = Docks(bot, h, table, dice)
        await u.cast()
        await u.run(table.moderator, "encounter begin")
        await u.run(table.player, "act", action="action", detail="climb: Lockpicks")
        await u.press(table.moderator, "GM: difficulty 2 (Easy)")
        prompt = await prompt_with(h, "GM: approve all")
    async for _bot in _running_bot(h, database, dice, expiry_interval=None):
        dice.load([5, 6])
        click = await h.click(
            table.moderator, prompt, button(h.message(prompt), "GM: approve all")["custom_id"]
        )
        await click.response()
        assert not click.ephemeral, click.response_data
        assert dice.empty
        spend = await prompt_with(h, "Keep the roll")
        keep = button(spend, "Keep the roll")["custom_id"]
        kept = await h.click(table.player, spend, keep)
        await kept.response()
        assert not kept.ephemeral, kept.response_data
        await end_encounter(h, table)
    async for _bot in _running_bot(h, database, dice, expiry_interval=None):
        # A client that still shows the settled prompt's buttons presses Keep again.
        stale = h.message(spend)
        stale.payload["components"] = spend.versions[0].get("components", [])
        text = await refused(await h.click(table.player, stale, keep))
        assert text and text != UNEXPECTED, text
        assert "no longer" in text, text


CASTS = {
    "uune": (("mira", "Mira Quell"), ("dock-thug", "Dock Thug")),
    "utopia": (("vesna", "Vesna"), ("bandit-archer", "Bandit archer")),
    "untitled": (("wren", "Wren"), ("bandit-crossbowman", "Bandit crossbowman")),
}


@pytest.mark.parametrize("ruleset", sorted(CASTS))
@pytest.mark.parametrize("label", ["End turn", "breather", "Attack…"])
async def test_every_ping_button_in_every_system(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table, ruleset: str, label: str
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    (pc_example, pc), (npc_example, npc) = CASTS[ruleset]
    await ok(await slash(h, gm, "encounter start", name="Ford", ruleset=ruleset))
    await answered(await slash(h, player, "character import", example=pc_example))
    await ok(await slash(h, player, "encounter join", character=pc))
    await answered(await slash(h, gm, "npc import", example=npc_example))
    await ok(await slash(h, gm, "gm add-npc", template=npc))
    await ok(await slash(h, gm, "encounter begin"))
    for _ in range(4):
        live = await bot.services.encounters.live(h.channel.id)
        if live.state.current is not None and live.state.current.name == pc:
            break
        await answered(await slash(h, gm, "gm next"))
    pings = [m for m in h.messages_in(h.channel) if f"it is **{pc}**'s turn" in m.content]
    assert pings, [m.content for m in h.messages_in(h.channel)]
    ping = pings[-1]
    found = [c for c in ping.all_components() if c.get("type") == 2]
    names = [c.get("label", "") for c in found]
    if label == "breather":
        wanted = [c for c in found if c.get("label") not in ("End turn", "Attack…")]
    else:
        wanted = [c for c in found if c.get("label") == label]
    if not wanted:
        pytest.skip(f"{ruleset}'s ping has no {label}: {names}")
    click = await h.click(player, ping, wanted[0]["custom_id"])
    await click.response()
    text = str(click.response_data.get("content") or "")
    assert text != UNEXPECTED, (ruleset, label, text)
    if ruleset != "uttas":  # UTTAS's own words in another system's answer (session 16)
        answer = str(click.response_data).casefold()
        assert "breather" not in answer and "evade" not in answer, (ruleset, label, answer)
    selects = [
        c for c in (click.message.all_components() if click.message else []) if c.get("type") == 3
    ]
    if selects:
        [select] = selects
        chosen = await h.select(
            player, click.message, select["custom_id"], [select["options"][0]["value"]]
        )
        await chosen.response()
        said = str(chosen.response_data.get("content") or "")
        assert said != UNEXPECTED, (ruleset, said)


async def test_uune_spend_buttons_for_the_wrong_member_a_delegate_and_after_back(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    mira, tobin = table.player, table.other_player
    await u.cast()
    await u.run(table.moderator, "encounter begin")
    # Tobin's player may not keep Mira's roll.
    await u.run(mira, "act", action="action", detail="climb: Lockpicks")
    await u.press(table.moderator, "GM: difficulty 2 (Easy)")
    await u.press(table.moderator, "GM: approve all", [5, 2])
    spend = await prompt_with(h, "Keep the roll")
    keep = button(spend, "Keep the roll")["custom_id"]
    text = await refused(await h.click(tobin, spend, keep))
    assert "Mira Quell" in text and text != UNEXPECTED, text
    # Mira's player goes away naming Tobin's: now Tobin's player keeps it, for her.
    await ok(await slash(h, mira, "away", delegate=tobin))
    kept = await h.click(tobin, spend, keep)
    await kept.response()
    assert not kept.ephemeral, kept.response_data
    settled = h.message(spend).text()
    assert f"<@{tobin.id}> (for <@{mira.id}>, away)" in settled, settled
    # Back: the next time it is Mira's turn the delegate may not act for her.
    await ok(await slash(h, mira, "back"))
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None


async def test_an_old_fights_ping_and_attack_select_in_a_new_fight(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    old = [m for m in h.messages_in(h.channel) if "it is **Willow**'s turn" in m.content][-1]
    asked = await h.click(table.player, old, button(old, "Attack…")["custom_id"])
    await asked.response()
    question = asked.message
    [select] = [c for c in question.all_components() if c.get("type") == 3]
    assert button(old, "End turn")
    await end_encounter(h, table)
    # the ended fight's ping loses its buttons, so the new fight's turn cannot be ended from it
    # (Discord, like the harness, refuses a press on a button the message no longer has)
    await h.wait_for(lambda: not old.all_components())
    # A new fight in the same channel, at the same turn of the same member.
    await ok(await slash(h, table.moderator, "encounter start", name="Again"))
    await ok(await slash(h, table.moderator, "gm add-npc", template="Thug", count=3))
    await ok(await slash(h, table.player, "encounter join", character="Willow"))
    await ok(await slash(h, table.player, "encounter join", character="General Bearington"))
    await ok(await slash(h, table.moderator, "encounter begin"))
    await pass_turns_until(bot, h, table, "Willow")
    live = await bot.services.encounters.live(h.channel.id)
    before = live.state.turn_seq
    assert not old.all_components()
    chosen = await h.select(
        table.player, question, select["custom_id"], [select["options"][0]["value"]]
    )
    said = await refused(chosen)
    assert said and said != UNEXPECTED, said
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.turn_seq == before and live.state.current is not None
    assert live.state.current.name == "Willow"


async def test_two_breathers_at_once_take_one(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    await pass_turns_until(bot, h, table, "Willow")
    await winded(h, table, "Willow")  # a breather at full Stamina is refused
    ping = [m for m in h.messages_in(h.channel) if "it is **Willow**'s turn" in m.content][-1]
    rest = button(ping, "Take a Breather")["custom_id"]
    clicks = await both(h, table.player, table.moderator, ping, rest)
    one_wins(clicks)
    [late] = [c for c in clicks if c.ephemeral]
    assert "That turn is over" in late.response_data["content"], late.response_data
    breathers = [m for m in h.messages_in(h.channel) if "Willow takes a breather" in m.text()]
    assert len(breathers) == 1, [m.text() for m in breathers]


async def test_another_player_cannot_propose_or_roll_for_a_defend(
    scripted_bot: CombatBot, discord_harness: DiscordHarness, table: Table, dice: DiceBox
) -> None:
    h = discord_harness
    u = Docks(scripted_bot, h, table, dice)
    tobin, gm = table.other_player, table.moderator
    await u.cast()
    await u.run(gm, "encounter begin")
    for _ in range(6):
        live = await scripted_bot.services.encounters.live(h.channel.id)
        if live.state.current is not None and live.state.current.is_npc:
            break
        await u.reply(gm, "gm next")
    live = await scripted_bot.services.encounters.live(h.channel.id)
    assert live.state.current is not None and live.state.current.is_npc
    await u.run(
        gm,
        "act",
        action="npc-attack",
        target="Mira Quell",
        detail="Cudgel",
        as_=live.state.current.name,
    )
    text = await refused(
        await slash(h, tobin, "act", action="propose", detail="Street fencing", as_="Mira Quell")
    )
    assert "Mira Quell" in text and text != UNEXPECTED, text
    roll = await prompt_with(h, "Roll now")
    text = await refused(await h.click(tobin, roll, button(roll, "Roll now")["custom_id"]))
    assert text != UNEXPECTED and "Mira Quell" in text, text
    waiting = await scripted_bot.services.encounters.live(h.channel.id)
    assert waiting.state.decisions, "Mira's Defend still waits on her player"


async def test_two_members_naming_each_other_at_once_cannot_both_be_away(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, a, b = discord_harness, table.player, table.other_player
    await set_up_fight(h, table)
    records = await asyncio.gather(slash(h, a, "away", delegate=b), slash(h, b, "away", delegate=a))
    await asyncio.gather(*(r.response() for r in records))
    said = [r.response_data.get("content") or "" for r in records]
    assert UNEXPECTED not in said, said
    refusals = [r for r in records if r.ephemeral]
    assert len(refusals) == 1 and "away too" in refusals[0].response_data["content"], said
