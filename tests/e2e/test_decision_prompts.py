"""Decision prompts through Discord: whatever settles a decision edits its prompt to say how and
removes its buttons; a combatant that cannot react gets no prompt; a prompt whose message id was
never recorded (a crash between storing the attack and noting its message) is found again after
a restart."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    end_encounter,
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
    thug_attacks_willow,
    window_ran_out,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import StoredMessage
from tests.harness.server import DiscordHarness


async def prompt_recorded(bot: CombatBot, h: DiscordHarness) -> int:
    for _ in range(200):
        live = await bot.services.encounters.live(h.channel.id)
        if live.row.prompt_message_id:
            return live.row.prompt_message_id
        await asyncio.sleep(0.01)
    raise AssertionError("the prompt was never recorded")


async def settled(h: DiscordHarness, prompt: StoredMessage, how: str) -> str:
    await h.wait_for(lambda: how in h.message(prompt).text())
    latest = h.message(prompt)
    assert latest.components == [], latest.components
    assert latest.content.startswith("Thug 1 attacks Willow with Cudgel — ")
    assert how in latest.content, latest.content
    return latest.text()


@pytest.mark.parametrize(
    ("command", "options", "how"),
    [
        ("block", {}, "settled with `/block`"),
        ("dodge", {}, "settled with `/dodge`"),
        ("gm resolve", {}, "settled with `/gm resolve`"),
        ("gm undo", {}, "settled with `/gm undo`"),
    ],
)
async def test_a_command_that_settles_the_decision_edits_its_prompt(
    bot: CombatBot,
    discord_harness: DiscordHarness,
    table: Table,
    command: str,
    options: dict[str, object],
    how: str,
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    who = table.player if command in ("block", "dodge") else table.moderator
    await ok(await slash(h, who, command, **options))
    text = await settled(h, prompt, how)
    if command != "gm undo":
        assert "🎲" in text  # the outcome itself, not just a word


async def test_an_expired_window_edits_its_prompt(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table, begin=False)
    await ok(await slash(h, table.moderator, "gm settings", reaction_window="5"))
    await ok(await slash(h, table.moderator, "encounter begin"))
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    live = await bot.services.encounters.live(h.channel.id)
    assert live.row.pending_deadline is not None
    # Let the window run out without waiting for it: move the stored deadline into the past.
    async with bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE decisions SET deadline = '2000-01-01T00:00:00+00:00' WHERE status = 'open'"
        )
    await settled(h, prompt, "the reaction window ran out")


async def test_ending_the_encounter_retires_a_waiting_prompt(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    await end_encounter(h, table)
    assert h.message(prompt).components == []
    assert "ended before this attack was decided" in h.message(prompt).content


async def test_no_prompt_for_a_target_who_cannot_react(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """An unconscious Willow gets no buttons (and no Surrender); her bear may still take the
    hit, and only its controller is asked. (With nobody able to react the attack resolves at
    once: tests/engine/test_reactions.py.)"""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", stamina="0"))
    await pass_turns_until(bot, h, table, "Thug 1")
    record = await ok(await slash(h, gm, "attack", target="Willow", with_="Cudgel"))
    labels = [c["label"] for row in record.message.components for c in row["components"]]
    assert labels == ["Take the hit for Willow (1 action)"], labels
    assert (
        "**Willow** cannot react; **General Bearington** may take the hit" in record.message.content
    )
    assert f"<@{table.player.id}>" in record.message.content  # the bear's controller
    await ok(await slash(h, gm, "gm resolve"))


async def test_a_prompt_never_recorded_before_a_crash_is_found_after_the_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The first run stores the attack and answers, but stops before noting the prompt's
    message (as a SIGKILL there would); the second run finds the prompt, so settling the attack
    retires its buttons."""
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        lost = asyncio.Event()

        async def crash_before_noting(*args: object, lost: asyncio.Event = lost) -> str:
            lost.set()  # nothing is written, and (as after a crash) nothing else follows
            return "recorded"

        first.services.encounters.set_prompt_message = crash_before_noting  # type: ignore[method-assign]
        await set_up_fight(h, table)
        prompt = await thug_attacks_willow(first, h, table)
        await asyncio.wait_for(lost.wait(), 5)
        assert (await first.services.encounters.live(h.channel.id)).row.prompt_message_id is None
    async for second in _running_bot(h, database, None):
        assert await prompt_recorded(second, h) == prompt.id
        await ok(await slash(h, table.player, "block"))
        await settled(h, prompt, "settled with `/block`")


