"""QA attack (round 24): undo and redo across a database upgrade, through Discord. The oldest
fixture (``tests/fixtures/wave1.sqlite3``, written by the wave-1 code, which had UTTAS only)
holds a fight in round 2 with an attack waiting on Willow's reaction, and a paused one with an
attack waiting too, whose logs keep a state copy in every row (before the event log, migration
0021). The bot upgrades it, the GM plays on,
then ``/gm undo`` walks back past the upgrade to the encounter's start and ``/gm redo`` forward
again — once in one run, once with a stop and a start between. Every state on the way back must
be the one that stood at that version (the old code's copies before the upgrade, the states the
commands left after it), and on the way forward too; at the end the fight, its open decision,
its tracker and its log (`/gm log`) are as they were before the walk: nothing re-rolled."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.client import CombatBot
from bot.engine import get_ruleset
from bot.store.db import Database
from tests.e2e.combat_helpers import answered, game_state, ok, slash, trackers_shown, work_done
from tests.e2e.conftest import Table, _running_bot
from tests.e2e.walks import Walk, now, redo_all, undo_all
from tests.harness.server import DiscordHarness

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "wave1.sqlite3"
PLAYED_ON: dict[str, tuple[int, list[tuple[str, dict[str, Any]]]]] = {
    # round 2, an attack waiting on Willow's reaction (tests/fixtures/make_wave1_db.py): the
    # reaction is settled, turns pass, the GM corrects a vital and adds a condition
    "Ford": (
        101,
        [
            ("gm resolve", {}),
            ("gm next", {}),
            ("gm hp", {"combatant": "Thug 2", "health": "-2"}),
            ("gm next", {}),
            ("gm condition", {"combatant": "Willow", "action": "add", "name": "Prone"}),
            ("gm next", {}),
        ],
    ),
    # paused with an attack waiting on Willow: resumed, settled, paused again, turns pass
    "Paused": (
        104,
        [
            ("gm resume", {}),
            ("gm resolve", {}),
            ("gm next", {}),
            ("gm pause", {}),
            ("gm hp", {"combatant": "Thug 1", "stamina": "-3"}),
            ("gm resume", {}),
            ("gm next", {}),
        ],
    ),
}
"""The wave-1 fixture's live fights walked here: the channel each was in, and the GM's
commands that play it on after the upgrade."""


async def upgraded(path: Path, h: DiscordHarness, fight: str) -> None:
    """The fixture copied to ``path`` and migrated; ``fight`` moved to the harness's server
    and channel."""
    shutil.copyfile(FIXTURE, path)
    database = await Database.open(path)
    try:
        await database.migrate()
    finally:
        await database.close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE encounters SET guild_id = ?", (h.guild.id,))
        raw.execute(
            "UPDATE encounters SET channel_id = ?, tracker_message_id = NULL WHERE channel_id = ?",
            (h.channel.id, PLAYED_ON[fight][0]),
        )


def old_copies(path: Path, fight: str) -> dict[int, dict[str, Any]]:
    """The state copies the wave-1 code logged for ``fight``, by version, as this version
    reads them."""
    rules = get_ruleset("uttas")
    with sqlite3.connect(path) as raw:
        (encounter_id,) = raw.execute(
            "SELECT id FROM encounters WHERE channel_id = (SELECT channel_id FROM encounters "
            "WHERE status = 'live' AND name = ?)",
            (fight,),
        ).fetchone()
        found = raw.execute(
            "SELECT version, state FROM encounter_log WHERE encounter_id = ? ORDER BY version",
            (encounter_id,),
        ).fetchall()
    return {int(v): game_state(rules.load_state(s).model_dump_json()) for v, s in found}


async def log_entries(h: DiscordHarness, table: Table) -> list[dict[str, Any]]:
    """``/gm log``'s JSON entries, without what an undo or redo marks on them."""
    record = await answered(await slash(h, table.moderator, "gm log"))
    message = record.message
    [name] = [
        a["filename"] for a in message.payload["attachments"] if a["filename"].endswith(".json")
    ]
    entries: list[dict[str, Any]] = message.attachment(name).json()["entries"]
    for entry in entries:
        entry.pop("undone_by", None)
        entry.pop("redo_cleared_by", None)
    return entries


def tracker(h: DiscordHarness) -> list[dict[str, Any]]:
    """The tracker the channel shows, but the encounter's version its footer names (each undo
    and redo is a version)."""
    embeds = json.loads(json.dumps(trackers_shown(h)[-1].embeds))
    for embed in embeds:
        footer = embed.get("footer") or {}
        footer["text"] = re.sub(r" v\d+$", "", footer.get("text", ""))
    return embeds


@dataclass
class UpgradeWalk(Walk):
    """:class:`~tests.e2e.walks.Walk`, and the tracker and the log before the walk back."""

    shown: list[dict[str, Any]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)


async def play_on_and_undo_all(
    bot: CombatBot, h: DiscordHarness, table: Table, walk: UpgradeWalk, fight: str
) -> None:
    gm = table.moderator
    upgrade_version = max(walk.states)
    version, state = await now(bot, h)
    assert version == upgrade_version and state == walk.states[version]
    for command, options in PLAYED_ON[fight][1]:
        await ok(await slash(h, gm, command, **options))
        await work_done()
        version, state = await now(bot, h)
        walk.states[version] = state
    walk.played_to = version
    walk.shown, walk.entries = tracker(h), await log_entries(h, table)
    walk.decisions = list((await bot.services.encounters.live(h.channel.id)).state.decisions)
    # Undo back to the encounter's start: each undo brings back the state before the command.
    await undo_all(bot, h, gm, walk)
    assert all(v - 1 in walk.states for v in walk.undone)  # every state on the way known
    assert walk.undone[0] == walk.played_to and min(walk.undone) <= 2  # to the start
    assert any(v <= upgrade_version for v in walk.undone)  # past the upgrade


async def redo_to_the_end(
    bot: CombatBot, h: DiscordHarness, table: Table, walk: UpgradeWalk
) -> None:
    """Redo forward (:func:`~tests.e2e.walks.redo_all`): each redo brings back the state the
    command left, nothing re-rolled; then the open decisions, the tracker and the log are as
    they were."""
    await redo_all(bot, h, table.moderator, walk)
    assert all(v in walk.states for v in walk.undone)
    live = await bot.services.encounters.live(h.channel.id)
    assert list(live.state.decisions) == walk.decisions
    assert tracker(h) == walk.shown
    assert (await log_entries(h, table))[: len(walk.entries)] == walk.entries


@pytest.mark.async_timeout(240)
@pytest.mark.timeout(240)
@pytest.mark.parametrize("restart", [False, True])
@pytest.mark.parametrize("fight", list(PLAYED_ON))
async def test_undo_walks_back_past_the_upgrade_and_redo_forward_exactly(
    discord_patched: DiscordHarness, table: Table, tmp_path: Path, fight: str, restart: bool
) -> None:
    h, path = discord_patched, tmp_path / "bot.sqlite3"
    await upgraded(path, h, fight)
    walk = UpgradeWalk(states=old_copies(path, fight))  # version -> the state that stood at it
    async for bot in _running_bot(h, path, None):
        await play_on_and_undo_all(bot, h, table, walk, fight)
        if not restart:
            await redo_to_the_end(bot, h, table, walk)
    if restart:  # stopped after the walk back, started again for the walk forward
        async for bot in _running_bot(h, path, None):
            await redo_to_the_end(bot, h, table, walk)
