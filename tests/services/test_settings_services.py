"""The table and member-settings services on both stores (SQLite and PostgreSQL, the ``store``
fixture): a GM's table changes are kept, a non-GM's refused with nothing stored, concurrent
changes to different entries all kept (each reads, changes and writes the server's JSON under
the one writer); a member's time zone and quiet hours kept, a bad one refused."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.errors import InvalidInput, NotAllowed
from bot.services.actor import Actor
from bot.services.member_settings import MemberSettingsService
from bot.services.tables import TableService
from bot.store.base import Store

NOW = datetime(2026, 7, 8, 9, 10, tzinfo=UTC)
GUILD = 2**62 + 3
GM = Actor(user_id=1, manages_channel=True)
PLAYER = Actor(user_id=2)
ENTRIES = [
    "dodge.base",
    "dodge.divisor",
    "discipline.base",
    "reactions.evade.dodge_bonus",
    "reactions.block.dodge_bonus",
]


async def test_table_changes_by_a_gm_are_kept_and_a_players_refused(store: Store) -> None:
    tables = TableService(store, clock=lambda: NOW)
    await tables.change(GUILD, GM, "uttas", "reactions.block.dodge_bonus", "5")
    assert await tables.value(GUILD, "uttas", "reactions.block.dodge_bonus") == 5
    with pytest.raises(NotAllowed):
        await tables.change(GUILD, PLAYER, "uttas", "dodge.base", "99")
    with pytest.raises(InvalidInput):
        await tables.change(GUILD, GM, "uttas", "no.such.entry", "1")
    assert await tables.overrides(GUILD) == {"uttas": {"reactions": {"block": {"dodge_bonus": 5}}}}
    await tables.reset(GUILD, GM, "uttas")
    assert await tables.overrides(GUILD) == {}


async def test_concurrent_table_changes_are_all_kept(store: Store) -> None:
    tables = TableService(store, clock=lambda: NOW)
    await asyncio.gather(
        *(
            tables.change(GUILD, GM, "uttas", path, str(index + 2))
            for index, path in enumerate(ENTRIES)
        )
    )
    for index, path in enumerate(ENTRIES):
        assert await tables.value(GUILD, "uttas", path) == index + 2, path


async def test_member_settings_are_kept_and_a_bad_zone_refused(store: Store) -> None:
    service = MemberSettingsService(store, clock=lambda: NOW)
    await service.change(GUILD, 7, "Europe/Berlin", "22:00-07:00")
    await service.change(GUILD, 7, None, "23:00-06:30")  # the zone keeps its value
    shown = await service.of(GUILD, 7)
    assert shown.timezone == "Europe/Berlin" and shown.quiet == (23 * 60, 6 * 60 + 30)
    with pytest.raises(InvalidInput):
        await service.change(GUILD, 7, "Mars/Olympus", None)
    assert (await service.of(GUILD, 7)).timezone == "Europe/Berlin"
    assert (await service.of(GUILD, 8)).timezone is None
