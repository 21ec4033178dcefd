"""Reaction windows run out by the services' injected clock (a :class:`ManualClock`, so nothing
waits for real time): what is due, and that an expiry applies once, re-checked inside the
change — against a second expiry, a player's choice, a pause and a resume. What the channel
shows of it: tests/e2e/test_reaction_expiry.py."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import Attack
from bot.engine.uttas.ruleset import UttasRuleset
from bot.engine.uttas.sheet import UttasSheet
from bot.errors import Conflict
from bot.services.actor import Actor
from bot.services.combat import ALREADY_RESOLVED, CombatResult, CombatService
from bot.services.encounters import Encounter, EncounterService
from bot.services.moderation import ModerationService
from bot.store.db import Database
from tests.clock import ManualClock
from tests.races import watch_channel_lock

GM = Actor(user_id=1)
PLAYER = Actor(user_id=2)
CHANNEL = 10
WINDOW = 300  # seconds: the default reaction window


def sheet(name: str, **fields: Any) -> UttasSheet:
    return UttasSheet.model_validate(
        {
            "name": name,
            "speed": 4,
            "health": 20,
            "stamina": 40,
            "agility": 12,
            "weapons": [{"name": "Sword", "damage_dice": 2}],
            **fields,
        }
    )


class Table:
    """The services as ``python -m bot`` builds them, on one clock the test moves."""

    def __init__(self, db: Database, clock: ManualClock) -> None:
        self.clock = clock
        self.encounters = EncounterService(db, clock=clock, seeds=lambda: 7)
        self.combat = CombatService(self.encounters, clock=clock)
        self.mod = ModerationService(db, self.encounters, self.combat, clock=clock)

    async def live(self) -> Encounter:
        return await self.encounters.live(CHANNEL)

    async def commands(self) -> list[str]:
        return [entry.command for entry in await self.encounters.log((await self.live()).id)]


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    db = await Database.open(tmp_path / "bot.sqlite3")
    await db.migrate()
    yield Table(db, ManualClock())
    await db.close()


async def thug_attacks_willow(t: Table) -> Encounter:
    """Willow (a player's) and a Thug; the Thug attacks her and the attack waits for her
    reaction. Returns the encounter as it waits."""
    await t.encounters.start(guild_id=1, channel_id=CHANNEL, actor=GM, ruleset="uttas", name="U")
    await t.encounters.join(CHANNEL, PLAYER, name="Willow", sheet=sheet("Willow", agility=14))
    await t.encounters.add_npcs(CHANNEL, GM, template="Thug", sheet=sheet("Thug"), count=1)
    willow, thug = (c.id for c in (await t.live()).state.combatants)

    async def gm(make: Any) -> None:
        await t.combat.gm_command(CHANNEL, GM, "gm", {}, make, action="do that")

    await gm(lambda current: Begin())
    await gm(lambda current: EndTurn(actor=current.state.turn))  # Willow's turn → the Thug's
    await gm(lambda current: Attack(actor=thug, target=willow, attack="Sword"))
    waiting = await t.live()
    assert waiting.state.pending is not None and waiting.row.pending_version is not None
    return waiting


def pending_version(encounter: Encounter) -> int:
    version = encounter.row.pending_version
    assert version is not None
    return version


async def test_the_window_is_due_from_its_deadline_on_by_the_clock(table: Table) -> None:
    t = table
    opened = t.clock()
    waiting = await thug_attacks_willow(t)
    assert waiting.row.pending_deadline == opened + timedelta(seconds=WINDOW)
    t.clock.advance(WINDOW - 0.001)
    assert await t.combat.due() == []
    t.clock.advance(0.001)  # exactly the deadline
    assert await t.combat.due() == [(waiting.id, pending_version(waiting))]


async def test_an_expiry_before_the_deadline_is_refused_and_changes_nothing(table: Table) -> None:
    """The expiry re-reads the deadline inside the change: called for a decision that is not
    due yet (a stale or mistaken caller), it refuses."""
    t = table
    waiting = await thug_attacks_willow(t)
    t.clock.advance(WINDOW - 1)
    with pytest.raises(Conflict, match="window is not over"):
        await t.combat.expire(waiting.id, pending_version(waiting))
    after = await t.live()
    assert after.version == waiting.version and after.state.pending is not None


async def test_an_expired_window_resolves_with_no_reaction_once(table: Table) -> None:
    t = table
    waiting = await thug_attacks_willow(t)
    t.clock.advance(WINDOW)
    result = await t.combat.expire(waiting.id, pending_version(waiting))
    assert result.expired and result.label == "Thug 1 attacks Willow with Sword"
    assert result.encounter.state.pending is None
    assert result.encounter.version == waiting.version + 1
    assert await t.combat.due() == []
    with pytest.raises(Conflict, match=re.escape(ALREADY_RESOLVED)):
        await t.combat.expire(waiting.id, pending_version(waiting))
    assert (await t.live()).version == waiting.version + 1
    assert (await t.commands()).count("expire") == 1


async def test_two_expiries_racing_apply_once(table: Table) -> None:
    t = table
    waiting = await thug_attacks_willow(t)
    t.clock.advance(WINDOW)
    outcomes = await asyncio.gather(
        t.combat.expire(waiting.id, pending_version(waiting)),
        t.combat.expire(waiting.id, pending_version(waiting)),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if isinstance(o, CombatResult)]
    refused = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(applied) == 1 and len(refused) == 1, outcomes
    assert (await t.live()).version == waiting.version + 1
    assert (await t.commands()).count("expire") == 1


@pytest.mark.parametrize("first", ["expiry", "choice"])
async def test_an_expiry_racing_the_players_choice_one_wins(table: Table, first: str) -> None:
    """The window has run out but the player's Evade arrives at the same moment: whichever
    reaches the channel's lock first applies; the other is refused and changes nothing."""
    t = table
    waiting = await thug_attacks_willow(t)
    t.clock.advance(WINDOW)
    version = pending_version(waiting)
    calls = {
        "expiry": lambda: t.combat.expire(waiting.id, version),
        "choice": lambda: t.combat.decide(waiting.id, version, PLAYER, "evade"),
    }
    order = [first, *(name for name in calls if name != first)]
    lock = watch_channel_lock(t.encounters, CHANNEL)
    tasks: dict[str, asyncio.Task[CombatResult]] = {}
    async with lock:  # both queue on the channel's lock, in the order the test chooses
        for queued, name in enumerate(order, start=1):
            tasks[name] = asyncio.create_task(calls[name]())
            await lock.wait_queued(queued)
    winner, loser = await asyncio.gather(*tasks.values(), return_exceptions=True)
    assert isinstance(winner, CombatResult), winner
    assert isinstance(loser, Conflict) and loser.message == ALREADY_RESOLVED, loser
    commands = await t.commands()
    assert commands[-1] == ("expire" if first == "expiry" else "react")
    assert "expire" not in commands or "react" not in commands
    assert (await t.live()).version == waiting.version + 1


async def test_a_paused_encounters_window_does_not_run_out(table: Table) -> None:
    """Paused: nothing is due however late it gets, and an expiry that read the decision due
    just before the pause is refused inside the change; resumed, the window starts afresh."""
    t = table
    waiting = await thug_attacks_willow(t)
    t.clock.advance(WINDOW - 10)
    await t.mod.set_paused(CHANNEL, GM, True)
    t.clock.advance(10 * WINDOW)
    assert await t.combat.due() == []
    with pytest.raises(Conflict, match="window is not over"):
        await t.combat.expire(waiting.id, pending_version(waiting))
    assert (await t.live()).state.pending is not None

    resumed_at = t.clock()
    resumed = await t.mod.set_paused(CHANNEL, GM, False)
    assert resumed.row.pending_version == waiting.row.pending_version  # its buttons still work
    assert resumed.row.pending_deadline == resumed_at + timedelta(seconds=WINDOW)
    t.clock.advance(WINDOW - 1)
    assert await t.combat.due() == []
    t.clock.advance(1)
    assert await t.combat.due() == [(waiting.id, pending_version(waiting))]
    result = await t.combat.expire(waiting.id, pending_version(waiting))
    assert result.expired and result.encounter.state.pending is None


async def test_a_decisions_choices_are_worked_out_only_when_it_is_shown(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15, "CPU diet": the commands that open a decision (the Thug's attack) compute no
    choices for their results; the decision's choices are worked out when the prompt (or a
    button) asks for them, once, and are what they would have been."""
    asked: list[int] = []
    original = UttasRuleset.decision_options

    def counted(self: Any, state: Any, decision: Any) -> Any:
        asked.append(decision.id)
        return original(self, state, decision)

    monkeypatch.setattr(UttasRuleset, "decision_options", counted)
    waiting = await thug_attacks_willow(table)
    decision = table.combat.decision(waiting)
    assert decision is not None and asked == []
    willow = waiting.state.combatants[0].id
    assert [o.choice for o in decision.deciders[willow]] and len(asked) == 1
    assert decision.title and decision.people[willow].name == "Willow" and len(asked) == 1
    monkeypatch.undo()
    assert decision.deciders == waiting.rules.decision_options(waiting.state, decision.engine)
