"""``/rehearse`` through Discord (issue 18): the GM gets the report (ephemeral, after a
"thinking…" defer) from worker processes; a player is refused; no encounter, a fight not begun
and an unknown policy get clear errors; every system's fight is rehearsed (UTTAS, Uune, Utopia,
Untitled); the stored encounter is untouched (version, state and log); a seed repeats the
figures."""

from __future__ import annotations

import re

from bot.client import CombatBot
from tests.e2e.combat_helpers import ok, refused, set_up_cast, set_up_fight, slash
from tests.e2e.conftest import Table
from tests.harness.server import DiscordHarness

SLOW = 120.0  # seconds: worker processes start on first use (2 cores shared)


async def rehearsal(h: DiscordHarness, table: Table, **options: object) -> str:
    record = await slash(h, table.moderator, "rehearse", **options)
    await record.response()
    assert record.deferred and record.ephemeral, record.response_data
    reply = await record.followup(0, timeout=SLOW)
    assert reply.flags & 64, "the report is ephemeral"
    return reply.content


async def stored(bot: CombatBot, h: DiscordHarness) -> tuple[int, str, int]:
    live = await bot.services.encounters.live(h.channel.id)
    log = await bot.services.encounters.log(live.id)
    return live.version, live.state.model_dump_json(), len(log)


async def test_gm_rehearses_the_fight_and_nothing_changes(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    none = await refused(await slash(h, gm, "rehearse"))
    assert "There is no encounter in this channel" in none
    await set_up_fight(h, table, thugs=2, begin=False)
    early = await refused(await slash(h, gm, "rehearse"))
    assert "no running fight" in early and "/encounter begin" in early
    await ok(await slash(h, gm, "encounter begin"))

    not_gm = await refused(await slash(h, player, "rehearse"))
    assert "Only the GM can rehearse the fight" in not_gm

    before = await stored(bot, h)
    text = await rehearsal(h, table, fights=150, seed=7)
    assert text.startswith("**Rehearsal** of this fight from round 1: 150 fights")
    assert "policy `simple`, seed 7" in text
    assert re.search(r"\*\*party\*\* win \d+\.\d % \(95 %: \d+\.\d % to \d+\.\d %", text), text
    assert "**foes** win" in text
    assert "Draws (nobody left standing, or no side won within 50 rounds)" in text
    assert "Expected rounds: " in text
    assert "- Willow: " in text and "- General Bearington: " in text and "Thug 1:" not in text
    assert "/rehearse fights:150 policy:simple seed:7" in text
    assert await stored(bot, h) == before

    again = await rehearsal(h, table, fights=150, seed=7)
    timing = re.compile(r"\(\d+\.\d s\)")
    assert timing.sub("", again) == timing.sub("", text)
    assert await stored(bot, h) == before


async def test_uune_fight_rehearsed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h, gm, player = discord_harness, table.moderator, table.player
    pcs = {"Mira Quell": "mira", "Tobin Ash": "tobin"}
    await set_up_cast(
        h, table, "uune", name="Dock nine", pcs=pcs, npc=("dock-thug", "Dock Thug"), count=2
    )
    assert "Only the GM" in await refused(await slash(h, player, "rehearse"))
    before = await stored(bot, h)
    text = await rehearsal(h, table, fights=80, seed=5)
    assert text.startswith("**Rehearsal** of this fight from round 1: 80 fights"), text
    assert "policy `simple`, seed 5" in text
    assert re.search(r"\*\*party\*\* win \d+\.\d % \(95 %: ", text), text
    assert "- Mira Quell: " in text and "- Tobin Ash: " in text and "Dock Thug" not in text
    assert await stored(bot, h) == before
    unknown = await refused(await slash(h, gm, "rehearse", policy="reckless"))
    assert "Uune has no rehearsal policy 'reckless': simple." in unknown


async def test_utopia_fight_rehearsed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    pcs = {"Vesna": "vesna"}
    await set_up_cast(
        h, table, "utopia", name="Reed ford", pcs=pcs, npc=("stone-hound", "Stone hound")
    )
    before = await stored(bot, h)
    text = await rehearsal(h, table, fights=60, seed=4, policy="reckless")
    assert text.startswith("**Rehearsal** of this fight from round 1: 60 fights")
    assert "policy `reckless`, seed 4" in text and "- Vesna: " in text
    assert await stored(bot, h) == before


async def test_untitled_fight_rehearsed(
    bot: CombatBot, discord_harness: DiscordHarness, table: Table
) -> None:
    h = discord_harness
    pcs = {"Wren": "wren", "Brask": "brask"}
    await set_up_cast(
        h, table, "untitled", name="Reed ford", pcs=pcs, npc=("hill-giant", "Hill giant")
    )
    before = await stored(bot, h)
    text = await rehearsal(h, table, fights=60, seed=2, policy="simple")
    assert text.startswith("**Rehearsal** of this fight from round 1: 60 fights")
    assert "**party** win" in text and "**foes** win" in text
    assert "- Wren: " in text and "- Brask: " in text and "Hill giant" not in text
    assert await stored(bot, h) == before
