"""Walking a fight's log with ``/gm undo`` back to the start and ``/gm redo`` forward to the end,
through Discord, checking each step against the state that stood at that version (nothing
re-rolled). Shared by the walks across a database upgrade
(``tests/e2e/attack/test_attack24_upgrade_undo.py``) and through each system's decisions
(``tests/e2e/attack/test_attack26_walk.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.client import CombatBot
from tests.e2e.combat_helpers import answered, game_state, slash, work_done
from tests.harness.models import Member
from tests.harness.server import DiscordHarness


@dataclass
class Walk:
    """What stood before the walk back: the game at every version known (``game_state``), the
    version played to, the open decisions; and the versions undone, in order."""

    states: dict[int, dict[str, Any]] = field(default_factory=dict)
    played_to: int = 0
    decisions: list[Any] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)


async def now(bot: CombatBot, h: DiscordHarness) -> tuple[int, dict[str, Any]]:
    """The channel's live encounter: its version and its game (``game_state``)."""
    live = await bot.services.encounters.live(h.channel.id)
    return live.version, game_state(live.state_json)


async def travelled(bot: CombatBot, h: DiscordHarness, key: str) -> int:
    """The version the last ``/gm undo`` (``undid``) or ``/gm redo`` (``redid``) went to."""
    live = await bot.services.encounters.live(h.channel.id)
    last = (await bot.services.encounters.log(live.id))[-1]
    return int(json.loads(last.result)[key])


async def undo_all(bot: CombatBot, h: DiscordHarness, gm: Member, walk: Walk) -> None:
    """``/gm undo`` as ``gm`` until there is nothing to undo; each undo brings back the state
    before the command it undid (where ``walk`` knows it). The versions go to ``walk.undone``."""
    while True:
        record = await answered(await slash(h, gm, "gm undo"))
        if record.ephemeral:
            said = str(record.response_data.get("content"))
            assert said.startswith("There is nothing to undo"), said
            break
        await work_done()
        undid = await travelled(bot, h, "undid")
        walk.undone.append(undid)
        if undid - 1 in walk.states:
            assert (await now(bot, h))[1] == walk.states[undid - 1], f"undo of {undid}"


async def redo_all(bot: CombatBot, h: DiscordHarness, gm: Member, walk: Walk) -> None:
    """``/gm redo`` as ``gm`` until there is nothing to redo; each redo brings back the state
    the command left (where ``walk`` knows it); every version undone is redone, and the game
    ends as it was played to."""
    redone: list[int] = []
    while True:
        record = await answered(await slash(h, gm, "gm redo"))
        if record.ephemeral:
            said = str(record.response_data.get("content"))
            assert said.startswith("There is nothing to redo"), said
            break
        await work_done()
        redid = await travelled(bot, h, "redid")
        redone.append(redid)
        if redid in walk.states:
            assert (await now(bot, h))[1] == walk.states[redid], f"redo of {redid}"
    assert redone == sorted(walk.undone)
    assert (await now(bot, h))[1] == walk.states[walk.played_to]
