"""The decisions table (issue 10 decision B) against undo, redo, flurries, ends and restarts:
exactly one open decision while something waits, none otherwise, and no prompt keeps live
buttons for a decision that is closed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ok,
    pass_turns_until,
    press,
    set_up_fight,
    slash,
    window_ran_out,
)
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness


def live_prompts(h: DiscordHarness) -> dict[int, set[str]]:
    """Messages in the channel that still show reaction buttons: id → the decisions
    (``<encounter>:<version>``) their buttons name (``rx:<encounter>:<version>.<number>:…``)."""
    found: dict[int, set[str]] = {}
    for m in h.messages_in(h.channel):
        keys = {
            f"{c.split(':')[1]}:{c.split(':')[2].split('.')[0]}"
            for c in m.custom_ids()
            if c.startswith(("rx:", "rxg:"))
        }
        if keys:
            found[m.id] = keys
    return found


async def rows(bot: CombatBot) -> list[dict[str, Any]]:
    async with bot.db.read() as conn:
        found = await conn.fetch_all(
            "SELECT d.id, d.encounter_id, d.opened_version, d.status, d.prompt_message_id,"
            " d.prompt_retired, e.status AS encounter_status FROM decisions d"
            " JOIN encounters e ON e.id = d.encounter_id ORDER BY d.id"
        )
    return [dict(r) for r in found]


async def consistent(bot: CombatBot, h: DiscordHarness) -> str | None:
    """What is wrong with the decisions and prompts now, or ``None``."""
    decisions = await rows(bot)
    open_rows = [r for r in decisions if r["status"] == "open"]
    if any(r["encounter_status"] != "live" for r in open_rows):
        return f"open decision on an ended encounter: {open_rows}"
    try:
        live = await bot.services.encounters.live(h.channel.id)
    except Exception:
        live = None
    if live is not None:
        mine = [r for r in open_rows if r["encounter_id"] == live.id]
        if (live.state.pending is None) != (not mine):
            return f"pending {live.state.pending!r} but open decisions {mine}"
    prompts = live_prompts(h)
    expected = {f"{r['encounter_id']}:{r['opened_version']}" for r in open_rows}
    for mid, keys in prompts.items():
        if not keys <= expected:
            return f"message {mid} keeps live buttons for closed decision(s) {keys - expected}"
    return None


async def settles(bot: CombatBot, h: DiscordHarness) -> None:
    problem: str | None = None
    for _ in range(300):
        problem = await consistent(bot, h)
        if problem is None:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(problem)


async def _flurry(bot: CombatBot, h: DiscordHarness, table: Table, hits: int = 3) -> None:
    gm = table.moderator
    await set_up_fight(h, table, thugs=1)
    await ok(await slash(h, gm, "gm settings", npcs_react=True))
    await pass_turns_until(bot, h, table, "General Bearington")
    await ok(await slash(h, table.player, "attack", target="Thug 1", with_="Claws", hits=hits))


async def _prompt(bot: CombatBot, h: DiscordHarness) -> int:
    for _ in range(300):
        live = await bot.services.encounters.live(h.channel.id)
        if live.row.prompt_message_id:
            return live.row.prompt_message_id
        await asyncio.sleep(0.01)
    raise AssertionError("no prompt recorded")


async def test_undo_and_redo_through_a_flurry_leave_one_live_prompt(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await _flurry(bot, h, table)
    await settles(bot, h)
    await press(h, gm, h.message(await _prompt(bot, h)), "Take it")  # hit 1 → hit 2
    await settles(bot, h)
    for command in ("gm undo", "gm redo", "gm undo", "gm undo", "gm redo", "gm redo"):
        await ok(await slash(h, gm, command))
        await settles(bot, h)
    await window_ran_out(bot, h)  # hit 2 expires → hit 3
    await settles(bot, h)
    await ok(await slash(h, gm, "gm undo"))  # the expiry is taken back
    await settles(bot, h)
    await ok(await slash(h, gm, "gm resolve"))
    await settles(bot, h)
    await end_encounter(h, table)
    await settles(bot, h)


async def end_encounter(h: DiscordHarness, table: Table) -> None:
    ask = await slash(h, table.moderator, "encounter end")
    await ask.response()
    click = await h.click(
        table.moderator, ask.message, "enc:endp:yes:" + ask.message.custom_ids()[0].split(":")[-1]
    )
    await click.response()


async def test_ending_while_a_hit_of_a_flurry_waits_leaves_no_live_buttons(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm = discord_harness, table.moderator
    await _flurry(bot, h, table)
    await press(h, gm, h.message(await _prompt(bot, h)), "Take it")  # hit 1 → hit 2
    await _prompt(bot, h)
    await settles(bot, h)
    await end_encounter(h, table)
    await settles(bot, h)


async def test_surrender_undo_redo_pause_and_expiry_keep_decisions_consistent(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    from tests.e2e.combat_helpers import thug_attacks_willow

    h, gm = discord_harness, table.moderator
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    await _prompt(bot, h)
    await press(h, table.player, h.message(prompt), "Surrender")
    await _prompt(bot, h)
    await settles(bot, h)
    for command in ("gm undo", "gm redo", "gm pause", "gm undo", "gm resume", "gm redo"):
        await ok(await slash(h, gm, command))
        await settles(bot, h)
    await window_ran_out(bot, h)  # the attacker's complete-or-stop runs out: it stops
    await settles(bot, h)
    await ok(await slash(h, gm, "gm undo"))
    await settles(bot, h)
    await _prompt(bot, h)
    await press(h, gm, h.message(await _prompt(bot, h)), "Complete")
    await settles(bot, h)


async def test_two_deciders_clicking_together_decide_once(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    from tests.e2e.combat_helpers import thug_attacks_willow

    """Three clicks on one decision's buttons (Evade, Take the hit, Evade again) arrive while
    the channel is busy: exactly one decides — which one depends on the order they reach the
    channel's lock, which the store does not fix (on PostgreSQL their reads run on several
    pooled connections and finish in any order) — and the other two are refused with the
    "no longer pending" reply, changing nothing."""
    h = discord_harness
    await set_up_fight(h, table)
    prompt = await thug_attacks_willow(bot, h, table)
    pid = await _prompt(bot, h)
    ids = h.message(pid).custom_ids()
    evade = next(c for c in ids if c.endswith(":evade"))
    take = next(c for c in ids if ":intercept" in c)
    service = bot.services.encounters
    async with service._lock(h.channel.id):
        clicks = [
            (code, await h.click(table.player, h.message(prompt), code))
            for code in (evade, take, evade)
        ]
        await h.wait_for(lambda: service.horizon >= clicks[-1][1].id)
    for _, click in clicks:
        await click.response()
    decided = [code for code, click in clicks if not click.ephemeral]
    refused = [click for _, click in clicks if click.ephemeral]
    assert len(decided) == 1 and len(refused) == 2, [c.response_data for _, c in clicks]
    for click in refused:
        assert "no longer pending" in click.response_data["content"], click.response_data
    await settles(bot, h)
    async with bot.db.read() as conn:
        reacts = await conn.fetch_all("SELECT options FROM encounter_log WHERE command = 'react'")
    assert [json.loads(r["options"])["choice"] for r in reacts] == [decided[0].split(":", 3)[3]]


async def test_server_end_from_another_channel_while_an_attack_waits(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    from tests.e2e.combat_helpers import thug_attacks_willow

    h = discord_harness
    await set_up_fight(h, table)
    await thug_attacks_willow(bot, h, table)
    pid = await _prompt(bot, h)
    office = h.add_channel(h.guild, "office")
    ask = await h.slash(table.moderator, office, "server end", {"channel": h.channel})
    await ask.response()
    confirm = next(c for c in ask.message.custom_ids() if c.startswith("srv:endp:yes:"))
    click = await h.click(table.moderator, ask.message, confirm)
    await click.response()
    await h.wait_for(lambda: h.message(pid).components == [])
    assert "The encounter ended" in h.message(pid).content
    await settles(bot, h)
