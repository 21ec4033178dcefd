"""QA attack (round 24): ``/rehearse`` attacked deeper, through Discord. Nothing a rehearsal
does may touch the real fight — its row, its log, its open decision, its pings or its buttons —
and every answer is the GM's alone (ephemeral) and says what happened."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from tests.e2e.combat_helpers import (
    ONE_ON_ONE,
    end_encounter,
    ok,
    pass_turns_until,
    refused,
    set_up_cast,
    set_up_fight,
    slash,
    thug_attacks_willow,
    work_done,
)
from tests.e2e.conftest import Table, _running_bot
from tests.harness.models import InteractionRecord
from tests.harness.server import DiscordHarness

SLOW = 120.0  # seconds: worker processes start on first use (2 cores shared)


def stored(path: Path) -> tuple[list[tuple[Any, ...]], ...]:
    """Everything the database holds about the fights: encounters, log, decisions, pings."""
    with sqlite3.connect(path) as raw:
        return tuple(
            raw.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
            for table in ("encounters", "encounter_log", "decisions", "turn_pings")
        )


def channel_shows(h: DiscordHarness) -> list[tuple[int, str, Any, Any]]:
    """The channel's messages as shown: text, embeds and buttons."""
    return [(m.id, m.content, m.embeds, m.components) for m in h.messages_in(h.channel)]


async def report(record: InteractionRecord) -> str:
    """The rehearsal's ephemeral report (after a "thinking…" defer)."""
    await record.response()
    assert record.deferred and record.ephemeral, record.response_data
    reply = await record.followup(len(record.followups), timeout=SLOW)
    assert reply.flags & 64, "the report is ephemeral"
    return reply.content


@pytest.mark.async_timeout(300)
@pytest.mark.timeout(300)
async def test_a_rehearsal_stopped_by_the_bot_stopping_tells_its_gm(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path
) -> None:
    """The bot stopped (a restart, an update) while a rehearsal ran and another waited behind
    it: neither GM heard anything — the "thinking…" stayed until Discord gave up on it. Both
    are now told, within the stop's grace, that the rehearsal stopped and to ask again."""
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    async for bot in _running_bot(h, path, None):
        await set_up_fight(h, table, thugs=2)
        await work_done()
        running = await h.slash(table.moderator, h.channel, "rehearse", {"fights": 10_000})
        await running.response()
        await h.wait_for(lambda: bot.services.rehearsal._running, timeout=SLOW)  # noqa: B023
        queued = await h.slash(table.moderator, h.channel, "rehearse", {"fights": 10})
        waiting = await queued.followup(0)
        assert waiting.content.startswith("⏳ Queued behind one rehearsal"), waiting.content
        before = stored(path)
    for record, index in ((running, 0), (queued, 1)):
        said = record.followups[index].payload
        assert said.get("flags", 0) & 64, said
        assert said["content"].startswith(
            "The bot is stopping (a restart or an update), so this "
            "rehearsal stopped before it finished"
        ), said
    assert stored(path) == before


async def open_decision(bot: CombatBot, h: DiscordHarness, table: Table, system: str) -> None:
    """``system``'s fight with a decision open: UTTAS, Thug 1's Cudgel waits on Willow's
    reaction; Uune, Mira's Attack roll waits on the GM's approval; Untitled, the Hill giant's
    swing waits on Brask's shield choice."""
    if system == "uttas":
        await set_up_fight(h, table, thugs=2)
        await thug_attacks_willow(bot, h, table)
    elif system == "uune":  # Mira's Attack: her roll waits on the GM's approval
        pc, example, npc = ONE_ON_ONE["uune"]
        await set_up_cast(h, table, "uune", name="Docks", pcs={pc: example}, npc=npc)
        await pass_turns_until(bot, h, table, pc)
        await ok(
            await slash(
                h,
                table.player,
                "act",
                action="attack",
                target="Dock Thug 1",
                detail="Street fencing",
            )
        )
    else:
        pcs = {"Wren": "wren", "Brask": "brask"}
        await set_up_cast(
            h, table, "untitled", name="Mill", pcs=pcs, npc=("hill-giant", "Hill giant")
        )
        await pass_turns_until(bot, h, table, "Hill giant 1")
        await ok(await slash(h, table.moderator, "act", action="attack", target="Brask"))
    await work_done()
    assert (await bot.services.encounters.live(h.channel.id)).state.decisions


@pytest.mark.async_timeout(300)
@pytest.mark.timeout(300)
@pytest.mark.parametrize("system", ["uttas", "uune", "untitled"])
async def test_a_rehearsal_with_a_decision_open_racing_its_settling_touches_nothing(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, system: str
) -> None:
    """A decision waits (a reaction, a roll window: its prompt, buttons and pings in the
    channel). A player's /rehearse is refused; the GM's plays from the open decision (one
    fight: "1 fight", not "1 fights", as the report said) and changes nothing — not the row,
    the log, the decision, its prompt or buttons, the turn's ping. Then a rehearsal races the
    GM's `/gm resolve` in the same channel: the resolve is applied as if no rehearsal ran (one
    log row more), the rehearsal reports. After `/encounter end` a rehearsal is refused by
    name."""
    h, path, gm = discord_patched, tmp_path / "bot.sqlite3", table.moderator
    async for bot in _running_bot(h, path, None):
        await open_decision(bot, h, table, system)
        before, shown = stored(path), channel_shows(h)
        no = await refused(await slash(h, table.player, "rehearse"))
        assert no.startswith("Only the GM can rehearse the fight"), no
        one = await report(await slash(h, gm, "rehearse", fights=1, seed=0))
        assert re.match(r"\*\*Rehearsal\*\* of this fight from round \d+: 1 fight, ", one), one
        text = await report(await slash(h, gm, "rehearse", fights=40, seed=3))
        assert re.match(r"\*\*Rehearsal\*\* of this fight from round \d+: 40 fights", text), text
        await work_done()
        assert stored(path) == before and channel_shows(h) == shown
        # A rehearsal racing a real command: both go through, neither waits on the other.
        rehearsing = await slash(h, gm, "rehearse", fights=40, seed=3)
        resolved = await ok(await slash(h, gm, "gm resolve"))
        again = await report(rehearsing)
        assert re.sub(r"\(\d+\.\d s\)", "", again) == re.sub(r"\(\d+\.\d s\)", "", text)
        await work_done()
        live = await bot.services.encounters.live(h.channel.id)
        log = await bot.services.encounters.log(live.id)
        assert [e.command for e in log[len(before[1]) :]] == ["resolve"], resolved
        # The ended encounter is not rehearsed.
        await end_encounter(h, table)
        await work_done()
        gone = await refused(await slash(h, gm, "rehearse"))
        assert gone.startswith("There is no encounter in this channel"), gone
