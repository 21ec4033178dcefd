"""Server settings, member settings, member notices, bot meta and away members on both stores
(SQLite and PostgreSQL, tests/store/conftest.py): what is written reads back the same, upserts
replace, deletes say how many rows went, and text sorts by code point on both."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.store import away, campaign, guild_settings, member_settings, meta, notices
from bot.store import sheets as sheets_repo
from bot.store.base import Store
from bot.store.guild_settings import StartSettings
from bot.store.member_settings import MemberSettingsRow

NOW = datetime(2026, 3, 4, 5, 6, 7, 890123, tzinfo=UTC)
GUILD = 2**62 + 5  # Discord ids use all 64 bits; PostgreSQL keeps them as BIGINT
USER = 2**61 + 7


async def test_gm_role_and_rules_overrides_upsert(store: Store) -> None:
    async with store.read() as conn:
        assert await guild_settings.gm_role(conn, GUILD) is None
        assert await guild_settings.rules_overrides(conn, GUILD) == "{}"
        assert await guild_settings.start_settings(conn, GUILD) == StartSettings()
    async with store.transaction() as conn:
        await guild_settings.set_gm_role(conn, GUILD, 2**60, NOW)
        await guild_settings.set_rules_overrides(conn, GUILD, '{"dc": 12}', NOW)
    async with store.transaction() as conn:
        await guild_settings.set_gm_role(conn, GUILD, 2**60 + 1, NOW)  # replaces
        chosen = StartSettings(who_can_start="gms", starter_role_id=77, max_live_encounters=0)
        await guild_settings.set_start_settings(conn, GUILD, chosen, NOW)
    async with store.read() as conn:
        assert await guild_settings.gm_role(conn, GUILD) == 2**60 + 1
        assert await guild_settings.rules_overrides(conn, GUILD) == '{"dc": 12}'
        assert await guild_settings.start_settings(conn, GUILD) == StartSettings(
            who_can_start="gms", starter_role_id=77, max_live_encounters=0, gm_role_id=2**60 + 1
        )
        assert await guild_settings.gm_role(conn, GUILD + 1) is None


async def test_a_check_constraint_refuses_on_both_and_nothing_is_half_applied(
    store: Store,
) -> None:
    bad = StartSettings.model_construct(who_can_start="nobody", max_live_encounters=3)
    with pytest.raises(Exception) as caught:
        async with store.transaction() as conn:
            await guild_settings.set_gm_role(conn, GUILD, 5, NOW)
            await guild_settings.set_start_settings(conn, GUILD, bad, NOW)
    assert "check" in str(caught.value).lower() or "constraint" in str(caught.value).lower()
    async with store.read() as conn:
        assert await guild_settings.gm_role(conn, GUILD) is None  # the whole unit rolled back


async def test_member_settings_put_get_export_delete(store: Store) -> None:
    row = MemberSettingsRow(GUILD, USER, "Europe/Berlin", 22 * 60, 7 * 60)
    async with store.transaction() as conn:
        await member_settings.put(conn, row, NOW)
        await member_settings.put(conn, row._replace(timezone=None, quiet_end=6 * 60), NOW)
    async with store.read() as conn:
        assert await member_settings.get(conn, GUILD, USER) == row._replace(
            timezone=None, quiet_end=6 * 60
        )
        assert await member_settings.get(conn, GUILD, USER + 1) is None
        assert await member_settings.export(conn, GUILD, USER) == {
            "timezone": None,
            "quiet_start": 22 * 60,
            "quiet_end": 6 * 60,
            "updated_at": NOW.isoformat(timespec="microseconds"),
        }
    async with store.transaction() as conn:
        assert await member_settings.delete(conn, GUILD, USER) == 1
        assert await member_settings.delete(conn, GUILD, USER) == 0
    async with store.read() as conn:
        assert await member_settings.export(conn, GUILD, USER) is None


async def test_notices_are_taken_once_oldest_first(store: Store) -> None:
    async with store.transaction() as conn:
        first = await notices.add(conn, guild_id=GUILD, user_id=USER, text="one", now=NOW)
        second = await notices.add(conn, guild_id=GUILD, user_id=USER, text="two", now=NOW)
        await notices.add(conn, guild_id=GUILD, user_id=USER + 1, text="other", now=NOW)
    assert second > first
    async with store.read() as conn:
        assert await notices.has_pending(conn, GUILD, USER)
        assert await notices.pending_with_text(conn, GUILD, USER, "two")
        assert not await notices.pending_with_text(conn, GUILD, USER, "three")
        assert await notices.pending_count(conn) == 3
        assert await notices.pending_count(conn, GUILD, USER) == 2

    async def take() -> list[str]:
        async with store.transaction() as conn:
            return await notices.take(conn, guild_id=GUILD, user_id=USER, now=NOW)

    taken = await asyncio.gather(take(), take(), take())
    assert sorted(taken, key=len) == [[], [], ["one", "two"]]
    async with store.read() as conn:
        assert not await notices.has_pending(conn, GUILD, USER)
        history = await notices.for_member(conn, GUILD, USER)
    assert [n["text"] for n in history] == ["one", "two"]
    assert all(n["delivered_at"] == NOW.isoformat() for n in history)
    async with store.transaction() as conn:
        assert await notices.delete_for_member(conn, GUILD, USER) == 2


async def test_meta_put_replaces(store: Store) -> None:
    async with store.transaction() as conn:
        assert await meta.get(conn, "installed") is None
        await meta.put(conn, "installed", "1")
        await meta.put(conn, "installed", "2")
    async with store.read() as conn:
        assert await meta.get(conn, "installed") == "2"


async def test_away_marks_end_by_themselves_and_name_delegates(store: Store) -> None:
    later = NOW + timedelta(days=2)
    async with store.transaction() as conn:
        await away.put(conn, GUILD, USER, delegate_id=None, since=NOW, until=None)
        await away.put(conn, GUILD, USER + 1, delegate_id=USER, since=NOW, until=later)
        await away.put(conn, GUILD, USER + 2, delegate_id=None, since=NOW, until=NOW)
    async with store.read() as conn:
        active = await away.active(conn, GUILD, NOW + timedelta(hours=1))
        assert [(r.user_id, r.delegate_id, r.until) for r in active] == [
            (USER, None, None),
            (USER + 1, USER, later),
        ]
        assert [r.user_id for r in await away.active(conn, GUILD, later)] == [USER]
        assert await away.of_member(conn, GUILD, USER + 2, NOW) is None
        mark = await away.of_member(conn, GUILD, USER + 1, NOW)
        assert mark is not None and mark.since == NOW
        assert {r.user_id for r in await away.naming(conn, GUILD, USER)} == {USER, USER + 1}
    async with store.transaction() as conn:
        await away.forget(conn, GUILD, USER)
        assert await away.remove(conn, GUILD, USER + 2) == 1
    async with store.read() as conn:
        assert await away.naming(conn, GUILD, USER) == []
        assert [r.delegate_id for r in await away.active(conn, GUILD, NOW)] == [None]


async def test_names_sort_by_code_point_on_both(store: Store) -> None:
    """SQLite compares text bytewise (BINARY); PostgreSQL columns are COLLATE "C" so a server's
    locale cannot reorder lists (a locale would put 'a b' after 'ab' and '_x' anywhere)."""
    keys = ["ab", "a b", "_x", "Zed", "zed", "é", "e"]
    async with store.transaction() as conn:
        for key in keys:
            await sheets_repo.insert(
                conn,
                guild_id=GUILD,
                owner_id=USER,
                kind="npc",
                ruleset="uttas",
                name=key,
                name_key=key,
                sheet_json="{}",
                now=NOW,
            )
    async with store.read() as conn:
        listed = [row.name_key for row in await sheets_repo.npcs_of(conn, GUILD)]
    assert listed == sorted(keys)


async def test_campaign_records_and_a_clock_that_never_goes_back(store: Store) -> None:
    async with store.transaction() as conn:
        sheet = await sheets_repo.insert(
            conn,
            guild_id=GUILD,
            owner_id=USER,
            kind="character",
            ruleset="uttas",
            name="Willow",
            name_key="willow",
            sheet_json="{}",
            now=NOW,
        )
        await campaign.put(
            conn, character_id=sheet.id, guild_id=GUILD, ruleset="uttas", record="{}", now=NOW
        )
        await campaign.put(
            conn,
            character_id=sheet.id,
            guild_id=GUILD,
            ruleset="uttas",
            record='{"xp": 3}',
            now=NOW,
        )
        await campaign.advance_clock(conn, GUILD, 600, NOW)
        await campaign.advance_clock(conn, GUILD, 300, NOW)  # an earlier fight ends later
    async with store.read() as conn:
        assert await campaign.clock(conn, GUILD) == 600
        assert await campaign.clock(conn, GUILD + 1) == 0
        record = await campaign.get(conn, sheet.id)
        assert record is not None and record.record == '{"xp": 3}' and record.updated_at == NOW
        assert [r.character_id for r in await campaign.of_owner(conn, GUILD, USER)] == [sheet.id]
        assert [r.character_id for r in await campaign.of_guild(conn, GUILD)] == [sheet.id]
    async with store.transaction() as conn:
        await campaign.advance_clock(conn, GUILD, 900, NOW)
        assert await campaign.delete_of_owner(conn, GUILD, USER) == 1
        assert await campaign.clock(conn, GUILD) == 900
        assert await campaign.get(conn, sheet.id) is None
