"""A member's data on a real SQLite file: every column that can hold a member's id is claimed by
a source; scrubbing replaces the id everywhere and nothing else; an export that is too large
keeps the newest log entries; archived and paused encounters are erased too."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.engine.uttas.sheet import UttasSheet
from bot.errors import Conflict, InvalidInput, NotAllowed
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.member_data import MemberDataService, fit
from bot.services.member_scrub import FORMER_MEMBER, scrub_json, scrub_value
from bot.services.member_sources import SOURCES
from bot.services.moderation import ModerationService
from bot.store import decisions
from bot.store.db import Database

GUILD = 5
CHANNEL = 10
ME = Actor(user_id=1577024854106832947)
GM = Actor(user_id=1577024854106832000)
MANAGER = Actor(user_id=1577024854106832999, manages_channel=True, manages_guild=True)
NOW = datetime(2026, 1, 1, tzinfo=UTC)

NOT_A_MEMBER = {
    "encounters.id": "row id",
    "encounters.guild_id": "server",
    "encounters.channel_id": "channel",
    "encounters.version": "counter",
    "encounters.state_version": "version",
    "encounters.tracker_message_id": "message",
    "decisions.id": "row id",
    "decisions.encounter_id": "row id",
    "decisions.opened_version": "version",
    "decisions.ref": "the engine's number for the decision",
    "decisions.prompt_message_id": "message",
    "decisions.prompt_retired": "flag",
    "decisions.remind_before_s": "seconds before a turn deadline",
    "decisions.reminded": "flag",
    "encounters.paused": "flag",
    "encounters.running_turn": "the turn's number (migration 0025)",
    "encounters.tracker_pinned": "flag",
    "encounter_log.encounter_id": "row id",
    "standing_reactions.encounter_id": "row id",
    "member_settings.guild_id": "server",
    "member_settings.quiet_start": "minutes",
    "member_settings.quiet_end": "minutes",
    "encounter_log.version": "counter",
    "encounter_log.undone_by": "version",
    "encounter_log.redo_cleared_by": "version",
    "guild_settings.guild_id": "server",
    "guild_settings.gm_role_id": "role",
    "guild_settings.starter_role_id": "role",
    "guild_settings.max_live_encounters": "number",
    "sheets.id": "row id",
    "sheets.guild_id": "server",
    "prompts.id": "row id",
    "prompts.guild_id": "server",
    "prompts.channel_id": "channel",
    "member_notices.id": "row id",
    "member_notices.guild_id": "server",
    "away_members.guild_id": "server",
    "default_actions.encounter_id": "encounter",
    "campaign_records.guild_id": "server",
    "turn_pings.message_id": "message",
    "turn_pings.encounter_id": "encounter",
    "turn_pings.channel_id": "channel",
    "turn_pings.turn_seq": "the turn's number",
    "turn_announced.encounter_id": "encounter",
    "turn_announced.turn_seq": "the turn's number",
    "guild_settings.campaign_time_s": "number",
    # Text: names and kinds, times, rules and settings, what a member typed about themselves
    # (erased with its row, by the source that claims the row's member column), engine text.
    "encounters.name": "typed by its GM",
    "encounters.ruleset": "a game system",
    "encounters.status": "a word",
    "encounters.created_at": "time",
    "encounters.updated_at": "time",
    "encounters.ended_at": "time",
    "encounters.rules_overrides": "rule tables",
    "encounters.rules": "rule tables",
    "bot_meta.key": "the bot's own",
    "bot_meta.value": "the bot's own",
    "guild_settings.updated_at": "time",
    "guild_settings.rules_overrides": "rule tables",
    "guild_settings.start_policy": "a word",
    "sheets.kind": "a word",
    "sheets.ruleset": "a game system",
    "sheets.name": "typed by its owner",
    "sheets.name_key": "typed by its owner",
    "sheets.sheet": "typed by its owner",
    "sheets.created_at": "time",
    "sheets.updated_at": "time",
    "prompts.kind": "a word",
    "prompts.status": "a word",
    "prompts.created_at": "time",
    "prompts.answered_at": "time",
    "member_notices.text": "the member's own (erased with its row: member_notices.user_id)",
    "member_notices.created_at": "time",
    "member_notices.delivered_at": "time",
    "decisions.kind": "a word",
    "decisions.status": "a word",
    "decisions.deadline": "time",
    "decisions.claim": "a bot process's claim",
    "turn_announced.claim": "a bot process's claim on a lost turn's ping (migration 0027)",
    "decisions.created_at": "time",
    "decisions.closed_at": "time",
    "decisions.remaining_s": "seconds",
    "campaign_records.ruleset": "a game system",
    "campaign_records.record": "a character's state (erased with its character)",
    "campaign_records.updated_at": "time",
    "away_members.since": "time",
    "away_members.until": "time",
    "default_actions.combatant_id": "the engine's id",
    "default_actions.action": "a game action",
    "standing_reactions.combatant_id": "the engine's id",
    "standing_reactions.rule": "the member's own (erased with its row)",
    "standing_reactions.steps": "the member's own (erased with its row)",
    "standing_reactions.updated_at": "time",
    "standing_reactions.set_as": "a word: how its member was the GM (erased with its row)",
    "member_settings.timezone": "the member's own (erased with its row)",
    "member_settings.updated_at": "time",
    "encounter_log.command": "a command's name",
    "encounter_log.created_at": "time",
}


def sheet(name: str) -> UttasSheet:
    return UttasSheet.model_validate(
        {"name": name, "speed": 4, "health": 20, "stamina": 40, "agility": 12}
    )


class Bot:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.encounters = EncounterService(
            db, clock=lambda: NOW, seeds=lambda: 7, check_replay=True
        )
        combat = CombatService(self.encounters, clock=lambda: NOW)
        self.mod = ModerationService(db, self.encounters, combat, clock=lambda: NOW)
        self.members = MemberDataService(db, self.encounters, clock=lambda: NOW)

    async def fight(self, channel: int = CHANNEL) -> None:
        await self.encounters.start(
            guild_id=GUILD, channel_id=channel, actor=GM, ruleset="uttas", name="Fight"
        )
        await self.encounters.join(channel, ME, name="Willow", sheet=sheet("Willow"))

    async def erase(self, subject: Actor = ME, actor: Actor = ME) -> Any:
        preview = await self.members.open_delete(GUILD, CHANNEL, actor, subject.user_id)
        return await self.members.confirm_delete(GUILD, actor, preview.prompt_id)

    async def traces(self, user_id: int) -> list[str]:
        found = []
        async with self.db.read() as conn:
            for table in ("encounters", "encounter_log", "sheets", "prompts", "decisions"):
                for column in await conn.fetch_all(f"PRAGMA table_info({table})"):
                    name = column["name"]
                    row = await conn.fetch_one(
                        f"SELECT 1 FROM {table} WHERE instr(CAST({name} AS TEXT), ?) > 0",
                        (str(user_id),),
                    )
                    if row:
                        found.append(f"{table}.{name}")
        return found


async def test_every_column_is_a_known_non_member_or_claimed_by_a_source(
    db: Database,
) -> None:
    claimed = {column for source in SOURCES for column in source.columns}
    async with db.read() as conn:
        tables = await conn.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        columns = [
            f"{t['name']}.{c['name']}"
            for t in tables
            for c in await conn.fetch_all(f"PRAGMA table_info({t['name']})")
        ]
    # Every column, text too: a text the bot keeps can hold a mention (<@id>) of the member
    # (a turn ping's text held one after /me delete: tests/e2e/attack/test_attack21b.py).
    unclassified = [c for c in columns if c not in NOT_A_MEMBER and c not in claimed]
    assert unclassified == [], (
        f"{unclassified}: a new column may hold a member's id or mention: add a source for it "
        "in bot/services/member_sources.py, or list it in NOT_A_MEMBER with why it cannot"
    )
    assert set(NOT_A_MEMBER).isdisjoint(claimed)


def test_scrub_replaces_the_id_everywhere_and_nothing_else() -> None:
    me = ME.user_id
    value = {
        "controller_id": me,
        "gm": me,
        "others": [GM.user_id, me, 3, True, 1.5, None],
        "text": f"<@{me}> hit <@!{me}>; id {me}; not {me}1 nor 9{me}",
        str(me): "key",
        "flag": True,
    }
    assert scrub_value(value, me) == {
        "controller_id": None,
        "gm": 0,
        "others": [GM.user_id, 0, 3, True, 1.5, None],
        "text": f"{FORMER_MEMBER} hit {FORMER_MEMBER}; id 0; not {me}1 nor 9{me}",
        "0": "key",
        "flag": True,
    }
    untouched = json.dumps({"a": 1})
    assert scrub_json(untouched, me) is untouched
    assert scrub_json(f"plain {me}", me) == "plain 0"


def test_a_large_export_keeps_the_newest_log_entries() -> None:
    entries = [{"n": n, "pad": "x" * 100} for n in range(200)]
    document = {
        "about": {},
        "npc_templates_created": [],
        "encounter_log": {"count": 200, "omitted": 0, "entries": entries},
    }
    data, omitted, shortened = fit(document, 5_000)
    assert len(data) <= 5_000 and omitted > 0 and not shortened
    kept = json.loads(data)["encounter_log"]
    assert kept["omitted"] == omitted
    assert [e["n"] for e in kept["entries"]] == list(range(omitted, 200))
    # One more entry would not have fitted.
    document["encounter_log"] = {"count": 200, "omitted": 0, "entries": entries[omitted - 1 :]}
    assert len(json.dumps(document, indent=1, ensure_ascii=False).encode()) > 5_000
    with pytest.raises(InvalidInput, match="larger than Discord lets"):
        fit(
            {
                "about": {"x": "y" * 2000},
                "npc_templates_created": [],
                "encounter_log": {"entries": []},
            },
            100,
        )


async def test_archived_and_paused_encounters_are_erased_too(db: Database) -> None:
    bot = Bot(db)
    await bot.fight(CHANNEL)
    archived = await bot.encounters.live(CHANNEL)
    await bot.encounters.end(archived.id, GM)
    await bot.fight(CHANNEL + 1)
    await bot.mod.set_paused(CHANNEL + 1, GM, True)
    report = await bot.erase()
    assert [r.combatants for r in report.released] == [["Willow"]]
    assert await bot.traces(ME.user_id) == []
    ended = await bot.encounters.get(archived.id)
    assert ended.version == archived.version + 2  # end, then forget_member
    assert ended.state.find("Willow").controller_id is None
    log = await bot.encounters.log(archived.id)
    assert (log[-1].command, log[-1].actor_id) == ("forget_member", 0)
    paused = await bot.encounters.live(CHANNEL + 1)
    assert paused.row.paused and paused.state.find("Willow").controller_id is None


async def test_erasing_twice_and_answering_twice(db: Database) -> None:
    bot = Bot(db)
    await bot.fight()
    preview = await bot.members.open_delete(GUILD, CHANNEL, ME, ME.user_id)
    await bot.members.confirm_delete(GUILD, ME, preview.prompt_id)
    with pytest.raises(Conflict, match="already answered"):
        await bot.members.confirm_delete(GUILD, ME, preview.prompt_id)
    again = await bot.erase()
    assert again.released == [] and again.changed["characters"] == 0


async def test_only_server_gms_act_for_someone_else(db: Database) -> None:
    bot = Bot(db)
    await bot.fight()
    with pytest.raises(NotAllowed, match="Only server GMs"):
        await bot.members.open_delete(GUILD, CHANNEL, GM, ME.user_id)
    with pytest.raises(NotAllowed, match="Only server GMs"):
        await bot.members.export(GUILD, GM, ME.user_id, size_limit=10_000_000)
    with pytest.raises(InvalidInput, match="not a Discord user id"):
        await bot.members.export(GUILD, MANAGER, 2, size_limit=10_000_000)
    report = await bot.erase(subject=ME, actor=MANAGER)
    assert report.released[0].combatants == ["Willow"]
    log = await bot.encounters.log((await bot.encounters.live(CHANNEL)).id)
    assert (log[-1].command, log[-1].actor_id) == ("forget_member", MANAGER.user_id)


async def test_decisions_forget_whom_they_asked(db: Database) -> None:
    """A decision remembers the members it asked (so nobody is pinged twice); the export lists
    the member's, and erasing takes the member out of every list, closed decisions included."""
    bot = Bot(db)
    await bot.fight()
    live = await bot.encounters.live(CHANNEL)
    async with db.transaction() as conn:
        first = (await decisions.sync(conn, live.id, [], [decisions.Opening(1, 5, None)], NOW))[1]
        await decisions.set_prompt(conn, live.id, 5, 111, [ME.user_id, GM.user_id])
        opened = [decisions.Opening(1, 9, None)]
        await decisions.sync(conn, live.id, [(first, 1, 5)], opened, NOW)  # the first closes
        await decisions.set_prompt(conn, live.id, 9, 222, [ME.user_id])
    exported = await bot.members.export(GUILD, ME, ME.user_id, size_limit=10_000_000)
    assert len(json.loads(exported.data)["decisions_asked"]) == 2
    await bot.erase()
    assert await bot.traces(ME.user_id) == []
    async with db.read() as conn:
        rows = await conn.fetch_all("SELECT asked FROM decisions ORDER BY id")
    assert [json.loads(row["asked"]) for row in rows] == [[GM.user_id], []]
