"""Attacks on the live row's state kept only with the log's snapshots (issue 15,
``state_version``): a restart, an evicted cache or another service reading the row at any point
rebuilds exactly the state committed; a member's erasure finds and scrubs every trace of them
even while the stored state is behind."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.engine.core.commands import Begin, EndTurn
from bot.engine.uttas.commands import Attack, ChangeStance, Ready, Talk
from bot.errors import RulesVersionUnknown
from bot.services import encounters as encounters_module
from bot.services.actor import Actor
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.member_data import MemberDataService
from bot.services.member_settings import MemberSettingsService
from bot.services.moderation import ModerationService
from bot.services.reminders import Reminders
from bot.store.base import Store
from bot.store.db import Database
from tests.services.test_undo import sheet

GUILD = 5
CHANNEL = 10
GM = Actor(user_id=1577024854106832000, manages_channel=True)
PLAYER = Actor(user_id=1577024854106832947)
OTHER = Actor(user_id=1577024854106832555)
NOW = datetime(2026, 1, 1, tzinfo=UTC)


class Bot:
    def __init__(self, db: Store, *, snapshot_every: int = 50, check: bool = True) -> None:
        self.db = db
        self.encounters = EncounterService(
            db,
            clock=lambda: NOW,
            seeds=lambda: 7,
            check_replay=check,
            snapshot_every=snapshot_every,
        )
        self.combat = CombatService(self.encounters, clock=lambda: NOW)
        self.mod = ModerationService(db, self.encounters, self.combat, clock=lambda: NOW)
        self.members = MemberDataService(db, self.encounters, clock=lambda: NOW)

    async def gm(self, make: Any, label: str = "gm", channel: int = CHANNEL) -> Any:
        return await self.combat.gm_command(channel, GM, label, {}, make, action="do that")

    async def fight(self, channel: int = CHANNEL) -> tuple[str, str]:
        await self.encounters.start(
            guild_id=GUILD, channel_id=channel, actor=GM, ruleset="uttas", name="U"
        )
        await self.encounters.join(
            channel, PLAYER, name="Willow", sheet=sheet("Willow", stances=["Steady", "Mobile"])
        )
        await self.encounters.add_npcs(
            channel, GM, template="Thug", sheet=sheet("Thug", stances=["Steady", "Mobile"]), count=1
        )
        willow, thug = (c.id for c in (await self.encounters.live(channel)).state.combatants)
        await self.gm(lambda cur: Begin(), "begin", channel)
        return willow, thug

    async def erase(self, subject: Actor) -> Any:
        preview = await self.members.open_delete(GUILD, CHANNEL, subject, subject.user_id)
        return await self.members.confirm_delete(GUILD, subject, preview.prompt_id)


async def afresh(db: Store, check: bool) -> str:
    """The live state text a service that kept nothing gives (a restart)."""
    return (await Bot(db, check=check).encounters.live(CHANNEL)).state_json


Step = Callable[[Bot, str, str], Awaitable[Any]]


async def _end_turn(bot: Bot, willow: str, thug: str) -> Any:
    return await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn")


async def _stance(bot: Bot, willow: str, thug: str) -> Any:
    async def go() -> Any:
        turn = (await bot.encounters.live(CHANNEL)).state.turn

        def make(cur: Any) -> ChangeStance:
            now = cur.state.find(turn).stance
            return ChangeStance(actor=turn, stance="Mobile" if now == "Steady" else "Steady")

        return await bot.gm(make, "stance")

    return await go()


async def _attack(bot: Bot, willow: str, thug: str, channel: int = CHANNEL) -> Any:
    turn = (await bot.encounters.live(channel)).state.turn
    target = willow if turn == thug else thug
    return await bot.gm(
        lambda cur: Attack(actor=turn, target=target, attack="Sword"), "attack", channel
    )


async def _ids(bot: Bot, channel: int) -> tuple[str, str]:
    willow, thug = (c.id for c in (await bot.encounters.live(channel)).state.combatants)
    return willow, thug


async def _decide(bot: Bot, willow: str, thug: str) -> Any:
    live = await bot.encounters.live(CHANNEL)
    if live.row.pending_version is None:
        return None
    return await bot.combat.decide(live.id, live.row.pending_version, GM, "none")


async def _undo(bot: Bot, willow: str, thug: str) -> Any:
    return await bot.mod.undo(CHANNEL, GM)


async def _redo(bot: Bot, willow: str, thug: str) -> Any:
    return await bot.mod.redo(CHANNEL, GM)


async def _pause_resume(bot: Bot, willow: str, thug: str) -> Any:
    await bot.mod.set_paused(CHANNEL, GM, True)
    return await bot.mod.set_paused(CHANNEL, GM, False)


SCRIPT: list[tuple[str, Step]] = [
    ("endturn", _end_turn),
    ("stance", _stance),
    ("attack", _attack),  # a reaction is pending
    ("decide", _decide),
    ("endturn", _end_turn),
    ("attack", _attack),
    ("undo", _undo),
    ("endturn", _end_turn),  # after an undo, more commands
    ("stance", _stance),
    ("undo", _undo),
    ("redo", _redo),
    ("pause", _pause_resume),
    ("attack", _attack),
    ("decide", _decide),
    ("endturn", _end_turn),
    ("endturn", _end_turn),
]


@pytest.mark.parametrize("snapshot_every", [1, 2, 3, 50])
@pytest.mark.parametrize("check", [True, False])
async def test_a_restart_at_every_point_gives_the_state_committed(
    db: Database, snapshot_every: int, check: bool
) -> None:
    bot = Bot(db, snapshot_every=snapshot_every, check=check)
    willow, thug = await bot.fight()
    for label, step in SCRIPT:
        await step(bot, willow, thug)
        held = (await bot.encounters.live(CHANNEL)).state_json
        assert await afresh(db, check) == held, label
        assert await afresh(db, not check) == held, label
    # A restarted bot ends the fight with the state it rebuilt: the row and the log keep it.
    ended = await Bot(db, check=check).encounters.end((await bot.encounters.live(CHANNEL)).id, GM)
    async with db.read() as conn:
        row = await conn.fetch_one("SELECT state, state_version FROM encounters")
        last = await conn.fetch_one("SELECT state FROM encounter_log ORDER BY version DESC")
    assert row is not None and last is not None and row["state_version"] is None
    assert row["state"].rstrip(" ") == last["state"] == held == ended.state_json


async def test_play_goes_on_in_turns_between_two_processes_on_one_database(
    store_twice: list[Store],
) -> None:
    """Two processes (on PostgreSQL as on SQLite) take turns on one channel; each builds on the
    state the other left, rebuilt from the stored state and the log."""
    first, second = Bot(store_twice[0], check=False), Bot(store_twice[1], check=False)
    willow, thug = await first.fight()
    bots = [first, second]
    for i, (label, step) in enumerate(SCRIPT):
        bot = bots[i % 2]
        await step(bot, willow, thug)
        held = (await bot.encounters.live(CHANNEL)).state_json
        other = bots[(i + 1) % 2]
        assert (await other.encounters.live(CHANNEL)).state_json == held, label
        assert await afresh(store_twice[1], True) == held, label


@pytest.mark.parametrize(("size", "idle"), [(1, 900.0), (128, 0.0)])
async def test_an_evicted_cache_reads_stale_rows_and_replays(
    db: Database, monkeypatch: pytest.MonkeyPatch, size: int, idle: float
) -> None:
    """Parsed states let go (one kept; or none, every one idle at once): each command reads the
    row whose stored state is behind and replays the log."""
    monkeypatch.setattr(encounters_module, "STATE_CACHE_SIZE", size)
    monkeypatch.setattr(encounters_module, "STATE_IDLE_S", idle)
    bot = Bot(db, check=False)
    willow, thug = await bot.fight()
    other_channel = CHANNEL + 1
    await bot.encounters.start(
        guild_id=GUILD, channel_id=other_channel, actor=GM, ruleset="uttas", name="V"
    )
    for label, step in SCRIPT:
        await step(bot, willow, thug)
        await bot.encounters.live(other_channel)  # evicts CHANNEL's parsed state
        held = (await bot.encounters.live(CHANNEL)).state_json
        assert await afresh(db, True) == held, label


async def test_erasing_a_member_named_only_since_the_stored_state_scrubs_the_live_state(
    store: Store,
) -> None:
    """A member mentioned in what a command wrote into the fight (a readied action's plan) after
    the stored state's version: the erasure finds the encounter and the live state — in memory,
    after a restart and once the next snapshot is written — no longer names them."""
    bot = Bot(store)
    willow, thug = await bot.fight()
    live = await bot.encounters.live(CHANNEL)
    if live.state.turn != willow:
        await _end_turn(bot, willow, thug)
    plan = f"strike when <@{OTHER.user_id}> gives the signal"
    await bot.gm(lambda cur: Ready(actor=willow, trigger="action", watch=thug, plan=plan), "ready")
    live = await bot.encounters.live(CHANNEL)
    assert live.row.state_version is not None  # the stored state is behind
    assert str(OTHER.user_id) in live.state_json
    await bot.erase(OTHER)
    held = (await bot.encounters.live(CHANNEL)).state_json
    assert str(OTHER.user_id) not in held
    assert await afresh(store, True) == held  # a restart gives what this process holds
    await _end_turn(bot, willow, thug)
    await bot.encounters.join(
        CHANNEL, Actor(user_id=1577024854106832111), name="Ash", sheet=sheet("Ash")
    )  # rewrites the stored state
    async with store.read() as conn:
        row = await conn.fetch_one("SELECT state FROM encounters")
    assert row is not None and str(OTHER.user_id) not in row["state"]


async def test_one_encounter_that_cannot_be_rebuilt_hides_no_other_channels_decisions(
    db: Database,
) -> None:
    """Recovering the decisions left without a prompt (after a restart) and finding the
    reminders due read every such encounter; one whose log cannot rebuild its state (damaged)
    is left out — its own commands say why — and the other channels' are still looked at."""
    bot = Bot(db)
    ids = []
    for channel in (CHANNEL, CHANNEL + 1):
        await bot.fight(channel)
        while (await bot.encounters.live(channel)).state.pending is None:
            await _attack(bot, *await _ids(bot, channel), channel=channel)
        ids.append((await bot.encounters.live(channel)).id)
    restarted = Bot(db)
    assert sorted(e.id for e in await restarted.encounters.unprompted()) == sorted(ids)
    damaged = (await bot.encounters.live(CHANNEL)).row
    assert damaged.state_version is not None
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM encounter_log WHERE encounter_id = ? AND version = ?",
            (damaged.id, damaged.version),
        )
    after = Bot(db)
    assert [e.id for e in await after.encounters.unprompted()] == [ids[1]]
    reminders = Reminders(
        after.encounters, MemberSettingsService(db, clock=lambda: NOW), clock=lambda: NOW
    )
    await reminders.due()  # the other channel's windows are still looked at


