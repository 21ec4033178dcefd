"""A command of a kind the encounter's ruleset does not have (a system's own slash command used
in another system's fight) is refused by name before anything runs (issue 10, decision D)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

import pytest

from bot.engine.core.commands import Begin, CommandBase
from bot.errors import InvalidInput
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.store.db import Database
from tests.engine.helpers import sheet

GM = Actor(user_id=1, manages_channel=True)
NOW = datetime(2026, 11, 30, tzinfo=UTC)


class TakeCover(CommandBase):
    """Another system's command (Utopia's Take Cover), as a cog would build it."""

    kind: Literal["take_cover"] = "take_cover"
    actor: str


async def test_a_command_of_another_system_is_refused_and_nothing_changes(db: Database) -> None:
    encounters = EncounterService(db, clock=lambda: NOW, seeds=lambda: 1)
    combat = CombatService(encounters, clock=lambda: NOW)
    await encounters.start(guild_id=1, channel_id=10, actor=GM, ruleset="uttas", name=None)
    await encounters.join(10, GM, name="Ann", sheet=sheet("Ann", agility=20))
    await encounters.join(10, GM, name="Bob", sheet=sheet("Bob"))
    await combat.gm_command(10, GM, "begin", {}, lambda e: Begin(), action="begin")
    before = await encounters.live(10)
    with pytest.raises(InvalidInput, match="`/take-cover` is not part of UTTAS"):
        await combat.act(10, GM, "Ann", "take-cover", {}, lambda e, me: TakeCover(actor=me.id))
    after = await encounters.live(10)
    assert after.version == before.version
