"""The service's write path mixing single-trip units (a command's usual write) with whole
transactions (undo and redo read the log first; decisions open and close) in one channel and
across channels at once (issue 15): every channel ends exactly where the same script run alone
ends, with the same log, and undo still goes back to the start.

Real tasks on a real SQLite file; the whole run is bounded by ``asyncio.timeout``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import Attack, GrantDice, React, SetVitals
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.moderation import ModerationService
from bot.store.db import Database
from tests.services.test_undo import NOW, sheet
from tests.store.test_single_trip_attacks import Gate, turns

LIMIT = 60.0

Step = Callable[["Channel"], Awaitable[Any]]


class Channel:
    def __init__(self, db: Database, channel_id: int) -> None:
        self.id = channel_id
        self.gm_actor = Actor(user_id=channel_id * 10 + 1)  # a GM runs at most 3 encounters
        self.player = Actor(user_id=channel_id * 10 + 2)
        self.encounters = EncounterService(
            db, clock=lambda: NOW, seeds=lambda: 7, check_replay=True
        )
        self.combat = CombatService(self.encounters, clock=lambda: NOW)
        self.mod = ModerationService(db, self.encounters, self.combat, clock=lambda: NOW)
        self.willow = self.thug = ""

    async def gm(self, make: Any) -> Any:
        return await self.combat.gm_command(
            self.id, self.gm_actor, "gm", {}, make, action="do that"
        )

    async def setup(self) -> None:
        await self.encounters.start(
            guild_id=1, channel_id=self.id, actor=self.gm_actor, ruleset="uttas", name="U"
        )
        await self.encounters.join(
            self.id, self.player, name="Willow", sheet=sheet("Willow", agility=14)
        )
        await self.encounters.add_npcs(
            self.id, self.gm_actor, template="Thug", sheet=sheet("Thug"), count=1
        )
        state = (await self.encounters.live(self.id)).state
        self.willow, self.thug = (c.id for c in state.combatants)
        await self.gm(lambda cur: Begin())

    async def run(self) -> None:
        w, t = self.willow, self.thug
        script: list[Callable[[], Awaitable[Any]]] = [
            lambda: self.gm(lambda cur: SetVitals(target=t, health_change=-3)),
            lambda: self.gm(lambda cur: GrantDice(target=w, dice=2)),
            lambda: self.gm(lambda cur: Attack(actor=w, target=t, attack="Sword")),
            lambda: self.mod.undo(self.id, self.gm_actor),
            lambda: self.mod.redo(self.id, self.gm_actor),
            lambda: self.gm(lambda cur: SetVitals(target=w, stamina=30)),
            lambda: self.gm(lambda cur: EndTurn(actor=cur.state.turn)),
            lambda: self.gm(lambda cur: Attack(actor=t, target=w, attack="Sword")),
            lambda: self.mod.undo(self.id, self.gm_actor),
            lambda: self.mod.redo(self.id, self.gm_actor),
            lambda: self.gm(lambda cur: React(actor=w, choice="evade")),
            lambda: self.mod.undo(self.id, self.gm_actor),
            lambda: self.mod.undo(self.id, self.gm_actor),
            lambda: self.mod.redo(self.id, self.gm_actor),
            lambda: self.gm(lambda cur: SetVitals(target=t, health_change=-1)),
        ]
        for step in script:
            await step()
            await asyncio.sleep(0)  # let other channels' commands in between

    async def outcome(self) -> tuple[list[tuple[int, str]], str]:
        live = await self.encounters.live(self.id)
        log = await self.encounters.log(live.id)
        state = live.state_json or ""
        for actor, name in ((self.gm_actor, "GM"), (self.player, "PLAYER")):
            state = re.sub(rf"\b{actor.user_id}\b", name, state)
        return [(e.version, e.command) for e in log], state


async def test_channels_mixing_units_and_transactions_end_as_each_alone(tmp_path: Path) -> None:
    alone_db = await Database.open(tmp_path / "alone.sqlite3")
    await alone_db.migrate()
    try:
        alone = Channel(alone_db, 100)
        await alone.setup()
        await alone.run()
        expected = await alone.outcome()
    finally:
        await alone_db.close()

    db = await Database.open(tmp_path / "mixed.sqlite3")
    await db.migrate()
    try:
        channels = [Channel(db, 100 + c) for c in range(6)]
        sizes: list[int] = []
        done = db._trip_done

        def counted(batch: Any, outcomes: Any, error: Any) -> None:
            sizes.append(len(batch))
            done(batch, outcomes, error)

        db._trip_done = counted  # type: ignore[method-assign]
        async with asyncio.timeout(LIMIT):
            await asyncio.gather(*(c.setup() for c in channels))
            await asyncio.gather(*(c.run() for c in channels))
        assert max(sizes) > 1, sizes  # units of several channels shared a trip
        for channel in channels:
            assert await channel.outcome() == expected, channel.id

        # Undo all the way back, in every channel at once: each reaches its start.
        async def back(channel: Channel) -> None:
            while True:
                try:
                    await channel.mod.undo(channel.id, channel.gm_actor)
                except Conflict:
                    return

        async with asyncio.timeout(LIMIT):
            await asyncio.gather(*(back(c) for c in channels))
        for channel in channels:
            live = await channel.encounters.live(channel.id)
            log = await channel.encounters.log(live.id)
            assert live.state_json == log[0].state, channel.id
    finally:
        await db.close()


async def test_a_command_cancelled_while_its_unit_commits_and_the_next_one_apply_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first command's writer is cancelled while its trip runs (the unit was taken, so it
    commits); the channel's next command, computed from the row before it, is refused by the
    version check, read again and applied on top — both logged, in order."""
    db = await Database.open(tmp_path / "cancel.sqlite3")
    await db.migrate()
    try:
        channel = Channel(db, 100)
        await channel.setup()
        before = await channel.encounters.live(channel.id)
        gate = Gate(monkeypatch)
        first = asyncio.create_task(
            channel.gm(lambda cur: SetVitals(target=channel.thug, health=7))
        )
        await gate.wait_entered()
        first.cancel()
        async with asyncio.timeout(LIMIT):
            with pytest.raises(asyncio.CancelledError):
                await first
        second = asyncio.create_task(
            channel.gm(lambda cur: SetVitals(target=channel.thug, health_change=-2))
        )
        await turns(lambda: bool(db._units) or gate.trips > 1)
        gate.release.set()
        async with asyncio.timeout(LIMIT):
            await second
        live = await channel.encounters.live(channel.id)
        assert live.version == before.version + 2
        assert live.state.get(channel.thug).health == 5
        log = await channel.encounters.log(live.id)
        assert [e.command for e in log[-2:]] == ["gm", "gm"]
    finally:
        await db.close()