async def test_a_row_behind_of_rules_a_newer_bot_froze_is_refused_not_replayed_by_others(
    db: Database,
) -> None:
    """A newer bot's encounter (rules of a version this bot does not know) whose stored state is
    behind: its changes since can only be replayed by the rules they were made with, so this
    bot says so (:class:`RulesVersionUnknown`) instead of replaying them by its own rules — a
    refusal, or worse a different state it would show and end the fight with."""
    started = await Bot(db).encounters.start(
        guild_id=GUILD, channel_id=CHANNEL, actor=GM, ruleset="uttas", name="U"
    )
    assert started.row.rules is not None
    frozen = json.loads(started.row.rules)
    frozen["tables"]["stances"]["Braced"] = frozen["tables"]["stances"]["Steady"]
    frozen["tables"]["universal_stances"].append("Braced")
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE encounters SET rules = ? WHERE id = ?", (json.dumps(frozen), started.id)
        )
    bot = Bot(db)
    await bot.encounters.join(CHANNEL, PLAYER, name="Willow", sheet=sheet("Willow"))
    await bot.encounters.add_npcs(CHANNEL, GM, template="Thug", sheet=sheet("Thug"), count=1)
    await bot.gm(lambda cur: Begin(), "begin")
    turn = (await bot.encounters.live(CHANNEL)).state.turn
    await bot.gm(lambda cur: ChangeStance(actor=turn, stance="Braced"), "stance")
    committed = await bot.encounters.live(CHANNEL)
    assert committed.row.state_version is not None
    async with db.transaction() as conn:  # as if a newer bot had frozen them: version 99
        await conn.execute(
            "UPDATE encounters SET rules = ? WHERE id = ?",
            (json.dumps(frozen | {"version": 99}), started.id),
        )
    with pytest.raises(RulesVersionUnknown, match="newer bot"):
        await Bot(db).encounters.live(CHANNEL)