async def test_a_prompt_never_posted_before_a_crash_is_posted_after_the_restart(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    h = discord_patched
    database = tmp_path / "bot.sqlite3"
    async for first in _running_bot(h, database, None):
        await set_up_fight(h, table)
        prompt = await thug_attacks_willow(first, h, table)
        await prompt_recorded(first, h)
    # As if the answer had never reached Discord: no prompt message, none recorded.
    h.message(prompt).deleted = True
    with sqlite3.connect(database) as raw:
        raw.execute("UPDATE decisions SET prompt_message_id = NULL")
    async for second in _running_bot(h, database, None):
        new_id = await prompt_recorded(second, h)
        assert new_id != prompt.id
        reposted = h.message(new_id)
        assert "Thug 1** attacks **Willow** with **Cudgel**" in reposted.content
        assert any(c.startswith("rx:") for c in reposted.custom_ids())


async def test_a_waiting_prompt_is_shown_again_when_a_gm_tool_changes_who_can_react(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Thug 1 attacks Willow; the GM knocks Willow out before she decides. Her buttons (Take
    it, Evade, Surrender…) no longer apply: the prompt is edited to ask only the bear."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    await ok(await slash(h, gm, "gm hp", combatant="Willow", stamina="0"))

    def labels() -> list[str]:
        return [c["label"] for row in h.message(prompt).components for c in row["components"]]

    await h.wait_for(lambda: labels() == ["Take the hit for Willow (1 action)"])
    assert "**Willow** cannot react" in h.message(prompt).content


def test_an_attack_nobody_can_decide_any_more_resolves_at_once() -> None:
    """…and with no ally able to take the hit either (Cat waits on a readied action), the
    attack resolves at once."""
    from bot.engine.core.commands import EndTurn
    from bot.engine.uttas.commands import Attack, Ready, SetCondition
    from tests.engine.helpers import Fight

    f = Fight()
    c = f.add("Cat", agility=16)
    a = f.add("Ann", agility=14)
    b = f.add("Bob", npc=True, agility=12)
    f.begin(dice=[])
    f.do(Ready(actor=c, trigger="action", watch=b))
    f.do(EndTurn(actor=a))
    f.do(Attack(actor=b, target=a, attack="Sword"))
    assert f.state.pending is not None
    out = f.do(SetCondition(target=a, condition="Unconscious"))
    assert f.state.pending is None and f.state.phase == "active"
    assert any(e.kind == "attack_resolved" for e in out.events)


async def test_an_expired_prompt_is_titled_with_its_attack_not_an_internal_label(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    await window_ran_out(bot, h)
    await h.wait_for(lambda: h.message(prompt).components == [])
    (embed,) = h.message(prompt).embeds
    assert embed["title"] == "Thug 1 attacks Willow with Cudgel"
    assert embed["footer"]["text"] == "The reaction window ran out: resolved with no reaction."


async def test_a_surrender_whose_attacker_never_chose_says_the_attacker_stopped(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    """Willow, the last of the party, surrenders; Thug 1's complete-or-stop choice is shown
    with its two buttons (they reveal no number), and when its window runs out Thug 1 stops —
    which is what the prompt says, not "no reaction"; the fight is over."""
    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    await ok(await slash(h, gm, "gm remove", combatant="General Bearington"))
    prompt = await thug_attacks_willow(bot, h, table)
    await prompt_recorded(bot, h)
    await press(h, table.player, h.message(prompt), "Surrender")
    choice = await prompt_recorded(bot, h)
    labels = [c["label"] for row in h.message(choice).components for c in row["components"]]
    assert labels == ["Complete the attack", "Stop and end the turn"]
    await window_ran_out(bot, h)
    await h.wait_for(lambda: h.message(choice).components == [])
    retired = h.message(choice).text()
    assert "the window ran out: the attacker stops and accepts the surrender" in retired
    assert "no reaction" not in retired
    live = await bot.services.encounters.live(h.channel.id)
    assert live.state.phase == "finished"