async def test_erasing_a_member_named_in_the_log_since_the_stored_state_keeps_the_state(
    store: Store,
) -> None:
    """A member mentioned in what a combatant said (a Talk: its words count against the round's
    25, in the state) since the stored state's version: scrubbing the log replaces the mention
    with more words, so the live row must not be rebuilt from the scrubbed log — a restart gives
    the state committed, and the fight goes on (24 words said became 26: over the limit)."""
    bot = Bot(store)
    willow, thug = await bot.fight()
    words = " ".join(["word"] * 23) + f" <@{OTHER.user_id}>"
    await bot.gm(lambda cur: Talk(actor=willow, text=words), "talk")
    held = await bot.encounters.live(CHANNEL)
    assert held.row.state_version is not None  # the stored state is behind
    assert str(OTHER.user_id) not in held.state_json  # what was said is in the log only
    await bot.erase(OTHER)
    after = (await bot.encounters.live(CHANNEL)).state_json
    assert after == held.state_json
    assert await afresh(store, True) == after  # a restart gives what was committed
    await _end_turn(Bot(store), willow, thug)  # and play goes on


async def test_an_encounter_its_log_cannot_rebuild_does_not_stop_a_members_erasure(
    db: Database,
) -> None:
    """Erasing looks at every live encounter whose stored state is behind (what it names since
    is in the log only); one whose log cannot rebuild it (damaged) is left as it is, and the
    member is still erased everywhere else."""
    bot = Bot(db)
    await bot.fight(CHANNEL)  # PLAYER plays Willow here
    await bot.encounters.start(
        guild_id=GUILD, channel_id=CHANNEL + 1, actor=GM, ruleset="uttas", name="V"
    )
    await bot.encounters.add_npcs(CHANNEL + 1, GM, template="Thug", sheet=sheet("Thug"), count=2)
    await bot.gm(lambda cur: Begin(), "begin", CHANNEL + 1)
    said = f"<@{PLAYER.user_id}> is next"  # the member is named in its log, behind the row
    await bot.gm(lambda cur: Talk(actor=cur.state.turn, text=said), "talk", CHANNEL + 1)
    await bot.gm(lambda cur: EndTurn(actor=cur.state.turn), "endturn", CHANNEL + 1)
    damaged = (await bot.encounters.live(CHANNEL + 1)).row
    assert damaged.state_version is not None
    async with db.transaction() as conn:
        await conn.execute(
            "DELETE FROM encounter_log WHERE encounter_id = ? AND version = ?",
            (damaged.id, damaged.version),
        )
    report = await Bot(db).erase(PLAYER)
    assert [r.combatants for r in report.released] == [["Willow"]]
